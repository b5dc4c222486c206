"""What a tracked vessel's AIS track means for its shipments: port calls, events and the ETA.

Only vessels carrying tracked shipments (``pod_vessel`` of a shipment still tracked) are
followed. Entering the port of discharge records ``container.transport.vessel_arrived`` and
leaving the port of lading (no transshipment) ``container.transport.vessel_departed``, each
with ``data_source: ais``, once. At sea the arrival is re-estimated with the routing engine
(the route kept per vessel: :mod:`.remaining`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...routing.errors import UnknownPortError
from ...routing.ports import get_port
from ...store.models import Shipment, VesselPortCall
from ...tracking.changes import (
    SHIPMENT_STATE_COLUMNS,
    ArrivalEstimate,
    ShipmentState,
    record_arrival_estimates,
    record_vessel_event,
)
from .portareas import PortAreas
from .remaining import RemainingDistances
from .reports import PositionReport
from .storage import among, as_datetime, parts

ARRIVED = "container.transport.vessel_arrived"
DEPARTED = "container.transport.vessel_departed"


@dataclass(frozen=True, slots=True)
class FollowRules:
    """Port areas, how often the ETA is recomputed (AIS time) and by how much it must move."""

    areas: PortAreas = field(default_factory=PortAreas)
    eta_interval_s: float = 600.0
    eta_threshold: timedelta = timedelta(minutes=30)
    #: Speed assumed when the vessel reports none or under 1 kn (DESIGN's service speed).
    service_speed_kn: float = 14.0


@dataclass
class FollowReport:
    """What following the tracked vessels did in one batch."""

    arrivals: int = 0
    departures: int = 0
    events: int = 0
    estimates: int = 0


def carried_shipments(
    session: Session, vessel_ids: Sequence[str]
) -> dict[str, list[ShipmentState]]:
    """The shipments still tracked that each of ``vessel_ids`` carries (vessels carrying none
    are left out): one query for them all on PostgreSQL, by the partial index of tracked
    shipments by vessel, read as plain values (no ORM object for each)."""
    carried: dict[str, list[ShipmentState]] = {}
    connection = session.connection()  # plain rows: no ORM processing of each
    for part in parts(session, sorted(vessel_ids)):
        found = connection.execute(
            select(*SHIPMENT_STATE_COLUMNS, Shipment.pod_vessel_id)
            .where(
                Shipment.tracking_stopped_at.is_(None),
                among(session, Shipment.pod_vessel_id, part),
            )
            .order_by(Shipment.id)
        ).all()  # fetched at once: row by row costs more than the query
        for *values, vessel_id in found:
            carried.setdefault(vessel_id, []).append(ShipmentState.of(values))
    return carried


def open_calls(session: Session, vessel_ids: Sequence[str]) -> dict[str, VesselPortCall]:
    """Each vessel's open port call (not departed), for those in a port area."""
    calls: dict[str, VesselPortCall] = {}
    for part in parts(session, sorted(vessel_ids)):
        found = session.scalars(
            select(VesselPortCall)
            .where(
                VesselPortCall.departed_at.is_(None), among(session, VesselPortCall.vessel_id, part)
            )
            .order_by(VesselPortCall.id)
        )
        for call in found:
            calls.setdefault(call.vessel_id, call)
    return calls


class VesselFollower:
    """Follows tracked vessels point by point; remembers when each one's ETA was last computed."""

    def __init__(self, rules: FollowRules) -> None:
        self.rules = rules
        self._eta_at: dict[str, float] = {}
        self._remaining = RemainingDistances()

    def follow_batch(
        self,
        session: Session,
        points: dict[str, list[PositionReport]],
        previous: dict[str, tuple[float, float] | None],
        now: datetime,
        out: FollowReport,
    ) -> None:
        """Follow each vessel of a batch that carries tracked shipments through its new
        ``points`` (``previous``: where each was before them).

        The batch's shipments and open port calls are read in one query each, whatever the
        number of vessels, and the estimates of all its vessels are recorded together at the
        end (three statements, :func:`~sealane.tracking.changes.record_arrival_estimates`).
        """
        carried = carried_shipments(session, list(points))
        if not carried:
            return
        calls = open_calls(session, list(carried))
        estimates: list[ArrivalEstimate] = []
        for vessel_id, shipments in carried.items():
            self.follow(
                session,
                _Vessel(vessel_id, shipments, calls.get(vessel_id)),
                points[vessel_id],
                previous[vessel_id],
                _Out(now, out, estimates),
            )
        out.estimates += record_arrival_estimates(
            session, estimates, data_source="ais", threshold=self.rules.eta_threshold, now=now
        )

    def follow(
        self,
        session: Session,
        vessel: _Vessel,
        points: list[PositionReport],
        previous: tuple[float, float] | None,
        into: _Out,
    ) -> None:
        """Process a vessel's newly stored ``points`` in time order.

        ``previous`` is the vessel's position (lon, lat) before these points, None if it had
        none: a vessel found in a port it was already in (or first seen there) opens the call
        without an arrival event, since when it arrived is not known. Its estimates go to
        ``into``, recorded after the batch's other changes (an arrival in the batch ends them).
        """
        vessel_id, shipments, call = vessel.vessel_id, vessel.shipments, vessel.call
        now, out = into.now, into.report
        ports = {s.port_of_lading_locode for s in shipments} | {
            s.port_of_discharge_locode for s in shipments
        }
        candidates = [p for p in ports if _known(p)]
        areas = self.rules.areas
        for point in points:
            current = call.locode if call is not None else None
            here = areas.locate(point.lon, point.lat, candidates, current)
            if here != current:
                unseen = call is None and (
                    previous is None or areas.locate(*previous, candidates, None) == here
                )
                moved = _Move(vessel_id, point, unseen, now)
                call = self._move(session, moved, call, here, shipments, out)
                _berthing(areas, call, point)
            elif call is not None:
                _berthing(areas, call, point)
            else:
                self._estimate(vessel_id, point, shipments, into.estimates)
            previous = (point.lon, point.lat)

    def _move(
        self,
        session: Session,
        move: _Move,
        call: VesselPortCall | None,
        here: str | None,
        shipments: Sequence[ShipmentState],
        out: FollowReport,
    ) -> VesselPortCall | None:
        """Close the current call and/or open a new one; a first sighting records no events.

        The shipments whose containers get an event are read as ORM objects here (rare: a
        vessel leaving its port of lading or reaching its port of discharge)."""
        at = as_datetime(move.point.time_s)
        if call is not None:
            call.departed_at = at
            out.departures += 1
            for state in shipments:
                if call.locode == state.port_of_lading_locode and not state.transshipment_locodes:
                    shipment = session.get_one(Shipment, state.id)
                    out.events += self._record(session, move, shipment, DEPARTED, call)
                    shipment.pol_atd_at = shipment.pol_atd_at or at
        if here is None:
            return None
        new = VesselPortCall(
            vessel_id=move.vessel_id,
            locode=here,
            arrived_at=at,
            arrival_seen=not move.first_sighting,
        )
        session.add(new)
        session.flush()
        if move.first_sighting:
            return new
        out.arrivals += 1
        for state in shipments:
            if here == state.port_of_discharge_locode and state.pod_ata_at is None:
                shipment = session.get_one(Shipment, state.id)
                out.events += self._record(session, move, shipment, ARRIVED, new)
                shipment.pod_ata_at = shipment.pod_eta_at = at
                state.pod_ata_at = state.pod_eta_at = at  # no estimate after it
        return new

    @staticmethod
    def _record(
        session: Session, move: _Move, shipment: Shipment, event: str, call: VesselPortCall
    ) -> int:
        """The event for every container of the shipment; the call's id, negated, as sequence."""
        return record_vessel_event(
            session,
            shipment,
            event,
            call.locode,
            as_datetime(move.point.time_s),
            vessel_id=move.vessel_id,
            sequence=-call.id,
            data_source="ais",
            now=move.now,
        )

    def _estimate(
        self,
        vessel_id: str,
        point: PositionReport,
        shipments: Sequence[ShipmentState],
        estimates: list[ArrivalEstimate],
    ) -> None:
        """Re-estimate the arrival of the shipments it carries, every ``eta_interval_s``."""
        last = self._eta_at.get(vessel_id)
        if last is not None and point.time_s - last < self.rules.eta_interval_s:
            return
        self._eta_at[vessel_id] = point.time_s
        speed = point.speed_kn if point.speed_kn is not None and point.speed_kn >= 1.0 else None
        speed_kn = speed or self.rules.service_speed_kn
        at = as_datetime(point.time_s)
        hours: dict[str, float | None] = {}
        for shipment in shipments:
            pod = shipment.port_of_discharge_locode
            if shipment.pod_ata_at is not None or not _known(pod):
                continue
            if pod not in hours:
                hours[pod] = self._remaining.hours(vessel_id, point.lon, point.lat, pod, speed_kn)
            remaining = hours[pod]
            if remaining is None:
                continue
            estimates.append(ArrivalEstimate(shipment, at + timedelta(hours=remaining), vessel_id))


@dataclass(frozen=True, slots=True)
class _Out:
    """Where a batch's following goes: the wall clock's time, the counts, the estimates."""

    now: datetime
    report: FollowReport
    estimates: list[ArrivalEstimate]


@dataclass(frozen=True, slots=True)
class _Vessel:
    """A followed vessel: its id, the tracked shipments it carries, its open port call."""

    vessel_id: str
    shipments: list[ShipmentState]
    call: VesselPortCall | None


@dataclass(frozen=True, slots=True)
class _Move:
    """The point at which a vessel's port area changed, and whether it was the first seen."""

    vessel_id: str
    point: PositionReport
    first_sighting: bool
    now: datetime


def _berthing(areas: PortAreas, call: VesselPortCall | None, point: PositionReport) -> None:
    """Mark when a vessel whose arrival was seen first comes within the berth radius."""
    if call is None or not call.arrival_seen or call.berthed_at is not None:
        return
    if areas.at_berth(call.locode, point.lon, point.lat):
        call.berthed_at = as_datetime(point.time_s)


@lru_cache(maxsize=4096)
def _known(locode: str) -> bool:
    """Whether the engine knows port ``locode`` (asked once per code: the registry does not
    change while a process runs, and every estimate asks for each shipment)."""
    try:
        get_port(locode)
    except UnknownPortError:
        return False
    return True

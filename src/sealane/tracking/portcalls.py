"""Each container's port calls (route locations), kept in step with its carrier and its events.

The carrier's plan says where the container calls (port of lading, transshipments, port of
discharge) and on which vessel and voyage each leg sails; its snapshot says when it expects each
arrival and departure. The container's own transport events say when they happened: an arrival or
departure recorded at a port (by the carrier or by AIS) is that call's actual time, and it
replaces the estimate, which is cleared.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import Container, RouteLocation, Shipment, TransportEvent, Vessel
from ..vocabulary.events import TRANSPORT
from .carriers.base import CallEstimate, PlannedLeg, ShipmentPlan, Snapshot

#: Transport events that date a container's arrival at, and departure from, a port.
ARRIVALS = frozenset(f"{TRANSPORT}{kind}_arrived" for kind in ("vessel", "transshipment", "feeder"))
DEPARTURES = frozenset(
    f"{TRANSPORT}{kind}_departed" for kind in ("vessel", "transshipment", "feeder")
)


@dataclass(frozen=True, slots=True)
class Actual:
    """An arrival (``arrived``) or departure at ``locode``, at ``at`` (UTC)."""

    locode: str
    arrived: bool
    at: datetime


def sync_port_calls(
    session: Session,
    shipment: Shipment,
    snapshot: Snapshot,
    containers: Sequence[Container | None],
    vessels: Sequence[Vessel],
    now: datetime,
) -> None:
    """Create or update the route locations of every container of ``shipment`` from the plan
    in ``snapshot`` and the containers' recorded events; ``vessels`` are the legs' vessels.
    A row changes (and its ``updated_at``) only when one of its values does."""
    present = {c.id: c for c in containers if c is not None}
    plan = snapshot.plan
    estimates = snapshot.call_estimates or planned_estimates(plan.legs)
    rows: dict[tuple[str, int], RouteLocation] = {
        (row.container_id, row.sequence): row
        for row in session.scalars(
            select(RouteLocation).where(RouteLocation.shipment_id == shipment.id)
        )
    }
    actuals = _actuals(session, shipment.id) if present else {}
    for container in present.values():
        calls = call_values(plan, estimates, vessels, actuals.get(container.id, []), container)
        for sequence, values in enumerate(calls, start=1):
            row = rows.pop((container.id, sequence), None)
            if row is None:
                session.add(
                    RouteLocation(
                        account_id=shipment.account_id,
                        shipment_id=shipment.id,
                        container_id=container.id,
                        sequence=sequence,
                        created_at=now,
                        updated_at=now,
                        **values,
                    )
                )
            elif any(getattr(row, name) != value for name, value in values.items()):
                for name, value in values.items():
                    setattr(row, name, value)
                row.updated_at = now
    for (container_id, _sequence), stale in rows.items():
        if container_id in present:  # the carrier no longer plans this call
            session.delete(stale)


def planned_estimates(legs: Sequence[PlannedLeg]) -> tuple[CallEstimate, ...]:
    """Estimates from the legs' planned times, for a carrier that states none of its own."""
    arrivals = [None, *(leg.arrive_at for leg in legs)]
    departures = [*(leg.depart_at for leg in legs), None]
    return tuple(CallEstimate(a, d) for a, d in zip(arrivals, departures, strict=True))


def call_values(
    plan: ShipmentPlan,
    estimates: Sequence[CallEstimate],
    vessels: Sequence[Vessel],
    actuals: Sequence[Actual],
    container: Container,
) -> list[dict[str, Any]]:
    """The values of each port call of one container, in order."""
    legs, scac = plan.legs, plan.scac
    ports = [legs[0].origin, *(leg.destination for leg in legs)]
    found = []
    used: set[int] = set()
    for index, locode in enumerate(ports):
        first, last = index == 0, index == len(ports) - 1
        estimate = estimates[index] if index < len(estimates) else CallEstimate(None, None)
        ata = None if first else _actual(actuals, locode, True, estimate.arrival_at, used)
        atd = None if last else _actual(actuals, locode, False, estimate.departure_at, used)
        values: dict[str, Any] = {
            "port_locode": locode,
            "terminal_id": container.pod_terminal_id if last else None,
            "inbound_eta_at": None if ata is not None else estimate.arrival_at,
            "inbound_ata_at": ata,
            "outbound_etd_at": None if atd is not None else estimate.departure_at,
            "outbound_atd_at": atd,
        }
        values |= _leg_values(
            "inbound", None if first else legs[index - 1], scac, vessels, index - 1
        )
        values |= _leg_values("outbound", None if last else legs[index], scac, vessels, index)
        found.append(values)
    return found


def _leg_values(
    side: str, leg: PlannedLeg | None, scac: str, vessels: Sequence[Vessel], index: int
) -> dict[str, Any]:
    """Mode, carrier, vessel and voyage of the leg arriving (``inbound``) or leaving."""
    return {
        f"{side}_mode": "vessel" if leg else None,
        f"{side}_scac": scac if leg else None,
        f"{side}_vessel_id": vessels[index].id if leg and index < len(vessels) else None,
        f"{side}_voyage_number": leg.voyage_number if leg else None,
    }


def _actual(
    actuals: Sequence[Actual],
    locode: str,
    arrived: bool,
    expected: datetime | None,
    used: set[int],
) -> datetime | None:
    """The time of the recorded arrival (departure) at ``locode`` not yet given to another call;
    when a port is called at twice, the one nearest ``expected``."""
    candidates = [
        (i, actual)
        for i, actual in enumerate(actuals)
        if i not in used and actual.locode == locode and actual.arrived == arrived
    ]
    if not candidates:
        return None
    if expected is not None:
        candidates.sort(key=lambda item: abs(item[1].at - expected))
    index, chosen = candidates[0]
    used.add(index)
    return chosen.at


def _actuals(session: Session, shipment_id: str) -> dict[str, list[Actual]]:
    """Every container's recorded arrivals and departures, in time order."""
    query = (
        select(
            TransportEvent.container_id,
            TransportEvent.event,
            TransportEvent.location_locode,
            TransportEvent.timestamp,
        )
        .where(
            TransportEvent.shipment_id == shipment_id,
            TransportEvent.event.in_(sorted(ARRIVALS | DEPARTURES)),
        )
        .order_by(TransportEvent.timestamp, TransportEvent.id)
    )
    found: dict[str, list[Actual]] = defaultdict(list)
    for container_id, event, locode, at in session.execute(query):
        if locode:
            found[container_id].append(Actual(locode, event in ARRIVALS, at))
    return found

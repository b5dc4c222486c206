"""Vessels, and the paid routing feature: a vessel's estimated future positions."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy import select

from ...clock import utc_iso
from ...routing.ports import Port
from ...routing.positions import Positions
from ...routing.vessel import Vessel as Dimensions
from ...routing.voyage import future_positions
from ...store.models import Vessel, VesselPosition
from ...store.vessels import find_vessel
from ...vocabulary.vessels import VesselRecord
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.engine import MAX_SPEED_KN, NO_VESSEL, VesselSize, sized_call
from ..core.errors import InvalidInput, ObjectNotFound, Unprocessable
from ..core.paging import Page, PageRequest
from ..core.queries import contains_text, fetch_page, plausible_key
from .convert import vessel_record
from .ports import port_by_key
from .records import RecordedPosition
from .vessel_speed import SpeedChoice, choose_speed
from .voyages import GIVEN, known_voyage

#: Recorded positions shown when no window is given, and the longest window served.
DEFAULT_WINDOW = timedelta(days=7)
MAX_WINDOW = timedelta(days=31)


def list_vessels(
    ctx: ServiceContext, page: PageRequest, *, name: str | None = None, imo: str | None = None
) -> Page[VesselRecord]:
    """Vessels by name, filtered by name (case-insensitive substring) or IMO number."""
    query = select(Vessel)
    if name:
        query = query.where(contains_text(Vessel.name, name))
    if imo:
        query = query.where(Vessel.imo == imo)
    with ctx.reading() as session:
        total, rows = fetch_page(session, query.order_by(Vessel.name, Vessel.id), page)
    return Page(tuple(vessel_record(row) for row in rows), total, page)


def get_vessel(ctx: ServiceContext, key: str) -> VesselRecord:
    """One vessel by id or IMO number, with its latest known position."""
    vessel = find_vessel(ctx.engine, key) if plausible_key(key) else None
    if vessel is None:
        raise ObjectNotFound("vessel", key, by="id or IMO")
    return vessel


def vessel_positions(
    ctx: ServiceContext,
    key: str,
    *,
    start: datetime | None = None,
    end: datetime | None = None,
) -> tuple[VesselRecord, tuple[RecordedPosition, ...]]:
    """A vessel with the positions it reported from ``start`` to ``end`` (inclusive; default:
    the :data:`DEFAULT_WINDOW` up to now), oldest first; windows over :data:`MAX_WINDOW` are
    refused so one answer stays bounded."""
    end = end or ctx.clock.now()
    if start is None:
        try:
            start = end - DEFAULT_WINDOW
        except OverflowError:  # an end in the first days of year 1
            start = datetime.min.replace(tzinfo=UTC)
    if start > end:
        raise InvalidInput("the window starts after it ends", field="positions_from")
    if end - start > MAX_WINDOW:
        raise InvalidInput(
            f"the window is longer than {MAX_WINDOW.days} days", field="positions_from"
        )
    vessel = get_vessel(ctx, key)
    query = (
        select(VesselPosition)
        .where(
            VesselPosition.vessel_id == vessel.id,
            VesselPosition.timestamp >= start,
            VesselPosition.timestamp <= end,
        )
        .order_by(VesselPosition.timestamp, VesselPosition.id)
    )
    with ctx.reading() as session:
        positions = tuple(
            RecordedPosition(
                longitude=row.longitude,
                latitude=row.latitude,
                heading_degrees=row.heading_degrees,
                speed_knots=row.speed_knots,
                timestamp=row.timestamp,
            )
            for row in session.scalars(query)
        )
    return vessel, positions


@dataclass(frozen=True, slots=True)
class FutureVoyage:
    """A vessel's estimated positions, with the ports and dimensions they were computed for."""

    vessel: VesselRecord
    positions: Positions
    previous_port: Port
    destination_port: Port
    #: Where each port came from (:data:`.voyages.GIVEN`, ``tracked_shipment``, ...), by
    #: parameter name (``previous_port_id``, ``port_id``).
    sources: dict[str, str]
    shipment_id: str | None
    size: VesselSize
    #: The speed sailed at and where it came from.
    speed: SpeedChoice

    def meta(self) -> dict[str, Any]:
        """What the answer's ``meta`` says: the ports used and where they came from, the
        vessel dimensions the route was computed for, the speed sailed at and its source, and
        the ETA with its range (P10, P90)."""
        found = set(self.sources.values())
        meta: dict[str, Any] = {
            "ports_source": found.pop() if len(found) == 1 else "mixed",
            "previous_port": _port_meta(self.previous_port, self.sources["previous_port_id"]),
            "port": _port_meta(self.destination_port, self.sources["port_id"]),
        }
        if self.shipment_id is not None:
            meta["shipment_id"] = self.shipment_id
        meta["vessel_dimensions"] = self.size.meta()
        meta["speed"] = self.speed.meta()
        meta |= eta_meta(self.positions)
        return meta


def eta_meta(positions: Positions) -> dict[str, str]:
    """The ETA and its range (P10, P90) as an answer's ``meta`` carries them, ISO 8601 UTC to
    the second (the ETA as the last position's timestamp reads)."""
    p10, p90 = positions.eta_range
    return {
        "eta": positions.timestamps()[-1],
        "eta_p10": utc_iso(p10),
        "eta_p90": utc_iso(p90),
    }


def vessel_future_positions(
    ctx: ServiceContext,
    caller: Caller,
    vessel_key: str,
    *,
    previous_port: str | None = None,
    destination_port: str | None = None,
    start: tuple[float, float] | None = None,
    given: Dimensions = NO_VESSEL,
    speed_kn: float | None = None,
) -> FutureVoyage:
    """The vessel and its positions one minute apart from ``start`` (lon, lat; None: its last
    known position) to the destination, at ``speed_kn`` or, when not given, at its own speed
    (:func:`.vessel_speed.choose_speed`: observed at sea, else reported, else the default;
    blocking: database and CPU).

    A port not given is the one sealane knows of the vessel's voyage (see :mod:`.voyages`); a
    dimension the caller did not give in ``given`` (checked by the shell:
    :func:`~..core.engine.given_vessel`) is the one the vessel reported, if any (set aside when
    no route takes it: :func:`~..core.engine.sized_call`). Checked in this order: routing
    feature (403), unknown vessel (404), no known position (422), a port neither given nor known
    (422), an unknown port (422, naming ``previous_port_id`` or ``port_id``), a speed out of
    1-60 kn (400 naming ``speed_kn``), then the engine's own refusals (422
    :class:`~..core.errors.CannotRoute`: a start on land, no sea route, a passage too small).
    """
    caller.require_routing()
    vessel = get_vessel(ctx, vessel_key)
    if start is None:
        if vessel.latitude is None or vessel.longitude is None:
            raise Unprocessable(f"vessel {vessel.id} has no known position yet", code="no_position")
        start = (vessel.longitude, vessel.latitude)
    size = reported_size(VesselSize.given(given), vessel)
    keys = {"port_id": destination_port, "previous_port_id": previous_port}
    sources = {name: GIVEN for name, key in keys.items() if key is not None}
    shipment_id = None
    if len(sources) < len(keys):
        with ctx.reading() as session:
            voyage = known_voyage(session, caller.account_id, vessel.id)
        known = {
            "previous_port_id": voyage.previous_locode if voyage else None,
            "port_id": voyage.next_locode if voyage else None,
        }
        for name in [name for name in keys if name not in sources]:
            if voyage is None or known[name] is None:
                raise Unprocessable(_unknown(vessel.id, name), code="unknown_voyage", field=name)
            keys[name], sources[name] = known[name], voyage.source
        shipment_id = voyage.shipment_id if voyage else None
    previous = port_by_key(str(keys["previous_port_id"]), field="previous_port_id")
    destination = port_by_key(str(keys["port_id"]), field="port_id")
    check_speed(speed_kn)
    now = ctx.clock.now()
    with ctx.reading() as session:
        speed = choose_speed(
            session,
            vessel.id,
            now=now,
            given_kn=speed_kn,
            reported_kn=vessel.nautical_speed_knots,
        )
    sail = partial(
        future_positions, start, previous, destination, speed_kn=speed.knots, start_time=now
    )
    positions, size = sized_call(sail, size)
    positions = replace(positions, speed_source=speed.source, speed_variability=speed.variability)
    return FutureVoyage(vessel, positions, previous, destination, sources, shipment_id, size, speed)


def check_speed(speed_kn: float | None) -> None:
    """A caller's speed is a finite number of knots from 1 to :data:`MAX_SPEED_KN`, or none."""
    if speed_kn is None:
        return
    if not (math.isfinite(speed_kn) and 1.0 <= speed_kn <= MAX_SPEED_KN):
        raise InvalidInput(
            f"speed_kn must be from 1 to {MAX_SPEED_KN:g} knots, got {speed_kn!r}",
            field="speed_kn",
        )


def reported_size(size: VesselSize, vessel: VesselRecord) -> VesselSize:
    """``size`` with the dimensions ``vessel`` reported where the caller gave none."""
    return size.filled(
        draft_m=vessel.draught_m,
        beam_m=vessel.beam_m,
        length_m=vessel.length_m,
        by=vessel.dimensions_source,
    )


def _unknown(vessel_id: str, name: str) -> str:
    what = "the port it last left" if name == "previous_port_id" else "the next port it calls"
    return (
        f"give {name}: sealane does not know {what} (vessel {vessel_id} carries no shipment "
        "you track on a voyage not yet arrived, and no port is known from AIS)"
    )


def _port_meta(port: Port, source: str) -> dict[str, str]:
    return {"id": port.id, "locode": port.locode, "name": port.name, "source": source}

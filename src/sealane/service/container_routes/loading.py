"""Reading a container's route: its calls with their vessels in one statement, and the vessels'
recorded positions over the legs sailed in one more.

The container, its calls and the vessels they name come from one outer join filtered on the
caller's account, so an unknown container and another account's both read nothing (not found),
and a container with no calls yet reads one row of its own.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from sqlalchemy import Row, Table, bindparam, select
from sqlalchemy.orm import Session

from ...store.models import Container, RouteLocation, Vessel, VesselPosition
from ...store.vessels import STATIC_FIELDS
from ...vocabulary.vessels import VesselRecord
from ..core.errors import ObjectNotFound
from ..core.queries import plausible_key
from ..reference.ports import known_port
from .map_features import current_leg
from .past_track import ReportedTrack, reported_track
from .records import RouteLocationRecord

_CONTAINERS: Table = Container.__table__  # type: ignore[assignment]
_CALLS: Table = RouteLocation.__table__  # type: ignore[assignment]
_VESSELS: Table = Vessel.__table__  # type: ignore[assignment]
_POSITIONS: Table = VesselPosition.__table__  # type: ignore[assignment]
_INBOUND, _OUTBOUND = _VESSELS.alias("inbound_vessel"), _VESSELS.alias("outbound_vessel")
#: Columns of a vessel record, in :class:`VesselRecord` order.
_VESSEL_FIELDS = (
    "id",
    "name",
    "imo",
    "mmsi",
    "latitude",
    "longitude",
    "nautical_speed_knots",
    "navigational_heading_degrees",
    "position_timestamp",
    *STATIC_FIELDS,
)
#: Namespace of route ids: a route's id is the uuid5 of its container's id in it.
ROUTE_NAMESPACE = uuid.UUID("5b0e7c2a-51c3-4b8e-9d0f-3a7c4e1d2f60")
_QUERY = (
    select(
        _CONTAINERS.c.shipment_id.label("container_shipment_id"),
        _CONTAINERS.c.created_at.label("container_created_at"),
        _CONTAINERS.c.updated_at.label("container_updated_at"),
        *_CALLS.c,
        *(_INBOUND.c[name].label(f"in_{name}") for name in _VESSEL_FIELDS),
        *(_OUTBOUND.c[name].label(f"out_{name}") for name in _VESSEL_FIELDS),
    )
    .select_from(
        _CONTAINERS.outerjoin(_CALLS, _CALLS.c.container_id == _CONTAINERS.c.id)
        .outerjoin(_INBOUND, _INBOUND.c.id == _CALLS.c.inbound_vessel_id)
        .outerjoin(_OUTBOUND, _OUTBOUND.c.id == _CALLS.c.outbound_vessel_id)
    )
    .where(
        _CONTAINERS.c.id == bindparam("container_id"),
        _CONTAINERS.c.account_id == bindparam("account_id"),
    )
    .order_by(_CALLS.c.sequence)
)
_P = _POSITIONS.c
#: Positions of some vessels over a time span; each leg's window is cut from it afterwards. One
#: statement built once, so its cache key is computed once (not per request).
_POSITIONS_QUERY = (
    select(_P.vessel_id, _P.longitude, _P.latitude, _P.timestamp)
    .where(
        _P.vessel_id.in_(bindparam("vessels", expanding=True)),
        _P.timestamp > bindparam("start"),
        _P.timestamp < bindparam("end"),
    )
    .order_by(_P.timestamp, _P.id)
)


@dataclass(frozen=True, slots=True)
class RouteRows:
    """What one read found: the container's shipment and times, and its calls in order."""

    route_id: str
    shipment_id: str
    created_at: datetime
    updated_at: datetime
    calls: tuple[RouteLocationRecord, ...]


def route_id(container_id: str) -> str:
    """The stable id of a container's route."""
    return str(uuid.uuid5(ROUTE_NAMESPACE, container_id))


def read_route(session: Session, account_id: str, container_id: str) -> RouteRows:
    """The account's container ``container_id`` with its calls and their vessels (one
    statement); :class:`ObjectNotFound` for another account's container or none."""
    rows: Sequence[Row[Any]] = ()
    if plausible_key(container_id):
        keys = {"container_id": container_id, "account_id": account_id}
        rows = session.execute(_QUERY, keys).all()
    if not rows:
        raise ObjectNotFound("container", container_id)
    the_id, first = route_id(container_id), rows[0]._mapping
    calls = tuple(_call(row._mapping, the_id) for row in rows if row.id is not None)
    return RouteRows(
        route_id=the_id,
        shipment_id=first["container_shipment_id"],
        created_at=min((c.created_at for c in calls), default=first["container_created_at"]),
        updated_at=max((c.updated_at for c in calls), default=first["container_updated_at"]),
        calls=calls,
    )


def _call(row: Any, the_route: str) -> RouteLocationRecord:
    port = known_port(row["port_locode"])
    return RouteLocationRecord(
        **{name: row[name] for name in _RECORD_COLUMNS},
        route_id=the_route,
        port=port,
        inbound_vessel=_vessel(row, "in_"),
        outbound_vessel=_vessel(row, "out_"),
    )


def _vessel(row: Any, prefix: str) -> VesselRecord | None:
    if row[f"{prefix}id"] is None:
        return None
    return VesselRecord(*(row[f"{prefix}{name}"] for name in _VESSEL_FIELDS))


_RECORD_COLUMNS = tuple(
    c.name for c in _CALLS.c if c.name not in ("account_id", "shipment_id", "container_id")
)


def recorded_tracks(
    session: Session, calls: Sequence[RouteLocationRecord], now: datetime
) -> dict[int, ReportedTrack]:
    """Each departed leg's recorded vessel positions (by leg index of ``calls``), from its
    departure to its arrival (the leg under way: to the vessel's latest position), in one
    statement; none is read when no leg has departed."""
    windows: dict[int, tuple[str, datetime, datetime]] = {}
    under_way = current_leg(calls)
    for index, (origin, destination) in enumerate(pairwise(calls)):
        vessel, departed = origin.outbound_vessel, origin.outbound_atd_at
        if vessel is None or departed is None:
            continue
        end = destination.inbound_ata_at
        if end is None and index == under_way:
            end = vessel.position_timestamp or now
        if end is not None and end > departed:
            windows[index] = (vessel.id, departed, end)
    if not windows:
        return {}
    spans = windows.values()
    rows = session.execute(
        _POSITIONS_QUERY,
        {
            "vessels": sorted({vessel_id for vessel_id, _, _ in spans}),
            "start": min(start for _, start, _ in spans),
            "end": max(end for _, _, end in spans),
        },
    ).all()
    return {
        index: reported_track(
            [
                (lon, lat, at)
                for vessel, lon, lat, at in rows
                if vessel == vessel_id and start < at < end
            ]
        )
        for index, (vessel_id, start, end) in windows.items()
    }

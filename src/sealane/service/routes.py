"""A container's route (its port calls) and its map: the paid routing feature for containers.

Both use cases check the routing feature first (:class:`~.errors.FeatureDisabled`), then that the
container belongs to the caller's account (:class:`~.errors.NotFound` otherwise, like any
container of another account). The route is read in a fixed number of statements whatever it
holds; the map is computed by the engine after the session is closed.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from datetime import datetime
from itertools import pairwise

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from ..routing.errors import UnknownPortError
from ..routing.ports import get_port
from ..store.models import Container, RouteLocation, Shipment, VesselPosition
from ..store.vessels import VesselRecord
from .access import Caller
from .context import ServiceContext
from .loading import Loader
from .pasttrack import ReportedTrack, reported_track
from .queries import owned
from .records import TerminalRecord
from .route_records import ContainerRoute, MapFeatures, RouteLocationRecord
from .routemap import current_leg, map_features, mappable_calls

#: What ``include`` may name on a route: Terminal49's names (``port``, ``vessel``,
#: ``route_location``), the relationship paths, ``terminal`` and the ``shipment``.
INCLUDES = (
    "port",
    "vessel",
    "terminal",
    "route_location",
    "route_locations",
    "route_locations.location",
    "route_locations.facility",
    "route_locations.inbound_vessel",
    "route_locations.outbound_vessel",
    "shipment",
)
VESSEL_INCLUDES = frozenset(
    {"vessel", "route_locations.inbound_vessel", "route_locations.outbound_vessel"}
)
TERMINAL_INCLUDES = frozenset({"terminal", "route_locations.facility"})
#: Namespace of route ids: a route's id is the uuid5 of its container's id in it.
ROUTE_NAMESPACE = uuid.UUID("5b0e7c2a-51c3-4b8e-9d0f-3a7c4e1d2f60")


def route_id(container_id: str) -> str:
    """The stable id of a container's route."""
    return str(uuid.uuid5(ROUTE_NAMESPACE, container_id))


def container_route(
    ctx: ServiceContext, caller: Caller, container_id: str, includes: Collection[str] = ()
) -> ContainerRoute:
    """The container's port calls in order, with the vessels, terminals and shipment that
    ``includes`` asks for (see :data:`INCLUDES`)."""
    caller.require_routing()
    with ctx.reading() as session:
        container = owned(session, Container, container_id, caller.account_id, "container")
        return load_route(session, container, includes)


def container_map(ctx: ServiceContext, caller: Caller, container_id: str) -> MapFeatures:
    """The container's route as map features: ports with their times, the track sailed (the
    vessels' recorded positions, else the estimated sea lane), the vessel where it was last
    seen, and the legs still to sail on the sea-lane network (blocking: database and CPU)."""
    caller.require_routing()
    with ctx.reading() as session:
        container = owned(session, Container, container_id, caller.account_id, "container")
        route = load_route(session, container, VESSEL_INCLUDES)
        tracks = _recorded_tracks(session, mappable_calls(route.locations), ctx.clock.now())
    return map_features(route, tracks)


def load_route(
    session: Session, container: Container, includes: Collection[str] = ()
) -> ContainerRoute:
    """The route of ``container`` read in at most four statements (calls, vessels, terminals,
    shipment), the last three only when ``includes`` asks for them."""
    rows = list(
        session.scalars(
            select(RouteLocation)
            .where(RouteLocation.container_id == container.id)
            .order_by(RouteLocation.sequence)
        )
    )
    wanted = set(includes)
    loader = Loader(session)
    vessels: dict[str, VesselRecord] = {}
    if wanted & VESSEL_INCLUDES:
        vessels = loader.vessels(
            [r.inbound_vessel_id for r in rows] + [r.outbound_vessel_id for r in rows]
        )
    terminals = loader.terminals(r.terminal_id for r in rows) if wanted & TERMINAL_INCLUDES else {}
    shipment = None
    if "shipment" in wanted:
        parent = session.get(Shipment, container.shipment_id)
        shipment = loader.shipments([parent])[0] if parent is not None else None
    the_id = route_id(container.id)
    locations = tuple(
        _location(row, the_id, vessels, terminals.get(row.terminal_id or "")) for row in rows
    )
    return ContainerRoute(
        id=the_id,
        container_id=container.id,
        shipment_id=container.shipment_id,
        created_at=min((r.created_at for r in rows), default=container.created_at),
        updated_at=max((r.updated_at for r in rows), default=container.updated_at),
        locations=locations,
        shipment=shipment,
    )


def _location(
    row: RouteLocation,
    the_route: str,
    vessels: dict[str, VesselRecord],
    terminal: TerminalRecord | None,
) -> RouteLocationRecord:
    try:
        port = get_port(row.port_locode)
    except UnknownPortError:
        port = None
    return RouteLocationRecord(
        id=row.id,
        route_id=the_route,
        sequence=row.sequence,
        port_locode=row.port_locode,
        port=port,
        terminal_id=row.terminal_id,
        inbound_mode=row.inbound_mode,
        inbound_scac=row.inbound_scac,
        inbound_vessel_id=row.inbound_vessel_id,
        inbound_voyage_number=row.inbound_voyage_number,
        inbound_eta_at=row.inbound_eta_at,
        inbound_ata_at=row.inbound_ata_at,
        outbound_mode=row.outbound_mode,
        outbound_scac=row.outbound_scac,
        outbound_vessel_id=row.outbound_vessel_id,
        outbound_voyage_number=row.outbound_voyage_number,
        outbound_etd_at=row.outbound_etd_at,
        outbound_atd_at=row.outbound_atd_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
        inbound_vessel=vessels.get(row.inbound_vessel_id or ""),
        outbound_vessel=vessels.get(row.outbound_vessel_id or ""),
        terminal=terminal,
    )


def _recorded_tracks(
    session: Session, calls: Sequence[RouteLocationRecord], now: datetime
) -> dict[int, ReportedTrack]:
    """Each departed leg's recorded vessel positions (by leg index), from its departure to its
    arrival (the leg under way: to the vessel's latest position), in one statement."""
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
    query = (
        select(
            VesselPosition.vessel_id,
            VesselPosition.longitude,
            VesselPosition.latitude,
            VesselPosition.timestamp,
        )
        .where(
            or_(
                *(
                    and_(
                        VesselPosition.vessel_id == vessel_id,
                        VesselPosition.timestamp > start,
                        VesselPosition.timestamp < end,
                    )
                    for vessel_id, start, end in windows.values()
                )
            )
        )
        .order_by(VesselPosition.timestamp, VesselPosition.id)
    )
    rows = session.execute(query).all()
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

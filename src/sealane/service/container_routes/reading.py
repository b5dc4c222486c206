"""A container's route (its port calls) and its map: the paid routing feature for containers.

Both use cases check the routing feature first (:class:`~..core.errors.FeatureDisabled`), then
that the container belongs to the caller's account (:class:`~..core.errors.ObjectNotFound`
otherwise, like any container of another account). The route is read in a fixed number of
statements whatever it holds (:mod:`.loading`); the map is computed by the engine after the
session is closed (what it cannot draw: :class:`~..core.errors.CannotRoute`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from sqlalchemy.orm import Session

from ...store.models import Shipment
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.engine import engine_errors
from ..tracking.loading import Loader
from .loading import read_route, recorded_tracks, route_id
from .map_features import map_features, mappable_calls
from .records import ContainerRoute, MapFeatures

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
TERMINAL_INCLUDES = frozenset({"terminal", "route_locations.facility"})

__all__ = ["INCLUDES", "container_map", "container_route", "load_route", "route_id"]


def container_route(
    ctx: ServiceContext, caller: Caller, container_id: str, includes: Collection[str] = ()
) -> ContainerRoute:
    """The container's port calls in order with their vessels, and the terminals and shipment
    that ``includes`` asks for (see :data:`INCLUDES`)."""
    caller.require_routing()
    with ctx.reading() as session:
        return load_route(session, caller.account_id, container_id, includes)


def container_map(ctx: ServiceContext, caller: Caller, container_id: str) -> MapFeatures:
    """The container's route as map features: ports with their times, the track sailed (the
    vessels' recorded positions, else the estimated sea lane), the vessel where it was last
    seen, and the legs still to sail on the sea-lane network (blocking: database and CPU)."""
    caller.require_routing()
    with ctx.reading() as session:
        route = load_route(session, caller.account_id, container_id)
        tracks = recorded_tracks(session, mappable_calls(route.locations), ctx.clock.now())
    with engine_errors():
        return map_features(route, tracks)


def load_route(
    session: Session, account_id: str, container_id: str, includes: Collection[str] = ()
) -> ContainerRoute:
    """The route of the account's container: one statement for the calls and their vessels,
    one more each for the terminals and the shipment when ``includes`` asks for them."""
    found = read_route(session, account_id, container_id)
    calls, wanted, loader = found.calls, set(includes), Loader(session)
    if wanted & TERMINAL_INCLUDES:
        terminals = loader.terminals(call.terminal_id for call in calls)
        calls = tuple(replace(c, terminal=terminals.get(c.terminal_id or "")) for c in calls)
    shipment = None
    if "shipment" in wanted:
        parent = session.get(Shipment, found.shipment_id)
        shipment = loader.shipments([parent])[0] if parent is not None else None
    return ContainerRoute(
        id=found.route_id,
        container_id=container_id,
        shipment_id=found.shipment_id,
        created_at=found.created_at,
        updated_at=found.updated_at,
        locations=calls,
        shipment=shipment,
    )

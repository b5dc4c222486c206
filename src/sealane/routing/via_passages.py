"""Routes through a named passage: a ``via`` entry that names a passage (``route(...,
via=["suez"])``) is sailed by way of a waypoint on one of its lanes.

Of the network's lane edges tagged with the passage, those whose midpoints make the shortest
detour between the stops either side (by great circle) are tried in turn, one per stretch of
lane, and the first whose legs really sail the passage is taken.
"""

from __future__ import annotations

import numpy as np

from .errors import NoRouteError, RoutingError
from .geodesy import MEAN_EARTH_RADIUS_M, unit_vector, unit_vectors
from .graph import SeaGraph
from .legs import LegPath, sail_trimmed
from .locations import Location
from .passages import Passage, parse_passage, passage_mask

#: Waypoints tried for one passage before the route through it is refused.
WAYPOINT_TRIES = 4


def passage_waypoints(
    network: SeaGraph, passage: Passage, before: Location, after: Location
) -> list[Location]:
    """Points on the lanes of ``passage``, best first: the midpoints of its lane edges, by the
    great-circle detour from ``before`` to ``after`` through each (at most
    :data:`WAYPOINT_TRIES`, one per stretch of lane). :class:`NoRouteError` when the network
    has no lane in it."""
    bit = passage_mask([passage], network.passage_names)
    edges = np.flatnonzero(((network.edge_passages & np.uint32(bit)) != 0) & network.edge_snappable)
    if not bit or edges.size == 0:
        raise NoRouteError(f"the network has no lane through {passage.value}")
    u, v = network.edge_u[edges], network.edge_v[edges]
    mids = unit_vectors(network.node_lon[u], network.node_lat[u])
    mids += unit_vectors(network.node_lon[v], network.node_lat[v])
    mids /= np.linalg.norm(mids, axis=1)[:, None]
    a, b = unit_vector(before.lon, before.lat), unit_vector(after.lon, after.lat)
    detour = np.arccos(np.clip(mids @ a, -1, 1)) + np.arccos(np.clip(mids @ b, -1, 1))
    picked: list[Location] = []
    for index in np.argsort(detour, kind="stable").tolist():
        x, y, z = mids[index]
        lon, lat = float(np.degrees(np.arctan2(y, x))), float(np.degrees(np.arcsin(z)))
        if all(_apart_m(lon, lat, p) > 20_000.0 for p in picked):  # another stretch of lane
            picked.append(Location(lon, lat))
        if len(picked) == WAYPOINT_TRIES:
            break
    return picked


def _apart_m(lon: float, lat: float, other: Location) -> float:
    cos = float(unit_vector(lon, lat) @ unit_vector(other.lon, other.lat))
    return float(np.arccos(np.clip(cos, -1.0, 1.0))) * MEAN_EARTH_RADIUS_M


def through_passage(
    network: SeaGraph, passage: Passage, before: Location, after: Location, blocked: int
) -> tuple[Location, LegPath, LegPath]:
    """A waypoint on ``passage`` and the two legs through it from ``before`` to ``after``, the
    passes ``blocked`` closed; :class:`NoRouteError` when no waypoint tried gives legs that sail
    the passage."""
    bit = passage_mask([passage], network.passage_names)
    if blocked & bit:
        raise NoRouteError(f"{passage.value} is closed for this route, so it cannot be sailed")
    for point in passage_waypoints(network, passage, before, after):
        try:
            first = sail_trimmed(network, before, point, blocked)
            second = sail_trimmed(network, point, after, blocked)
        except NoRouteError:
            continue
        if (np.bitwise_or.reduce(np.concatenate([first[2], second[2]])) & bit) != 0:
            return point, first, second
    raise NoRouteError(f"no route through {passage.value} was found")


def via_passage(value: object) -> Passage | None:
    """The passage a ``via`` entry names (a :class:`Passage`, or a string that is a passage's
    name or alias and no port code), else None."""
    if isinstance(value, Passage):
        return value
    if not isinstance(value, str):
        return None
    try:
        return parse_passage(value)
    except RoutingError:
        return None


__all__ = ["passage_waypoints", "through_passage", "via_passage"]

"""One leg of a route: both ends snapped to the open network, the shortest path between them,
and the partial segments from each end to the network, as arrays.

:func:`sail` returns every segment, including the zero-length ones an end already on the network
makes; :func:`trim` drops those. :func:`sail_trimmed` gives what ``trim(sail(...))`` gives in
one compiled call (:mod:`.network`): a warm route would otherwise spend more time in small numpy
calls than in its search.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

import numpy as np

from .errors import NoRouteError
from .geodesy import MEAN_EARTH_RADIUS_M, from_unit_vectors, unit_vector
from .geodesy import distance_m as geodesic_m
from .graph import SeaGraph
from .landmask import default_landmask
from .locations import Location
from .network import ZERO_LENGTH_M as ZERO_LENGTH_M
from .network import LegPath as LegPath
from .network import as_leg, untrimmed_leg
from .network import trim as trim
from .passages import names_from_mask
from .paths import SeaPath, shortest_path_among
from .snapping import Snap

#: A point this much farther from the open network than from a closed passage lies in that passage.
IN_PASSAGE_MARGIN_M = 50_000.0
#: A point this close to a lane (metres) starts from the lane without trying the shortcuts.
NEAR_LANE_M = 1_000.0
#: A point between these distances from the lanes (metres) may join them at a slant, at a lane
#: node within :data:`JOIN_REACH` times its distance (and at most :data:`JOIN_BEYOND_M`
#: beyond): the search takes whichever join makes the shortest whole leg, as a ship bound
#: down a lane heads for it at a slant rather than at right angles (:func:`slanted_joins`).
JOIN_FROM_M = 2_000.0
JOIN_UNTIL_M = 100_000.0
JOIN_REACH = 3.0
JOIN_BEYOND_M = 150_000.0
JOIN_CANDIDATES = 6
#: Points sampled along a slanted join (at most this far apart, metres) must all be at sea.
JOIN_SAMPLE_M = 1_000.0


def sail(graph: SeaGraph, start: Location, end: Location, blocked: int) -> LegPath:
    """One leg from ``start`` to ``end``: coordinates, segment lengths and passage masks.

    Segments: start -> its snap (off network), snap -> first node (part of its edge), the
    network edges, last node -> the end's snap (part of its edge), snap -> end (off network).
    Network lengths come from the graph; only the four partial legs are measured here.
    """
    if (start.lon, start.lat) == (end.lon, end.lat):
        return (
            np.array([[start.lon, start.lat], [end.lon, end.lat]]),
            np.zeros(1),
            np.zeros(1, np.uint32),
        )
    a, b, path = _search(graph, start, end, blocked)
    return _untrimmed(graph, start, end, a, b, path)


def sail_trimmed(graph: SeaGraph, start: Location, end: Location, blocked: int) -> LegPath:
    """``trim(*sail(graph, start, end, blocked))``, made in one call of ``graph.network`` when
    the path passes a network node: the same points, lengths and masks, without the untrimmed
    arrays and the small numpy calls that would cost more than the search."""
    if (start.lon, start.lat) == (end.lon, end.lat):
        return trim(*sail(graph, start, end, blocked))
    return _trimmed(graph, start, end, *_search(graph, start, end, blocked))


def sail_held(
    graph: SeaGraph, start: Location, end: Location, blocked: int, first: int, need_m: float
) -> LegPath:
    """:func:`sail_trimmed` for a vessel that needs ``need_m`` of water: the leg searched with
    the looser mask ``first``, kept when every edge it sails (the snaps' edges too) is at least
    that deep (an edge whose depth is not measured counts as deep), else the leg under
    ``blocked``, whose depth band leaves no edge too shallow."""
    if (start.lon, start.lat) == (end.lon, end.lat):
        return sail_trimmed(graph, start, end, blocked)
    try:
        a, b, path = _search(graph, start, end, first)
    except NoRouteError:
        return sail_trimmed(graph, start, end, blocked)
    edges = np.concatenate([path.edges, [a.edge, b.edge]]).astype(np.intp)
    depth = graph.edge_depth_m[edges]
    if bool(np.all(np.isnan(depth) | (depth >= need_m - 1e-3))):
        return _trimmed(graph, start, end, a, b, path)
    return sail_trimmed(graph, start, end, blocked)


def _trimmed(
    graph: SeaGraph, start: Location, end: Location, a: Snap, b: Snap, path: SeaPath
) -> LegPath:
    """The trimmed leg of a searched path between the snaps ``a`` and ``b``."""
    if path.nodes.size:
        made = graph.network.leg(
            path.nodes,
            path.edges,
            start.lon,
            start.lat,
            a.lon,
            a.lat,
            a.edge,
            b.lon,
            b.lat,
            b.edge,
            end.lon,
            end.lat,
        )
        if made is not None:  # None: Vincenty's method gave up on a partial leg, pyproj won't
            return as_leg(made)
    return trim(*_untrimmed(graph, start, end, a, b, path))


def _search(
    graph: SeaGraph, start: Location, end: Location, blocked: int
) -> tuple[Snap, Snap, SeaPath]:
    """Both ends snapped to the open lanes and, when one lies off them, also onto a shortcut
    nearer than its lane and onto the lane nodes it may join at a slant: the one search takes
    whichever snaps make the shortest leg. A slanted join that crosses land is dropped, that
    join alone, and the search made again without it."""
    a = snap_open(graph, start, blocked, "origin")
    b = snap_open(graph, end, blocked, "destination")
    goal = (end.lon, end.lat)
    if a.distance_m <= NEAR_LANE_M and b.distance_m <= NEAR_LANE_M:  # no shortcut nor slant
        return shortest_path_among(graph, (a,), (b,), goal, blocked)
    starts, ends = _on_shortcut(graph, start, a, blocked), _on_shortcut(graph, end, b, blocked)
    plain_origins = (a,) if starts is None else (a, starts)
    plain_destinations = (b,) if ends is None else (b, ends)
    origins = plain_origins + _open(
        graph, slanted_joins(graph, start, a, (end.lon, end.lat)), blocked
    )
    destinations = plain_destinations + _open(
        graph, slanted_joins(graph, end, b, (start.lon, start.lat)), blocked
    )
    while True:  # each pass drops at least one slant, and the plain snaps are never dropped
        found = shortest_path_among(graph, origins, destinations, goal, blocked)
        o, d, _ = found
        over_land_o = o not in plain_origins and not at_sea_between(start, o)
        over_land_d = d not in plain_destinations and not at_sea_between(end, d)
        if not (over_land_o or over_land_d):
            return found
        origins = tuple(s for s in origins if not (over_land_o and s == o))
        destinations = tuple(s for s in destinations if not (over_land_d and s == d))


def _open(graph: SeaGraph, snaps: tuple[Snap, ...], blocked: int) -> tuple[Snap, ...]:
    """The snaps whose edge lies in no ``blocked`` passage."""
    return tuple(s for s in snaps if not graph.edge_passages[s.edge] & blocked)


def slanted_joins(
    graph: SeaGraph, where: Location, lane: Snap, goal: tuple[float, float]
) -> tuple[Snap, ...]:
    """Where a point off the lanes may join them instead of the perpendicular's foot ``lane``:
    the ends of the lane edges listed in the point's cell of the snapping index, within
    :data:`JOIN_REACH` times the foot's distance (and :data:`JOIN_BEYOND_M` beyond it), the
    :data:`JOIN_CANDIDATES` of them that lie best on the way to ``goal`` (least distance from
    the point plus great circle on to the goal). Each is a snap onto its node; the search keeps
    whichever makes the whole leg shortest. None for a point within :data:`JOIN_FROM_M` of
    the lanes or farther than :data:`JOIN_UNTIL_M` (out at sea the shortcuts join it)."""
    if not JOIN_FROM_M < lane.distance_m <= JOIN_UNTIL_M:
        return ()
    return _joins(graph, where, lane, goal)


@lru_cache(maxsize=4096)
def _joins(
    graph: SeaGraph, where: Location, lane: Snap, goal: tuple[float, float]
) -> tuple[Snap, ...]:
    """:func:`slanted_joins` for a point off the lanes (remembered: a vessel asks again)."""
    reach = min(JOIN_REACH * lane.distance_m, lane.distance_m + JOIN_BEYOND_M)
    cell = graph.snapper.cell_of(where.lon, where.lat)
    ahead = graph.snapper.arcs.ahead(
        where.lon, where.lat, cell, *goal, JOIN_CANDIDATES, reach / MEAN_EARTH_RADIUS_M
    )
    return tuple(
        _at_node(
            graph,
            int((graph.edge_v if end else graph.edge_u)[edge]),
            edge,
            angle * MEAN_EARTH_RADIUS_M,
        )
        for edge, end, angle in ahead
    )


def _at_node(graph: SeaGraph, node: int, edge: int, distance: float) -> Snap:
    """A snap onto ``node``, an end of ``edge``, ``distance`` metres from the point snapped."""
    length = float(graph.edge_length_m[edge])
    at_u = int(graph.edge_u[edge]) == node
    return Snap(
        lon=float(graph.node_lon[node]),
        lat=float(graph.node_lat[node]),
        edge=edge,
        offset_u_m=0.0 if at_u else length,
        offset_v_m=length if at_u else 0.0,
        distance_m=distance,
    )


@lru_cache(maxsize=4096)
def at_sea_between(where: Location, snap: Snap) -> bool:
    """Whether the great circle from ``where`` to ``snap``'s point stays out of the land
    mask's land cells (sampled every :data:`JOIN_SAMPLE_M`, its two ends left out; remembered
    like the joins themselves)."""
    count = max(int(snap.distance_m // JOIN_SAMPLE_M), 1)
    a, b = unit_vector(where.lon, where.lat), unit_vector(snap.lon, snap.lat)
    t = np.arange(1, count + 1)[:, None] / (count + 1)
    points = a * (1.0 - t) + b * t  # on the chord: the direction of the great circle's points
    lon, lat = from_unit_vectors(points / np.linalg.norm(points, axis=1)[:, None])
    return not bool(default_landmask().land_at(lon, lat).any())


def _on_shortcut(graph: SeaGraph, where: Location, lane: Snap, blocked: int) -> Snap | None:
    """A snap onto a shortcut nearer than the lane snap ``lane``, for a point away from the
    lanes (a vessel on a great-circle leg): the search then tries both and keeps the shorter."""
    if lane.distance_m <= NEAR_LANE_M:
        return None
    return graph.snap_shortcut(where.lon, where.lat, lane.distance_m, blocked=blocked)


def _untrimmed(
    graph: SeaGraph, start: Location, end: Location, a: Snap, b: Snap, path: SeaPath
) -> LegPath:
    if path.nodes.size:
        return untrimmed_leg(
            (graph.node_lonlat, graph.edge_length_m, graph.edge_passages),
            path.nodes,
            path.edges,
            ((start.lon, start.lat), (a.lon, a.lat, a.edge)),
            ((b.lon, b.lat, b.edge), (end.lon, end.lat)),
        )
    # Both ends on one edge: straight along it.
    points = [(start.lon, start.lat), (a.lon, a.lat), (b.lon, b.lat), (end.lon, end.lat)]
    lengths = np.array([geodesic_m(*p, *q) for p, q in pairwise(points)])
    masks = np.array([0, graph.edge_passages[a.edge], 0], dtype=np.uint32)
    return np.array(points), lengths, masks


def snap_open(graph: SeaGraph, where: Location, blocked: int, what: str) -> Snap:
    """Snap to the open network; a point that lies in a closed passage is an error, not a detour
    (a point over water too shallow for the vessel is not: it snaps to the nearest deep lane)."""
    nearest = graph.snap(where.lon, where.lat)
    if not graph.edge_passages[nearest.edge] & blocked:
        return nearest
    open_snap = graph.snap(where.lon, where.lat, blocked=blocked)
    if open_snap.distance_m <= nearest.distance_m + IN_PASSAGE_MARGIN_M:
        return open_snap
    names = names_from_mask(int(graph.edge_passages[nearest.edge]) & blocked, graph.passage_names)
    # Only too shallow for the vessel (no passage in the way): it sails out to the nearest lane
    # deep enough, however far that is.
    if names:
        raise NoRouteError(
            f"{what} ({where.lon}, {where.lat}) lies on the closed passage(s) {', '.join(names)}"
            + (
                " (allow_arctic=True opens the Arctic routes)"
                if {"northwest", "northeast"} & set(names)
                else " (allow=[...] opens a passage closed by default)"
            )
        )
    return open_snap

"""One leg of a route: both ends snapped to the open network, the shortest path between them,
and the partial segments from each end to the network, as arrays.

:func:`sail` returns every segment, including the zero-length ones an end already on the network
makes; :func:`trim` drops those. :func:`sail_trimmed` gives what ``trim(sail(...))`` gives in
one compiled call (:mod:`.network`): a warm route would otherwise spend more time in small numpy
calls than in its search.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from .errors import NoRouteError
from .geodesy import distance_m as geodesic_m
from .graph import SeaGraph
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
    a, b, path = _search(graph, start, end, blocked)
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
    nearer than its lane: the one search takes whichever pair of snaps makes the shorter leg."""
    a = snap_open(graph, start, blocked, "origin")
    b = snap_open(graph, end, blocked, "destination")
    starts, ends = _on_shortcut(graph, start, a, blocked), _on_shortcut(graph, end, b, blocked)
    origins = (a,) if starts is None else (a, starts)
    destinations = (b,) if ends is None else (b, ends)
    return shortest_path_among(graph, origins, destinations, (end.lon, end.lat), blocked)


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

"""One leg of a route: both ends snapped to the open network, the shortest path between them,
and the partial segments from each end to the network, as arrays.

:func:`sail` returns every segment, including the zero-length ones an end already on the network
makes; :func:`trim` drops those. :func:`sail_trimmed` gives what ``trim(sail(...))`` gives (to
the rounding of a sum) without building the untrimmed arrays: when no network edge is empty,
only the two segments at each end of a leg can be, so it settles those in plain Python and fills
each array once. A warm route spends more time in small numpy calls than in its search, which
is why the short way exists.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import numpy.typing as npt

from .errors import NoRouteError
from .geodesy import FloatArray
from .geodesy import distance_m as geodesic_m
from .graph import SeaGraph, Snap
from .locations import Location
from .passages import names_from_mask
from .paths import SeaPath, shortest_path

#: (coordinates N x 2, segment lengths N - 1 in metres, segment passage masks N - 1)
Leg = tuple[FloatArray, FloatArray, npt.NDArray[np.uint32]]
#: Segments shorter than this (metres) are duplicates of a point and are dropped.
ZERO_LENGTH_M = 1e-6
#: A point this much farther from the open network than from a closed passage lies in that passage.
IN_PASSAGE_MARGIN_M = 50_000.0
#: A point this close to a lane (metres) starts from the lane without trying the shortcuts.
NEAR_LANE_M = 1_000.0
#: A point and a segment (length, passage mask) leaving it, in :func:`_settle`.
_Point = tuple[float, float]
_Segment = tuple[float, int]


def sail(graph: SeaGraph, start: Location, end: Location, blocked: int) -> Leg:
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


def sail_trimmed(graph: SeaGraph, start: Location, end: Location, blocked: int) -> Leg:
    """``trim(*sail(graph, start, end, blocked))``, made directly when the path passes at least
    three nodes and no network edge has zero length: the same points and masks, and the same
    lengths but for the last bit of a merged segment (its few terms are added in another order)."""
    if (start.lon, start.lat) == (end.lon, end.lat):
        return trim(*sail(graph, start, end, blocked))
    a, b, path = _search(graph, start, end, blocked)
    nodes, edges = path.nodes, path.edges
    k = nodes.size
    if k < 3 or graph.shortest_edge_m <= ZERO_LENGTH_M:
        return trim(*_untrimmed(graph, start, end, a, b, path))
    n0, n1, m1, m0 = graph.node_lonlat.take(nodes[[0, 1, k - 2, k - 1]], axis=0).tolist()
    e_first, e_last = edges[[0, k - 2]].tolist()
    length, passages = graph.edge_length_m, graph.edge_passages
    head_points, head = _settle(
        [(start.lon, start.lat), (a.lon, a.lat), n0, n1],
        [
            (geodesic_m(start.lon, start.lat, a.lon, a.lat), 0),
            (geodesic_m(a.lon, a.lat, n0[0], n0[1]), int(passages[a.edge])),
            (float(length[e_first]), int(passages[e_first])),
        ],
        at_end=False,
    )
    tail_points, tail = _settle(
        [m1, m0, (b.lon, b.lat), (end.lon, end.lat)],
        [
            (float(length[e_last]), int(passages[e_last])),
            (geodesic_m(m0[0], m0[1], b.lon, b.lat), int(passages[b.edge])),
            (geodesic_m(b.lon, b.lat, end.lon, end.lat), 0),
        ],
        at_end=True,
    )
    # Between them: nodes n1 .. the one before m1, and the edges from n1 to m1.
    middle_nodes, middle_edges = nodes[1 : k - 2], edges[1 : k - 2]
    coords = np.concatenate(
        [head_points[:-1], graph.node_lonlat.take(middle_nodes, axis=0), tail_points]
    )
    lengths = np.concatenate(
        [[s[0] for s in head], length.take(middle_edges), [s[0] for s in tail]]
    )
    masks = np.concatenate(
        [[s[1] for s in head], passages.take(middle_edges), [s[1] for s in tail]],
        dtype=np.uint32,
        casting="unsafe",
    )
    return coords, lengths, masks


def trim(coords: FloatArray, lengths: FloatArray, masks: npt.NDArray[np.uint32]) -> Leg:
    """The segments of a route with the zero-length ones dropped (an end already on the
    network, a snap onto a node): the later point of each goes, except the destination itself,
    where the earlier one goes so the route still ends exactly at the requested point. Each
    kept point starts a segment that runs to the next kept point, summing lengths and masks."""
    empty = lengths <= ZERO_LENGTH_M
    if empty.all():
        return coords[[0, -1]], np.zeros(1), np.zeros(1, dtype=np.uint32)
    if not empty.any():
        return coords, lengths, masks
    keep = np.empty(coords.shape[0], dtype=bool)
    keep[0] = True
    np.logical_not(empty, out=keep[1:])
    if empty[-1]:
        keep[-1] = True
        previous = keep.size - 2 - int(np.argmax(keep[-2::-1]))  # zero distance from the end
        if previous > 0:
            keep[previous] = False
    starts = np.flatnonzero(keep[:-1])
    lengths = np.add.reduceat(lengths, starts)
    masks = np.bitwise_or.reduceat(masks, starts).astype(np.uint32)
    return coords[keep], lengths, masks


def _settle(
    points: list[_Point], segments: list[_Segment], *, at_end: bool
) -> tuple[list[_Point], list[_Segment]]:
    """:func:`trim` on a few points in plain Python: the points kept and the merged segments.
    ``at_end``: the last point is the route's destination."""
    keep = [True] + [length > ZERO_LENGTH_M for length, _mask in segments]
    if at_end and not keep[-1]:
        keep[-1] = True
        previous = max(j for j in range(len(keep) - 1) if keep[j])
        if previous > 0:
            keep[previous] = False
    merged: list[_Segment] = []
    for kept, (length, mask) in zip(keep, segments, strict=False):
        if kept:
            merged.append((length, mask))
        else:
            total, bits = merged[-1]
            merged[-1] = (total + length, bits | mask)
    return [point for point, kept in zip(points, keep, strict=True) if kept], merged


def _search(
    graph: SeaGraph, start: Location, end: Location, blocked: int
) -> tuple[Snap, Snap, SeaPath]:
    a = snap_open(graph, start, blocked, "origin")
    b = snap_open(graph, end, blocked, "destination")
    found = shortest_path(graph, a, b, blocked)
    starts, ends = _on_shortcut(graph, start, a, blocked), _on_shortcut(graph, end, b, blocked)
    if starts is None and ends is None:
        return a, b, found
    best = (a.distance_m + found.network_m + b.distance_m, a, b, found)
    for s in (a, starts):
        for e in (b, ends):
            if s is None or e is None or (s is a and e is b):
                continue
            try:
                path = shortest_path(graph, s, e, blocked)
            except NoRouteError:
                continue
            total = s.distance_m + path.network_m + e.distance_m
            if total < best[0]:
                best = (total, s, e, path)
    return best[1], best[2], best[3]


def _on_shortcut(graph: SeaGraph, where: Location, lane: Snap, blocked: int) -> Snap | None:
    """A snap onto a shortcut nearer than the lane snap ``lane``, for a point away from the
    lanes (a vessel on a great-circle leg): the search then tries both and keeps the shorter."""
    if lane.distance_m <= NEAR_LANE_M:
        return None
    return graph.snap_shortcut(where.lon, where.lat, lane.distance_m, blocked=blocked)


def _untrimmed(
    graph: SeaGraph, start: Location, end: Location, a: Snap, b: Snap, path: SeaPath
) -> Leg:
    nodes = path.nodes
    coords = np.empty((nodes.size + 4, 2))
    coords[0] = start.lon, start.lat
    coords[1] = a.lon, a.lat
    coords[2:-2, 0] = graph.node_lon[nodes]
    coords[2:-2, 1] = graph.node_lat[nodes]
    coords[-2] = b.lon, b.lat
    coords[-1] = end.lon, end.lat
    # The partial legs are measured geodesically (the snap offsets are spherical fractions).
    if nodes.size:
        edges = np.concatenate([[a.edge], path.edges, [b.edge]])
        ends = coords[[0, 1, 1, 2, -3, -2, -2, -1]].tolist()
        legs = [geodesic_m(*ends[k], *ends[k + 1]) for k in range(0, 8, 2)]
        lengths = np.concatenate([legs[:2], graph.edge_length_m[edges[1:-1]], legs[2:]])
    else:  # both ends on one edge: straight along it
        edges = np.array([a.edge])
        points = coords.tolist()
        lengths = np.array([geodesic_m(*p, *q) for p, q in pairwise(points)])
    masks = np.concatenate([[0], graph.edge_passages[edges], [0]]).astype(np.uint32)
    return coords, lengths, masks


def snap_open(graph: SeaGraph, where: Location, blocked: int, what: str) -> Snap:
    """Snap to the open network; a point that lies in a closed passage is an error, not a detour."""
    nearest = graph.snap(where.lon, where.lat)
    if not graph.edge_passages[nearest.edge] & blocked:
        return nearest
    open_snap = graph.snap(where.lon, where.lat, blocked=blocked)
    if open_snap.distance_m > nearest.distance_m + IN_PASSAGE_MARGIN_M:
        names = names_from_mask(
            int(graph.edge_passages[nearest.edge]) & blocked, graph.passage_names
        )
        raise NoRouteError(
            f"{what} ({where.lon}, {where.lat}) lies on the closed passage(s) {', '.join(names)}"
            + (
                " (allow_arctic=True opens the Arctic routes)"
                if {"northwest", "northeast"} & set(names)
                else " (allow=[...] opens a passage closed by default)"
            )
        )
    return open_snap

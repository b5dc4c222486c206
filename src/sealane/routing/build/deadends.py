"""Closing dead-end gaps of the repaired network by straight water legs.

searoute's network holds lanes that stop short of another lane or end on another edge without a
node there: off Westports (Port Klang) a lane runs south for 18 nm and ends on the edge into the
Strait of Malacca's hub node, 0.5 km from that node, so a port joined to that lane could only
leave the other way. A node of degree 1 whose nearest point of the network (a node or a point
along an edge) lies within ``GAP_M`` is joined to it by one straight leg when that leg is water
all along (sampled every ``STRAIGHT_SPACING_M`` against the exact shoreline, as the ports' straight
joins are) and the network's own way between the two is at least ``LOOP_MIN_M``: a lane is never
joined back to itself. A lane ending on an edge (within ``SAME_NODE_M``) becomes a junction there.
Runs on the repaired network before corridors and ports are added, so every node of degree 1 is
a lane's end; ``keep`` protects other ends (a port's berth). Build-time only.
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from ..geodesy import (
    MEAN_EARTH_RADIUS_M,
    FloatArray,
    arc_normals,
    from_unit_vectors,
    lengths_between_m,
    nearest_on_arcs,
    unit_vectors,
)
from .attach import STRAIGHT_SPACING_M, TARGET_SPACING_M
from .coast import Coastline, polyline_is_clear
from .lanegraph import SAME_NODE_M, LaneGraph
from .tags import tag_passages

#: A dead end is joined to a point of the network at most this far away, metres.
GAP_M = 1_000.0
#: ... only when the network's own way from the dead end to that point is at least this long,
#: metres (five times the longest leg): a shorter way round means the leg would only cut a corner
#: of the dead end's own lane.
LOOP_MIN_M = 5_000.0


def close_dead_ends(
    net: LaneGraph,
    coast: Coastline,
    passages: dict[str, Any],
    keep: frozenset[int] = frozenset(),
) -> list[tuple[int, float, float, float, float]]:
    """Join every dead end (degree 1, not in ``keep``) to the nearest point of the network
    within ``GAP_M`` that its own lane does not lead to, by a straight water leg; returns
    (dead end, its lon, lat, the joined point's lon, lat) of each leg added."""
    from scipy.spatial import cKDTree

    adjacency = _adjacency(net)
    ends = [n for n, near in adjacency.items() if len(near) == 1 and n not in keep]
    if not ends:
        return []
    lon, lat, which, keys = net.edge_samples(TARGET_SPACING_M)
    tree = cKDTree(unit_vectors(lon, lat))
    reach = _chord(GAP_M + TARGET_SPACING_M)
    closed: list[tuple[int, float, float, float, float]] = []
    # The samples are taken once: an edge split or moved since is looked up as its pieces.
    replaced: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for end in ends:
        if len(adjacency[end]) != 1:
            continue  # an earlier leg ended here
        here = unit_vectors(net.lon[end], net.lat[end])
        hits = tree.query_ball_point(here, reach)
        candidates = _live(net, replaced, {keys[int(which[h])] for h in hits})
        found = _nearest_target(net, adjacency, end, candidates, coast)
        if found is None:
            continue
        edge, x, y = found
        closed.append((end, net.lon[end], net.lat[end], x, y))
        if _gap_m(net, end, x, y) < SAME_NODE_M:
            _insert(net, adjacency, edge, end, replaced)  # the lane ends on the edge: a junction
            continue
        mask = _leg_mask(net, adjacency, end, edge, (x, y), passages)
        node = _node_at(net, adjacency, edge, x, y, replaced)
        net.add_edge(end, node, mask)
        adjacency[end][node] = adjacency.setdefault(node, {})[end] = _gap_m(net, end, x, y)
    return closed


def _live(
    net: LaneGraph,
    replaced: dict[tuple[int, int], list[tuple[int, int]]],
    edges: set[tuple[int, int]],
) -> set[tuple[int, int]]:
    """The edges of the network now standing for ``edges``: each still there, or the pieces
    that replaced it."""
    live: set[tuple[int, int]] = set()
    todo = list(edges)
    while todo:
        edge = todo.pop()
        if edge in net.edges:
            live.add(edge)
        else:
            todo.extend(replaced.get(edge, ()))
    return live


def _adjacency(net: LaneGraph) -> dict[int, dict[int, float]]:
    """Each node's neighbours with the geodesic length of the edge to them, metres."""
    keys = list(net.edges)
    if not keys:
        return {}
    lon, lat = np.array(net.lon), np.array(net.lat)
    a = np.array([k[0] for k in keys], dtype=np.int64)
    b = np.array([k[1] for k in keys], dtype=np.int64)
    length = lengths_between_m(lon[a], lat[a], lon[b], lat[b])
    out: dict[int, dict[int, float]] = {}
    for (p, q), d in zip(keys, length.tolist(), strict=True):
        out.setdefault(p, {})[q] = float(d)
        out.setdefault(q, {})[p] = float(d)
    return out


def _nearest_target(
    net: LaneGraph,
    adjacency: dict[int, dict[int, float]],
    end: int,
    candidates: set[tuple[int, int]],
    coast: Coastline,
) -> tuple[tuple[int, int], float, float] | None:
    """The nearest point (edge, lon, lat) of the candidate edges within ``GAP_M`` that the
    network's own way does not reach within the loop rule and a water leg reaches; or None."""
    points = []
    for edge in candidates:
        if end in edge:
            continue
        x, y, along, gap = _closest_on_edge(net, edge, end)
        if gap <= GAP_M:
            points.append((gap, edge, x, y, along))
    if not points:
        return None
    points.sort(key=lambda p: p[0])
    way = _network_distances(adjacency, end, LOOP_MIN_M)
    for _gap, edge, x, y, along in points:
        a, b = edge
        around = min(way.get(a, np.inf) + along, way.get(b, np.inf) + adjacency[a][b] - along)
        if around < LOOP_MIN_M:
            continue
        leg_lon, leg_lat = np.array([net.lon[end], x]), np.array([net.lat[end], y])
        if polyline_is_clear(coast, leg_lon, leg_lat, STRAIGHT_SPACING_M, strict=False):
            return edge, x, y
    return None


def _closest_on_edge(
    net: LaneGraph, edge: tuple[int, int], node: int
) -> tuple[float, float, float, float]:
    """The point of ``edge``'s great-circle arc nearest to ``node`` (lon, lat, metres from the
    edge's first node, metres from ``node``): geodesy's nearest point on an arc, or the nearer
    end of an edge too short to have a great circle."""
    a, b = edge
    ends = unit_vectors([net.lon[a], net.lon[b]], [net.lat[a], net.lat[b]])
    pa, pb = ends[:1], ends[1:]
    p = unit_vectors(net.lon[node], net.lat[node])
    normal = arc_normals(pa, pb)
    if normal.any():
        _, angle, best = nearest_on_arcs(p, pa, pb, normal)
    else:
        best = pa[0] if float(p @ pa[0]) >= float(p @ pb[0]) else pb[0]
        angle = _angle(p, best)
    x, y = from_unit_vectors(best)
    along = _angle(pa[0], best) * MEAN_EARTH_RADIUS_M
    return float(x), float(y), along, angle * MEAN_EARTH_RADIUS_M


def _node_at(
    net: LaneGraph,
    adjacency: dict[int, dict[int, float]],
    edge: tuple[int, int],
    x: float,
    y: float,
    replaced: dict[tuple[int, int], list[tuple[int, int]]],
) -> int:
    """An existing end of ``edge`` at (x, y), or a new node splitting it there."""
    a, b = edge
    node = net.split(edge, x, y)
    if node in (a, b):
        return node
    replaced[edge] = [_key(a, node), _key(node, b)]
    del adjacency[a][b], adjacency[b][a]
    for end in (a, b):
        d = _gap_m(net, end, x, y)
        adjacency[end][node] = adjacency.setdefault(node, {})[end] = max(d, SAME_NODE_M)
    return node


def _insert(
    net: LaneGraph,
    adjacency: dict[int, dict[int, float]],
    edge: tuple[int, int],
    node: int,
    replaced: dict[tuple[int, int], list[tuple[int, int]]],
) -> None:
    """Split ``edge`` at ``node``, which lies on it (within ``SAME_NODE_M``); if it lies on one of
    the edge's ends, its own edge moves to that end instead."""
    a, b = edge
    for end in (a, b):
        if _gap_m(net, end, net.lon[node], net.lat[node]) < SAME_NODE_M:
            (other,) = adjacency.pop(node)
            mask = net.edges.pop(_key(node, other))
            replaced[_key(node, other)] = [_key(end, other)]
            net.add_edge(end, other, mask)
            length = adjacency[other].pop(node)
            adjacency[end][other] = adjacency[other][end] = length
            return
    mask = net.edges.pop(edge)
    replaced[edge] = [_key(a, node), _key(node, b)]
    del adjacency[a][b], adjacency[b][a]
    for end in (a, b):
        net.add_edge(end, node, mask)
        d = max(_gap_m(net, end, net.lon[node], net.lat[node]), SAME_NODE_M)
        adjacency[end][node] = adjacency[node][end] = d


def _network_distances(
    adjacency: dict[int, dict[int, float]], start: int, cutoff: float
) -> dict[int, float]:
    """Dijkstra from ``start`` over the network, stopping at ``cutoff`` metres."""
    best = {start: 0.0}
    queue = [(0.0, start)]
    while queue:
        d, node = heapq.heappop(queue)
        if d > best.get(node, np.inf) or d > cutoff:
            continue
        for other, length in adjacency[node].items():
            nd = d + length
            if nd < best.get(other, np.inf):
                best[other] = nd
                heapq.heappush(queue, (nd, other))
    return best


def _leg_mask(
    net: LaneGraph,
    adjacency: dict[int, dict[int, float]],
    end: int,
    edge: tuple[int, int],
    point: tuple[float, float],
    passages: dict[str, Any],
) -> int:
    """Passage bits of a new leg: the gates and boxes it meets, and the bits both the dead end's
    lane and the edge it joins carry (a leg between two lanes of one passage is in it)."""
    (other,) = adjacency[end]
    common = net.edges[_key(end, other)] & net.edges[edge]
    tagged = tag_passages(
        np.array([net.lon[end], point[0]]),
        np.array([net.lat[end], point[1]]),
        np.array([0]),
        np.array([1]),
        passages,
    )
    return int(common) | int(tagged[0])


def _gap_m(net: LaneGraph, node: int, x: float, y: float) -> float:
    """Great-circle distance from a node to a point, metres (on the mean sphere)."""
    return _angle(unit_vectors(net.lon[node], net.lat[node]), unit_vectors(x, y)) * (
        MEAN_EARTH_RADIUS_M
    )


def _angle(p: FloatArray, q: FloatArray) -> float:
    """Angle between two unit vectors, radians (stable for small angles)."""
    return float(np.arctan2(np.linalg.norm(np.cross(p, q)), float(p @ q)))


def _chord(metres: float) -> float:
    """Chord length on the unit sphere of an arc of ``metres``."""
    return float(2.0 * np.sin(metres / MEAN_EARTH_RADIUS_M / 2.0))


def _key(a: int, b: int) -> tuple[int, int]:
    """The network's key of the edge between two nodes."""
    return min(a, b), max(a, b)

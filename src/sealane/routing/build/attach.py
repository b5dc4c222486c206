"""Joining points (port berths, corridor ends) to the network by water.

A point whose straight geodesic to the nearest point of the network is water is joined by that
one leg; otherwise the shortest water path to the nearest of the network's sample points around
it is found on the grid. Where a join meets an edge, the edge is split there. Build-time only.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from ..geodesy import MEAN_EARTH_RADIUS_M, FloatArray, unit_vectors
from .coast import Coastline, sample_geodesics
from .corridors import CorridorIndex
from .grid import Water
from .lanegraph import LaneGraph
from .waterpath import join_nearest

#: Spacing of the network sample points a join may end on, metres.
TARGET_SPACING_M = 250.0
#: Spacing of the exact land test along a straight join, metres.
STRAIGHT_SPACING_M = 25.0
#: Straight joins tried (to the nearest network samples) before a grid path, and how much longer
#: than the nearest one such a straight join may be.
STRAIGHT_TRIES = 64
STRAIGHT_SLACK = 1.5
#: Window margin of a grid join: at least this, metres, or this many times the straight gap.
JOIN_MARGIN_M = 15_000.0
JOIN_MARGIN_FACTOR = 1.5
#: Largest grid of a join, in cells (bigger areas are searched on coarser cells).
JOIN_MAX_CELLS = 400_000
#: Most network sample points offered to one grid join.
MAX_TARGETS = 4_000
#: Extra straight joins of a port: edges searched within this radius (metres, or this many
#: times the first join's gap), at most this many joins, each at least this far (degrees of
#: bearing) from the others.
EXTRA_RADIUS_M = 30_000.0
EXTRA_RADIUS_FACTOR = 3.0
EXTRA_JOINS = 3
EXTRA_MIN_TURN_DEG = 60.0
#: Nearest distinct edges tried for extra joins.
EXTRA_TRIES = 48


@dataclass(frozen=True)
class Join:
    """A water path from a point to the network: its polyline, and where it meets which edge."""

    path: FloatArray
    edge: tuple[int, int]
    along_m: float


class NetworkTargets:
    """Sample points along the network's edges, with a k-d tree on their unit vectors."""

    def __init__(self, net: LaneGraph, exclude: set[tuple[int, int]] | None = None) -> None:
        from scipy.spatial import cKDTree

        lon, lat, which, keys = net.edge_samples(TARGET_SPACING_M)
        lon1, lat1, lon2, lat2 = self._ends(net, keys)
        _, _, _, along = sample_geodesics(lon1, lat1, lon2, lat2, TARGET_SPACING_M)
        keep = np.ones(lon.size, dtype=bool)
        if exclude:
            bad = np.array([k in exclude for k in keys])
            keep = ~bad[which]
        self.lon, self.lat, self.which, self.along = lon[keep], lat[keep], which[keep], along[keep]
        self.keys = keys
        self.tree = cKDTree(unit_vectors(self.lon, self.lat))

    @staticmethod
    def _ends(
        net: LaneGraph, keys: list[tuple[int, int]]
    ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        lon, lat = np.array(net.lon), np.array(net.lat)
        a = np.array([k[0] for k in keys], dtype=np.int64)
        b = np.array([k[1] for k in keys], dtype=np.int64)
        return lon[a], lat[a], lon[b], lat[b]

    def nearest(self, lon: float, lat: float, radius_m: float) -> np.ndarray:
        """Indices of sample points within ``radius_m``, nearest first."""
        here = unit_vectors(lon, lat)
        chord = 2.0 * np.sin(min(radius_m / MEAN_EARTH_RADIUS_M, np.pi) / 2.0)
        hits = np.array(self.tree.query_ball_point(here, chord), dtype=np.int64)
        if hits.size == 0:
            return hits
        xyz = unit_vectors(self.lon[hits], self.lat[hits])
        return hits[np.argsort(-(xyz @ here))]

    def join_of(self, path: FloatArray, index: int) -> Join:
        """The Join ending at sample point ``index``."""
        return Join(path, self.keys[int(self.which[index])], float(self.along[index]))


def attach(
    coast: Coastline,
    targets: NetworkTargets,
    lon: float,
    lat: float,
    corridors: CorridorIndex | None = None,
) -> Join | None:
    """The water join of (lon, lat) to the network, or None if none is found (a straight join
    may run over land inside ``corridors``: a port on a river joins its corridor this way)."""
    _, nearest = targets.tree.query(unit_vectors(lon, lat), k=STRAIGHT_TRIES)
    first = int(nearest[0])
    x, y = float(targets.lon[first]), float(targets.lat[first])
    gap_m = _distance_m(lon, lat, x, y)
    for k in nearest.tolist():
        tx, ty = float(targets.lon[k]), float(targets.lat[k])
        s_lon, s_lat, _, _ = sample_geodesics(
            np.array([lon]), np.array([lat]), np.array([tx]), np.array([ty]), STRAIGHT_SPACING_M
        )
        far = _distance_m(lon, lat, tx, ty)
        land = coast.is_land(s_lon, s_lat)
        if corridors is not None and land.any():
            land[land] = ~corridors.contains(s_lon[land], s_lat[land])
        if far <= STRAIGHT_SLACK * gap_m + 500.0 and not land.any():
            return targets.join_of(np.array([[lon, lat], [tx, ty]]), int(k))
    margin = max(JOIN_MARGIN_M, JOIN_MARGIN_FACTOR * gap_m)
    near = targets.nearest(lon, lat, margin + gap_m)[:MAX_TARGETS]
    if near.size == 0:
        return None
    points = np.stack([targets.lon[near], targets.lat[near]], axis=1)
    for mode in (Water.CLEAR, Water.EXACT):
        found = join_nearest(
            coast, (lon, lat), points, margin_m=margin, mode=mode, max_cells=JOIN_MAX_CELLS
        )
        if found is not None:
            return targets.join_of(found[0], int(near[found[1]]))
    return None


def extra_joins(
    coast: Coastline, targets: NetworkTargets, lon: float, lat: float, first: Join
) -> list[Join]:
    """More straight water joins of a port to other edges around it, in other directions than
    ``first`` and each other: a berth joined only to its nearest edge would send every route out
    of the harbour that way, while ships leave by the channel facing their destination."""
    gap_m = _distance_m(lon, lat, *(float(c) for c in first.path[-1]))
    radius = max(EXTRA_RADIUS_M, EXTRA_RADIUS_FACTOR * gap_m)
    bearings = [_bearing_deg(lon, lat, *(float(c) for c in first.path[1]))]
    seen = {first.edge}
    out: list[Join] = []
    tried = 0
    for k in targets.nearest(lon, lat, radius).tolist():
        key = targets.keys[int(targets.which[k])]
        if key in seen:
            continue
        seen.add(key)
        tried += 1
        if tried > EXTRA_TRIES or len(out) == EXTRA_JOINS:
            break
        tx, ty = float(targets.lon[k]), float(targets.lat[k])
        bearing = _bearing_deg(lon, lat, tx, ty)
        if min(abs((bearing - b + 180.0) % 360.0 - 180.0) for b in bearings) < EXTRA_MIN_TURN_DEG:
            continue
        s_lon, s_lat, _, _ = sample_geodesics(
            np.array([lon]), np.array([lat]), np.array([tx]), np.array([ty]), STRAIGHT_SPACING_M
        )
        if coast.is_land(s_lon, s_lat).any():
            continue
        bearings.append(bearing)
        out.append(targets.join_of(np.array([[lon, lat], [tx, ty]]), int(k)))
    return out


def _distance_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Chord distance between two points on the mean sphere, metres (near enough for radii)."""
    chord = float(np.linalg.norm(unit_vectors(lon1, lat1) - unit_vectors(lon2, lat2)))
    return chord * MEAN_EARTH_RADIUS_M


def _bearing_deg(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Initial great-circle bearing from point 1 to point 2, degrees clockwise from north."""
    p1, p2, dl = np.radians(lat1), np.radians(lat2), np.radians(lon2 - lon1)
    x = np.sin(dl) * np.cos(p2)
    y = np.cos(p1) * np.sin(p2) - np.sin(p1) * np.cos(p2) * np.cos(dl)
    return float(np.degrees(np.arctan2(x, y)))


def apply_joins(net: LaneGraph, joins: list[tuple[Join, int, int]]) -> list[int]:
    """Insert joins (join, passage mask, start node or -1) into the network, splitting the edges
    they meet in order along each edge; returns the start node of each join."""
    by_edge: dict[tuple[int, int], list[tuple[float, int]]] = {}
    for k, (j, _, _) in enumerate(joins):
        by_edge.setdefault(j.edge, []).append((j.along_m, k))
    end_node: dict[int, int] = {}
    for edge, hits in by_edge.items():
        a, b = edge
        mask = net.edges.pop(edge)
        chain = [a]
        for _, k in sorted(hits):
            x, y = joins[k][0].path[-1]
            node = net.add_node(float(x), float(y))
            chain.append(node)
            end_node[k] = node
        chain.append(b)
        for p, q in pairwise(chain):
            net.add_edge(p, q, mask)
    starts = []
    for k, (j, mask, start) in enumerate(joins):
        ids = net.add_chain(j.path, mask, first=start, last=end_node[k])
        starts.append(ids[0])
    return starts

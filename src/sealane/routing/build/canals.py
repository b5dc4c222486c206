"""Straighter corridors: the traced line of a canal or river zigzags on its tracing grid.

A corridor is traced on a grid of about 115 m, so its line steps from cell to cell and measures
longer than the fairway (the Kiel canal's line is about 12 % longer than the canal). The build
pulls each corridor's run of edges tight where the straight leg keeps within half the corridor's
half width of the traced line: a leg that cuts no more than that stays in the waterway's middle.
Each leg carries the passage bits of the run it replaces. Build-time only.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from ..geodesy import distance_m, lengths_between_m, segment_lengths_m
from .coast import sample_geodesics
from .corridors import Corridor, within
from .lanegraph import LaneGraph
from .shortcuts import MIN_GAIN_M, pull

#: A straightened leg stays within this share of the corridor's half width of its traced line.
KEEP_TO_MIDDLE = 0.5
#: Spacing of the samples that test a straightened leg, metres.
SPACING_M = 25.0


def straighten_corridors(net: LaneGraph, corridors: list[Corridor]) -> set[tuple[int, int]]:
    """Add the pulled legs of every corridor's run to ``net``; returns their keys."""
    added: set[tuple[int, int]] = set()
    lon, lat = np.array(net.lon), np.array(net.lat)
    for corridor in corridors:
        path = _run(net, lon, lat, corridor)
        if len(path) < 3:
            continue
        lengths = np.concatenate([[0.0], np.cumsum(segment_lengths_m(lon[path], lat[path]))])
        limit = corridor.half_width_m * KEEP_TO_MIDDLE

        def clear(a: int, b: int, line: np.ndarray = corridor.line, limit: float = limit) -> bool:
            s_lon, s_lat, _, _ = sample_geodesics(lon[[a]], lat[[a]], lon[[b]], lat[[b]], SPACING_M)
            return bool(within(line, limit, s_lon, s_lat).all())

        for i, j in pull(path, clear):
            a, b = path[i], path[j]
            direct = distance_m(lon[a], lat[a], lon[b], lat[b])
            if lengths[j] - lengths[i] - direct < MIN_GAIN_M:
                continue
            mask = 0
            for p, q in pairwise(path[i : j + 1]):
                mask |= net.edges[(p, q) if p < q else (q, p)]
            key = (a, b) if a < b else (b, a)
            if key not in net.edges:
                net.add_edge(a, b, mask)
                added.add(key)
    return added


def _run(net: LaneGraph, lon: np.ndarray, lat: np.ndarray, corridor: Corridor) -> list[int]:
    """The network's shortest path between the corridor's ends over edges inside its strip."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra

    inside = np.zeros(lon.size, dtype=bool)
    box_lo = corridor.line.min(axis=0) - 0.05
    box_hi = corridor.line.max(axis=0) + 0.05
    near = np.flatnonzero(
        (lon >= box_lo[0]) & (lon <= box_hi[0]) & (lat >= box_lo[1]) & (lat <= box_hi[1])
    )
    inside[near] = within(corridor.line, corridor.half_width_m, lon[near], lat[near])
    keys = [(a, b) for a, b in net.edges if inside[a] and inside[b]]
    if not keys:
        return []
    pairs = np.array(keys, dtype=np.int64)
    a, b = pairs[:, 0], pairs[:, 1]
    weights = np.maximum(lengths_between_m(lon[a], lat[a], lon[b], lat[b]), 1e-6)
    n = lon.size
    matrix = coo_matrix((weights, (pairs[:, 0], pairs[:, 1])), shape=(n, n)).tocsr()
    ends = []
    for x, y in (corridor.line[0], corridor.line[-1]):
        candidates = np.flatnonzero(inside)
        gaps = ((lon[candidates] - x) * np.cos(np.radians(y))) ** 2 + (lat[candidates] - y) ** 2
        ends.append(int(candidates[np.argmin(gaps)]))
    _, pred = dijkstra(matrix, directed=False, indices=ends[0], return_predecessors=True)
    if pred[ends[1]] < 0:
        return []
    path = [ends[1]]
    while path[-1] != ends[0]:
        path.append(int(pred[path[-1]]))
    return path[::-1]

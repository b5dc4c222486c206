"""A* search over the sea-lane graph's core: the compiled kernel, and its pure-Python twin.

The compiled ``_search.Core`` (``_search.c``) holds the core graph's arrays once per loaded
network and is what runs; :class:`CorePython` is its twin over :func:`astar_python`, which
documents the algorithm: the oracle in the tests, and the fallback if the extension was not
compiled. Both answer ``astar`` with ``(cost_m, core node path)`` or ``None``.
"""

from __future__ import annotations

import heapq
import math
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .geodesy import FloatArray, unit_vector

IntArray = npt.NDArray[np.int32]


class SearchKernel(Protocol):
    """What the compiled ``_search.Core`` and :class:`CorePython` answer, made once from the
    core graph's arrays (``indptr, indices, weights, edge_ids, edge_masks, xyz, h_scale``)."""

    def astar(
        self,
        blocked: int,
        sources: IntArray,
        source_costs: FloatArray,
        targets: IntArray,
        target_costs: FloatArray,
        goal_lon: float,
        goal_lat: float,
        landmarks: FloatArray,
        /,
    ) -> tuple[float, bytes | IntArray] | None:
        """Cost and core path from the cheapest source to the cheapest target (each with its
        offset in metres) over the core edges whose mask misses ``blocked``, bounded by the
        great circle to the goal point and by ``landmarks`` (core nodes x K, K may be 0)."""


class CorePython:
    """The twin of ``_search.Core``: the arrays held, :func:`astar_python` per call."""

    def __init__(
        self,
        indptr: IntArray,
        indices: IntArray,
        weights: FloatArray,
        edge_ids: IntArray,
        edge_masks: npt.NDArray[np.uint32],
        xyz: FloatArray,
        h_scale: float,
    ) -> None:
        self.indptr, self.indices, self.weights = indptr, indices, weights
        self.edge_ids, self.edge_masks = edge_ids, edge_masks
        self.xyz, self.h_scale = np.asarray(xyz).reshape(-1, 3), h_scale

    def astar(
        self,
        blocked: int,
        sources: IntArray,
        source_costs: FloatArray,
        targets: IntArray,
        target_costs: FloatArray,
        goal_lon: float,
        goal_lat: float,
        landmarks: FloatArray,
        /,
    ) -> tuple[float, IntArray] | None:
        """:func:`astar_python` with the goal's unit vector and landmark distances (the least
        over the targets of each landmark's distance to it plus its cost)."""
        goal = unit_vector(goal_lon, goal_lat)
        goal_landmarks = np.fmin.reduce(landmarks[targets] + target_costs[:, None], axis=0)
        return astar_python(
            self.indptr,
            self.indices,
            self.weights,
            self.edge_ids,
            self.edge_masks,
            blocked,
            self.h_scale,
            self.xyz,
            sources,
            source_costs,
            targets,
            target_costs,
            float(goal[0]),
            float(goal[1]),
            float(goal[2]),
            landmarks,
            goal_landmarks,
        )


def astar_python(
    indptr: IntArray,
    indices: IntArray,
    weights: FloatArray,
    edge_ids: IntArray,
    edge_masks: npt.NDArray[np.uint32],
    blocked: int,
    h_scale: float,
    xyz: FloatArray,
    sources: IntArray,
    source_costs: FloatArray,
    targets: IntArray,
    target_costs: FloatArray,
    gx: float,
    gy: float,
    gz: float,
    landmarks: FloatArray,
    goal_landmarks: FloatArray,
) -> tuple[float, IntArray] | None:
    """Multi-source, multi-target A*; sources and targets carry offsets in metres.

    The bound is the larger of the great-circle bound and the landmark (ALT) bounds.
    """

    def bound(node: int) -> float:
        dx, dy, dz = xyz[node, 0] - gx, xyz[node, 1] - gy, xyz[node, 2] - gz
        chord = math.sqrt(dx * dx + dy * dy + dz * dz)
        great_circle = h_scale * 2.0 * math.asin(min(1.0, 0.5 * chord))
        if goal_landmarks.size == 0:
            return great_circle
        gaps = np.abs(landmarks[node] - goal_landmarks)
        return (
            max(great_circle, float(np.nanmax(gaps)))
            if not np.all(np.isnan(gaps))
            else great_circle
        )

    to_goal: dict[int, float] = {}
    for t, cost in zip(targets.tolist(), target_costs.tolist(), strict=True):
        to_goal[t] = min(cost, to_goal.get(t, math.inf))
    g: dict[int, float] = {}
    pred: dict[int, int] = {}
    heap: list[tuple[float, int]] = []
    for s, cost in zip(sources.tolist(), source_costs.tolist(), strict=True):
        if cost < g.get(s, math.inf):
            g[s] = cost
            pred[s] = -1
            heapq.heappush(heap, (cost + bound(s), s))
    closed: set[int] = set()
    best, best_node = math.inf, -1
    while heap:
        key, u = heapq.heappop(heap)
        if key >= best:
            break
        if u in closed:
            continue
        closed.add(u)
        if g[u] + to_goal.get(u, math.inf) < best:
            best, best_node = g[u] + to_goal[u], u
        for e in range(int(indptr[u]), int(indptr[u + 1])):
            if int(edge_masks[edge_ids[e]]) & blocked:
                continue
            v = int(indices[e])
            candidate = g[u] + float(weights[e])
            if v not in closed and candidate < g.get(v, math.inf):
                g[v] = candidate
                pred[v] = u
                heapq.heappush(heap, (candidate + bound(v), v))
    if best_node < 0:
        return None
    path = [best_node]
    while pred[path[-1]] >= 0:
        path.append(pred[path[-1]])
    return best, np.array(path[::-1], dtype=np.int32)


def search_kernel(
    indptr: IntArray,
    indices: IntArray,
    weights: FloatArray,
    edge_ids: IntArray,
    edge_masks: npt.NDArray[np.uint32],
    xyz: FloatArray,
    h_scale: float,
) -> SearchKernel:
    """The compiled A* over the core graph's arrays, or the twin where it was not built."""
    arrays = (indptr, indices, weights, edge_ids, edge_masks, xyz)
    try:
        from sealane.routing._search import Core
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return CorePython(*arrays, h_scale)
    kernel: SearchKernel = Core(*arrays, h_scale)
    return kernel

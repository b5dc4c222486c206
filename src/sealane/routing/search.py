"""A* search over the sea-lane graph: the compiled kernel, and its pure-Python twin.

Both functions take the same arguments and return ``(cost_m, node_path)`` or ``None``. The C
kernel (``_search.c``) is what runs; the Python twin documents the algorithm, serves as the oracle
in the tests and takes over if the extension was not compiled.
"""

from __future__ import annotations

import heapq
import math
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .geodesy import FloatArray

IntArray = npt.NDArray[np.int32]


class SearchKernel(Protocol):
    """Signature shared by the compiled kernel and :func:`astar_python`."""

    def __call__(
        self,
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
        /,
    ) -> tuple[float, bytes | IntArray] | None: ...


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


def _compiled() -> SearchKernel:
    try:
        from sealane.routing import _search
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return astar_python
    kernel: SearchKernel = _search.astar
    return kernel


astar = _compiled()

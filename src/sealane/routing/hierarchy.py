"""The contraction-hierarchy search: the route under the default passages in a few hundred steps.

The build (``build_hierarchy``) ranks the core nodes and keeps, per node, its edges to more
important nodes (core edges and shortcuts, each shortcut with the node it bypasses). A query
climbs from both ends at once, skipping a node that a more important node already reaches more
cheaply (stall on demand), and stops when neither climb can improve the best meeting found; the
path is then unpacked, shortcut by shortcut, into core nodes. Only the default restriction set
has a hierarchy (shortcuts assume its passages); any other set is searched by A*.

:func:`climb_python` is the pure-Python twin of the compiled kernel (``_search.c``): the oracle
in the tests and the fallback when the extension was not compiled.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .geodesy import FloatArray

IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True)
class CoreHierarchy:
    """The hierarchy as loaded from ``marnet.npz``, and the passages it assumes closed."""

    closed: int
    up_ptr: IntArray
    up_head: IntArray
    up_weight: FloatArray
    up_middle: IntArray

    @classmethod
    def load(cls, arrays: dict[str, np.ndarray]) -> CoreHierarchy | None:
        """The hierarchy in ``arrays``, or None for a file written without one."""
        if "hierarchy_up_ptr" not in arrays:
            return None
        return cls(
            closed=int(arrays["hierarchy_closed"]),
            up_ptr=np.ascontiguousarray(arrays["hierarchy_up_ptr"], dtype=np.int32),
            up_head=np.ascontiguousarray(arrays["hierarchy_up_head"], dtype=np.int32),
            up_weight=np.ascontiguousarray(arrays["hierarchy_up_weight"], dtype=np.float64),
            up_middle=np.ascontiguousarray(arrays["hierarchy_up_middle"], dtype=np.int32),
        )

    def shortest(
        self,
        sources: IntArray,
        source_costs: FloatArray,
        targets: IntArray,
        target_costs: FloatArray,
    ) -> tuple[float, bytes | IntArray] | None:
        """Cost and core path from the cheapest source to the cheapest target, or None."""
        return climb(
            self.up_ptr,
            self.up_head,
            self.up_weight,
            self.up_middle,
            sources,
            source_costs,
            targets,
            target_costs,
        )


class ClimbKernel(Protocol):
    """Signature shared by the compiled query and :func:`climb_python`."""

    def __call__(
        self,
        up_ptr: IntArray,
        up_head: IntArray,
        up_weight: FloatArray,
        up_middle: IntArray,
        sources: IntArray,
        source_costs: FloatArray,
        targets: IntArray,
        target_costs: FloatArray,
        /,
    ) -> tuple[float, bytes | IntArray] | None: ...


def climb_python(
    up_ptr: IntArray,
    up_head: IntArray,
    up_weight: FloatArray,
    up_middle: IntArray,
    sources: IntArray,
    source_costs: FloatArray,
    targets: IntArray,
    target_costs: FloatArray,
) -> tuple[float, IntArray] | None:
    """Cost and core-node path of the shortest route from any source to any target (each with
    its offset in metres), or None when they are not connected."""
    dist: tuple[dict[int, float], dict[int, float]] = ({}, {})
    parent: tuple[dict[int, int], dict[int, int]] = ({}, {})
    heaps: tuple[list[tuple[float, int]], list[tuple[float, int]]] = ([], [])
    for side, (nodes, costs) in enumerate(((sources, source_costs), (targets, target_costs))):
        for node, cost in zip(nodes.tolist(), costs.tolist(), strict=True):
            if cost < dist[side].get(node, math.inf):
                dist[side][node] = cost
                parent[side][node] = -1
                heapq.heappush(heaps[side], (cost, node))
    best, meet = math.inf, -1
    while True:
        tops = [h[0][0] if h else math.inf for h in heaps]
        side = 0 if tops[0] <= tops[1] else 1
        if tops[side] >= best:
            break
        d, x = heapq.heappop(heaps[side])
        if d > dist[side][x]:
            continue
        across = dist[1 - side].get(x, math.inf)
        if d + across < best:
            best, meet = d + across, x
        edges = range(int(up_ptr[x]), int(up_ptr[x + 1]))
        if any(dist[side].get(int(up_head[e]), math.inf) + up_weight[e] < d for e in edges):
            continue  # stalled: a more important node reaches x more cheaply
        for e in edges:
            y, nd = int(up_head[e]), d + float(up_weight[e])
            if nd < dist[side].get(y, math.inf):
                dist[side][y] = nd
                parent[side][y] = e
                heapq.heappush(heaps[side], (nd, y))
    if meet < 0:
        return None
    up = _climbed(up_ptr, up_head, parent[0], meet)
    down = _climbed(up_ptr, up_head, parent[1], meet)
    path = [up[0]]
    for a, b in zip(up[:-1] + down[::-1][:-1], up[1:] + down[::-1][1:], strict=True):
        path.extend(_unpacked(up_ptr, up_head, up_middle, a, b)[1:])
    return best, np.array(path, dtype=np.int32)


def _climbed(up_ptr: IntArray, up_head: IntArray, parent: dict[int, int], top: int) -> list[int]:
    """Nodes from a search's start up to ``top``, following the edges that reached them."""
    nodes = [top]
    while parent[nodes[-1]] >= 0:
        e = parent[nodes[-1]]
        nodes.append(int(np.searchsorted(up_ptr, e, side="right")) - 1)
    return nodes[::-1]


def _unpacked(
    up_ptr: IntArray, up_head: IntArray, up_middle: IntArray, a: int, b: int
) -> list[int]:
    """Core nodes from ``a`` to ``b`` along the hierarchy edge joining them, shortcuts opened."""
    low, high = (a, b) if _has(up_ptr, up_head, a, b) else (b, a)
    middle = int(up_middle[_edge(up_ptr, up_head, low, high)])
    if middle < 0:
        return [a, b]
    return _unpacked(up_ptr, up_head, up_middle, a, middle)[:-1] + _unpacked(
        up_ptr, up_head, up_middle, middle, b
    )


def _has(up_ptr: IntArray, up_head: IntArray, low: int, high: int) -> bool:
    return bool((up_head[up_ptr[low] : up_ptr[low + 1]] == high).any())


def _edge(up_ptr: IntArray, up_head: IntArray, low: int, high: int) -> int:
    row = np.flatnonzero(up_head[up_ptr[low] : up_ptr[low + 1]] == high)
    return int(up_ptr[low]) + int(row[0])


def _compiled() -> ClimbKernel:
    try:
        from sealane.routing import _hierarchy
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return climb_python
    kernel: ClimbKernel = _hierarchy.climb
    return kernel


climb = _compiled()

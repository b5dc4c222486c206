"""The contraction-hierarchy search: a route under any closed passages in a few hundred steps.

The build (:mod:`.build.contraction`, :mod:`.build.masked_contraction`) ranks the core nodes and
keeps, per node, its edges to more important nodes (core edges and shortcuts, each shortcut with
the node it bypasses and the two edges it stands for). A query climbs from both ends at once,
skipping a node that a more important node already reaches more cheaply (stall on demand), and
stops when neither climb can improve the best meeting found; the path is then unpacked, shortcut
by shortcut, into core nodes. The default restriction set has a hierarchy of its own (its
shortcuts assume those passages closed); any other set is searched in the masked hierarchy (every
edge and shortcut carries the passage bits of the lanes it stands for), skipping the edges whose
bits meet the closed passages. An end searched again and again (a port) may keep its whole
climb, the space of every node it settles: two kept climbs meet without a search, and one meets
the other end's climb alone (:mod:`.paths` decides when).

:class:`HierarchyPython` is the pure-Python twin of the compiled
``_hierarchy.Hierarchy`` (``_hierarchy.c``), which holds a hierarchy's arrays once per loaded
network: the oracle in the tests and the fallback when the extension was not compiled.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from .geodesy import FloatArray

if TYPE_CHECKING:
    from .data.formats import Arrays, HierarchyArrays

IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True)
class CoreHierarchy:
    """A hierarchy as loaded from ``marnet.npz``: the passages it assumes closed (None for the
    masked hierarchy, which takes any) and its upward edges with their passage masks."""

    closed: int | None
    up_ptr: IntArray
    up_head: IntArray
    up_weight: FloatArray
    up_middle: IntArray
    up_children: IntArray
    up_mask: npt.NDArray[np.uint32]
    #: The query over these arrays, held once (:func:`hierarchy_kernel`).
    kernel: ClimbKernel = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kernel", hierarchy_kernel(*self.arrays()))

    def arrays(self) -> tuple[npt.NDArray[np.generic], ...]:
        """The arrays in the order the kernels take them."""
        return (
            self.up_ptr,
            self.up_head,
            self.up_weight,
            self.up_middle,
            self.up_children,
            self.up_mask,
        )

    @classmethod
    def load(cls, arrays: Arrays, stored: HierarchyArrays) -> CoreHierarchy | None:
        """The hierarchy ``stored`` in a graph file's arrays (``Marnet.HIERARCHY`` or
        ``Marnet.MASKED``), or None for a file written without it."""
        if not (stored.up_ptr.present(arrays) and stored.up_children.present(arrays)):
            return None  # none, or one written before shortcuts kept their edges: A* searches
        head = np.ascontiguousarray(stored.up_head.read(arrays))
        mask = (
            stored.up_mask.read(arrays)
            if stored.up_mask.present(arrays)
            else np.zeros(head.size, dtype=np.uint32)
        )
        closed = stored.closed.read(arrays) if stored.closed.present(arrays) else None
        up = (
            np.ascontiguousarray(stored.up_ptr.read(arrays)),
            head,
            np.ascontiguousarray(stored.up_weight.read(arrays)),
            np.ascontiguousarray(stored.up_middle.read(arrays)),
            np.ascontiguousarray(stored.up_children.read(arrays)),
            np.ascontiguousarray(mask, dtype=np.uint32),
        )
        if not consistent(*up):
            raise ValueError(f"marnet.npz: the arrays of the {stored.name} hierarchy do not agree")
        return cls(None if closed is None else int(closed), *up)

    def serves(self, blocked: int) -> bool:
        """Whether a search with the ``blocked`` passages closed may use this hierarchy."""
        return self.closed is None or self.closed == blocked

    def shortest(
        self,
        sources: IntArray,
        source_costs: FloatArray,
        targets: IntArray,
        target_costs: FloatArray,
        blocked: int,
    ) -> tuple[float, bytes | IntArray] | None:
        """Cost and core path from the cheapest source to the cheapest target avoiding edges
        whose mask meets ``blocked``, or None."""
        return self.kernel.climb(blocked, sources, source_costs, targets, target_costs)


def consistent(
    up_ptr: IntArray,
    up_head: IntArray,
    up_weight: FloatArray,
    up_middle: IntArray,
    up_children: IntArray,
    up_mask: npt.NDArray[np.uint32],
) -> bool:
    """Whether a hierarchy's arrays fit together, so the query never reads outside them: checked
    once at load (a millisecond) rather than on every call (the compiled query checks again)."""
    nodes, edges = up_ptr.size - 1, up_head.size
    return bool(
        nodes >= 1
        and up_ptr[0] == 0
        and up_ptr[-1] == edges
        and (np.diff(up_ptr) >= 0).all()
        and up_weight.size == edges
        and up_middle.size == edges
        and up_mask.size == edges
        and up_children.shape == (edges, 2)
        and ((up_head >= 0) & (up_head < nodes)).all()
        and ((up_middle >= -1) & (up_middle < nodes)).all()
        and ((up_children >= -1) & (up_children < edges)).all()
    )


class ClimbKernel(Protocol):
    """What the compiled ``_hierarchy.Hierarchy`` and :class:`HierarchyPython` answer, made
    once from a hierarchy's arrays (``up_ptr, up_head, up_weight, up_middle, up_children,
    up_mask``), hashable by identity (a remembered climb is keyed by its query)."""

    def __hash__(self) -> int: ...

    def climb(
        self,
        blocked: int,
        sources: IntArray,
        source_costs: FloatArray,
        targets: IntArray,
        target_costs: FloatArray,
        /,
    ) -> tuple[float, bytes | IntArray] | None:
        """Cost and core path from the cheapest source to the cheapest target (each with its
        offset in metres) over the edges whose mask misses ``blocked``, or None."""

    def space(self, blocked: int, ends: IntArray, costs: FloatArray, /) -> object:
        """The whole space the climb from ``ends`` settles, labels and all."""

    def meet(
        self, origin_space: object, destination_space: object, /
    ) -> tuple[float, bytes | IntArray] | None:
        """The shortest route between two ends by their spaces alone."""

    def climb_to(
        self, blocked: int, space: object, known_side: int, ends: IntArray, costs: FloatArray, /
    ) -> tuple[float, bytes | IntArray] | None:
        """The route between a known space (the origin's for ``known_side`` 0) and ``ends``."""


class _Side(NamedTuple):
    """One side of a climb: each node's metres from the side's ends, the edge that reached it
    (-1 at an end), and the heap of nodes still to settle (empty for a known space)."""

    dist: dict[int, float]
    via: dict[int, int]
    heap: list[tuple[float, int]]

    @classmethod
    def from_ends(cls, nodes: IntArray, costs: FloatArray) -> _Side:
        side = cls({}, {}, [])
        for node, cost in zip(nodes.tolist(), costs.tolist(), strict=True):
            if cost < side.dist.get(node, math.inf):
                side.dist[node] = cost
                side.via[node] = -1
                heapq.heappush(side.heap, (cost, node))
        return side

    def known(self) -> _Side:
        """A copy of the labels, with nothing left to settle."""
        return _Side(dict(self.dist), dict(self.via), [])


class HierarchyPython:
    """The twin of ``_hierarchy.Hierarchy``: the arrays held, the climbs made in Python. Its
    spaces are the settled side's labels (:class:`_Side`) where the compiled query's are bytes.
    """

    def __init__(self, *arrays: npt.NDArray[np.generic]) -> None:
        up_ptr, up_head, up_weight, up_middle, up_children, up_mask = arrays
        self.up_ptr, self.up_head = np.asarray(up_ptr, np.int32), np.asarray(up_head, np.int32)
        self.up_weight = np.asarray(up_weight, np.float64)
        self.up_middle = np.asarray(up_middle, np.int32)
        self.up_children = np.asarray(up_children, np.int32).reshape(-1, 2)
        self.up_mask = np.asarray(up_mask, np.uint32)

    def climb(
        self,
        blocked: int,
        sources: IntArray,
        source_costs: FloatArray,
        targets: IntArray,
        target_costs: FloatArray,
        /,
    ) -> tuple[float, IntArray] | None:
        """Cost and core-node path of the shortest route from any source to any target (each
        with its offset in metres) over the edges whose mask misses ``blocked``, or None when
        they are not connected."""
        sides = (_Side.from_ends(sources, source_costs), _Side.from_ends(targets, target_costs))
        return self._path(sides, *self._meet(blocked, sides))

    def space(self, blocked: int, ends: IntArray, costs: FloatArray, /) -> _Side:
        """Every node the climb from ``ends`` settles, with its label: the whole space upward of
        them, which meets any other end's (an end searched again and again is climbed once)."""
        side = _Side.from_ends(ends, costs)
        self._meet(blocked, (side, _Side({}, {}, [])))
        return side.known()

    def meet(
        self, origin_space: object, destination_space: object, /
    ) -> tuple[float, IntArray] | None:
        """The shortest route between two ends by their spaces alone."""
        up, down = _as_side(origin_space), _as_side(destination_space)
        best, meet = min(
            ((up.dist[x] + d, x) for x, d in sorted(down.dist.items()) if x in up.dist),
            default=(math.inf, -1),
        )
        return self._path((up, down), best, meet)

    def climb_to(
        self, blocked: int, space: object, known_side: int, ends: IntArray, costs: FloatArray, /
    ) -> tuple[float, IntArray] | None:
        """The route between a known space (the origin's when ``known_side`` is 0, else the
        destination's) and ``ends``, climbing from the ends alone."""
        known, other = _as_side(space).known(), _Side.from_ends(ends, costs)
        sides = (known, other) if known_side == 0 else (other, known)
        return self._path(sides, *self._meet(blocked, sides))

    def _meet(self, blocked: int, sides: tuple[_Side, _Side]) -> tuple[float, int]:
        """Both climbs (a side with nothing to settle only met) until neither can improve the
        best meeting: its cost and node (-1: none)."""
        up_ptr, up_head, up_weight, up_mask = (
            self.up_ptr,
            self.up_head,
            self.up_weight,
            self.up_mask,
        )
        best, meet = math.inf, -1
        while True:
            tops = [s.heap[0][0] if s.heap else math.inf for s in sides]
            side = 0 if tops[0] <= tops[1] else 1
            if tops[side] >= best:
                return best, meet
            dist, via, heap = sides[side]
            d, x = heapq.heappop(heap)
            if d > dist[x]:
                continue
            across = sides[1 - side].dist.get(x, math.inf)
            if d + across < best:
                best, meet = d + across, x
            edges = [
                e
                for e in range(int(up_ptr[x]), int(up_ptr[x + 1]))
                if not int(up_mask[e]) & blocked
            ]
            if any(dist.get(int(up_head[e]), math.inf) + up_weight[e] < d for e in edges):
                continue  # stalled: a more important node reaches x more cheaply
            for e in edges:
                y, nd = int(up_head[e]), d + float(up_weight[e])
                if nd < dist.get(y, math.inf):
                    dist[y] = nd
                    via[y] = e
                    heapq.heappush(heap, (nd, y))

    def _path(
        self, sides: tuple[_Side, _Side], best: float, meet: int
    ) -> tuple[float, IntArray] | None:
        """The core nodes from a source up to ``meet`` and down to a target, each shortcut
        opened into the two edges it stands for."""
        if meet < 0:
            return None
        up = _climbed(self.up_ptr, sides[0].via, meet)
        down = _climbed(self.up_ptr, sides[1].via, meet)[::-1]
        arrays = (self.up_head, self.up_middle, self.up_children)
        path = [up[0][0]]
        try:
            for (a, _), (b, e) in pairwise(up):
                path.extend(_opened(*arrays, a, b, e)[1:])
            for (a, e), (b, _) in pairwise(down):
                path.extend(_opened(*arrays, a, b, e)[1:])
        except RecursionError:  # children that lead back to themselves
            raise ValueError("climb: a path step is not a hierarchy edge") from None
        return best, np.array(path, dtype=np.int32)


def _as_side(space: object) -> _Side:
    if not isinstance(space, _Side):
        raise TypeError("a space must be what HierarchyPython.space made")
    return space


def hierarchy_kernel(*arrays: npt.NDArray[np.generic]) -> ClimbKernel:
    """The compiled query over a hierarchy's arrays, or the twin where it was not built."""
    try:
        from sealane.routing._hierarchy import Hierarchy
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return HierarchyPython(*arrays)
    kernel: ClimbKernel = Hierarchy(*arrays)
    return kernel


def _climbed(up_ptr: IntArray, via: dict[int, int], top: int) -> list[tuple[int, int]]:
    """Nodes from a search's start up to ``top``, each with the edge that reached it (-1 at the
    start); an edge is listed at the node it was relaxed from."""
    steps: list[tuple[int, int]] = []
    node = top
    while True:
        edge = via[node]
        steps.append((node, edge))
        if edge < 0:
            return steps[::-1]
        node = int(np.searchsorted(up_ptr, edge, side="right")) - 1


def _opened(
    up_head: IntArray, up_middle: IntArray, up_children: IntArray, a: int, b: int, edge: int
) -> list[int]:
    """Core nodes from ``a`` to ``b`` along hierarchy edge ``edge``, shortcuts opened into the
    two edges each stands for (the one that touches ``a`` first)."""
    if int(up_head[edge]) not in (a, b):
        raise ValueError("climb: a path step is not a hierarchy edge")
    middle = int(up_middle[edge])
    if middle < 0:
        return [a, b]
    first, second = (int(c) for c in up_children[edge])
    if int(up_head[first]) != a:
        first, second = second, first
    return _opened(up_head, up_middle, up_children, a, middle, first)[:-1] + _opened(
        up_head, up_middle, up_children, middle, b, second
    )

"""A contraction hierarchy over the core graph, for routes under the default passages (any
other set of closed passages is searched in the hierarchy of :mod:`.masked_contraction`).

Nodes are contracted one by one, least important first (edge and hop difference, contracted
neighbours and level, updated lazily); contracting a node adds a shortcut between two of its
neighbours when no other path (a bounded witness search) is as short. The search then only
climbs: from both ends it relaxes edges towards more important nodes, and the two climbs meet.
Each shortcut keeps the node it bypasses, so a path unpacks into core nodes. Build-time only.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from ..geodesy import FloatArray

IntArray = npt.NDArray[np.int32]
Up = TypeVar("Up")
Added = TypeVar("Added")

#: Nodes a witness search may settle before it gives up (and the shortcut is added).
WITNESS_SETTLED = 500
#: Weights of the edge difference and of the core-edge (hop) difference in a node's priority,
#: against its contracted neighbours and level.
EDGE_WEIGHT = 2
HOP_WEIGHT = 1


@dataclass(frozen=True)
class Hierarchy:
    """Upward edges in CSR form: from each node, the edges to more important nodes, with their
    weights and the bypassed node (-1 for a core edge); and each node's rank."""

    rank: IntArray
    up_ptr: IntArray
    up_head: IntArray
    up_weight: FloatArray
    up_middle: IntArray
    #: Passage bits of each upward edge (none in a hierarchy built for one closed set).
    up_mask: npt.NDArray[np.uint32]
    #: (edges, 2): the two upward edges a shortcut stands for, from its owner's side first as
    #: built (-1 for a core edge); the query unpacks by them.
    up_children: IntArray


def contract(count: int, tails: IntArray, heads: IntArray, weights: FloatArray) -> Hierarchy:
    """The hierarchy of an undirected graph of ``count`` nodes (edges listed once each; of
    parallel edges the lightest counts)."""
    state = _Contraction(count)
    for a, b, w in zip(tails.tolist(), heads.tolist(), weights.tolist(), strict=True):
        if a != b and w < state.adj[a].get(b, np.inf):
            state.adj[a][b] = state.adj[b][a] = w
    rank, upward = contracted(count, state)
    return _packed(rank, upward)


class Contractible(Protocol[Up, Added]):
    """A graph being contracted, as :func:`contracted` drives it."""

    def priority(self, v: int) -> tuple[int, Added]:
        """How late ``v`` should go, and what contracting it now would add."""

    def upward(self, v: int) -> list[Up]:
        """The edges ``v`` has left (all to more important nodes, when it goes)."""

    def remove(self, v: int, added: Added) -> None:
        """Contract ``v``, adding what ``priority`` found."""


def contracted(count: int, state: Contractible[Up, Added]) -> tuple[IntArray, list[list[Up]]]:
    """Each node's rank and upward edges: nodes contracted least important first, priorities
    updated lazily (a node whose priority got worse goes back into the queue)."""
    heap = [(state.priority(v)[0], v) for v in range(count)]
    heapq.heapify(heap)
    rank = np.full(count, -1, dtype=np.int32)
    upward: list[list[Up]] = [[] for _ in range(count)]
    order = 0
    while heap:
        _, v = heapq.heappop(heap)
        if rank[v] >= 0:
            continue
        now, added = state.priority(v)
        if heap and now > heap[0][0]:
            heapq.heappush(heap, (now, v))
            continue
        upward[v] = state.upward(v)
        state.remove(v, added)
        rank[v] = order
        order += 1
    return rank, upward


class _Contraction:
    """The graph being contracted: remaining edges, and per shortcut the node it bypasses and
    the number of core edges it stands for; per node its contracted neighbours and level."""

    def __init__(self, count: int) -> None:
        self.adj: list[dict[int, float]] = [{} for _ in range(count)]
        self.middle: dict[tuple[int, int], int] = {}
        self.hops: dict[tuple[int, int], int] = {}
        self.gone_around = np.zeros(count, dtype=np.int64)
        self.level = np.zeros(count, dtype=np.int64)

    def priority(self, v: int) -> tuple[int, list[tuple[int, int, float]]]:
        """Contract first the nodes that add fewest edges (and fewest core edges behind them),
        with fewest neighbours gone and lowest in the hierarchy: spread evenly over the graph.
        Returns the priority and the shortcuts contracting ``v`` now would add."""
        added = _shortcuts(self.adj, v)
        edges = len(added) - len(self.adj[v])
        hops = sum(self._hops(a, v) + self._hops(v, b) for a, b, _ in added) - sum(
            self._hops(v, w) for w in self.adj[v]
        )
        rest = int(self.gone_around[v] + self.level[v])
        return EDGE_WEIGHT * edges + HOP_WEIGHT * hops + rest, added

    def upward(self, v: int) -> list[tuple[int, float, int]]:
        """The edges ``v`` has left: head, length and the node a shortcut bypasses (or -1)."""
        return [(w, length, self.middle.get(_key(v, w), -1)) for w, length in self.adj[v].items()]

    def remove(self, v: int, added: list[tuple[int, int, float]]) -> None:
        """Contract ``v``: add the shortcuts it needs (``priority`` found them), then drop it."""
        for a, b, length in added:
            self.adj[a][b] = self.adj[b][a] = length
            self.middle[_key(a, b)] = v
            self.hops[_key(a, b)] = self._hops(a, v) + self._hops(v, b)
        for w in self.adj[v]:
            del self.adj[w][v]
            self.gone_around[w] += 1
            self.level[w] = max(self.level[w], self.level[v] + 1)
        self.adj[v] = {}

    def _hops(self, a: int, b: int) -> int:
        return self.hops.get(_key(a, b), 1)


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _shortcuts(adj: list[dict[int, float]], v: int) -> list[tuple[int, int, float]]:
    """Shortcuts contracting ``v`` needs: pairs of its neighbours whose path through ``v`` no
    witness path avoiding ``v`` matches."""
    out: list[tuple[int, int, float]] = []
    near = sorted(adj[v].items(), key=lambda item: item[1])
    for i, (a, wa) in enumerate(near[:-1]):
        limits = {b: wa + wb for b, wb in near[i + 1 :]}
        found = witness(lambda x: adj[x].items(), a, v, max(limits.values()), set(limits))
        out.extend((a, b, limit) for b, limit in limits.items() if found.get(b, np.inf) > limit)
    return out


def witness(
    neighbours: Callable[[int], Iterable[tuple[int, float]]],
    source: int,
    skip: int,
    bound: float,
    wanted: set[int],
) -> dict[int, float]:
    """Distances from ``source`` avoiding ``skip``, up to ``bound`` and ``WITNESS_SETTLED``
    settled nodes (a distance not found counts as no witness); ``neighbours(x)`` gives the
    (node, length) pairs a witness may take from ``x``."""
    dist = {source: 0.0}
    heap = [(0.0, source)]
    settled = 0
    left = set(wanted)
    while heap and settled < WITNESS_SETTLED and left:
        d, x = heapq.heappop(heap)
        if d > dist.get(x, np.inf):
            continue
        if d > bound:
            break
        settled += 1
        left.discard(x)
        for y, w in neighbours(x):
            if y != skip and d + w < dist.get(y, np.inf):
                dist[y] = d + w
                heapq.heappush(heap, (d + w, y))
    return dist


def _packed(rank: IntArray, upward: list[list[tuple[int, float, int]]]) -> Hierarchy:
    """The upward lists as CSR arrays; a shortcut's two edges are found at the node it
    bypasses (each pair of nodes has one edge here)."""
    counts = np.array([len(edges) for edges in upward], dtype=np.int64)
    flat = [(v, *edge) for v, edges in enumerate(upward) for edge in edges]
    index = {(v, head): i for i, (v, head, _, _) in enumerate(flat)}
    children = [
        (-1, -1) if middle < 0 else (index[(middle, v)], index[(middle, head)])
        for v, head, _, middle in flat
    ]
    return Hierarchy(
        rank=rank,
        up_ptr=np.concatenate([[0], np.cumsum(counts)]).astype(np.int32),
        up_head=np.array([e[1] for e in flat], dtype=np.int32),
        up_weight=np.array([e[2] for e in flat], dtype=np.float64),
        up_middle=np.array([e[3] for e in flat], dtype=np.int32),
        up_mask=np.zeros(len(flat), dtype=np.uint32),
        up_children=np.array(children, dtype=np.int32).reshape(-1, 2),
    )

"""A contraction hierarchy for any set of closed passages: every edge and shortcut carries the
passage bits of the lanes it stands for, and a search skips those whose bits meet the closed set.

Contracting a node joins each two of its neighbours by a shortcut per pair of their edges, with
the length of both and the union of their passage bits, unless a witness path avoiding the node
is as short and passes through no passage the shortcut does not (its bits a subset of the
shortcut's): whatever is closed, such a witness is open whenever the shortcut would be. Two
edges between the same nodes are both kept unless one is as short and in no more passages, so a
pair may be joined several times. Each shortcut records the two edges it stands for, so a path
unpacks exactly. Nodes go least important first, as in :mod:`.contraction`. Build-time only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt

from ..geodesy import FloatArray
from .contraction import EDGE_WEIGHT, HOP_WEIGHT, Hierarchy, contracted, witness

IntArray = npt.NDArray[np.int32]
#: A shortcut a contraction would add: ends, length, passage bits, the two edges it stands for.
Shortcut = tuple[int, int, float, int, int, int]


def contract_masked(
    count: int,
    tails: IntArray,
    heads: IntArray,
    weights: FloatArray,
    masks: npt.NDArray[np.uint32],
) -> Hierarchy:
    """The hierarchy of an undirected graph of ``count`` nodes whose edges carry passage bits."""
    state = _Masked(count)
    edges = zip(tails.tolist(), heads.tolist(), weights.tolist(), masks.tolist(), strict=True)
    for a, b, w, m in edges:
        if a != b:
            state.insert(a, b, w, m, (-1, -1))
    rank, upward = contracted(count, state)
    return state.packed(rank, upward)


class _Masked:
    """The graph being contracted: every edge and shortcut made (ends, length, bits, the two
    edges a shortcut stands for, the core edges behind it), and per node and neighbour the
    edges between them that no other one dominates."""

    def __init__(self, count: int) -> None:
        self.ends: list[tuple[int, int]] = []
        self.length: list[float] = []
        self.mask: list[int] = []
        self.children: list[tuple[int, int]] = []
        self.hops: list[int] = []
        self.adj: list[dict[int, list[int]]] = [{} for _ in range(count)]
        self.gone_around = np.zeros(count, dtype=np.int64)
        self.level = np.zeros(count, dtype=np.int64)

    def insert(self, a: int, b: int, length: float, mask: int, children: tuple[int, int]) -> None:
        """Join ``a`` and ``b`` unless an edge between them is as short and in no more passages;
        drop the ones the new edge dominates in turn."""
        pair = self.adj[a].get(b, [])
        if any(self.length[e] <= length and not self.mask[e] & ~mask for e in pair):
            return
        kept = [e for e in pair if not (length <= self.length[e] and not mask & ~self.mask[e])]
        self.ends.append((a, b))
        self.length.append(length)
        self.mask.append(mask)
        self.children.append(children)
        self.hops.append(1 if children[0] < 0 else self.hops[children[0]] + self.hops[children[1]])
        kept.append(len(self.ends) - 1)
        self.adj[a][b] = self.adj[b][a] = kept

    def priority(self, v: int) -> tuple[int, list[Shortcut]]:
        """As ``contraction``: edge and hop difference, contracted neighbours and level;
        with the shortcuts contracting ``v`` now would add."""
        added = self._shortcuts(v)
        mine = self.upward(v)
        edges = len(added) - len(mine)
        hops = sum(self.hops[x] + self.hops[y] for *_, x, y in added)
        hops -= sum(self.hops[e] for e in mine)
        rest = int(self.gone_around[v] + self.level[v])
        return EDGE_WEIGHT * edges + HOP_WEIGHT * hops + rest, added

    def upward(self, v: int) -> list[int]:
        """The edges ``v`` has left (ids), all to more important nodes when it goes."""
        return [e for entries in self.adj[v].values() for e in entries]

    def remove(self, v: int, added: list[Shortcut]) -> None:
        """Contract ``v``: add its shortcuts, then drop it."""
        for a, b, length, mask, x, y in added:
            self.insert(a, b, length, mask, (x, y))
        for w in self.adj[v]:
            del self.adj[w][v]
            self.gone_around[w] += 1
            self.level[w] = max(self.level[w], self.level[v] + 1)
        self.adj[v] = {}

    def _shortcuts(self, v: int) -> list[Shortcut]:
        """For each two neighbours and each pair of their edges to ``v``, the shortcut no
        witness (avoiding ``v``, in no passage the shortcut is not in) makes unnecessary."""
        near = list(self.adj[v].items())
        wanted: dict[tuple[int, int], list[Shortcut]] = defaultdict(list)
        for i, (a, to_a) in enumerate(near):
            for b, to_b in near[i + 1 :]:
                for x in to_a:
                    for y in to_b:
                        length = self.length[x] + self.length[y]
                        mask = self.mask[x] | self.mask[y]
                        wanted[(a, mask)].append((a, b, length, mask, x, y))
        out: list[Shortcut] = []
        for (a, mask), candidates in wanted.items():
            bound = max(c[2] for c in candidates)
            found = witness(self._open_to(mask), a, v, bound, {c[1] for c in candidates})
            out.extend(c for c in candidates if found.get(c[1], np.inf) > c[2])
        return out

    def _open_to(self, allowed: int) -> Callable[[int], Iterator[tuple[int, float]]]:
        """The (neighbour, length) pairs a witness may take from a node: edges in no passage
        outside ``allowed``."""

        def neighbours(x: int) -> Iterator[tuple[int, float]]:
            for y, entries in self.adj[x].items():
                for e in entries:
                    if not self.mask[e] & ~allowed:
                        yield y, self.length[e]

        return neighbours

    def packed(self, rank: IntArray, upward: list[list[int]]) -> Hierarchy:
        """The upward lists as CSR arrays, each shortcut with its bypassed node and the
        indices of the two upward edges it stands for."""
        flat = [(v, e) for v, entries in enumerate(upward) for e in entries]
        index = {e: i for i, (_, e) in enumerate(flat)}
        counts = np.array([len(entries) for entries in upward], dtype=np.int64)
        heads, middles, children = [], [], []
        for v, e in flat:
            a, b = self.ends[e]
            heads.append(b if a == v else a)
            x, y = self.children[e]
            middles.append(-1 if x < 0 else self._shared(x, y))
            children.append((-1, -1) if x < 0 else (index[x], index[y]))
        return Hierarchy(
            rank=rank,
            up_ptr=np.concatenate([[0], np.cumsum(counts)]).astype(np.int32),
            up_head=np.array(heads, dtype=np.int32),
            up_weight=np.array([self.length[e] for _, e in flat], dtype=np.float64),
            up_middle=np.array(middles, dtype=np.int32),
            up_mask=np.array([self.mask[e] for _, e in flat], dtype=np.uint32),
            up_children=np.array(children, dtype=np.int32).reshape(-1, 2),
        )

    def _shared(self, x: int, y: int) -> int:
        """The node two edges share (the one a shortcut over them bypasses)."""
        (a, b), (c, d) = self.ends[x], self.ends[y]
        return a if a in (c, d) else b

"""The search graph of the network: chains of degree-2 nodes folded into single edges.

The repaired network has many nodes that only carry geometry (re-routed edges, corridors, port
approaches): every node of degree 2 whose two edges carry the same passage bits. Folding each run
of them into one "chain" edge between two core nodes keeps the graph the A* search walks about as
small as searoute's, while the engine still snaps to and draws every node. Two chains joining the
same pair of core nodes, or a chain that returns to its start, get their middle node promoted to
a core node, so a pair of core nodes names one chain. Build-time only.
"""

from __future__ import annotations

import numpy as np

from ..data.formats import Marnet
from ..geodesy import FloatArray


def core_nodes(n: int, u: np.ndarray, v: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Nodes that end chains: degree other than 2, or two edges with different passage bits."""
    degree = np.bincount(u, minlength=n) + np.bincount(v, minlength=n)
    core = degree != 2
    first = np.full(n, -1, dtype=np.int64)
    for e, (a, b) in enumerate(zip(u.tolist(), v.tolist(), strict=True)):
        for node in (a, b):
            if first[node] < 0:
                first[node] = e
            elif masks[first[node]] != masks[e]:
                core[node] = True
    return np.asarray(core, dtype=bool)


def _incident(n: int, u: np.ndarray, v: np.ndarray) -> list[list[int]]:
    """Edge ids at each node."""
    out: list[list[int]] = [[] for _ in range(n)]
    for e, (a, b) in enumerate(zip(u.tolist(), v.tolist(), strict=True)):
        out[a].append(e)
        out[b].append(e)
    return out


def walk_chains(
    core: np.ndarray, u: np.ndarray, v: np.ndarray
) -> list[tuple[int, int, list[int], list[int]]]:
    """Every chain as (start core node, end core node, its nodes, its edges), each edge once."""
    n = core.size
    incident = _incident(n, u, v)
    used = np.zeros(u.size, dtype=bool)
    chains = []
    for start in np.flatnonzero(core).tolist():
        for e0 in incident[start]:
            if used[e0]:
                continue
            nodes, edges, node, e = [start], [], start, e0
            while True:
                used[e] = True
                edges.append(e)
                node = int(v[e]) if int(u[e]) == node else int(u[e])
                nodes.append(node)
                if core[node]:
                    break
                e = next(x for x in incident[node] if x != e)
            chains.append((start, node, nodes, edges))
    return chains


def fold(
    n: int, u: np.ndarray, v: np.ndarray, masks: np.ndarray
) -> tuple[np.ndarray, list[tuple[int, int, list[int], list[int]]]]:
    """Core-node mask and chains, with middle nodes promoted until chains are unique per pair."""
    core = core_nodes(n, u, v, masks)
    while True:
        chains = walk_chains(core, u, v)
        groups: dict[tuple[int, int], list[list[int]]] = {}
        for a, b, nodes, _ in chains:
            groups.setdefault((min(a, b), max(a, b)), []).append(nodes)
        promoted = False
        for (a, b), members in groups.items():
            if a != b and len(members) == 1:
                continue
            for nodes in members:  # every long chain of a clash gets a core node in its middle
                if len(nodes) > 2:
                    core[nodes[len(nodes) // 2]] = True
                    promoted = True
        if not promoted:
            return core, chains


def core_arrays(
    lon: FloatArray,
    lat: FloatArray,
    u: np.ndarray,
    v: np.ndarray,
    masks: np.ndarray,
    lengths: FloatArray,
) -> dict[str, np.ndarray]:
    """The arrays the engine loads for the search graph (see :class:`~.graph.SeaGraph`)."""
    core, chains = fold(lon.size, u, v, masks)
    core_node = np.flatnonzero(core)
    index = np.full(lon.size, -1, dtype=np.int64)
    index[core_node] = np.arange(core_node.size)
    edge_core = np.zeros(u.size, dtype=np.int32)
    edge_along = np.zeros(u.size, dtype=np.float64)
    edge_forward = np.zeros(u.size, dtype=bool)
    chain_ptr = [0]
    chain_edge: list[int] = []
    core_len, core_mask = [], []
    for k, (_, _, nodes, edges) in enumerate(chains):
        along = 0.0
        for i, e in enumerate(edges):
            edge_core[e], edge_along[e] = k, along
            edge_forward[e] = int(u[e]) == nodes[i]
            along += float(lengths[e])
        chain_edge.extend(edges)
        chain_ptr.append(len(chain_edge))
        core_len.append(along)
        core_mask.append(int(masks[edges[0]]))
    return {
        Marnet.CORE_NODE.key: core_node.astype(np.int32),
        Marnet.CORE_U.key: np.array([index[c[0]] for c in chains], dtype=np.int32),
        Marnet.CORE_V.key: np.array([index[c[1]] for c in chains], dtype=np.int32),
        Marnet.CORE_LENGTH_M.key: np.array(core_len, dtype=np.float64),
        Marnet.CORE_PASSAGES.key: np.array(core_mask, dtype=np.uint32),
        Marnet.CHAIN_PTR.key: np.array(chain_ptr, dtype=np.int32),
        Marnet.CHAIN_EDGE.key: np.array(chain_edge, dtype=np.int32),
        Marnet.EDGE_CORE.key: edge_core,
        Marnet.EDGE_ALONG_M.key: edge_along,
        Marnet.EDGE_FORWARD.key: edge_forward,
    }

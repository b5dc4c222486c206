"""Shortest sea paths between two snapped points, with passages closed by a bit mask.

The search runs on the core graph between the two snapped points: it starts from both core ends
of the origin's chain (carrying the metres from the snapped point to each end along the chain)
and stops at either core end of the destination's chain (carrying the metres on to the snapped
point), so the part of a chain that is actually sailed is what is counted. Two points on the same
chain may also go straight along it. The path found is unfolded to every node it passes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import NoRouteError
from .geodesy import LOWER_BOUND_RADIUS_M, FloatArray, unit_vector
from .graph import IntArray, SeaGraph, Snap
from .search import astar, unfold


@dataclass(frozen=True, slots=True)
class SeaPath:
    """Nodes sailed between two snapped points, the network edges between consecutive nodes
    (one fewer), and the length in metres along the network."""

    nodes: IntArray
    edges: IntArray
    network_m: float


def shortest_path(graph: SeaGraph, origin: Snap, destination: Snap, blocked: int) -> SeaPath:
    """The shortest path between two snapped points avoiding edges whose mask meets ``blocked``.

    ``nodes`` are every node sailed past between the two snapped points, in order, and
    ``edges`` the edge between each two of them (the unfolding knows them, so no lookup by node
    pair is needed).
    """
    o_core, d_core = int(graph.edge_core[origin.edge]), int(graph.edge_core[destination.edge])
    o_at, d_at = graph.along_chain_m(origin), graph.along_chain_m(destination)
    sources = graph.core_ends[o_core]
    source_costs = np.array([o_at, graph.core_length_m[o_core] - o_at])
    targets = graph.core_ends[d_core]
    target_costs = np.array([d_at, graph.core_length_m[d_core] - d_at])
    found = _search(graph, sources, source_costs, targets, target_costs, destination, blocked)
    direct = abs(o_at - d_at) if o_core == d_core else np.inf
    if found is None and not np.isfinite(direct):
        raise NoRouteError("no sea route joins these points with the passages left open")
    if found is None or direct <= found[0]:
        nodes, edges = _along_one_chain(graph, origin, destination)
        return SeaPath(nodes=nodes, edges=edges, network_m=float(direct))
    cost, path = found
    core = _int32(path)
    nodes, edges = _unfold(graph, origin, destination, core, blocked)
    return SeaPath(nodes=nodes, edges=edges, network_m=float(cost))


def _search(
    graph: SeaGraph,
    sources: IntArray,
    source_costs: FloatArray,
    targets: IntArray,
    target_costs: FloatArray,
    destination: Snap,
    blocked: int,
) -> tuple[float, bytes | IntArray] | None:
    """Cost and core path between the ends: by the hierarchy when it was built for exactly
    these closed passages, else by A* with the tightest landmark table that holds."""
    hierarchy = graph.hierarchy
    if hierarchy is not None and hierarchy.closed == blocked:
        return hierarchy.shortest(sources, source_costs, targets, target_costs)
    goal = unit_vector(destination.lon, destination.lat)
    landmarks = graph.landmarks_for(blocked)
    goal_landmarks = np.fmin(
        landmarks[targets[0]] + target_costs[0], landmarks[targets[1]] + target_costs[1]
    )
    return astar(
        graph.indptr,
        graph.indices,
        graph.weights,
        graph.edge_ids,
        graph.core_passages,
        blocked,
        LOWER_BOUND_RADIUS_M,
        graph.xyz,
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


def _along_one_chain(graph: SeaGraph, origin: Snap, destination: Snap) -> tuple[IntArray, IntArray]:
    """Nodes passed between two points on the same chain, going straight along it, and the
    edges between them."""
    none = np.zeros(0, dtype=np.int32)
    if origin.edge == destination.edge:
        return none, none
    chain = int(graph.edge_core[origin.edge])
    nodes = graph.chain_nodes(chain, forward=True)
    edges = graph.chain_edge[graph.chain_ptr[chain] : graph.chain_ptr[chain + 1]]
    o_at, d_at = graph.along_chain_m(origin), graph.along_chain_m(destination)
    first, last = graph.edge_position[origin.edge], graph.edge_position[destination.edge]
    if o_at <= d_at:  # nodes after the origin's edge up to the destination's edge
        return nodes[first + 1 : last + 1], edges[first + 1 : last]
    return nodes[last + 1 : first + 1][::-1], edges[last + 1 : first][::-1]


def _unfold(
    graph: SeaGraph, origin: Snap, destination: Snap, core: IntArray, blocked: int
) -> tuple[IntArray, IntArray]:
    """Every node from just past the origin's snapped point to just before the destination's,
    and the edge between each two of them (slices of the graph's unfolded chains)."""
    first, first_edges = _to_core_end(graph, origin, int(core[0]))
    last, last_edges = _from_core_end(graph, destination, int(core[-1]))
    if core.size == 1:
        return np.concatenate([first, last]), np.concatenate([first_edges, last_edges])
    nodes, edges = unfold(
        graph.indptr,
        graph.indices,
        graph.weights,
        graph.edge_ids,
        graph.core_passages,
        blocked,
        graph.core_u,
        graph.chain_ptr,
        graph.chain_heads,
        graph.chain_steps,
        core,
    )
    return (
        np.concatenate([first, _int32(nodes), last]),
        np.concatenate([first_edges, _int32(edges), last_edges]),
    )


def _int32(array: bytes | IntArray) -> IntArray:
    """An int32 array from the compiled kernels' bytes (or the Python twins' arrays)."""
    return np.frombuffer(array, dtype=np.int32) if isinstance(array, bytes) else array


def _to_core_end(graph: SeaGraph, snap: Snap, end: int) -> tuple[IntArray, IntArray]:
    """Nodes from just past a snapped point to the core node ``end`` of its chain (included),
    and the edge between each two of them."""
    chain, k, size, ptr = _chain_of(graph, snap)
    back = graph.chain_edge.size + ptr  # reversed chain: nodes N[L-1]..N[0], edges E[L-1]..E[0]
    if _towards_v(graph, snap, chain, end):  # N[k+1]..N[L] and E[k+1]..E[L-1]
        return graph.chain_heads[ptr + k : ptr + size], graph.chain_steps[ptr + k + 1 : ptr + size]
    return (  # N[k]..N[0] and E[k-1]..E[0]
        graph.chain_heads[back + size - 1 - k : back + size],
        graph.chain_steps[back + size - k : back + size],
    )


def _from_core_end(graph: SeaGraph, snap: Snap, end: int) -> tuple[IntArray, IntArray]:
    """Nodes from just past the core node ``end`` of a snapped point's chain to just before the
    point, and the edges from ``end`` to each of them."""
    chain, k, size, ptr = _chain_of(graph, snap)
    back = graph.chain_edge.size + ptr
    if _towards_v(graph, snap, chain, end):  # N[L-1]..N[k+1] and E[L-1]..E[k+1]
        return graph.chain_heads[back : back + size - 1 - k], graph.chain_steps[
            back : back + size - 1 - k
        ]
    return graph.chain_heads[ptr : ptr + k], graph.chain_steps[ptr : ptr + k]  # N[1]..N[k]


def _chain_of(graph: SeaGraph, snap: Snap) -> tuple[int, int, int, int]:
    """The snapped edge's chain, the edge's index in it, the chain's edge count and start."""
    chain = int(graph.edge_core[snap.edge])
    ptr = int(graph.chain_ptr[chain])
    return chain, int(graph.edge_position[snap.edge]), int(graph.chain_ptr[chain + 1]) - ptr, ptr


def _towards_v(graph: SeaGraph, snap: Snap, chain: int, end: int) -> bool:
    """Whether the core node ``end`` is the chain's v end (for a chain from and to one core
    node: whether the v way round is the nearer)."""
    return int(graph.core_v[chain]) == end and (
        int(graph.core_u[chain]) != end or _nearer_v(graph, snap)
    )


def _nearer_v(graph: SeaGraph, snap: Snap) -> bool:
    """For a chain that starts and ends at one core node: whether its v end is nearer."""
    chain = int(graph.edge_core[snap.edge])
    return bool(graph.along_chain_m(snap) > graph.core_length_m[chain] / 2.0)

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
from .geodesy import LOWER_BOUND_RADIUS_M, unit_vector
from .graph import IntArray, SeaGraph, Snap
from .search import astar


@dataclass(frozen=True, slots=True)
class SeaPath:
    """Nodes sailed between two snapped points, and the length in metres along the network."""

    nodes: IntArray
    network_m: float


def shortest_path(graph: SeaGraph, origin: Snap, destination: Snap, blocked: int) -> SeaPath:
    """The shortest path between two snapped points avoiding edges whose mask meets ``blocked``.

    ``nodes`` are every node sailed past between the two snapped points, in order.
    """
    o_core, d_core = int(graph.edge_core[origin.edge]), int(graph.edge_core[destination.edge])
    o_at, d_at = graph.along_chain_m(origin), graph.along_chain_m(destination)
    sources = graph.core_ends[o_core]
    source_costs = np.array([o_at, graph.core_length_m[o_core] - o_at])
    targets = graph.core_ends[d_core]
    target_costs = np.array([d_at, graph.core_length_m[d_core] - d_at])
    goal = unit_vector(destination.lon, destination.lat)
    landmarks = graph.landmarks_for(blocked)
    goal_landmarks = np.fmin(
        landmarks[targets[0]] + target_costs[0], landmarks[targets[1]] + target_costs[1]
    )
    found = astar(
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
    direct = abs(o_at - d_at) if o_core == d_core else np.inf
    if found is None and not np.isfinite(direct):
        raise NoRouteError("no sea route joins these points with the passages left open")
    if found is None or direct <= found[0]:
        return SeaPath(nodes=_along_one_chain(graph, origin, destination), network_m=float(direct))
    cost, path = found
    core = np.frombuffer(path, dtype=np.int32) if isinstance(path, bytes) else path
    return SeaPath(nodes=_unfold(graph, origin, destination, core), network_m=float(cost))


def _along_one_chain(graph: SeaGraph, origin: Snap, destination: Snap) -> IntArray:
    """Nodes passed between two points on the same chain, going straight along it."""
    if origin.edge == destination.edge:
        return np.zeros(0, dtype=np.int32)
    chain = int(graph.edge_core[origin.edge])
    nodes = graph.chain_nodes(chain, forward=True)
    o_at, d_at = graph.along_chain_m(origin), graph.along_chain_m(destination)
    first, last = graph.edge_position[origin.edge], graph.edge_position[destination.edge]
    if o_at <= d_at:  # nodes after the origin's edge up to the destination's edge
        return nodes[first + 1 : last + 1]
    return nodes[last + 1 : first + 1][::-1]


def _unfold(graph: SeaGraph, origin: Snap, destination: Snap, core: IntArray) -> IntArray:
    """Every node from just past the origin's snapped point to just before the destination's."""
    first = _to_core_end(graph, origin, int(core[0]), leaving=True)
    last = _to_core_end(graph, destination, int(core[-1]), leaving=False)[::-1]
    if core.size == 1:
        return np.concatenate([first, last]).astype(np.int32)
    chains = graph.core_between(core[:-1], core[1:])
    forward = graph.core_u[chains] == core[:-1]
    starts = graph.chain_ptr[chains].astype(np.int64)
    counts = graph.chain_ptr[chains + 1] - starts
    step = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    ahead = np.repeat(forward, counts)
    edges = graph.chain_edge[
        np.repeat(starts, counts) + np.where(ahead, step, np.repeat(counts, counts) - 1 - step)
    ]
    heads = np.where(graph.edge_forward[edges] == ahead, graph.edge_v[edges], graph.edge_u[edges])
    return np.concatenate([first, heads, last]).astype(np.int32)


def _to_core_end(graph: SeaGraph, snap: Snap, end: int, *, leaving: bool) -> IntArray:
    """Nodes from a snapped point to the core node ``end`` of its chain, that node included
    when ``leaving`` (the path starts there) and left out otherwise (the path ends there)."""
    chain = int(graph.edge_core[snap.edge])
    towards_v = int(graph.core_v[chain]) == end and (
        int(graph.core_u[chain]) != end or _nearer_v(graph, snap)
    )
    nodes = graph.chain_nodes(chain, forward=True)
    k = int(graph.edge_position[snap.edge])
    part = nodes[k + 1 :] if towards_v else nodes[: k + 1][::-1]
    return part if leaving else part[:-1] if part.size else part


def _nearer_v(graph: SeaGraph, snap: Snap) -> bool:
    """For a chain that starts and ends at one core node: whether its v end is nearer."""
    chain = int(graph.edge_core[snap.edge])
    return bool(graph.along_chain_m(snap) > graph.core_length_m[chain] / 2.0)

"""Shortest sea paths between two snapped points, with passages closed by a bit mask.

The search runs on the core graph between the two snapped points: it starts from both core ends
of the origin's chain (carrying the metres from the snapped point to each end along the chain)
and stops at either core end of the destination's chain (carrying the metres on to the snapped
point), so the part of a chain that is actually sailed is what is counted. Two points on the same
chain may also go straight along it. The path found is unfolded to every node it passes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .errors import NoRouteError
from .geodesy import LOWER_BOUND_RADIUS_M, FloatArray, unit_vector
from .graph import IntArray, SeaGraph
from .network import as_int32
from .search import astar
from .snapping import Snap


class SeaPath(NamedTuple):
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
    cost, core_path = found
    unfolded = graph.network.unfold(core_path, blocked, origin.edge, o_at, destination.edge, d_at)
    return SeaPath(as_int32(unfolded[0]), as_int32(unfolded[1]), float(cost))


def _search(
    graph: SeaGraph,
    sources: IntArray,
    source_costs: FloatArray,
    targets: IntArray,
    target_costs: FloatArray,
    destination: Snap,
    blocked: int,
) -> tuple[float, bytes | IntArray] | None:
    """Cost and core path between the ends: by the default passages' own hierarchy when they are
    the ones closed, else by the masked hierarchy (any closed passages), and by A* with the
    tightest landmark table that holds for a graph file without hierarchies."""
    for hierarchy in (graph.hierarchy, graph.masked_hierarchy):
        if hierarchy is not None and hierarchy.serves(blocked):
            return hierarchy.shortest(sources, source_costs, targets, target_costs, blocked)
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
    return (  # reversed, copied: the compiled leg reads contiguous buffers
        np.ascontiguousarray(nodes[last + 1 : first + 1][::-1]),
        np.ascontiguousarray(edges[last + 1 : first][::-1]),
    )

"""Shortest sea paths between two snapped points, with passages closed by a bit mask.

The search runs between the two snapped points: it starts from both ends of the origin's edge
(carrying the metres from the snapped point to each end) and stops at either end of the
destination's edge (carrying the metres on to the snapped point), so the part of an edge that is
actually sailed is what is counted. Two points on the same edge may also go straight along it.
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
    """The shortest path between two snapped points avoiding edges whose mask meets ``blocked``."""
    o_edge, d_edge = origin.edge, destination.edge
    sources = graph.edge_ends[o_edge]
    source_costs = np.array([origin.offset_u_m, origin.offset_v_m])
    targets = graph.edge_ends[d_edge]
    target_costs = np.array([destination.offset_u_m, destination.offset_v_m])
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
        graph.edge_passages,
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
    direct = abs(origin.offset_u_m - destination.offset_u_m) if o_edge == d_edge else np.inf
    if found is None and not np.isfinite(direct):
        raise NoRouteError("no sea route joins these points with the passages left open")
    if found is None or direct <= found[0]:
        return SeaPath(nodes=np.zeros(0, dtype=np.int32), network_m=float(direct))
    cost, path = found
    nodes = np.frombuffer(path, dtype=np.int32) if isinstance(path, bytes) else path
    return SeaPath(nodes=nodes, network_m=float(cost))

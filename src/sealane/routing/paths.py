"""Shortest sea paths between two snapped points, with passages closed by a bit mask.

The search runs on the core graph between the two snapped points: it starts from both core ends
of the origin's chain (carrying the metres from the snapped point to each end along the chain)
and stops at either core end of the destination's chain (carrying the metres on to the snapped
point), so the part of a chain that is actually sailed is what is counted. Two points on the same
chain may also go straight along it. The path found is unfolded to every node it passes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .errors import NoRouteError
from .geodesy import FloatArray
from .graph import IntArray, SeaGraph
from .hierarchy import ClimbKernel
from .network import as_int32
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
    goal = (destination.lon, destination.lat)
    return shortest_path_among(graph, (origin,), (destination,), goal, blocked)[2]


def shortest_path_among(
    graph: SeaGraph,
    origins: Sequence[Snap],
    destinations: Sequence[Snap],
    goal: tuple[float, float],
    blocked: int,
) -> tuple[Snap, Snap, SeaPath]:
    """The origin snap, destination snap and path of the shortest way between a point snapped
    several ways (onto a lane, onto a shortcut) and another, each snap's ``distance_m`` from
    its point counted: one search from all the origins' chain ends at once, so a second way of
    snapping costs no second search. ``goal`` is the destination point (the search's bound)."""
    starts, sources, source_costs, origin = _ends_of(graph, origins)
    ends, targets, target_costs, destination = _ends_of(graph, destinations)
    direct = (np.inf, starts[0], ends[0])
    for o in starts:  # two snaps on one chain may also go straight along it
        for d in ends:
            if o.core == d.core:
                total = o.snap.distance_m + abs(o.at - d.at) + d.snap.distance_m
                if total < direct[0]:
                    direct = (total, o, d)
    found = _search(
        graph, (sources, source_costs, origin), (targets, target_costs, destination), goal, blocked
    )
    if found is None and not math.isfinite(direct[0]):
        raise NoRouteError("no sea route joins these points with the passages left open")
    if found is None or direct[0] <= found[0]:
        _, o, d = direct
        nodes, edges = _along_one_chain(graph, o.snap, d.snap)
        return o.snap, d.snap, SeaPath(nodes=nodes, edges=edges, network_m=abs(o.at - d.at))
    cost, core_path = found
    o, d = starts[0], ends[0]
    if len(starts) > 1 or len(ends) > 1:
        path = np.frombuffer(core_path, np.int32) if isinstance(core_path, bytes) else core_path
        if len(starts) > 1:
            o = _nearest_to(starts, sources, source_costs, int(path[0]))
        if len(ends) > 1:
            d = _nearest_to(ends, targets, target_costs, int(path[-1]))
    unfolded = graph.network.unfold(core_path, blocked, o.snap.edge, o.at, d.snap.edge, d.at)
    network_m = float(cost) - o.snap.distance_m - d.snap.distance_m
    return o.snap, d.snap, SeaPath(as_int32(unfolded[0]), as_int32(unfolded[1]), network_m)


class _OnChain(NamedTuple):
    """A snap with its core chain and metres along it from the chain's u end."""

    snap: Snap
    core: int
    at: float

    @classmethod
    def of(cls, graph: SeaGraph, snap: Snap) -> _OnChain:
        return cls(snap, int(graph.edge_core[snap.edge]), graph.along_chain_m(snap))


class _Remembered:
    """A single snap's chain ends as searched again and again (:func:`_one_end`: a port, a
    vessel asking again): the chain, its core ends with the metres to each, and how often it has
    been searched; from its third search on, its climb is remembered too (:func:`_space`)."""

    __slots__ = ("chained", "costs", "nodes", "searches")

    def __init__(self, chained: list[_OnChain], nodes: IntArray, costs: FloatArray) -> None:
        self.chained, self.nodes, self.costs = chained, nodes, costs
        self.searches = 0


#: Climbs remembered (each the few hundred nodes an end's climb settles, about 24 bytes each).
SPACES_REMEMBERED = 2048


def _ends_of(
    graph: SeaGraph, snaps: Sequence[Snap]
) -> tuple[list[_OnChain], IntArray, FloatArray, _Remembered | None]:
    """The snaps on their chains, and the chains' core ends with the metres to each
    (:func:`_chain_ends`); a single snap's are remembered (:func:`_one_end`)."""
    if len(snaps) == 1:
        end = _one_end(graph, snaps[0])
        return end.chained, end.nodes, end.costs, end
    chained = [_OnChain.of(graph, snap) for snap in snaps]
    return (chained, *_chain_ends(graph, chained), None)


@lru_cache(maxsize=8192)
def _one_end(graph: SeaGraph, snap: Snap) -> _Remembered:
    """:func:`_ends_of` for one snap, remembered: a port's snap is searched from again and
    again (the arrays are only read)."""
    chained = [_OnChain.of(graph, snap)]
    return _Remembered(chained, *_chain_ends(graph, chained))


def _chain_ends(graph: SeaGraph, snaps: list[_OnChain]) -> tuple[IntArray, FloatArray]:
    """The core ends of each snap's chain, with the metres from the snap's point to each end
    (its distance off the network, then along the chain)."""
    if len(snaps) == 1:
        (snap, core, at), off = snaps[0], snaps[0].snap.distance_m
        return graph.core_ends[core], np.array([off + at, off + graph.core_length_m[core] - at])
    ends: list[int] = []
    costs: list[float] = []
    for snap, core, at in snaps:
        ends.extend(graph.core_ends[core].tolist())
        costs.extend((snap.distance_m + at, snap.distance_m + graph.core_length_m[core] - at))
    return np.array(ends, dtype=np.int32), np.array(costs)


def _nearest_to(snaps: list[_OnChain], ends: IntArray, costs: FloatArray, node: int) -> _OnChain:
    """Of the snaps whose chain ends at core node ``node``, the one nearest to it (the one the
    search started or ended from): ``ends`` and ``costs`` are :func:`_chain_ends`', two per
    snap."""
    pairs = zip(ends.tolist(), costs.tolist(), strict=True)  # four items: no numpy call
    _, first = min((cost, i) for i, (end, cost) in enumerate(pairs) if end == node)
    return snaps[first // 2]


#: One side of a search: core nodes, the metres to each, and the end remembered (None: several
#: snaps, searched once).
_Side = tuple[IntArray, FloatArray, "_Remembered | None"]


def _search(
    graph: SeaGraph,
    origin: _Side,
    destination: _Side,
    goal: tuple[float, float],
    blocked: int,
) -> tuple[float, bytes | IntArray] | None:
    """Cost and core path between the ends: by the default passages' own hierarchy when they are
    the ones closed, else by the masked hierarchy (any closed passages), and by A* with the
    tightest landmark table that holds for a graph file without hierarchies. The A* bound is
    the distance to ``goal``, which each target's cost reaches at least."""
    (sources, source_costs, _), (targets, target_costs, _) = origin, destination
    for hierarchy in (graph.hierarchy, graph.masked_hierarchy):
        if hierarchy is not None and hierarchy.serves(blocked):
            return _climb(hierarchy.kernel, origin, destination, blocked)
    landmarks = graph.landmarks_for(blocked)
    if targets.size > 2:
        # Several destination snaps: their chain ends are joined through the goal point, off
        # the network the landmarks measure, so |d(L, node) - d(L, goal)| may overestimate;
        # only the great-circle bound holds.
        landmarks = landmarks[:, :0]
    return graph.search.astar(
        blocked, sources, source_costs, targets, target_costs, goal[0], goal[1], landmarks
    )


def _climb(
    kernel: ClimbKernel, origin: _Side, destination: _Side, blocked: int
) -> tuple[float, bytes | IntArray] | None:
    """The hierarchy's search between the ends: two remembered climbs only met, one remembered
    climb met by the other end's, or both climbs."""
    (sources, source_costs, start), (targets, target_costs, end) = origin, destination
    up, down = _known(kernel, start, blocked), _known(kernel, end, blocked)
    if up is not None and down is not None:
        return kernel.meet(up, down)
    if down is not None:
        return kernel.climb_to(blocked, down, 1, sources, source_costs)
    if up is not None:
        return kernel.climb_to(blocked, up, 0, targets, target_costs)
    return kernel.climb(blocked, sources, source_costs, targets, target_costs)


#: An end's whole climb is kept from this search of it on: it costs about two searches, so an
#: end searched only twice (a vessel's position in two passes of a fleet) is better without.
KEEP_CLIMB_FROM = 3


def _known(kernel: ClimbKernel, end: _Remembered | None, blocked: int) -> object | None:
    """The remembered climb of an end searched before (None: several snaps, or an end not yet
    searched :data:`KEEP_CLIMB_FROM` times, for which meeting the other end halfway is cheaper
    than climbing its whole space)."""
    if end is None:
        return None
    end.searches += 1
    return _space(kernel, end, blocked) if end.searches >= KEEP_CLIMB_FROM else None


@lru_cache(maxsize=SPACES_REMEMBERED)
def _space(kernel: ClimbKernel, end: _Remembered, blocked: int) -> object:
    """Everything the climb from ``end`` settles with ``blocked`` closed (remembered)."""
    return kernel.space(blocked, end.nodes, end.costs)


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

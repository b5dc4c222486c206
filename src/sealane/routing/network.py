"""The work after a search, on the graph's arrays held once: a core path unfolded to every node
and edge between two snapped points, and a leg's points, lengths and masks, trimmed.

``_network.c`` holds the arrays in C and is what runs (a route would otherwise spend more time in
small numpy calls than in its search); :class:`NetworkPython` is its twin, the oracle in the
tests and the fallback where the extension was not compiled. Both take the arrays of
:func:`network_arrays` and answer the same calls with the same values.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from .geodesy import FloatArray
from .geodesy import distance_m as geodesic_m

IntArray = npt.NDArray[np.int32]
MaskArray = npt.NDArray[np.uint32]
#: The path of one leg as arrays: (coordinates N x 2, segment lengths N - 1 in metres, segment
#: passage masks N - 1). Not :class:`~sealane.routing.itinerary_parts.Leg`, the public leg of a
#: voyage.
LegPath = tuple[FloatArray, FloatArray, MaskArray]
#: A leg as the compiled kernel gives it (float64, float64 and uint32 bytes) or as arrays.
LegBuffers = tuple[bytes | FloatArray, bytes | FloatArray, bytes | MaskArray]
#: Segments shorter than this (metres) are duplicates of a point and are dropped.
ZERO_LENGTH_M = 1e-6


class NetworkKernel(Protocol):
    """What the compiled ``_network.Network`` and :class:`NetworkPython` answer."""

    def unfold(
        self,
        core_path: bytes | IntArray,
        blocked: int,
        origin_edge: int,
        origin_at_m: float,
        destination_edge: int,
        destination_at_m: float,
        /,
    ) -> tuple[bytes | IntArray, bytes | IntArray]:
        """Nodes from just past the origin's snapped point to just before the destination's,
        through the core path, and the edge between each two of them; ``*_at_m`` are the
        metres along the snapped edge's chain from its core u end."""

    def leg(
        self,
        nodes: bytes | IntArray,
        edges: bytes | IntArray,
        start_lon: float,
        start_lat: float,
        a_lon: float,
        a_lat: float,
        a_edge: int,
        b_lon: float,
        b_lat: float,
        b_edge: int,
        end_lon: float,
        end_lat: float,
        /,
    ) -> LegBuffers | None:
        """The leg start -> snap a (on ``a_edge``) -> nodes -> snap b (on ``b_edge``) -> end,
        with :func:`trim`; None when a partial leg cannot be measured here (pyproj can)."""


class GraphArrays(Protocol):
    """The arrays of :class:`~.graph.SeaGraph` the kernels take (the graph passes itself)."""

    node_lonlat: FloatArray
    edge_length_m: FloatArray
    edge_passages: MaskArray
    edge_core: IntArray
    edge_position: IntArray
    indptr: IntArray
    indices: IntArray
    weights: FloatArray
    edge_ids: IntArray
    core_passages: MaskArray
    core_u: IntArray
    core_v: IntArray
    core_length_m: FloatArray
    chain_ptr: IntArray
    chain_heads: IntArray
    chain_steps: IntArray


def network_arrays(graph: GraphArrays) -> tuple[npt.NDArray[np.generic], ...]:
    """The graph's arrays in the order both kernels take them."""
    return (
        graph.node_lonlat,
        graph.edge_length_m,
        graph.edge_passages,
        graph.edge_core,
        graph.edge_position,
        graph.indptr,
        graph.indices,
        graph.weights,
        graph.edge_ids,
        graph.core_passages,
        graph.core_u,
        graph.core_v,
        graph.core_length_m,
        graph.chain_ptr,
        graph.chain_heads,
        graph.chain_steps,
    )


def network_kernel(graph: GraphArrays) -> NetworkKernel:
    """The compiled network over ``graph``'s arrays, or the twin where it was not built."""
    try:
        from sealane.routing._network import Network
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return NetworkPython(*network_arrays(graph))
    kernel: NetworkKernel = Network(*network_arrays(graph))
    return kernel


def trim(coords: FloatArray, lengths: FloatArray, masks: MaskArray) -> LegPath:
    """The segments of a route with the zero-length ones dropped (an end already on the
    network, a snap onto a node): the later point of each goes, except the destination itself,
    where the earlier one goes so the route still ends exactly at the requested point. Each
    kept point starts a segment that runs to the next kept point, summing lengths and masks."""
    empty = lengths <= ZERO_LENGTH_M
    if empty.all():
        return coords[[0, -1]], np.zeros(1), np.zeros(1, dtype=np.uint32)
    if not empty.any():
        return coords, lengths, masks
    keep = np.empty(coords.shape[0], dtype=bool)
    keep[0] = True
    np.logical_not(empty, out=keep[1:])
    if empty[-1]:
        keep[-1] = True
        previous = keep.size - 2 - int(np.argmax(keep[-2::-1]))  # zero distance from the end
        if previous > 0:
            keep[previous] = False
    starts = np.flatnonzero(keep[:-1])
    lengths = np.add.reduceat(lengths, starts)
    masks = np.bitwise_or.reduceat(masks, starts).astype(np.uint32)
    return coords[keep], lengths, masks


class NetworkPython:
    """The twin of ``_network.Network`` (the same arguments, arrays in place of bytes)."""

    def __init__(self, *arrays: npt.NDArray[np.generic]) -> None:
        floats = [np.asarray(arrays[k], dtype=np.float64) for k in (0, 1, 7, 12)]
        ints = [np.asarray(arrays[k], dtype=np.int32) for k in (3, 4, 5, 6, 8, 10, 11, 13, 14, 15)]
        masks = [np.asarray(arrays[k], dtype=np.uint32) for k in (2, 9)]
        self.node_lonlat, self.edge_length_m, self.weights, self.core_length_m = floats
        self.edge_passages, self.core_passages = masks
        self.edge_core, self.edge_position, self.indptr, self.indices, self.edge_ids = ints[:5]
        self.core_u, self.core_v, self.chain_ptr, self.chain_heads, self.chain_steps = ints[5:]

    def unfold(
        self,
        core_path: bytes | IntArray,
        blocked: int,
        origin_edge: int,
        origin_at_m: float,
        destination_edge: int,
        destination_at_m: float,
        /,
    ) -> tuple[IntArray, IntArray]:
        """Per step (t, h) of the core path, the open core edge t -> h of least weight (the one
        the search relaxed), read forwards from the unfolded chains when t is its u end and
        from their reversed second half otherwise; the snapped chains' parts at both ends."""
        core = as_int32(core_path, "core_path")
        edges_in_graph = self.edge_length_m.size
        if core.size < 1 or not (
            0 <= origin_edge < edges_in_graph and 0 <= destination_edge < edges_in_graph
        ):
            raise ValueError("unfold: an empty path or an edge outside the graph")
        for edge, end in ((origin_edge, int(core[0])), (destination_edge, int(core[-1]))):
            chain = int(self.edge_core[edge])
            if end not in (int(self.core_u[chain]), int(self.core_v[chain])):
                raise ValueError(
                    "unfold: the path does not start and end at the ends of the snapped edges' "
                    "chains"
                )
        first = self._part(origin_edge, origin_at_m, int(core[0]), toward=True)
        last = self._part(destination_edge, destination_at_m, int(core[-1]), toward=False)
        total, core_nodes = self.chain_heads.size // 2, self.indptr.size - 1
        nodes, edges = [first[0]], [first[1]]
        for t, h in zip(core[:-1].tolist(), core[1:].tolist(), strict=True):
            inside = 0 <= t < core_nodes and 0 <= h < core_nodes
            row = range(int(self.indptr[t]), int(self.indptr[t + 1])) if inside else range(0)
            open_ = [
                e
                for e in row
                if self.indices[e] == h and not int(self.core_passages[self.edge_ids[e]]) & blocked
            ]
            if not open_:
                raise ValueError("unfold: no open core edge joins two path nodes")
            chain = int(self.edge_ids[min(open_, key=lambda e: float(self.weights[e]))])
            start, stop = int(self.chain_ptr[chain]), int(self.chain_ptr[chain + 1])
            shift = 0 if int(self.core_u[chain]) == t else total
            nodes.append(self.chain_heads[start + shift : stop + shift])
            edges.append(self.chain_steps[start + shift : stop + shift])
        return np.concatenate([*nodes, last[0]]), np.concatenate([*edges, last[1]])

    def _part(self, edge: int, at_m: float, end: int, *, toward: bool) -> tuple[IntArray, IntArray]:
        """Nodes from just past a snapped point to core node ``end`` of its chain and the edges
        between them (``toward``), or from just past ``end`` to just before the point and the
        edges from ``end`` to each. For a chain from and to one core node, ``end`` is taken to be
        its v end when that way round is the nearer."""
        chain = int(self.edge_core[edge])
        k, ptr = int(self.edge_position[edge]), int(self.chain_ptr[chain])
        size = int(self.chain_ptr[chain + 1]) - ptr
        back = self.chain_heads.size // 2 + ptr  # reversed: nodes N[L-1]..N[0], edges E[L-1]..
        v_end = int(self.core_v[chain]) == end and (
            int(self.core_u[chain]) != end or at_m > float(self.core_length_m[chain]) / 2.0
        )
        heads, steps = self.chain_heads, self.chain_steps
        if toward and v_end:  # N[k+1]..N[L] and E[k+1]..E[L-1]
            return heads[ptr + k : ptr + size], steps[ptr + k + 1 : ptr + size]
        if toward:  # N[k]..N[0] and E[k-1]..E[0]
            return heads[back + size - 1 - k : back + size], steps[back + size - k : back + size]
        if v_end:  # N[L-1]..N[k+1] and E[L-1]..E[k+1]
            return heads[back : back + size - 1 - k], steps[back : back + size - 1 - k]
        return heads[ptr : ptr + k], steps[ptr : ptr + k]  # N[1]..N[k] and E[0]..E[k-1]

    def leg(
        self,
        nodes: bytes | IntArray,
        edges: bytes | IntArray,
        start_lon: float,
        start_lat: float,
        a_lon: float,
        a_lat: float,
        a_edge: int,
        b_lon: float,
        b_lat: float,
        b_edge: int,
        end_lon: float,
        end_lat: float,
        /,
    ) -> LegPath:
        """:func:`untrimmed_leg` through ``nodes``, then :func:`trim`."""
        path_nodes, path_edges = as_int32(nodes, "nodes"), as_int32(edges, "edges")
        count = self.edge_length_m.size
        if (
            path_nodes.size < 1
            or path_edges.size != path_nodes.size - 1
            or not (0 <= a_edge < count and 0 <= b_edge < count)
        ):
            raise ValueError("leg: no node, or edges that do not join the nodes")
        if not (
            ((path_nodes >= 0) & (path_nodes < self.node_lonlat.shape[0])).all()
            and ((path_edges >= 0) & (path_edges < count)).all()
        ):
            raise ValueError("leg: a node or edge outside the graph")
        return trim(
            *untrimmed_leg(
                (self.node_lonlat, self.edge_length_m, self.edge_passages),
                path_nodes,
                path_edges,
                ((start_lon, start_lat), (a_lon, a_lat, a_edge)),
                ((b_lon, b_lat, b_edge), (end_lon, end_lat)),
            )
        )


def untrimmed_leg(
    graph_arrays: tuple[FloatArray, FloatArray, MaskArray],
    nodes: IntArray,
    edges: IntArray,
    head: tuple[tuple[float, float], tuple[float, float, int]],
    tail: tuple[tuple[float, float, int], tuple[float, float]],
) -> LegPath:
    """Segments: start -> its snap (off network), snap -> first node (part of its edge), the
    network edges, last node -> the end's snap (part of its edge), snap -> end (off network).
    ``graph_arrays`` are the nodes' lon/lat and the edges' lengths and masks; ``head`` the start
    and its snap (lon, lat, edge), ``tail`` the end's snap and the end. The partial legs are
    measured geodesically (the snap offsets are spherical fractions)."""
    node_lonlat, edge_length_m, edge_passages = graph_arrays
    (start, (a_lon, a_lat, a_edge)), ((b_lon, b_lat, b_edge), end) = head, tail
    coords = np.empty((nodes.size + 4, 2))
    coords[0] = start
    coords[1] = a_lon, a_lat
    coords[2:-2] = node_lonlat[nodes]
    coords[-2] = b_lon, b_lat
    coords[-1] = end
    ends = coords[[0, 1, 1, 2, -3, -2, -2, -1]].tolist()
    partial = [geodesic_m(*ends[k], *ends[k + 1]) for k in range(0, 8, 2)]
    lengths = np.concatenate([partial[:2], edge_length_m[edges], partial[2:]])
    masks = np.concatenate(
        [[0, edge_passages[a_edge]], edge_passages[edges], [edge_passages[b_edge], 0]]
    ).astype(np.uint32)
    return coords, lengths, masks


def as_leg(made: LegBuffers) -> LegPath:
    """A leg's arrays from the compiled kernel's bytes (read-only arrays over them) or the twin's
    arrays (as they are)."""
    coords, lengths, masks = made
    return (
        np.frombuffer(coords).reshape(-1, 2) if isinstance(coords, bytes) else coords,
        np.frombuffer(lengths) if isinstance(lengths, bytes) else lengths,
        np.frombuffer(masks, dtype=np.uint32) if isinstance(masks, bytes) else masks,
    )


def as_int32(array: bytes | IntArray, what: str = "array") -> IntArray:
    """An int32 array from the compiled kernels' bytes, or the int32 array given; any other
    array is a TypeError, as in the compiled network (an int64 array is never misread)."""
    if isinstance(array, bytes):
        return np.frombuffer(array, dtype=np.int32)
    if np.asarray(array).dtype != np.int32:
        raise TypeError(f"{what} must be int32 (an array or the kernels' bytes)")
    return array

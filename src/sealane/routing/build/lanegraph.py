"""The network while the build edits it: nodes, undirected edges and each edge's passage bits.

Edges are straight geodesic legs between nodes. The build replaces edges by polylines (a chain of
new nodes), splits edges where ports and corridors join them, and finally compacts the arrays
that the engine loads. Build-time only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from ..geodesy import FloatArray, normalize_lon, segment_lengths_m
from .coast import sample_geodesics

#: Two points closer than this (metres) are one node.
SAME_NODE_M = 1.0


@dataclass
class LaneGraph:
    """Growable lists of node coordinates and a dict of edges keyed by (min node, max node)."""

    lon: list[float] = field(default_factory=list)
    lat: list[float] = field(default_factory=list)
    #: (a, b) with a < b -> passage bit mask of the edge.
    edges: dict[tuple[int, int], int] = field(default_factory=dict)

    def add_node(self, lon: float, lat: float) -> int:
        """A new node at (lon, lat); returns its id."""
        self.lon.append(float(normalize_lon(lon)))
        self.lat.append(float(lat))
        return len(self.lon) - 1

    def add_edge(self, a: int, b: int, mask: int = 0) -> None:
        """Join two nodes (an existing edge keeps the bits of both)."""
        if a == b:
            return
        key = (min(a, b), max(a, b))
        self.edges[key] = self.edges.get(key, 0) | mask

    def add_chain(
        self, points: FloatArray, mask: int = 0, *, first: int = -1, last: int = -1
    ) -> list[int]:
        """Nodes along a polyline joined by edges; ``first``/``last`` reuse existing end nodes."""
        ids = []
        for i, (lon, lat) in enumerate(points):
            if i == 0 and first >= 0:
                ids.append(first)
            elif i == len(points) - 1 and last >= 0:
                ids.append(last)
            else:
                ids.append(self.add_node(lon, lat))
        for a, b in pairwise(ids):
            self.add_edge(a, b, mask)
        return ids

    def split(self, edge: tuple[int, int], lon: float, lat: float) -> int:
        """A node at (lon, lat) on ``edge``, which becomes two edges; returns the node id."""
        a, b = edge
        for end in (a, b):
            if (
                segment_lengths_m(np.array([lon, self.lon[end]]), np.array([lat, self.lat[end]]))[0]
                < SAME_NODE_M
            ):
                return end
        mask = self.edges.pop(edge)
        node = self.add_node(lon, lat)
        self.add_edge(a, node, mask)
        self.add_edge(node, b, mask)
        return node

    def arrays(self) -> tuple[FloatArray, FloatArray, np.ndarray, np.ndarray, np.ndarray]:
        """(lon, lat, u, v, mask) as numpy arrays, edges in key order."""
        keys = np.array(list(self.edges.keys()), dtype=np.int64).reshape(-1, 2)
        masks = np.array(list(self.edges.values()), dtype=np.uint32)
        return np.array(self.lon), np.array(self.lat), keys[:, 0], keys[:, 1], masks

    def edge_samples(
        self, spacing_m: float, only: set[tuple[int, int]] | None = None
    ) -> tuple[FloatArray, FloatArray, np.ndarray, list[tuple[int, int]]]:
        """Points every ``spacing_m`` along every edge (of ``only``, if given), with the index of
        their edge in the returned key list."""
        keys = [k for k in self.edges if only is None or k in only]
        if not keys:
            empty = np.zeros(0)
            return empty, empty, np.zeros(0, dtype=np.int64), keys
        lon, lat = np.array(self.lon), np.array(self.lat)
        a = np.array([k[0] for k in keys], dtype=np.int64)
        b = np.array([k[1] for k in keys], dtype=np.int64)
        s_lon, s_lat, which, _ = sample_geodesics(lon[a], lat[a], lon[b], lat[b], spacing_m)
        return s_lon, s_lat, which, keys

    def compact(self, keep_nodes: np.ndarray | None = None) -> LaneGraph:
        """A copy holding only nodes that have edges (and lie in ``keep_nodes``), renumbered."""
        used = np.zeros(len(self.lon), dtype=bool)
        for a, b in self.edges:
            used[a] = used[b] = True
        if keep_nodes is not None:
            used &= keep_nodes
        new_id = np.cumsum(used) - 1
        out = LaneGraph(
            [x for x, k in zip(self.lon, used, strict=True) if k],
            [y for y, k in zip(self.lat, used, strict=True) if k],
        )
        for (a, b), mask in self.edges.items():
            if used[a] and used[b]:
                out.edges[(int(new_id[a]), int(new_id[b]))] = mask
        return out

    def main_component(self) -> np.ndarray:
        """Boolean mask of the nodes in the largest connected component."""
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        n = len(self.lon)
        keys = np.array(list(self.edges.keys()), dtype=np.int64).reshape(-1, 2)
        matrix = coo_matrix((np.ones(len(keys)), (keys[:, 0], keys[:, 1])), shape=(n, n))
        _, labels = connected_components(matrix, directed=False)
        degree = np.bincount(keys.ravel(), minlength=n)
        sizes = np.bincount(labels[degree > 0])
        return np.asarray(labels == int(np.argmax(sizes)), dtype=bool)

    def merged(self) -> LaneGraph:
        """A copy where nodes at the same position (to 1e-7 degree) are one node: a zero-length
        edge would leave its arc without a direction, which snapping cannot use."""
        keys = np.round(np.stack([self.lon, self.lat], axis=1), 7)
        _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
        out = LaneGraph([self.lon[i] for i in first], [self.lat[i] for i in first])
        for (a, b), mask in self.edges.items():
            out.add_edge(int(inverse[a]), int(inverse[b]), mask)
        return out

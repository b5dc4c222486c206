"""The sea-lane graph: compact arrays loaded from ``marnet.npz``.

The file is produced by :mod:`sealane.routing.build`; this module only loads it. Edges are
undirected, weighted by their WGS84 geodesic length in metres and tagged with a passage bit mask.
A point is snapped to the nearest *edge* (:mod:`.snapping`). The search walks a smaller "core"
graph: runs of degree-2 nodes with the same passage bits are folded into one chain edge between
two core nodes, and a path over core nodes is unfolded back to every node.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .data import data_dir, mapped_npz
from .geodesy import LOWER_BOUND_RADIUS_M, FloatArray, unit_vectors
from .hierarchy import CoreHierarchy
from .network import NetworkKernel, network_kernel
from .search import SearchKernel, search_kernel
from .snapping import EdgeSnapper, Snap

IntArray = npt.NDArray[np.int32]


class SeaGraph:
    """Nodes, undirected edges, passage tags, CSR adjacency and the snapping index."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        from .data.formats import Marnet  # on first use, off the cold start

        self.node_lon: FloatArray = Marnet.NODE_LON.read(arrays)
        self.node_lat: FloatArray = Marnet.NODE_LAT.read(arrays)
        #: (nodes, 2) lon/lat rows, for gathering a path's coordinates in one call.
        self.node_lonlat: FloatArray = np.ascontiguousarray(
            np.stack([self.node_lon, self.node_lat], axis=1)
        )
        self.edge_u: IntArray = Marnet.EDGE_U.read(arrays)
        self.edge_v: IntArray = Marnet.EDGE_V.read(arrays)
        #: (edges, 2) the two end nodes of each edge, rows contiguous for the search's buffers.
        self.edge_ends: IntArray = np.ascontiguousarray(
            np.stack([self.edge_u, self.edge_v], axis=1)
        )
        self.edge_length_m: FloatArray = Marnet.EDGE_LENGTH_M.read(arrays)
        self.edge_passages: npt.NDArray[np.uint32] = Marnet.EDGE_PASSAGES.read(arrays)
        #: Edges a point may snap onto: the lanes, not the build's long straight shortcuts.
        self.edge_snappable: npt.NDArray[np.bool_] = (
            ~Marnet.EDGE_SHORTCUT.read(arrays)
            if Marnet.EDGE_SHORTCUT.present(arrays)
            else np.ones(self.edge_u.size, dtype=bool)
        )
        #: Each edge's least depth in metres on the build's grid (inf: not measured; NaN: a
        #: port's charted fairway, or a file without depths), read-only.
        self.edge_depth_m: npt.NDArray[np.float32] = (
            Marnet.EDGE_DEPTH_M.read(arrays)
            if Marnet.EDGE_DEPTH_M.present(arrays)
            else np.full(self.edge_u.size, np.nan, dtype=np.float32)
        )
        self.passage_names: tuple[str, ...] = tuple(
            str(n) for n in Marnet.PASSAGE_NAMES.read(arrays)
        )
        self.cell_deg = float(Marnet.CELL_DEG.read(arrays))
        self.cell_ptr: npt.NDArray[np.int64] = Marnet.CELL_PTR.read(arrays)
        self.cell_edges: IntArray = Marnet.CELL_EDGES.read(arrays)
        self._load_core(arrays)
        #: Landmark distance tables (core nodes, K), each over the edges open when the passages
        #: of the matching ``landmark_masks`` entry are closed (the first closes nothing).
        self.landmark_masks: list[int] = [int(m) for m in Marnet.LANDMARK_MASKS.read(arrays)]
        self.landmark_tables: list[FloatArray] = [
            np.ascontiguousarray(table) for table in Marnet.LANDMARK_TABLES.read(arrays)
        ]
        self._landmarks_by_mask: dict[int, FloatArray] = {}
        #: The contraction hierarchies: for the default closed passages, and masked for any
        #: others (None for a file written without them; A* then searches).
        self.hierarchy = CoreHierarchy.load(arrays, Marnet.HIERARCHY)
        self.masked_hierarchy = CoreHierarchy.load(arrays, Marnet.MASKED)
        arctic = [
            self.passage_names.index(n)
            for n in ("northwest", "northeast")
            if n in self.passage_names
        ]
        #: Passage bits that are closed whenever ``landmarks_default`` may be used.
        self.default_closed_mask = sum(1 << bit for bit in arctic)
        self._build_csr()
        #: Where points meet the edges (:meth:`snap`, :meth:`snap_shortcut`).
        self.snapper = EdgeSnapper(self)
        #: The arrays held for unfolding a search's path and laying a leg's arrays.
        self.network: NetworkKernel = network_kernel(self)
        #: The core graph's arrays held for A* (a file without hierarchies, or none serving).
        self.search: SearchKernel = search_kernel(
            self.indptr,
            self.indices,
            self.weights,
            self.edge_ids,
            self.core_passages,
            self.xyz,
            LOWER_BOUND_RADIUS_M,
        )

    def _load_core(self, arrays: dict[str, np.ndarray]) -> None:
        """The core graph the search walks, and how each edge sits in its chain."""
        from .data.formats import Marnet

        #: Node id of each core node; core edges join core nodes by their index here.
        self.core_node: IntArray = Marnet.CORE_NODE.read(arrays)
        self.core_u: IntArray = Marnet.CORE_U.read(arrays)
        self.core_v: IntArray = Marnet.CORE_V.read(arrays)
        self.core_length_m: FloatArray = Marnet.CORE_LENGTH_M.read(arrays)
        self.core_passages: npt.NDArray[np.uint32] = Marnet.CORE_PASSAGES.read(arrays)
        #: The edges of core edge c, in order from core_u[c]: chain_edge[chain_ptr[c]:...].
        self.chain_ptr: IntArray = Marnet.CHAIN_PTR.read(arrays)
        self.chain_edge: IntArray = Marnet.CHAIN_EDGE.read(arrays)
        #: Per edge: its core edge, metres from the core edge's u end to the edge's nearer end,
        #: and whether the edge runs u -> v in the chain's direction.
        self.edge_core: IntArray = Marnet.EDGE_CORE.read(arrays)
        self.edge_along_m: FloatArray = Marnet.EDGE_ALONG_M.read(arrays)
        self.edge_forward: npt.NDArray[np.bool_] = Marnet.EDGE_FORWARD.read(arrays)
        #: Index of each edge within its chain.
        self.edge_position: IntArray = np.empty(self.edge_core.size, dtype=np.int32)
        self.edge_position[self.chain_edge] = (
            np.arange(self.chain_edge.size, dtype=np.int32)
            - (self.chain_ptr[self.edge_core[self.chain_edge]])
        )
        self._unfold_chains()
        #: Core edge ends as (core edges, 2), rows contiguous for the search's buffers.
        self.core_ends: IntArray = np.ascontiguousarray(np.stack([self.core_u, self.core_v], 1))
        core_lon, core_lat = self.node_lon[self.core_node], self.node_lat[self.core_node]
        #: Unit vectors of the core nodes (the search's lower bounds).
        self.xyz: FloatArray = np.ascontiguousarray(unit_vectors(core_lon, core_lat))

    def _unfold_chains(self) -> None:
        """Every chain unfolded both ways, so a path is gathered by slices: for the i-th edge of
        ``chain_edge`` (chain c, edge E[j] of its L), ``chain_steps[i]`` is that edge and
        ``chain_heads[i]`` the node it leads to going forward (N[j + 1]); at ``i + T`` (T edges
        in all) the same for the chain walked backwards (edge E[L - 1 - j], node N[L - 1 - j])."""
        edges = self.chain_edge
        ahead = self.edge_forward[edges]
        heads = np.where(ahead, self.edge_v[edges], self.edge_u[edges])
        tails = np.where(ahead, self.edge_u[edges], self.edge_v[edges])
        counts = np.diff(self.chain_ptr)
        chain = np.repeat(np.arange(counts.size), counts)
        mirror = self.chain_ptr[chain] + self.chain_ptr[chain + 1] - 1 - np.arange(edges.size)
        self.chain_heads: IntArray = np.concatenate([heads, tails[mirror]]).astype(np.int32)
        self.chain_steps: IntArray = np.concatenate([edges, edges[mirror]]).astype(np.int32)

    @property
    def node_count(self) -> int:
        """Number of nodes."""
        return int(self.node_lon.size)

    @property
    def edge_count(self) -> int:
        """Number of undirected edges."""
        return int(self.edge_u.size)

    @property
    def core_count(self) -> int:
        """Number of core nodes (the nodes the search walks)."""
        return int(self.core_node.size)

    def _build_csr(self) -> None:
        """CSR adjacency of the core graph, and a sorted (tail, head) -> edge key of all edges."""
        k = self.core_count
        tails = np.concatenate([self.core_u, self.core_v])
        heads = np.concatenate([self.core_v, self.core_u])
        ids = np.concatenate([np.arange(self.core_u.size, dtype=np.int32)] * 2)
        order = np.argsort(tails, kind="stable")
        counts = np.bincount(tails, minlength=k)
        self.indptr: IntArray = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
        self.indices: IntArray = np.ascontiguousarray(heads[order], dtype=np.int32)
        self.edge_ids: IntArray = np.ascontiguousarray(ids[order], dtype=np.int32)
        self.weights: FloatArray = np.ascontiguousarray(self.core_length_m[self.edge_ids])
        core_keys = self.core_u.astype(np.int64) * k + self.core_v
        core_keys = np.concatenate([core_keys, self.core_v.astype(np.int64) * k + self.core_u])
        order = np.argsort(core_keys)
        self._core_key = core_keys[order]
        self._core_edge = np.concatenate([np.arange(self.core_u.size, dtype=np.int32)] * 2)[order]

    def core_between(self, tails: IntArray, heads: IntArray) -> IntArray:
        """Core edge joining each (tail, head) pair of adjacent core nodes (unique per pair)."""
        keys = tails.astype(np.int64) * self.core_count + heads
        return self._core_edge[np.searchsorted(self._core_key, keys)]

    def chain_nodes(self, core_edge: int, *, forward: bool) -> IntArray:
        """The nodes of a core edge's chain, from its u end (``forward``) or from its v end."""
        edges = self.chain_edge[self.chain_ptr[core_edge] : self.chain_ptr[core_edge + 1]]
        ahead = self.edge_forward[edges]
        tails = np.where(ahead, self.edge_u[edges], self.edge_v[edges])
        nodes = np.append(tails, self.core_node[self.core_v[core_edge]])
        return nodes if forward else nodes[::-1]

    def along_chain_m(self, snap: Snap) -> float:
        """Metres along the snapped edge's chain from its core u end to the snapped point."""
        edge = snap.edge
        into = snap.offset_u_m if self.edge_forward[edge] else snap.offset_v_m
        return float(self.edge_along_m[edge]) + into

    def edge_between(self, tails: IntArray, heads: IntArray) -> IntArray:
        """Edge id joining each (tail, head) pair of adjacent nodes (edges are unique per pair)."""
        pair_key, pair_edge = self._pair_index()
        keys = tails.astype(np.int64) * self.node_count + heads
        return pair_edge[np.searchsorted(pair_key, keys)]

    @cache  # noqa: B019 - one graph per process; the key is built on first use, not at load
    def _pair_index(self) -> tuple[npt.NDArray[np.int64], IntArray]:
        """Sorted (tail, head) keys of all edges both ways, and the edge of each key."""
        n = self.node_count
        all_tails = np.concatenate([self.edge_u, self.edge_v]).astype(np.int64)
        all_heads = np.concatenate([self.edge_v, self.edge_u]).astype(np.int64)
        keys = all_tails * n + all_heads
        order = np.argsort(keys)
        edges = np.concatenate([np.arange(self.edge_count, dtype=np.int32)] * 2)[order]
        return keys[order], edges

    def landmarks_for(self, blocked: int) -> FloatArray:
        """The tightest landmark table whose bounds hold when the ``blocked`` passages are closed:
        the one computed with the largest set of passages that ``blocked`` closes too."""
        table = self._landmarks_by_mask.get(blocked)
        if table is None:
            usable = [i for i, mask in enumerate(self.landmark_masks) if mask & blocked == mask]
            best = max(usable, key=lambda i: bin(self.landmark_masks[i]).count("1"))
            table = self._landmarks_by_mask[blocked] = self.landmark_tables[best]
        return table

    def snap(self, lon: float, lat: float, *, blocked: int = 0) -> Snap:
        """The nearest point of an edge not in a ``blocked`` passage (:meth:`EdgeSnapper.snap`)."""
        return self.snapper.snap(lon, lat, blocked=blocked)

    def snap_shortcut(
        self, lon: float, lat: float, within_m: float, *, blocked: int = 0
    ) -> Snap | None:
        """The nearest point of a shortcut edge within ``within_m``, if any
        (:meth:`EdgeSnapper.snap_shortcut`)."""
        return self.snapper.snap_shortcut(lon, lat, within_m, blocked=blocked)


def load_graph(path: Path | None = None) -> SeaGraph:
    """Load a graph file written by :mod:`sealane.routing.build`, refusing one of another
    format version (:data:`~sealane.routing.data.formats.MARNET_VERSION`)."""
    from .data.formats import MARNET

    arrays = mapped_npz(path or data_dir() / MARNET.name)
    MARNET.check_version(arrays)
    return SeaGraph(arrays)


@cache
def default_graph() -> SeaGraph:
    """The shipped graph, loaded once per process."""
    return load_graph()

"""Where a point meets the sea-lane graph: the nearest point of its nearest edge.

A point is snapped to the nearest *edge* by true angular distance on the sphere, using the
graph file's 1-degree cell index, which lists, per cell, every edge that can be nearest to some
point in it; an edge in a closed passage is passed over. A vessel may also lie on one of the
build's long straight shortcuts, which no point snaps to otherwise
(:meth:`EdgeSnapper.snap_shortcut`).

The arcs are measured by ``_snapping.c`` (a fresh coordinate would otherwise spend more time in
small numpy calls than its route spends searching); :class:`ArcsPython` is its twin, the oracle
in the tests and the fallback where the extension was not compiled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .geodesy import (
    MEAN_EARTH_RADIUS_M,
    FloatArray,
    arc_normals,
    from_unit_vectors,
    lonlat_of,
    nearest_on_arcs,
    unit_vector,
    unit_vectors,
)

#: The nearest arc: (edge, angle in radians, lon, lat, fraction of the edge from its u end).
Nearest = tuple[int, float, float, float, float]

IntArray = npt.NDArray[np.int32]
#: Snaps remembered per kind (lanes, shortcuts): ports and repeated positions snap once.
MEMO_SIZE = 8192


@dataclass(frozen=True, slots=True)
class Snap:
    """Where a point meets the network: the nearest point of edge ``edge`` (u -> v)."""

    lon: float
    lat: float
    edge: int
    #: Metres along the edge from its u end and from its v end to the snapped point.
    offset_u_m: float
    offset_v_m: float
    #: Great-circle distance from the query point to the snapped point (mean sphere), metres.
    distance_m: float


class SnapArrays(Protocol):
    """The graph's arrays a snap reads (:class:`~.graph.SeaGraph` has them)."""

    node_lon: FloatArray
    node_lat: FloatArray
    edge_u: IntArray
    edge_v: IntArray
    edge_length_m: FloatArray
    edge_passages: npt.NDArray[np.uint32]
    edge_snappable: npt.NDArray[np.bool_]
    cell_deg: float
    cell_ptr: npt.NDArray[np.int64]
    cell_edges: IntArray


class ArcKernel(Protocol):
    """What the compiled ``_snapping.Arcs`` and :class:`ArcsPython` answer."""

    def in_cell(self, lon: float, lat: float, cell: int, /) -> Nearest | None:
        """The nearest of the edges the cell index lists for ``cell``, whatever their
        passages (None for a cell listing none)."""

    def among(
        self, lon: float, lat: float, ids: IntArray, blocked: int, reach: float, /
    ) -> Nearest | None:
        """The nearest of ``ids`` outside the ``blocked`` passages whose great circle passes
        within the angle whose sine is ``reach`` (2.0: any), or None."""

    def ahead(
        self,
        lon: float,
        lat: float,
        cell: int,
        goal_lon: float,
        goal_lat: float,
        count: int,
        reach: float,
        /,
    ) -> list[tuple[int, int, float]]:
        """The ends of the cell's listed edges within ``reach`` radians of the point, the
        ``count`` with the least angle from the point plus angle on to the goal, best first,
        each end once: (edge, 0 for its u node or 1 for its v node, angle from the point)."""

    def near(
        self, lon: float, lat: float, blocked: int, within: float, slack: float, cell_deg: float, /
    ) -> Nearest | None:
        """The nearest edge the cell index lists (``cell_deg`` cells, each edge in every cell
        holding one of its points sampled at most ``2 * slack`` radians apart), outside the
        ``blocked`` passages, no farther than ``within`` radians (widened by a relative 1e-12,
        so an arc exactly that far is found whatever the rounding); or None."""


class ArcsPython:
    """The twin of ``_snapping.Arcs`` in numpy (:func:`~.geodesy.nearest_on_arcs`)."""

    def __init__(
        self,
        edge_a: FloatArray,
        edge_b: FloatArray,
        edge_normal: FloatArray,
        edge_passages: npt.NDArray[np.uint32],
        cell_ptr: npt.NDArray[np.int64],
        cell_edges: IntArray,
    ) -> None:
        self._a, self._b, self._normal = edge_a, edge_b, edge_normal
        self._passages = edge_passages
        self._cell_ptr, self._cell_edges = cell_ptr, cell_edges
        self._listed = np.unique(cell_edges)

    def in_cell(self, lon: float, lat: float, cell: int, /) -> Nearest | None:
        return self._nearest(
            lon, lat, self._cell_edges[self._cell_ptr[cell] : self._cell_ptr[cell + 1]]
        )

    def among(
        self, lon: float, lat: float, ids: IntArray, blocked: int, reach: float, /
    ) -> Nearest | None:
        ids = ids[(self._passages[ids] & np.uint32(blocked)) == 0]
        ids = ids[np.abs(self._normal[ids] @ unit_vector(lon, lat)) <= reach]
        return self._nearest(lon, lat, ids)

    def ahead(
        self,
        lon: float,
        lat: float,
        cell: int,
        goal_lon: float,
        goal_lat: float,
        count: int,
        reach: float,
        /,
    ) -> list[tuple[int, int, float]]:
        ids = self._cell_edges[self._cell_ptr[cell] : self._cell_ptr[cell + 1]]
        point, goal = unit_vector(lon, lat), unit_vector(goal_lon, goal_lat)
        kept: list[tuple[float, int, int, float, tuple[float, ...]]] = []
        for k, edge in enumerate(ids.tolist()):
            for end, ends in enumerate((self._a, self._b)):
                x = ends[edge]
                to = math.acos(min(1.0, max(-1.0, float(point @ x))))
                if to > reach or any(tuple(x) == seen[4] for seen in kept):
                    continue
                on = to + math.acos(min(1.0, max(-1.0, float(goal @ x))))
                kept.append((on, k * 2 + end, edge, to, tuple(x)))
        kept.sort(key=lambda item: (item[0], item[1]))
        return [(edge, order % 2, to) for _, order, edge, to, _ in kept[:count]]

    def near(
        self, lon: float, lat: float, blocked: int, within: float, slack: float, cell_deg: float, /
    ) -> Nearest | None:
        reach = math.sin(within) if within < math.pi / 2 else 2.0
        found = self.among(lon, lat, self._listed, blocked, reach)
        bound = within * (1.0 + 1e-12) + 1e-15  # as the compiled kernel widens it
        return found if found is not None and found[1] < bound else None

    def _nearest(self, lon: float, lat: float, ids: IntArray) -> Nearest | None:
        if ids.size == 0:
            return None
        point = unit_vector(lon, lat)
        i, angle, nearest = nearest_on_arcs(point, self._a[ids], self._b[ids], self._normal[ids])
        edge = int(ids[i])
        a, b = self._a[edge], self._b[edge]
        along = 2.0 * math.asin(min(1.0, float(np.linalg.norm(nearest - a)) / 2.0))
        span = math.acos(min(1.0, max(-1.0, float(a @ b))))
        fraction = min(max(along / span, 0.0), 1.0) if span > 0 else 0.0
        return (edge, angle, *lonlat_of(nearest), fraction)


def arc_kernel(
    graph: SnapArrays, index: tuple[npt.NDArray[np.int64], IntArray] | None = None
) -> ArcKernel:
    """The compiled arcs of ``graph``'s edges with the graph's cell index (or ``index``, cell
    pointers and listed edges), or the twin where they were not built."""
    arrays = arc_arrays(graph)
    if index is not None:
        arrays = (*arrays[:4], *index)
    try:
        from sealane.routing._snapping import Arcs
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return ArcsPython(*arrays)
    kernel: ArcKernel = Arcs(*arrays)
    return kernel


def arc_arrays(
    graph: SnapArrays,
) -> tuple[
    FloatArray, FloatArray, FloatArray, npt.NDArray[np.uint32], npt.NDArray[np.int64], IntArray
]:
    """The arrays :class:`ArcKernel` holds: each edge's end unit vectors and great-circle normal
    (rows of three), its passage mask, and the cell index."""
    xyz = unit_vectors(graph.node_lon, graph.node_lat)
    a = np.ascontiguousarray(xyz[graph.edge_u])
    b = np.ascontiguousarray(xyz[graph.edge_v])
    return (
        a,
        b,
        np.ascontiguousarray(arc_normals(a, b)),
        np.ascontiguousarray(graph.edge_passages, dtype=np.uint32),
        np.ascontiguousarray(graph.cell_ptr, dtype=np.int64),
        np.ascontiguousarray(graph.cell_edges, dtype=np.int32),
    )


#: Cells of the shortcuts' index, degrees, and the most a shortcut's sampled points lie apart.
SHORTCUT_CELL_DEG = 2.0
SHORTCUT_STEP_DEG = 1.0


def arc_cells(
    a: FloatArray, b: FloatArray, ids: IntArray, cell_deg: float, step_deg: float
) -> tuple[npt.NDArray[np.int64], IntArray]:
    """A cell index of the arcs ``ids`` (rows of ``a`` and ``b``, unit vectors): per
    ``cell_deg`` cell (rows from 90 S, columns from 180 W), every arc with a point sampled at
    most ``step_deg`` apart along it in that cell. Pointers and listed arcs, like the graph's."""
    ends_a, ends_b = a[ids], b[ids]
    angle = np.arccos(np.clip(np.einsum("ij,ij->i", ends_a, ends_b), -1.0, 1.0))
    counts = np.ceil(np.degrees(angle) / step_deg).astype(np.int64) + 1
    owner = np.repeat(np.arange(ids.size), counts)
    first = np.cumsum(counts) - counts
    steps = np.maximum(counts[owner] - 1, 1)  # an arc of no length is its one point
    t = (np.arange(owner.size) - first[owner]) / steps
    theta = angle[owner]
    with np.errstate(invalid="ignore", divide="ignore"):
        wa = np.where(theta > 0, np.sin((1.0 - t) * theta) / np.sin(theta), 1.0 - t)
        wb = np.where(theta > 0, np.sin(t * theta) / np.sin(theta), t)
    points = wa[:, None] * ends_a[owner] + wb[:, None] * ends_b[owner]
    lon, lat = from_unit_vectors(points)
    rows, cols = round(180 / cell_deg), round(360 / cell_deg)
    row = np.clip(((lat + 90.0) // cell_deg).astype(np.int64), 0, rows - 1)
    col = np.clip(((lon + 180.0) // cell_deg).astype(np.int64), 0, cols - 1)
    keys = (row * cols + col) * ids.size + owner
    keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]  # an arc's run in one cell
    keys.sort()
    pairs = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]
    cells, listed = pairs // ids.size, ids[pairs % ids.size]
    pointers = np.zeros(rows * cols + 1, dtype=np.int64)
    np.cumsum(np.bincount(cells, minlength=rows * cols), out=pointers[1:])
    return pointers, listed.astype(np.int32)


class EdgeSnapper:
    """Snaps points onto a graph's edges: the edges' arcs (:class:`ArcKernel`), the cell index,
    and the memos of recent snaps."""

    def __init__(self, graph: SnapArrays, kernel: ArcKernel | None = None) -> None:
        self._passages = graph.edge_passages
        self._length_m = graph.edge_length_m
        self._cell_deg = graph.cell_deg
        self._rows = round(180 / graph.cell_deg)
        self._cols = round(360 / graph.cell_deg)
        self.arcs: ArcKernel = kernel if kernel is not None else arc_kernel(graph)
        self._snap_cached = lru_cache(maxsize=MEMO_SIZE)(self._snap)
        self._shortcut_snap_cached = lru_cache(maxsize=MEMO_SIZE)(self._snap_shortcut)
        self._shortcut_ids = np.flatnonzero(~graph.edge_snappable).astype(np.int32)
        self._lane_ids = np.flatnonzero(graph.edge_snappable).astype(np.int32)
        self._graph = graph
        self._shortcuts: ArcKernel | None = None

    def forget(self) -> None:
        """Drop the remembered snaps (a benchmark's cold start)."""
        self._snap_cached.cache_clear()
        self._shortcut_snap_cached.cache_clear()

    def snap(self, lon: float, lat: float, *, blocked: int = 0) -> Snap:
        """The nearest point of an edge not in a ``blocked`` passage, by angle on the sphere.

        Results are memoised per (lon, lat, blocked): ports and repeated positions snap once.
        """
        return self._snap_cached(float(lon), float(lat), int(blocked))

    def _snap(self, lon: float, lat: float, blocked: int) -> Snap:
        found = self.arcs.in_cell(lon, lat, self.cell_of(lon, lat))
        if found is None or self._passages[found[0]] & blocked:
            found = self.arcs.among(lon, lat, self._lane_ids, blocked, 2.0)
        if found is None:
            raise ValueError("no open lane to snap to")  # pragma: no cover - every file has one
        return self._snap_onto(found)

    def cell_of(self, lon: float, lat: float) -> int:
        """The index cell of (lon, lat)."""
        row = min(max(int((lat + 90.0) // self._cell_deg), 0), self._rows - 1)
        col = min(max(int((lon + 180.0) // self._cell_deg), 0), self._cols - 1)
        return row * self._cols + col

    def snap_shortcut(
        self, lon: float, lat: float, within_m: float, *, blocked: int = 0
    ) -> Snap | None:
        """The nearest point of a shortcut edge not in a ``blocked`` passage, if one lies within
        ``within_m``: a vessel sailing a shortcut lies on it, however far from every lane.

        Memoised like :meth:`snap`. Only shortcuts whose great circle passes within ``within_m``
        are measured, so callers pass the distance to the lanes.
        """
        return self._shortcut_snap_cached(float(lon), float(lat), float(within_m), int(blocked))

    @property
    def shortcuts(self) -> ArcKernel:
        """The shortcuts' arcs with their own cell index (:func:`arc_cells`), made on the first
        snap that asks for them: a route between ports never needs them."""
        if self._shortcuts is None:
            index = arc_cells(
                *arc_arrays(self._graph)[:2],
                self._shortcut_ids,
                SHORTCUT_CELL_DEG,
                SHORTCUT_STEP_DEG,
            )
            self._shortcuts = arc_kernel(self._graph, index)
        return self._shortcuts

    def _snap_shortcut(self, lon: float, lat: float, within_m: float, blocked: int) -> Snap | None:
        within = min(within_m / MEAN_EARTH_RADIUS_M, math.pi)
        slack = math.radians(SHORTCUT_STEP_DEG) / 2.0 * 1.001
        found = self.shortcuts.near(lon, lat, blocked, within, slack, SHORTCUT_CELL_DEG)
        return None if found is None else self._snap_onto(found)

    def _snap_onto(self, found: Nearest) -> Snap:
        """The snap a kernel found: onto edge ``edge`` at (lon, lat), ``angle`` away and
        ``fraction`` of the way from its u end."""
        edge, angle, lon, lat, fraction = found
        length = float(self._length_m[edge])
        return Snap(
            lon=lon,
            lat=lat,
            edge=edge,
            offset_u_m=fraction * length,
            offset_v_m=(1.0 - fraction) * length,
            distance_m=angle * MEAN_EARTH_RADIUS_M,
        )

"""Where a point meets the sea-lane graph: the nearest point of its nearest edge.

A point is snapped to the nearest *edge* by true angular distance on the sphere, using the
graph file's 1-degree cell index, which lists, per cell, every edge that can be nearest to some
point in it; an edge in a closed passage is passed over. A vessel may also lie on one of the
build's long straight shortcuts, which no point snaps to otherwise
(:meth:`EdgeSnapper.snap_shortcut`).
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
    lonlat_of,
    nearest_on_arcs,
    unit_vector,
    unit_vectors,
)

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


class EdgeSnapper:
    """Snaps points onto a graph's edges: the edges' arcs on the unit sphere, the cell index,
    and the memos of recent snaps."""

    def __init__(self, graph: SnapArrays) -> None:
        self._passages = graph.edge_passages
        self._snappable = graph.edge_snappable
        self._length_m = graph.edge_length_m
        self._cell_deg = graph.cell_deg
        self._cell_ptr = graph.cell_ptr
        self._cell_edges = graph.cell_edges
        all_xyz = unit_vectors(graph.node_lon, graph.node_lat)
        a, b = all_xyz[graph.edge_u], all_xyz[graph.edge_v]
        self._edge_a, self._edge_b = a, b
        self._edge_normal = arc_normals(a, b)
        self._edge_angle = np.arccos(np.clip(np.einsum("ij,ij->i", a, b), -1.0, 1.0))
        self._snap_cached = lru_cache(maxsize=MEMO_SIZE)(self._snap)
        self._shortcut_snap_cached = lru_cache(maxsize=MEMO_SIZE)(self._snap_shortcut)
        self._shortcut_ids = np.flatnonzero(~self._snappable).astype(np.int32)
        self._shortcut_normals = np.ascontiguousarray(self._edge_normal[self._shortcut_ids])

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
        point = unit_vector(lon, lat)
        row = min(max(int((lat + 90.0) // self._cell_deg), 0), int(180 / self._cell_deg) - 1)
        col = min(max(int((lon + 180.0) // self._cell_deg), 0), int(360 / self._cell_deg) - 1)
        cell = row * round(360 / self._cell_deg) + col
        candidates = self._cell_edges[self._cell_ptr[cell] : self._cell_ptr[cell + 1]]
        angle, snapped, best = self._nearest_of(point, candidates)
        if self._passages[best] & blocked:
            open_ = (self._passages & np.uint32(blocked)) == 0
            allowed = np.flatnonzero(open_ & self._snappable).astype(np.int32)
            angle, snapped, best = self._nearest_of(point, allowed)
        return self._snap_onto(angle, snapped, best)

    def snap_shortcut(
        self, lon: float, lat: float, within_m: float, *, blocked: int = 0
    ) -> Snap | None:
        """The nearest point of a shortcut edge not in a ``blocked`` passage, if one lies within
        ``within_m``: a vessel sailing a shortcut lies on it, however far from every lane.

        Memoised like :meth:`snap`. Only shortcuts whose great circle passes within ``within_m``
        are measured, so callers pass the distance to the lanes.
        """
        return self._shortcut_snap_cached(float(lon), float(lat), float(within_m), int(blocked))

    def _snap_shortcut(self, lon: float, lat: float, within_m: float, blocked: int) -> Snap | None:
        point = unit_vector(lon, lat)
        reach = math.sin(min(within_m / MEAN_EARTH_RADIUS_M, math.pi / 2))
        near = np.abs(self._shortcut_normals @ point) <= reach
        ids = self._shortcut_ids[near]
        ids = ids[(self._passages[ids] & np.uint32(blocked)) == 0]
        if ids.size == 0:
            return None
        angle, snapped, best = self._nearest_of(point, ids)
        if angle * MEAN_EARTH_RADIUS_M > within_m:
            return None
        return self._snap_onto(angle, snapped, best)

    def _snap_onto(self, angle: float, snapped: FloatArray, best: int) -> Snap:
        """The snap onto edge ``best`` at the unit vector ``snapped``, ``angle`` away."""
        chord = float(np.linalg.norm(snapped - self._edge_a[best]))
        along = 2.0 * math.asin(min(1.0, chord / 2.0))
        span = float(self._edge_angle[best])
        fraction = min(max(along / span, 0.0), 1.0) if span > 0 else 0.0
        s_lon, s_lat = lonlat_of(snapped)
        length = float(self._length_m[best])
        return Snap(
            lon=s_lon,
            lat=s_lat,
            edge=best,
            offset_u_m=fraction * length,
            offset_v_m=(1.0 - fraction) * length,
            distance_m=angle * MEAN_EARTH_RADIUS_M,
        )

    def _nearest_of(self, point: FloatArray, edges: IntArray) -> tuple[float, FloatArray, int]:
        """Angle to, nearest point on, and id of the closest of ``edges`` to ``point``."""
        i, angle, nearest = nearest_on_arcs(
            point, self._edge_a[edges], self._edge_b[edges], self._edge_normal[edges]
        )
        return angle, nearest, int(edges[i])

"""Shortest water paths on a local grid, for repairing edges and joining ports and corridors.

A window around the points to join is cut into cells aligned with the coastline raster; water
cells are joined to their 8 neighbours (no corner cutting across land) and weighted by their
metric spacing; Dijkstra finds the shortest cell path, which is then pulled tight: each vertex
is kept only when the geodesic from the previous kept vertex would leave water. Build-time only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from ..geodesy import MEAN_EARTH_RADIUS_M, FloatArray, normalize_lon
from .coast import RASTER_DEG, BoolArray, Coastline, sample_geodesics

#: Largest window, in cells; bigger areas are searched on coarser cells.
MAX_CELLS = 1_500_000
#: Spacing of the exact land test along a candidate straight leg, metres.
EXACT_SPACING_M = 40.0
#: How far (cells) a start or goal off the water grid may look for a water cell to step onto.
REACH_CELLS = 12
#: EXACT mode tests the shoreline only this many raster cells from raster water...
SHORE_REACH = 2
#: ...except in windows of at most this many cells, tested everywhere.
EXACT_EVERYWHERE_CELLS = 300_000
#: How far (cells) a river or canal line that stops short of water is bridged to it.
BRIDGE_CELLS = 20


class Water(Enum):
    """Which cells count as water: raster water (keeps a margin from the shore) or exact water."""

    CLEAR = "clear"
    EXACT = "exact"


@dataclass(frozen=True, slots=True)
class Window:
    """A lon/lat box of ``ny`` x ``nx`` cells of ``step_deg``; longitudes may run past 180."""

    west: float
    south: float
    step_deg: float
    nx: int
    ny: int

    @classmethod
    def around(
        cls,
        lon: FloatArray,
        lat: FloatArray,
        margin_m: float,
        step_deg: float,
        max_cells: int = MAX_CELLS,
    ) -> Window:
        """The window holding the points (lon unwrapped) plus ``margin_m``, aligned to the raster
        and coarsened by whole raster cells until it has at most ``MAX_CELLS`` cells."""
        lat_mid = math.radians(float(np.mean(lat)))
        margin_lat = math.degrees(margin_m / MEAN_EARTH_RADIUS_M)
        margin_lon = margin_lat / max(math.cos(lat_mid), 0.05)
        west = float(lon.min()) - margin_lon
        east = float(lon.max()) + margin_lon
        south = max(float(lat.min()) - margin_lat, -89.9)
        north = min(float(lat.max()) + margin_lat, 89.9)
        step = step_deg
        while (east - west) * (north - south) / step**2 > max_cells:
            step *= 2.0
        west = math.floor(west / step) * step
        south = math.floor(south / step) * step
        nx = math.ceil((east - west) / step)
        ny = math.ceil((north - south) / step)
        return cls(west, south, step, nx, ny)

    def centres(self) -> tuple[FloatArray, FloatArray]:
        """Cell centre lon and lat, each (ny, nx)."""
        lon = self.west + (np.arange(self.nx) + 0.5) * self.step_deg
        lat = self.south + (np.arange(self.ny) + 0.5) * self.step_deg
        grid_lon, grid_lat = np.meshgrid(lon, lat)
        return grid_lon, grid_lat

    def cells(self, lon: FloatArray, lat: FloatArray) -> tuple[npt.NDArray[np.int64], ...]:
        """(row, col) of each point, -1 where it lies outside the window."""
        col = np.floor((lon - self.west) / self.step_deg).astype(np.int64)
        row = np.floor((lat - self.south) / self.step_deg).astype(np.int64)
        outside = (col < 0) | (col >= self.nx) | (row < 0) | (row >= self.ny)
        return np.where(outside, -1, row), np.where(outside, -1, col)


def water_cells(
    coast: Coastline, window: Window, mode: Water, *, everywhere: bool = False
) -> BoolArray:
    """Water mask (ny, nx). CLEAR: every raster cell under the cell is water. EXACT: the cell's
    centre is water on the shoreline polygons, tested ``everywhere`` in small windows and in
    large ones only near raster water (within ``SHORE_REACH`` raster cells)."""
    lon, lat = window.centres()
    if mode is Water.EXACT:
        if everywhere or lon.size <= EXACT_EVERYWHERE_CELLS:
            return ~coast.is_land(lon, lat).reshape(lon.shape)
        raster_water = ~coast.maybe_land(lon, lat).reshape(lon.shape)
        from scipy.ndimage import binary_dilation

        reach = max(1, round(SHORE_REACH * RASTER_DEG / window.step_deg))
        near = binary_dilation(raster_water, iterations=reach) & ~raster_water
        water = raster_water.copy()
        water[near] = ~coast.is_land(lon[near], lat[near])
        return water
    if window.step_deg <= RASTER_DEG * 1.01:
        return ~coast.maybe_land(lon, lat).reshape(lon.shape)
    k = round(window.step_deg / RASTER_DEG)
    offsets = (np.arange(k) + 0.5) * RASTER_DEG - window.step_deg / 2.0
    water = np.ones(lon.shape, dtype=bool)
    for dy in offsets:
        for dx in offsets:
            water &= ~coast.maybe_land(lon + dx, lat + dy).reshape(lon.shape)
    return water


def burn_lines(water: BoolArray, window: Window, lines: list[FloatArray]) -> None:
    """Mark as water every cell a line passes through (lines as (N, 2) lon/lat arrays), then
    bridge each line end that stops short of water to the nearest other water within reach."""
    spacing_m = window.step_deg * 111_000.0 / 4.0
    before = water.copy()
    burnt: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
    for line in lines:
        if line.shape[0] < 2:
            continue
        lon, lat, _, _ = sample_geodesics(
            line[:-1, 0], line[:-1, 1], line[1:, 0], line[1:, 1], spacing_m
        )
        lon = window.west + np.mod(lon - window.west, 360.0)
        rows, cols = window.cells(lon, lat)
        inside = rows >= 0
        water[rows[inside], cols[inside]] = True
        # Where the line steps diagonally, burn the corner cell too: the grid cuts no corners.
        both = inside[1:] & inside[:-1]
        water[rows[:-1][both], cols[1:][both]] = True
        burnt.append((rows, cols))
    for rows, cols in burnt:
        others = water.copy()
        inside = rows >= 0
        others[rows[inside], cols[inside]] = False
        both = inside[1:] & inside[:-1]
        others[rows[:-1][both], cols[1:][both]] = False
        for end in (0, -1):
            if inside[end] and not before[rows[end], cols[end]]:
                _bridge(water, others, window, int(rows[end]), int(cols[end]))


def _bridge(water: BoolArray, before: BoolArray, window: Window, row: int, col: int) -> None:
    """Burn a straight run of cells from (row, col) to the nearest cell of ``before`` within
    ``BRIDGE_CELLS`` (a lock or a short cut the line data leave out)."""
    r_lo, c_lo = max(row - BRIDGE_CELLS, 0), max(col - BRIDGE_CELLS, 0)
    patch = before[r_lo : row + BRIDGE_CELLS + 1, c_lo : col + BRIDGE_CELLS + 1]
    rr, cc = np.nonzero(patch)
    if rr.size == 0:
        return
    k = int(np.argmin(np.hypot(rr + r_lo - row, cc + c_lo - col)))
    steps = int(max(abs(rr[k] + r_lo - row), abs(cc[k] + c_lo - col))) + 1
    path_r = np.rint(np.linspace(row, rr[k] + r_lo, steps * 2)).astype(np.int64)
    path_c = np.rint(np.linspace(col, cc[k] + c_lo, steps * 2)).astype(np.int64)
    water[path_r, path_c] = True
    water[path_r, np.minimum(path_c + 1, window.nx - 1)] = True


def cell_graph(water: BoolArray, window: Window) -> object:
    """Sparse 8-neighbour graph of the water cells, weights in metres (no corner cutting)."""
    from scipy.sparse import coo_matrix

    ny, nx = water.shape
    index = np.arange(ny * nx).reshape(ny, nx)
    lat = np.radians(window.south + (np.arange(ny) + 0.5) * window.step_deg)
    step = math.radians(window.step_deg) * MEAN_EARTH_RADIUS_M
    dx = (step * np.cos(lat))[:, None] * np.ones((1, nx))
    tails, heads, weights = [], [], []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        r0, r1 = slice(0, ny - dr), slice(dr, ny)
        c0 = slice(max(0, -dc), nx - max(0, dc))
        c1 = slice(max(0, dc), nx - max(0, -dc))
        ok = water[r0, c0] & water[r1, c1]
        if dr and dc:  # a diagonal step needs both cells it passes between
            ok &= water[r0, c1] & water[r1, c0]
        length = np.hypot(dx[r0, c0] * dc, step * dr)
        tails.append(index[r0, c0][ok])
        heads.append(index[r1, c1][ok])
        weights.append(length[ok])
    n = ny * nx
    t, h, w = np.concatenate(tails), np.concatenate(heads), np.concatenate(weights)
    return coo_matrix((w, (t, h)), shape=(n, n)).tocsr()


def normalised(points: FloatArray) -> FloatArray:
    """(N, 2) lon/lat with longitudes wrapped back into [-180, 180)."""
    out = np.array(points, dtype=np.float64)
    out[:, 0] = normalize_lon(out[:, 0])
    return out

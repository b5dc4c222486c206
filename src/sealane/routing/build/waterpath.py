"""Shortest water path from a point to another point, or to the nearest of many points.

Both searches run on a :class:`~sealane.routing.build.grid.Window` around the points: the start
steps onto the water grid by a straight leg that the exact shoreline shows to be water, Dijkstra
runs over the water cells, and the cell path is pulled tight (see :func:`pull_tight`).
Build-time only.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..geodesy import FloatArray, normalize_lon
from .coast import RASTER_DEG, BoolArray, Coastline, sample_geodesics
from .grid import (
    EXACT_SPACING_M,
    MAX_CELLS,
    REACH_CELLS,
    Water,
    Window,
    burn_lines,
    cell_graph,
    normalised,
    water_cells,
)

#: Cell size of the EXACT mode, degrees (a quarter of the raster cell, about 115 m).
EXACT_STEP_DEG = RASTER_DEG / 4.0


class Grid:
    """A window, its water mask and the rules a straight leg on it must follow."""

    def __init__(
        self,
        coast: Coastline,
        points: FloatArray,
        margin_m: float,
        mode: Water,
        lines: list[FloatArray] | None = None,
        max_cells: int = MAX_CELLS,
    ) -> None:
        lon = points[0, 0] + normalize_lon(points[:, 0] - points[0, 0])
        self.origin_lon = float(points[0, 0])
        step = EXACT_STEP_DEG if mode is Water.EXACT else RASTER_DEG
        self.window = Window.around(lon, points[:, 1], margin_m, step, max_cells)
        self.coast = coast
        self.water: BoolArray = water_cells(coast, self.window, mode, everywhere=bool(lines))
        #: Whether a leg must also be water on the exact shoreline (not when following rivers).
        self.exact = not lines
        if lines:
            burn_lines(self.water, self.window, [self.unwrapped(line) for line in lines])

    def unwrapped(self, points: FloatArray) -> FloatArray:
        """Points with longitudes continuous with the window's (it may run past +-180)."""
        out = np.array(points, dtype=np.float64)
        out[:, 0] = self.origin_lon + normalize_lon(out[:, 0] - self.origin_lon)
        return out

    def centre(self, cell: int) -> tuple[float, float]:
        """Lon/lat of a flat cell index's centre."""
        row, col = divmod(cell, self.window.nx)
        w = self.window
        return w.west + (col + 0.5) * w.step_deg, w.south + (row + 0.5) * w.step_deg

    def cell(self, lon: float, lat: float) -> int:
        """Flat index of the cell holding (lon, lat), or -1 outside the window."""
        rows, cols = self.window.cells(np.array([lon]), np.array([lat]))
        return -1 if rows[0] < 0 else int(rows[0] * self.window.nx + cols[0])

    def clear(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Whether the geodesic a -> b stays on water cells (and on exact water, if asked)."""
        spacing = min(self.window.step_deg * 111_000.0 / 3.0, 250.0)
        if self.exact:
            spacing = min(spacing, EXACT_SPACING_M)
        lon, lat, _, _ = sample_geodesics(
            np.array([a[0]]), np.array([a[1]]), np.array([b[0]]), np.array([b[1]]), spacing
        )
        lon = self.window.west + np.mod(lon - self.window.west, 360.0)
        rows, cols = self.window.cells(lon, lat)
        if (rows < 0).any() or not self.water[rows, cols].all():
            return False
        return not (self.exact and self.coast.is_land(lon, lat).any())

    def nearest_water(self, lon: float, lat: float, within_cells: int) -> tuple[float, float]:
        """The centre of the water cell nearest (lon, lat) within ``within_cells``, or the point
        itself when there is none (a start on land is moved onto the water grid this way)."""
        w = self.window
        rows, cols = w.cells(np.array([lon]), np.array([lat]))
        if rows[0] < 0:
            return lon, lat
        r0, c0 = int(rows[0]), int(cols[0])
        r_lo, c_lo = max(r0 - within_cells, 0), max(c0 - within_cells, 0)
        patch = self.water[r_lo : r0 + within_cells + 1, c_lo : c0 + within_cells + 1]
        rr, cc = np.nonzero(patch)
        if rr.size == 0:
            return lon, lat
        scale = np.cos(np.radians(lat))
        k = int(np.argmin(np.hypot(rr + r_lo - r0, (cc + c_lo - c0) * scale)))
        return self.centre(int((rr[k] + r_lo) * w.nx + cc[k] + c_lo))

    def step_on(self, lon: float, lat: float) -> list[int] | None:
        """Cells of a straight leg from (lon, lat) onto the water grid, burnt in as water; None if
        no water cell within ``REACH_CELLS`` can be reached over exact water."""
        here = self.cell(lon, lat)
        if here >= 0 and self.water.flat[here]:
            return [here]
        w = self.window
        rows, cols = w.cells(np.array([lon]), np.array([lat]))
        if rows[0] < 0:
            return None
        r0, c0 = int(rows[0]), int(cols[0])
        r_lo, r_hi = max(r0 - REACH_CELLS, 0), min(r0 + REACH_CELLS + 1, w.ny)
        c_lo, c_hi = max(c0 - REACH_CELLS, 0), min(c0 + REACH_CELLS + 1, w.nx)
        patch = self.water[r_lo:r_hi, c_lo:c_hi]
        rr, cc = np.nonzero(patch)
        scale = np.cos(np.radians(lat))
        order = np.argsort(np.hypot((rr + r_lo - r0), (cc + c_lo - c0) * scale))
        for k in order[:40]:
            cell = int((rr[k] + r_lo) * w.nx + cc[k] + c_lo)
            target = self.centre(cell)
            s_lon, s_lat, _, _ = sample_geodesics(
                np.array([lon]), np.array([lat]), np.array([target[0]]), np.array([target[1]]), 20.0
            )
            if not self.coast.is_land(s_lon, s_lat).any():
                burn_lines(self.water, w, [np.stack([s_lon, s_lat], axis=1)])
                return [cell]
        return None


def shortest_cells(grid: Grid, start: int, goals: npt.NDArray[np.int64]) -> list[int] | None:
    """Cell path from ``start`` to the nearest of ``goals`` (flat indices), or None."""
    from scipy.sparse.csgraph import dijkstra

    graph = cell_graph(grid.water, grid.window)
    dist, pred = dijkstra(graph, directed=False, indices=start, return_predecessors=True)
    reach = dist[goals]
    if not np.isfinite(reach).any():
        return None
    node = int(goals[int(np.argmin(reach))])
    path = [node]
    while node != start:
        node = int(pred[node])
        path.append(node)
    return path[::-1]


def pull_tight(grid: Grid, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Drop every vertex that a straight geodesic leg on water can skip (greedy, farthest first)."""
    out = [points[0]]
    i, n = 0, len(points)
    while i < n - 1:
        if grid.clear(points[i], points[n - 1]):
            j = n - 1
        else:
            lo, hi = i + 1, n - 1
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if grid.clear(points[i], points[mid]):
                    lo = mid
                else:
                    hi = mid
            j = lo
        out.append(points[j])
        i = j
    return out


def join(
    coast: Coastline,
    start: tuple[float, float],
    goal: tuple[float, float],
    *,
    margin_m: float,
    mode: Water = Water.CLEAR,
    lines: list[FloatArray] | None = None,
) -> FloatArray | None:
    """The shortest water path start -> goal found in a window with ``margin_m`` around them,
    as an (N, 2) lon/lat polyline (its ends exactly start and goal), or None."""
    grid = Grid(coast, np.array([start, goal]), margin_m, mode, lines)
    ends = grid.unwrapped(np.array([start, goal]))
    a, b = grid.step_on(*ends[0]), grid.step_on(*ends[1])
    if a is None or b is None:
        return None
    cells = shortest_cells(grid, a[0], np.array(b, dtype=np.int64))
    if cells is None:
        return None
    points = [tuple(ends[0])] + [grid.centre(c) for c in cells] + [tuple(ends[1])]
    return normalised(np.array(pull_tight(grid, points)))


def join_nearest(
    coast: Coastline,
    start: tuple[float, float],
    targets: FloatArray,
    *,
    margin_m: float,
    mode: Water = Water.CLEAR,
    lines: list[FloatArray] | None = None,
    max_cells: int = MAX_CELLS,
) -> tuple[FloatArray, int] | None:
    """The shortest water path from ``start`` to the nearest by water of ``targets`` ((M, 2)
    lon/lat points lying on water cells count), and that target's index; or None."""
    grid = Grid(coast, np.vstack([[start], targets]), margin_m, mode, lines, max_cells)
    ends = grid.unwrapped(np.vstack([[start], targets]))
    a = grid.step_on(*ends[0])
    if a is None:
        return None
    rows, cols = grid.window.cells(ends[1:, 0], ends[1:, 1])
    usable = rows >= 0
    usable[usable] = grid.water[rows[usable], cols[usable]]
    if not usable.any():
        return None
    flat = np.where(usable, rows * grid.window.nx + cols, -1)
    cells = shortest_cells(grid, a[0], np.unique(flat[usable]))
    if cells is None:
        return None
    target = int(np.flatnonzero(flat == cells[-1])[0])
    points = [tuple(ends[0])] + [grid.centre(c) for c in cells] + [tuple(ends[1 + target])]
    return normalised(np.array(pull_tight(grid, points))), target

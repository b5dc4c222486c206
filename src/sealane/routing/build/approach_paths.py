"""Grid searches and pulling for the deep approaches (:mod:`.approaches`): cheapest paths over
the depth grid's cells and over the coastline's raster water, costed by depth, and pulling a
path tight without crossing land or shallower water than the cells it skips. Build-time only."""

from __future__ import annotations

from itertools import pairwise
from typing import Any, NamedTuple

import numpy as np

from ..depth import BANDS_M
from ..geodesy import lengths_between_m, normalize_lon
from .coast import Coastline, sample_geodesics
from .corridors import CorridorIndex
from .depth import APPROACH_M, least_depths
from .depth_grid import Grid, Layers
from .grid import Water, Window, cell_graph, normalised
from .waterpath import Grid as WaterGrid

#: Half size of the window searched round a berth, metres.
WINDOW_M = 250_000.0
#: Extra cost per band a cell's depth falls under, in multiples of its length.
PENALTY = 20.0
#: Legs keep the raster shoreline's margin except this close to the lane's two ends, metres.
END_MARGIN_M = 1_500.0
#: Margin of the fine search's window round the coarse path, metres, and its most cells.
FINE_MARGIN_M = 50_000.0
FINE_CELLS = 600_000
#: Spacing of the land test along a leg, metres.
LAND_SPACING_M = 50.0


def bands_under(depth: np.ndarray) -> np.ndarray:
    """Per depth, how many bands it falls under (0 to ``len(BANDS_M)``)."""
    return np.asarray(np.sum(depth[..., None] < np.array(BANDS_M), axis=-1), dtype=np.int64)


class Leg:
    """The tests a pulled leg must pass, over one network's ports, corridors and grid."""

    def __init__(
        self, coast: Coastline, berths: np.ndarray, corridors: CorridorIndex, grid: Grid | Layers
    ) -> None:
        self.coast, self.berths, self.corridors, self.grid = coast, berths, corridors, grid

    def least(self, a: tuple[float, float], b: tuple[float, float]) -> float:
        """The leg's least depth as the band step measures a shortcut (inf: nothing measured)."""
        lon, lat = np.array([a[0], b[0]]), np.array([a[1], b[1]])
        one, two = np.array([0]), np.array([1])
        shortcut = np.ones(1, dtype=bool)
        return float(
            least_depths(lon, lat, one, two, shortcut, self.berths, self.corridors, self.grid)[0]
        )

    def clear(
        self, a: tuple[float, float], b: tuple[float, float], ends: tuple[tuple[float, float], ...]
    ) -> bool:
        """Whether the leg stays off land (and off the raster's margin away from ``ends``) and
        outside the corridors."""
        lon, lat, _, _ = sample_geodesics(
            np.array([a[0]]), np.array([a[1]]), np.array([b[0]]), np.array([b[1]]), LAND_SPACING_M
        )
        if self.coast.is_land(lon, lat).any() or self.corridors.contains(lon, lat).any():
            return False
        near = np.zeros(lon.shape, dtype=bool)
        for end in ends:
            near |= (
                lengths_between_m(lon, lat, np.full_like(lon, end[0]), np.full_like(lat, end[1]))
                < END_MARGIN_M
            )
        return not bool(self.coast.maybe_land(lon[~near], lat[~near]).any())


def fine_path(
    leg: Leg,
    grid: Grid | Layers,
    berth: tuple[float, float],
    route: list[tuple[float, float]],
    ends: tuple[int, int],
    node_xy: np.ndarray,
    bound: float | None = None,
) -> tuple[list[tuple[float, float]], np.ndarray] | None:
    """The cheapest path from node ``ends[0]`` to node ``ends[1]`` on the coastline's raster
    water (:class:`.waterpath.Grid`) in a window round ``route``, each cell costing as in the
    coarse search (with a ``bound``, only cells as deep are passable; never a cell whose centre
    lies in a corridor, where a lane would run without its passage bit, unmeasured): its points
    (the nodes' own positions at the ends) and each point's depth (inf within ``APPROACH_M`` of
    the berth and at the ends). None when no water path is found."""
    water = WaterGrid(leg.coast, np.array(route), FINE_MARGIN_M, Water.CLEAR, max_cells=FINE_CELLS)
    start, goal = water.unwrapped(node_xy[list(ends)])
    first, last = water.step_on(*start), water.step_on(*goal)
    if first is None or last is None:
        return None
    w = water.window
    grid_lon, grid_lat = w.centres()
    lon, lat = grid_lon.ravel(), grid_lat.ravel()
    depth, _ = grid.cell_depth(normalize_lon(lon), lat)
    near = lengths_between_m(lon, lat, np.full_like(lon, berth[0]), np.full_like(lat, berth[1]))
    depth = np.where(near <= APPROACH_M, np.inf, depth)
    passable = water.water & ~leg.corridors.contains(normalize_lon(lon), lat).reshape(w.ny, w.nx)
    if bound is not None:
        passable &= (depth >= bound).reshape(w.ny, w.nx)
    for cell in (first[0], last[0]):
        passable.flat[cell] = True
    graph: Any = cell_graph(passable, w)
    cost = 1.0 + PENALTY * bands_under(depth)
    tails = np.repeat(np.arange(lon.size), np.diff(graph.indptr))
    graph.data *= (cost[tails] + cost[graph.indices]) / 2.0
    cells = shortest_cells_on(graph, first[0], last[0])
    if cells is None:
        return None
    points = [(float(start[0]), float(start[1]))]
    points += [(float(lon[c]), float(lat[c])) for c in cells]
    points.append((float(goal[0]), float(goal[1])))
    return points, np.concatenate([[np.inf], depth[cells], [np.inf]])


def shortest_cells_on(graph: Any, start: int, goal: int) -> list[int] | None:
    """Cell path from ``start`` to ``goal`` on a weighted cell graph, or None."""
    from scipy.sparse.csgraph import dijkstra

    dist, pred = dijkstra(graph, directed=False, indices=start, return_predecessors=True)
    if not np.isfinite(dist[goal]):
        return None
    path = [goal]
    while path[-1] != start:
        path.append(int(pred[path[-1]]))
    return path[::-1]


def pull(points: list[tuple[float, float]], floor: np.ndarray, leg: Leg) -> list[int]:
    """Indices of the points kept when the path is pulled tight: from each kept point, the
    farthest later point whose leg is clear and no shallower than the least ``floor`` between
    them (farthest first, then bisection); steps between neighbours are taken as clear (cells of
    the raster's water)."""
    ends = (points[0], points[-1])

    def fits(i: int, j: int) -> bool:
        if j == i + 1:
            return True
        if not leg.clear(points[i], points[j], ends):
            return False
        return leg.least(points[i], points[j]) >= float(floor[i : j + 1].min())

    kept, i, n = [0], 0, len(points)
    while i < n - 1:
        if fits(i, n - 1):
            j = n - 1
        else:
            lo, hi = i + 1, n - 1
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if fits(i, mid) else (lo, mid)
            j = lo
        kept.append(j)
        i = j
    return kept


class Cells(NamedTuple):
    """The depth grid's cells in a window round one berth: the window, cell centres (flat),
    depths (inf within ``APPROACH_M`` of the berth) and the cell graph, costed by depth."""

    window: Window
    lon: np.ndarray
    lat: np.ndarray
    depth: np.ndarray
    graph: Any


def coarse_cells(
    leg: Leg,
    grid: Grid | Layers,
    berth: tuple[float, float],
    step: float,
    forced: np.ndarray,
    bound: float | None = None,
) -> Cells:
    """The cells round ``berth``, passable where the raster (``leg.coast``) shows no land at the
    centre and the centre lies in none of ``leg.corridors``, or a node of ``forced`` ((M, 2)
    lon/lat) lies. Each costs its length times ``1 + PENALTY`` per band its depth falls under;
    with a ``bound``, only cells as deep are passable, at their length."""
    window = Window.around(np.array([berth[0]]), np.array([berth[1]]), WINDOW_M, step)
    grid_lon, grid_lat = window.centres()
    lon, lat = grid_lon.ravel(), grid_lat.ravel()
    depth, _ = grid.cell_depth(normalize_lon(lon), lat)
    passable = (depth > 0.0) & ~leg.coast.maybe_land(lon, lat)
    passable &= ~leg.corridors.contains(normalize_lon(lon), lat)
    near = lengths_between_m(lon, lat, np.full_like(lon, berth[0]), np.full_like(lat, berth[1]))
    depth = np.where(near <= APPROACH_M, np.inf, depth)
    forced_cells = node_cells(window, forced)
    passable[forced_cells[forced_cells >= 0]] = True
    if bound is not None:
        passable &= depth >= bound
    graph: Any = cell_graph(passable.reshape(window.ny, window.nx), window)
    if bound is None:
        cost = 1.0 + PENALTY * bands_under(depth)
        tails = np.repeat(np.arange(lon.size), np.diff(graph.indptr))
        graph.data *= (cost[tails] + cost[graph.indices]) / 2.0
    return Cells(window, lon, lat, depth, graph)


def node_cells(window: Window, xy: np.ndarray) -> np.ndarray:
    """Per point of ``xy`` ((M, 2) lon/lat), its flat cell index in ``window`` (-1 outside)."""
    rows, cols = window.cells(window.west + np.mod(xy[:, 0] - window.west, 360.0), xy[:, 1])
    return np.where(rows >= 0, rows * window.nx + cols, -1)


def searched(cells: Cells, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's cost from the nearest of the cells ``starts``, and its predecessor."""
    from scipy.sparse.csgraph import dijkstra

    dist, pred, _ = dijkstra(
        cells.graph, directed=False, indices=starts, min_only=True, return_predecessors=True
    )
    return dist, pred


def traced(pred: np.ndarray, end: int) -> list[int]:
    """The cells from a search's start to ``end``, by the predecessors ``pred``."""
    path = [end]
    while pred[path[-1]] >= 0:
        path.append(int(pred[path[-1]]))
    return path[::-1]


def pulled_lane(
    leg: Leg,
    grid: Grid | Layers,
    berth: tuple[float, float],
    xy: np.ndarray,
    ends: tuple[int, int],
    bound: float | None,
) -> tuple[list[tuple[float, float]], np.ndarray]:
    """The pulled lane between the nodes ``ends`` (positions in ``xy``) over the raster water
    (only as deep as ``bound``, if given) and its legs' depths (no lane: an empty list). Its
    points' longitudes are wrapped into [-180, 180): the window's run past 180 near it."""
    route = [(float(xy[i, 0]), float(xy[i, 1])) for i in ends]
    made = fine_path(leg, grid, berth, route, ends, xy, bound)
    if made is None:
        return [], np.zeros(0)
    points, floor = made
    kept = normalised(np.array([points[k] for k in pull(points, floor, leg)]))
    lane = [(float(x), float(y)) for x, y in kept]
    depths = np.array([leg.least(a, b) for a, b in pairwise(lane)])
    return lane, depths


def lengths_under(points: list[tuple[float, float]], least: np.ndarray) -> np.ndarray:
    """Per band, the length of the legs between ``points`` whose least depth is under it."""
    xy = np.array(points)
    legs = lengths_between_m(xy[:-1, 0], xy[:-1, 1], xy[1:, 0], xy[1:, 1])
    return np.array([float(legs[least < bound].sum()) for bound in BANDS_M])


def joined(graph: Any, node: int, near: np.ndarray, limit_m: float) -> np.ndarray:
    """The nodes of ``near`` that ``node`` reaches over the edges of ``graph`` (lengths in
    metres) within ``limit_m``: a port's approach holds only nodes joined to its berth's, not a
    lane across a strip of land that merely lies as close."""
    from scipy.sparse.csgraph import dijkstra

    dist = np.asarray(dijkstra(graph, directed=False, indices=node, limit=limit_m))
    kept: np.ndarray = near[dist[near] <= limit_m]
    return kept

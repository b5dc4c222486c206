"""Deep approaches: a lane along the deepest way the depth grid shows from a port out to the
network's deep water, for ports whose lanes leave them over shallower water (issue 28, item 3).

searoute's lanes lead into a port the way its network was drawn, not the way the deepest water
runs: off Qingdao every lane crosses a 13 m cell while 21 m water reaches the berth; off Incheon
the lanes cross the flats, not the south-western channel. The depth bands then close those
lanes to a deep ship, which sails far round, though the grid the bands come from holds the deep
way. This step finds that way on the grid and adds it as a lane, before the bands are measured:

* A candidate is a joined port whose berth the network cannot join to its main piece of water
  of the deepest band (``BANDS_M[-1]``) without crossing shallower edges.
* On the grid's own cells round the berth (a window of ``WINDOW_M``), Dijkstra runs from the
  cells of the network's nodes by the berth (within ``APPROACH_M``: the dredged approach, not
  measured) to the cells of the deep main piece's nodes; a cell is passable when the raster
  shoreline shows no land at its centre, and costs its length times ``1 + PENALTY`` for every
  band its depth (its deepest corner) falls under, so the path keeps to the deepest water.
* The cell path is pulled tight (:func:`pull`): a leg may skip cells only when it stays off land
  (the exact shoreline; the raster's margin too, except near the path's ends), outside the
  corridors, and no shallower, measured as the band step measures a shortcut, than the cells it
  skips.
* The lane is added only when it is better than the network's own way: for some band, the
  length of the lane under that band's depth is at most ``GAIN_SHARE`` of the network's least
  such length and ``MIN_GAIN_M`` shorter. Ports already joined to deep water get nothing.

The lane's edges are flagged as shortcuts: measured in every cell, never snapped onto. What a
lane still crosses under the deepest band by its port is left to the port's charted fairway
(:func:`.depth.open_fairways`). Build-time only.
"""

from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

import numpy as np

from ..depth import BANDS_M
from ..geodesy import MEAN_EARTH_RADIUS_M, lengths_between_m, unit_vectors
from .approach_paths import Leg, coarse_cells, fine_path, node_cells, pull, searched, traced
from .coast import Coastline
from .corridors import CorridorIndex
from .depth import APPROACH_M
from .depth_grid import Grid, Layers
from .joins import log

#: Shallow rule: a lane's length under some band at most this share of the network's ...
GAIN_SHARE = 0.75
#: ... and at least this much shorter, metres.
MIN_GAIN_M = 5_000.0
#: Detour rule: the network's way to deep water over a band's edges at least this many times
#: its way over every edge (and the grid's way at most that) ...
DETOUR = 1.5
#: ... and this much longer, metres; network ways are searched this far.
DETOUR_SLACK_M = 30_000.0
DETOUR_LIMIT_M = 1_500_000.0

Point = tuple[float, float]


class Approaches(NamedTuple):
    """What the step adds: new nodes (lon, lat) numbered after the network's, and new edges
    between any nodes, with each edge's least depth as the band step measures it."""

    lon: np.ndarray
    lat: np.ndarray
    u: np.ndarray
    v: np.ndarray
    least: np.ndarray


class Network:
    """The network as the step grows it: node positions, edges with their least depths, and per
    band each node's least length under the band on its way to the band's main deep piece."""

    def __init__(self, xy: np.ndarray, u: np.ndarray, v: np.ndarray, least: np.ndarray) -> None:
        self.xy, self.u, self.v, self.least = xy, u, v, least
        self.base = len(xy)
        self._derive()

    def _derive(self) -> None:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components, dijkstra

        n, u, v, xy = len(self.xy), self.u, self.v, self.xy
        self.lengths = lengths_between_m(xy[u, 0], xy[u, 1], xy[v, 0], xy[v, 1])
        self.under = np.zeros((len(BANDS_M), n))
        self.deep: list[object] = []
        self.all = coo_matrix((self.lengths + 1e-3, (u, v)), shape=(n, n)).tocsr()
        for k, bound in enumerate(BANDS_M):
            deep = self.least >= bound
            graph = coo_matrix((self.lengths[deep] + 1e-3, (u[deep], v[deep])), shape=(n, n))
            self.deep.append(graph.tocsr())
            _, label = connected_components(graph, directed=False)
            main = np.flatnonzero(label == np.bincount(label).argmax())
            # Deep edges cost a millimetre: a sparse matrix drops explicit zeros.
            weight = np.where(deep, 1e-3, self.lengths + 1e-3)
            full = coo_matrix((weight, (u, v)), shape=(n, n)).tocsr()
            self.under[k] = dijkstra(full, directed=False, indices=main, min_only=True)

    def way(self, k: int | None, node: int) -> np.ndarray:
        """Each node's length from ``node`` over the edges as deep as band ``k`` (None: over all
        edges), capped at ``DETOUR_LIMIT_M``."""
        from scipy.sparse.csgraph import dijkstra

        graph = self.all if k is None else self.deep[k]
        dist = dijkstra(graph, directed=False, indices=node, limit=DETOUR_LIMIT_M)
        capped: np.ndarray = np.minimum(np.asarray(dist), DETOUR_LIMIT_M)
        return capped

    def add(self, ids: list[int], points: list[Point], depths: np.ndarray) -> None:
        """Add a lane: its node ids (new ones numbered on), their positions and leg depths."""
        fresh = [p for i, p in zip(ids, points, strict=True) if i >= len(self.xy)]
        self.xy = np.vstack([self.xy, np.array(fresh).reshape(-1, 2)])
        self.u = np.concatenate([self.u, ids[:-1]]).astype(np.int64)
        self.v = np.concatenate([self.v, ids[1:]]).astype(np.int64)
        self.least = np.concatenate([self.least, depths])
        self._derive()


def _under(points: list[Point], least: np.ndarray) -> np.ndarray:
    """Per band, the length of the legs between ``points`` whose least depth is under it."""
    xy = np.array(points)
    legs = lengths_between_m(xy[:-1, 0], xy[:-1, 1], xy[1:, 0], xy[1:, 1])
    return np.array([float(legs[least < bound].sum()) for bound in BANDS_M])


def _better(lane: np.ndarray, network: np.ndarray) -> bool:
    """Whether a lane's lengths under each band beat the network's way for some band."""
    return bool(((lane <= GAIN_SHARE * network) & (lane + MIN_GAIN_M <= network)).any())


class _Finder:
    """The two rules' searches round one berth."""

    def __init__(self, net: Network, leg: Leg, grid: Grid | Layers, step: float) -> None:
        self.net, self.leg, self.grid, self.step = net, leg, grid, step

    def coarse(
        self, berth: Point, pocket: np.ndarray, bound: float | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """A coarse search from the pocket's cells: cell depths, costs, predecessors, and each
        network node's cell (None when no pocket node lies in the window)."""
        xy = self.net.xy[: self.net.base]
        cells = coarse_cells(self.leg.coast, self.grid, berth, self.step, xy[pocket], bound)
        where = node_cells(cells.window, xy)
        starts = np.unique(where[pocket][where[pocket] >= 0])
        if starts.size == 0:
            return None
        dist, pred = searched(cells, starts)
        self.cells = cells
        return cells.depth, dist, pred, where

    def shallow(self, node: int, berth: Point, pocket: np.ndarray) -> tuple[int, int] | None:
        """Shallow rule: (start, goal) of a lane to the deep main piece crossing less shallow
        water than the network's way, or None."""
        net = self.net
        found = self.coarse(berth, pocket, None)
        if found is None:
            return None
        depth, dist, pred, where = found
        goals = np.setdiff1d(np.flatnonzero(net.under[-1, : net.base] == 0.0), pocket)
        goals = goals[where[goals] >= 0]
        if goals.size == 0 or not np.isfinite(dist[where[goals]]).any():
            return None
        goal = int(goals[int(np.argmin(dist[where[goals]]))])
        path = traced(pred, int(where[goal]))
        points = [tuple(p) for p in np.stack([self.cells.lon[path], self.cells.lat[path]], 1)]
        if not _better(_under(points, depth[path][1:]), net.under[:, node]):
            return None
        return int(pocket[where[pocket] == path[0]][0]), goal

    def detour(self, node: int, berth: Point, pocket: np.ndarray) -> tuple[int, int, int] | None:
        """Detour rule: (band, start, goal) of a lane to deep water the network reaches only
        the long way round, for the deepest band it is found at, or None."""
        net = self.net
        for k in reversed(range(len(BANDS_M))):
            if net.under[k, node] > 0.0:
                continue
            found = self.coarse(berth, pocket, BANDS_M[k])
            if found is None:
                return None
            _, dist, pred, where = found
            goals = np.setdiff1d(np.flatnonzero(net.under[k, : net.base] == 0.0), pocket)
            goals = goals[(where[goals] >= 0)]
            grid_way = dist[where[goals]]
            goals, grid_way = goals[np.isfinite(grid_way)], grid_way[np.isfinite(grid_way)]
            banded, unbanded = net.way(k, node)[goals], net.way(None, node)[goals]
            # The band makes the network go round, and the grid's way is about as short as the
            # network's way over every edge.
            fits = (banded >= DETOUR * unbanded + DETOUR_SLACK_M) & (
                grid_way <= DETOUR * unbanded + DETOUR_SLACK_M
            )
            if not fits.any():
                continue
            excess = np.where(fits, banded - np.maximum(grid_way, unbanded), -np.inf)
            goal = int(goals[int(np.argmax(excess))])
            path = traced(pred, int(where[goal]))
            return k, int(pocket[where[pocket] == path[0]][0]), goal
        return None


def _lane(
    finder: _Finder, berth: Point, ends: tuple[int, int], bound: float | None
) -> tuple[list[Point], np.ndarray]:
    """The pulled lane between the nodes ``ends`` over the raster water (only as deep as
    ``bound``, if given) and its legs' depths (no lane: an empty list)."""
    xy = finder.net.xy
    route = [(float(xy[i, 0]), float(xy[i, 1])) for i in ends]
    made = fine_path(finder.leg, finder.grid, berth, route, ends, xy, bound)
    if made is None:
        return [], np.zeros(0)
    points, floor = made
    lane = [points[k] for k in pull(points, floor, finder.leg)]
    depths = np.array([finder.leg.least(a, b) for a, b in pairwise(lane)])
    return lane, depths


def _try(finder: _Finder, rule: str, node: int, berth: Point, pocket: np.ndarray) -> bool:
    """Find, check and add the lane of one rule for the berth at ``node``; whether one was."""
    net = finder.net
    if rule == "shallow":
        band = -1
        ends = finder.shallow(node, berth, pocket) if net.under[-1, node] > 0.0 else None
    else:
        found = finder.detour(node, berth, pocket)
        band, ends = (-1, None) if found is None else (found[0], found[1:])
    if ends is None:
        return False
    lane, depths = _lane(finder, berth, ends, BANDS_M[band] if band >= 0 else None)
    if not lane:
        log(f"approaches: no water path from {berth[0]:.4f}, {berth[1]:.4f}")
        return False
    gain, before = _under(lane, depths), net.under[:, node].copy()
    if band < 0:
        ok = _better(gain, before)
    else:
        xy = np.array(lane)
        length = float(lengths_between_m(xy[:-1, 0], xy[:-1, 1], xy[1:, 0], xy[1:, 1]).sum())
        way = float(net.way(band, node)[ends[1]])
        ok = gain[band] == 0.0 and DETOUR * length + DETOUR_SLACK_M <= way
    if not ok:
        log(f"approaches: the {rule} lane from {berth[0]:.4f}, {berth[1]:.4f} gains nothing")
        return False
    net.add([ends[0], *range(len(net.xy), len(net.xy) + len(lane) - 2), ends[1]], lane, depths)
    log(
        f"approaches: {rule} lane of {len(lane) - 1} legs from {berth[0]:.4f}, {berth[1]:.4f}: "
        f"under the bands {np.round(gain / 1000, 1).tolist()} km, the network's way "
        f"{np.round(before / 1000, 1).tolist()} km"
    )
    return True


def deep_approaches(
    lon: np.ndarray,
    lat: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    least: np.ndarray,
    berths: np.ndarray,
    corridors: CorridorIndex,
    grid: Grid | Layers,
    coast: Coastline,
    step: float = 0.1,
) -> Approaches:
    """The lanes to add (see the module's doc): ``least`` is each edge's least depth as measured,
    ``berths`` (N, 2) lon/lat of the joined ports, ``step`` the grid's cell size in degrees."""
    from scipy.spatial import cKDTree

    net = Network(np.stack([lon, lat], axis=1), u, v, least)
    tree = cKDTree(unit_vectors(lon, lat))
    berth_nodes = np.unique(tree.query(unit_vectors(berths[:, 0], berths[:, 1]))[1])
    chord = 2.0 * np.sin(APPROACH_M / MEAN_EARTH_RADIUS_M / 2.0)
    finder = _Finder(net, Leg(coast, berths, corridors, grid), grid, step)
    for node in berth_nodes.tolist():
        berth = (float(lon[node]), float(lat[node]))
        pocket = np.asarray(tree.query_ball_point(unit_vectors(*berth), chord), dtype=np.int64)
        for rule in ("shallow", "detour"):
            if _try(finder, rule, node, berth, pocket):
                break
    added = net.xy[len(lon) :]
    log(f"approaches: {net.u.size - u.size} edges added, {len(added)} nodes")
    return Approaches(
        added[:, 0], added[:, 1], net.u[u.size :], net.v[u.size :], net.least[u.size :]
    )

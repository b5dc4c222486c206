"""Deep approaches: lanes along the deepest way the depth grid shows from a port out to the
network's deep water, where the depth bands leave its lanes shallow or send it far round (issue
28, item 3).

searoute's lanes lead into a port the way its network was drawn, not the way the deepest water
runs: off Qingdao every lane crosses a 13 m cell while 21 m water reaches the berth; off Incheon
they cross the flats, not the south-western channel. The bands then close them to a deep ship,
though the grid they come from holds the deep way. Before the bands are measured, for every
joined port and band, deepest first (the network's ways measured by the edges' least depths):

* *shallow rule*: the port has no way to the band's main deep piece without edges under the
  band; a coarse search on the grid's cells (:func:`.approach_paths.coarse_cells`: from the
  nodes the berth's node reaches over the edges within ``APPROACH_M``, its unmeasured approach,
  costed by depth) finds a way that crosses at most ``GAIN_SHARE`` of the network's length under
  the band, and ``MIN_GAIN_M`` less;
* *detour rule*: the port has a deep way, but an edge under the band lies within ``NEAR_M`` and
  the band's edges make the network's way to some deep node at least ``DETOUR`` times its way over
  every edge plus ``DETOUR_SLACK_M``, while the grid's way there through cells as deep is no
  longer than that.

The way is searched again on the coastline's raster water and pulled tight
(:func:`.approach_paths.fine_path`, :func:`.approach_paths.pull`: off land, outside corridors, no
shallower than the cells a leg skips), measured, and added if it still meets its rule; the log
lists each. Its edges are lanes (snapped onto) measured in every cell, as shortcuts are. What a
lane still crosses under the deepest band by its port is left to the port's charted fairway
(:func:`.depth.open_fairways`). Build-time only.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from ..depth import BANDS_M
from ..geodesy import MEAN_EARTH_RADIUS_M, lengths_between_m, unit_vectors
from .approach_paths import (
    Leg,
    coarse_cells,
    joined,
    lengths_under,
    node_cells,
    pulled_lane,
    searched,
    traced,
)
from .coast import Coastline
from .corridors import CorridorIndex
from .depth import APPROACH_M
from .depth_grid import Grid, Layers
from .joins import log

#: Shallow rule: a lane's length under some band at most this share of the network's ...
GAIN_SHARE = 0.65
#: ... and at least this much shorter, metres.
MIN_GAIN_M = 15_000.0
#: Detour rule: the network's way to deep water over a band's edges at least this many times
#: its way over every edge (and the grid's way at most that) ...
DETOUR = 2.0
#: ... and this much longer, metres; network ways are searched this far.
DETOUR_SLACK_M = 50_000.0
#: ... when an edge under the band lies this near the berth, metres.
NEAR_M = 100_000.0
DETOUR_LIMIT_M = 1_500_000.0

Point = tuple[float, float]
#: A candidate lane: the band it is for, its start node (by the berth) and its goal node.
Candidate = tuple[int, int, int]


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
        #: Every edge's node pair, lower id first: a lane never doubles an edge.
        self.pairs = {(min(a, b), max(a, b)) for a, b in zip(u.tolist(), v.tolist(), strict=True)}
        #: The nodes lanes added, by position.
        self.at: dict[Point, int] = {}
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

    def shallow_near(self, k: int, berth: Point) -> bool:
        """Whether an edge under band ``k`` has an end within ``NEAR_M`` of ``berth``: only
        then can the band be what sends the port's ways out round."""
        shallow = self.least < BANDS_M[k]
        ends = np.concatenate([self.u[shallow], self.v[shallow]])
        if ends.size == 0:
            return False
        xy = self.xy[ends]
        near = lengths_between_m(
            xy[:, 0], xy[:, 1], np.full(ends.size, berth[0]), np.full(ends.size, berth[1])
        )
        return bool((near <= NEAR_M).any())

    def add(self, ends: tuple[int, int], lane: list[Point], depths: np.ndarray) -> None:
        """Add a lane between the nodes ``ends`` through the points ``lane`` (its ends the
        nodes' positions), with its legs' depths; a point an earlier lane added is shared, and
        a leg the network already has is not added again."""
        ids = [ends[0]]
        for point in lane[1:-1]:
            if point not in self.at:
                self.at[point] = len(self.xy)
                self.xy = np.vstack([self.xy, [point]])
            ids.append(self.at[point])
        ids.append(ends[1])
        legs = []
        for (a, b), d in zip(pairwise(ids), depths.tolist(), strict=True):
            if a != b and (min(a, b), max(a, b)) not in self.pairs:
                self.pairs.add((min(a, b), max(a, b)))
                legs.append((a, b, d))
        self.u = np.concatenate([self.u, [a for a, _, _ in legs]]).astype(np.int64)
        self.v = np.concatenate([self.v, [b for _, b, _ in legs]]).astype(np.int64)
        self.least = np.concatenate([self.least, [d for _, _, d in legs]])
        self._derive()


def _better(lane: np.ndarray, network: np.ndarray, k: int) -> bool:
    """Whether a lane's length under band ``k`` beats the network's way's."""
    return bool(lane[k] <= GAIN_SHARE * network[k] and lane[k] + MIN_GAIN_M <= network[k])


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
        cells = coarse_cells(self.leg, self.grid, berth, self.step, xy[pocket], bound)
        where = node_cells(cells.window, xy)
        starts = np.unique(where[pocket][where[pocket] >= 0])
        if starts.size == 0:
            return None
        dist, pred = searched(cells, starts)
        self.cells = cells
        return cells.depth, dist, pred, where

    def shallow(self, node: int, berth: Point, pocket: np.ndarray) -> Iterator[Candidate]:
        """Shallow rule: (band, start, goal) of lanes to a band's deep main piece crossing less
        water under the band than the network's way, deepest band first."""
        net = self.net
        found = self.coarse(berth, pocket, None)
        if found is None:
            return
        depth, dist, pred, where = found
        for k in reversed(range(len(BANDS_M))):
            if net.under[k, node] == 0.0:
                continue
            goals = np.setdiff1d(np.flatnonzero(net.under[k, : net.base] == 0.0), pocket)
            goals = goals[where[goals] >= 0]
            if goals.size == 0 or not np.isfinite(dist[where[goals]]).any():
                continue
            goal = int(goals[int(np.argmin(dist[where[goals]]))])
            path = traced(pred, int(where[goal]))
            xy = np.stack([self.cells.lon[path], self.cells.lat[path]], 1)
            under = lengths_under([(float(x), float(y)) for x, y in xy], depth[path][1:])
            if _better(under, net.under[:, node], k):
                yield k, int(pocket[where[pocket] == path[0]][0]), goal

    def detour(self, node: int, berth: Point, pocket: np.ndarray) -> Iterator[Candidate]:
        """Detour rule: (band, start, goal) of lanes to deep water the network reaches only the
        long way round, deepest band first."""
        net = self.net
        for k in reversed(range(len(BANDS_M))):
            if net.under[k, node] > 0.0 or not net.shallow_near(k, berth):
                continue
            found = self.coarse(berth, pocket, BANDS_M[k])
            if found is None:
                return
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
            yield k, int(pocket[where[pocket] == path[0]][0]), goal


def _try(finder: _Finder, rule: str, node: int, berth: Point, pocket: np.ndarray) -> bool:
    """Find, check and add the lane of one rule for the berth at ``node``; whether one was."""
    search = finder.shallow if rule == "shallow" else finder.detour
    for band, *ends in search(node, berth, pocket):
        if _add(finder, rule, node, berth, band, (ends[0], ends[1])):
            return True
    return False


def _add(
    finder: _Finder, rule: str, node: int, berth: Point, band: int, ends: tuple[int, int]
) -> bool:
    """Pull, check and add one candidate lane of a rule; whether it was added."""
    net = finder.net
    bound = BANDS_M[band] if rule == "detour" else None
    lane, depths = pulled_lane(finder.leg, finder.grid, berth, net.xy, ends, bound)
    if not lane:
        log(f"approaches: no water path from {berth[0]:.4f}, {berth[1]:.4f}")
        return False
    gain, before = lengths_under(lane, depths), net.under[:, node].copy()
    xy = np.array(lane)
    length = float(lengths_between_m(xy[:-1, 0], xy[:-1, 1], xy[1:, 0], xy[1:, 1]).sum())
    way = float(net.way(band, node)[ends[1]])
    if rule == "shallow":
        ok = _better(gain, before, band)
    else:
        ok = gain[band] == 0.0 and DETOUR * length + DETOUR_SLACK_M <= way
    if not ok:
        log(f"approaches: the {rule} lane from {berth[0]:.4f}, {berth[1]:.4f} gains nothing")
        return False
    net.add(ends, lane, depths)
    log(
        f"approaches: {rule} lane of {len(lane) - 1} legs, {length / 1000:.0f} km, from "
        f"{berth[0]:.4f}, {berth[1]:.4f} (band {band}: the network's way {way / 1000:.0f} "
        f"km): under the bands {np.round(gain / 1000, 1).tolist()} km, the network's way "
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
        near = np.asarray(tree.query_ball_point(unit_vectors(*berth), chord), dtype=np.int64)
        pocket = joined(net.all, node, near, APPROACH_M)
        for rule in ("shallow", "detour"):
            if _try(finder, rule, node, berth, pocket):
                break
    added = net.xy[len(lon) :]
    log(f"approaches: {net.u.size - u.size} edges added, {len(added)} nodes")
    return Approaches(
        added[:, 0], added[:, 1], net.u[u.size :], net.v[u.size :], net.least[u.size :]
    )

"""Deep shortcuts: straight legs for a deep ship where the default routes' shortcuts cross shallow
water.

The build's shortcuts (:mod:`.shortcuts`) straighten the default routes. Measured for depth, some
of them fall under a band, and a ship that closes it is left the zigzag of the lanes they replaced
or a detour round them (Rotterdam -> Hamburg out west of the Maas approach; Durban -> Mombasa far
out in the Mozambique Channel). This step routes the same port pairs again with a band closed,
pulls each path that the band makes longer tight with legs that keep off land, out of the
corridors and over water at least the band's depth, and adds them as shortcuts. Build-time only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from ..depth import band_name
from ..geodesy import MEAN_EARTH_RADIUS_M, FloatArray, unit_vectors
from ..passages import closed_passages, passage_mask
from .clearance import Clearance
from .coast import Coastline, sample_geodesics
from .corridors import CorridorIndex
from .depth import APPROACH_M, SPACING_M, least_depths
from .depth_grid import Grid, Layers
from .joins import log
from .shortcuts import Candidates, Training, accepted_legs, port_paths, pull

#: The bands the step straightens routes for: the need of a 12 m draft (the distance set's).
DEEP_BOUNDS_M = (13.5,)
#: A port pair's path is pulled when closing the band makes it at least this much longer.
LONGER_BY = 1.0005


@dataclass(frozen=True)
class DeepLegs:
    """The legs added: node pairs, the passage bits each carries, and its least depth."""

    u: np.ndarray
    v: np.ndarray
    masks: np.ndarray
    least: np.ndarray


def least_mean_depths(
    lon: FloatArray,
    lat: FloatArray,
    u: np.ndarray,
    v: np.ndarray,
    berths: Any,
    corridors: CorridorIndex,
    grid: Grid | Layers,
) -> np.ndarray:
    """Per leg (``u``, ``v`` node pairs), the least of its cells' mean corner depths along its
    geodesic, beyond the berths' approaches and outside the corridors (inf where nothing is
    measured): stricter than a shortcut's measure (the cells' deepest corners), as a deep
    shortcut is the build's own line where neither a lane nor a shortcut ran before."""
    s_lon, s_lat, leg, _ = sample_geodesics(lon[u], lat[u], lon[v], lat[v], SPACING_M)
    near, _ = berths.query(unit_vectors(s_lon, s_lat))
    measured = near > 2.0 * np.sin(APPROACH_M / MEAN_EARTH_RADIUS_M / 2.0)
    measured[measured] = ~corridors.contains(s_lon[measured], s_lat[measured])
    least = np.full(u.size, np.inf)
    np.minimum.at(least, leg[measured], grid.mean_depth(s_lon[measured], s_lat[measured]))
    return least


@dataclass
class DepthClearance:
    """Whether a leg between two nodes keeps over water at least ``bound_m`` deep
    (:func:`least_mean_depths`), cached per node pair: the steering test of the pull."""

    lon: FloatArray
    lat: FloatArray
    berths: Any  # scipy's cKDTree over the berths' unit vectors
    corridors: CorridorIndex
    grid: Grid | Layers
    bound_m: float
    _seen: dict[tuple[int, int], bool] = field(default_factory=dict)

    def deep(self, a: int, b: int) -> bool:
        """Whether the leg from ``a`` to ``b`` is deep enough."""
        key = (a, b) if a < b else (b, a)
        hit = self._seen.get(key)
        if hit is None:
            ends = np.array([a]), np.array([b])
            least = least_mean_depths(
                self.lon, self.lat, *ends, self.berths, self.corridors, self.grid
            )
            hit = bool(least[0] >= self.bound_m)
            self._seen[key] = hit
        return hit


def deep_shortcuts(
    lon: FloatArray,
    lat: FloatArray,
    u: np.ndarray,
    v: np.ndarray,
    masks: np.ndarray,
    names: tuple[str, ...],
    spec: dict[str, Any],
    ports: Training,
    berths: np.ndarray,
    corridors: CorridorIndex,
    grid: Grid | Layers,
    coast: Coastline,
) -> DeepLegs:
    """The legs that straighten, for each band of ``DEEP_BOUNDS_M``, the port-to-port paths
    closing the band makes longer; ``masks`` are the edges' passage and band bits over
    ``names``, ``spec`` the passages, ``berths`` (N, 2) lon/lat of the joined ports' berths."""
    from scipy.spatial import cKDTree

    clear = Clearance(lon, lat, coast, corridors)
    berth_tree = cKDTree(unit_vectors(berths[:, 0], berths[:, 1]))
    passage_bits = np.uint32((1 << len(spec)) - 1)
    bits = dict(zip(zip(u.tolist(), v.tolist(), strict=True), masks.tolist(), strict=True))
    closed = passage_mask(closed_passages((), allow_arctic=False), names)
    found = Candidates()
    for bound in DEEP_BOUNDS_M:
        band = 1 << names.index(band_name(bound))
        depth = DepthClearance(lon, lat, berth_tree, corridors, grid, bound)

        def sailable(a: int, b: int, depth: DepthClearance = depth) -> bool:
            return clear.coarse(a, b) and depth.deep(a, b)

        pulled = 0
        narrow, wide = (masks & np.uint32(closed | band)) == 0, (masks & np.uint32(closed)) == 0
        for path, dist in port_paths(lon, lat, u, v, narrow, ports, wide, LONGER_BY):
            pulled += 1
            _pull_into(found, path, dist, sailable, bits, int(passage_bits))
        log(f"deep shortcuts: {pulled} port-to-port paths longer under {band_name(bound)}")
    known = {(a, b) if a < b else (b, a) for a, b in bits}
    return _accepted(found, clear, spec, known, berths, berth_tree, corridors, grid)


def _pull_into(
    found: Candidates,
    path: list[int],
    dist: np.ndarray,
    sailable: Callable[[int, int], bool],
    bits: dict[tuple[int, int], int],
    passage_bits: int,
) -> None:
    """Pull ``path`` tight with legs ``sailable`` allows and record each leg with the passage
    bits of the run it replaces."""
    for i, j in pull(path, sailable):
        mask = 0
        for a, b in pairwise(path[i : j + 1]):
            mask |= bits.get((a, b), 0) | bits.get((b, a), 0)
        found.add(path[i], path[j], float(dist[path[j]] - dist[path[i]]), mask & passage_bits)


def _accepted(
    found: Candidates,
    clear: Clearance,
    spec: dict[str, Any],
    known: set[tuple[int, int]],
    berths: np.ndarray,
    berth_tree: Any,
    corridors: CorridorIndex,
    grid: Grid | Layers,
) -> DeepLegs:
    """The candidates that are no edge ``known``, pass :func:`.shortcuts.accepted_legs` (the
    gain, the gates of a run they replace, the exact land test) and measure at least the
    shallowest ``DEEP_BOUNDS_M`` deep (:func:`least_mean_depths`), with their least depths as
    a shortcut is measured."""
    keys, tags = accepted_legs(found, clear, spec, known, "deep shortcuts")
    if not keys:
        empty = np.zeros(0, dtype=np.int64)
        return DeepLegs(empty, empty, np.zeros(0, dtype=np.uint32), np.zeros(0))
    pairs = np.array(keys, dtype=np.int64)
    a, b = pairs[:, 0], pairs[:, 1]
    lon, lat = clear.lon, clear.lat
    mean = least_mean_depths(lon, lat, a, b, berth_tree, corridors, grid)
    deep = mean >= min(DEEP_BOUNDS_M)
    shortcut = np.ones(a.size, dtype=bool)
    least = least_depths(lon, lat, a, b, shortcut, berths, corridors, grid)
    log(f"deep shortcuts: {int(deep.sum())} deep enough")
    return DeepLegs(a[deep], b[deep], tags[deep].astype(np.uint32), least[deep])

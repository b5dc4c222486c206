"""Whether a straight shortcut between two nodes may be sailed: the tests of the build's shortcuts.

A coarse test on the spherical great circle (raster cells every kilometre) steers the pulling of
paths cheaply; the exact test (shoreline polygons every 50 m along the WGS84 geodesic, raster cells
away from the ends, corridors, and :data:`CLEARANCE_M` of water abeam on either side away from the
ends and the corridors) decides. Build-time only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from ..geodesy import MEAN_EARTH_RADIUS_M, FloatArray, from_unit_vectors, unit_vector
from .coast import Coastline, sample_geodesics
from .corridors import CorridorIndex
from .repair import CHECK_SPACING_M

#: Spacing of the geodesic knots between which the exact test interpolates, metres.
KNOT_M = 5_000.0
#: Spacing of the coarse raster test that steers the pulling, metres.
COARSE_SPACING_M = 1_000.0
#: Near its ends a shortcut may cross raster cells that hold land (the exact shoreline still
#: rules): nodes along the repaired coastal paths lie in such cells.
END_SLACK_M = 1_500.0
#: Water a shortcut keeps on either side, metres (1 nm), farther than :data:`CLEAR_FROM_END_M`
#: from its ends and away from the corridors: no grazing an island or a headland.
CLEARANCE_M = 1_852.0
#: Near its ends (lane nodes along coasts and port approaches) a shortcut needs no clearance.
CLEAR_FROM_END_M = 5_000.0
#: Spacing of the offsets abeam at which the shoreline is looked for, out to the clearance: an
#: islet narrower than the clearance lying between two offsets would otherwise go unseen.
ABEAM_STEP_M = 250.0


@dataclass
class Clearance:
    """Whether the geodesic between two nodes may be sailed, cached per node pair."""

    lon: FloatArray
    lat: FloatArray
    coast: Coastline
    corridors: CorridorIndex
    #: Water kept abeam on either side, metres (0: none).
    clearance_m: float = CLEARANCE_M
    _coarse: dict[tuple[int, int], bool] = field(default_factory=dict)

    def coarse(self, a: int, b: int) -> bool:
        """Raster water along the great circle (beyond the end slack) and no point in a corridor,
        sampled every kilometre: the exact test's rules, cheaply (a leg that starts inside a
        corridor would be pulled, then refused, and its run left without any shortcut)."""
        key = (a, b) if a < b else (b, a)
        hit = self._coarse.get(key)
        if hit is None:
            lon, lat, along, length = great_circle(
                self.lon[a], self.lat[a], self.lon[b], self.lat[b], COARSE_SPACING_M
            )
            inner = (along > END_SLACK_M) & (along < length - END_SLACK_M)
            hit = not bool(self.coast.maybe_land(lon[inner], lat[inner]).any())
            hit = hit and not bool(self.corridors.contains(lon, lat).any())
            self._coarse[key] = hit
        return hit

    def exact(self, pairs: list[tuple[int, int]]) -> np.ndarray:
        """Per pair: off the shoreline polygons every ``CHECK_SPACING_M`` along the geodesic, off
        raster land cells beyond the end slack, and outside every corridor."""
        ok = np.ones(len(pairs), dtype=bool)
        if not pairs:
            return ok
        keys = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        a, b = keys[:, 0], keys[:, 1]
        k_lon, k_lat, k_which, k_along = sample_geodesics(
            self.lon[a], self.lat[a], self.lon[b], self.lat[b], KNOT_M
        )
        length = np.zeros(len(pairs))
        np.maximum.at(length, k_which, k_along)
        near = np.zeros(len(pairs), dtype=bool)
        for corridor in self.corridors.corridors:
            lo, hi = corridor.line.min(axis=0) - 0.1, corridor.line.max(axis=0) + 0.1
            inside = (k_lon >= lo[0]) & (k_lon <= hi[0]) & (k_lat >= lo[1]) & (k_lat <= hi[1])
            near[k_which[inside]] = True
        for lon, lat, which, along in dense_samples(
            k_lon, k_lat, k_which, k_along, CHECK_SPACING_M
        ):
            inner = (along > END_SLACK_M) & (along < length[which] - END_SLACK_M)
            bad = self.coast.is_land(lon, lat)
            bad[inner] |= self.coast.maybe_land(lon[inner], lat[inner])
            close = near[which]
            bad[close] |= self.corridors.contains(lon[close], lat[close])
            if self.clearance_m > 0:
                clear_of_ends = (along > CLEAR_FROM_END_M) & (
                    along < length[which] - CLEAR_FROM_END_M
                )
                bad |= self._grazes(lon, lat, which, clear_of_ends & ~close)
            ok[np.unique(which[bad])] = False
        return ok

    def _grazes(
        self, lon: FloatArray, lat: FloatArray, which: np.ndarray, tested: np.ndarray
    ) -> np.ndarray:
        """Per sample: whether the shoreline lies within :attr:`clearance_m` abeam, on either
        side of the geodesic (points every :data:`ABEAM_STEP_M` out to that distance across its
        heading, by the heading between neighbouring samples of the same geodesic), for the
        ``tested`` samples."""
        out = np.zeros(lon.size, dtype=bool)
        if lon.size < 2 or not tested.any():
            return out
        cos_lat = np.cos(np.radians(lat))
        step_x = (((np.diff(lon) + 180.0) % 360.0) - 180.0) * cos_lat[:-1]
        step_y = np.diff(lat)
        same = which[1:] == which[:-1]
        dx = np.where(same, step_x, 0.0)
        dy = np.where(same, step_y, 0.0)
        # The heading at each sample: the step to the next sample of its geodesic, or from the
        # one before at a geodesic's last sample.
        head_x = np.append(dx, 0.0)
        head_y = np.append(dy, 0.0)
        last = np.append(~same, True)
        head_x[1:][last[1:]] = dx[last[1:]]
        head_y[1:][last[1:]] = dy[last[1:]]
        norm = np.hypot(head_x, head_y)
        use = tested & (norm > 0)
        n_x, n_y = -head_y[use] / norm[use], head_x[use] / norm[use]
        steps = max(1, int(np.ceil(self.clearance_m / ABEAM_STEP_M)))
        for offset_m in np.linspace(self.clearance_m / steps, self.clearance_m, steps):
            across = np.degrees(offset_m / MEAN_EARTH_RADIUS_M)
            for side in (1.0, -1.0):
                side_lat = lat[use] + side * n_y * across
                side_lon = lon[use] + side * n_x * across / np.maximum(cos_lat[use], 1e-6)
                out[np.flatnonzero(use)[self.coast.is_land(side_lon, side_lat)]] = True
        return out


def dense_samples(
    lon: FloatArray, lat: FloatArray, which: np.ndarray, along: FloatArray, spacing_m: float
) -> Iterator[tuple[FloatArray, FloatArray, np.ndarray, FloatArray]]:
    """Points at most ``spacing_m`` apart between consecutive knots of the same geodesic, linear
    in longitude and latitude (knots are close enough for that), in chunks of bounded size."""
    same = np.flatnonzero(which[:-1] == which[1:])
    step = along[same + 1] - along[same]
    counts = np.maximum(np.ceil(step / spacing_m).astype(np.int64), 1)
    ends = np.cumsum(counts)
    begin = 0
    while begin < same.size:
        stop = int(np.searchsorted(ends, ends[begin] - counts[begin] + 4_000_000, side="right"))
        stop = max(stop, begin + 1)
        part, n = same[begin:stop], counts[begin:stop]
        t = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)
        t = t / np.repeat(n, n)
        first = np.repeat(part, n)
        d_lon = ((lon[first + 1] - lon[first] + 180.0) % 360.0) - 180.0
        out_lon = ((lon[first] + t * d_lon + 180.0) % 360.0) - 180.0
        out_lat = lat[first] + t * (lat[first + 1] - lat[first])
        out_along = along[first] + t * (along[first + 1] - along[first])
        yield out_lon, out_lat, which[first], out_along
        begin = stop
    last = np.flatnonzero(np.diff(which, append=-1) != 0)
    yield lon[last], lat[last], which[last], along[last]


def great_circle(
    lon1: float, lat1: float, lon2: float, lat2: float, spacing_m: float
) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """Points on the spherical great circle at most ``spacing_m`` apart, their distance from the
    start and the arc length (a cheap stand-in for the geodesic when only steering)."""
    p = unit_vector(lon1, lat1)
    q = unit_vector(lon2, lat2)
    angle = float(np.arccos(np.clip(p @ q, -1.0, 1.0)))
    length = angle * MEAN_EARTH_RADIUS_M
    n = max(int(np.ceil(length / spacing_m)), 1) + 1
    t = np.linspace(0.0, 1.0, n)
    if angle < 1e-12:
        points = np.repeat(p[None, :], n, axis=0)
    else:
        s = np.sin(angle)
        points = (np.sin((1 - t) * angle) / s)[:, None] * p + (np.sin(t * angle) / s)[:, None] * q
    lon, lat = from_unit_vectors(points)
    return lon, lat, t * length, length

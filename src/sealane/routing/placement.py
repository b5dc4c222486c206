"""Placing positions a fixed geodesic distance apart along a polyline of geodesics.

Within a segment the positions come from one ``pyproj`` geodesic line per run (vectorised, written
straight into preallocated arrays). Where a turn falls between two positions, the next position is
the point of a later segment exactly one step away in a straight line, found by a local planar
solve at the turning vertex: the vessel cuts the corner, as ships do, so every pair of consecutive
positions is one step apart and each heading is the bearing to the next position. The Python loop
runs once per segment, never once per position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from pyproj.enums import GeodIntermediateFlag

from .geodesy import GEOD, FloatArray, normalize_lon

#: Segments shorter than this (metres) are merged into their neighbours.
MIN_SEGMENT_M = 1e-3


@dataclass(frozen=True, slots=True)
class Track:
    """Positions one step apart, then the destination: lon/lat/heading in degrees.

    All positions but the last are ``step_m`` apart; the last is the destination, reached
    ``final_m`` metres (along the track) after the one before it. A single position means the
    voyage has no length.
    """

    lons: FloatArray
    lats: FloatArray
    headings_deg: FloatArray
    step_m: float
    final_m: float


def place_positions(coords: FloatArray, segment_m: FloatArray, step_m: float) -> Track:
    """Positions every ``step_m`` metres along the polyline ``coords`` (N x 2 lon/lat)."""
    keep = np.concatenate([[True], segment_m > MIN_SEGMENT_M])
    if not keep[-1] and keep.size > 2:  # keep the destination itself, drop the point next to it
        keep[-1] = True
        previous = int(np.flatnonzero(keep[:-1])[-1])
        if previous > 0:
            keep[previous] = False
    lon_v, lat_v = coords[keep, 0].astype(np.float64), coords[keep, 1].astype(np.float64)
    if lon_v.size < 2:
        return Track(lon_v[:1].copy(), lat_v[:1].copy(), np.zeros(1), step_m, 0.0)
    azimuth, _, seg = GEOD.inv(lon_v[:-1], lat_v[:-1], lon_v[1:], lat_v[1:])
    seg = np.asarray(seg, dtype=np.float64)
    capacity = int(seg.sum() // step_m) + 3
    out = _Buffers(capacity)
    placer = _Placer(lon_v, lat_v, np.asarray(azimuth, dtype=np.float64), seg, step_m, out)
    final_m = placer.run()
    n = out.count
    lons, lats = out.lons[:n].copy(), out.lats[:n].copy()
    lons[0], lats[0] = lon_v[0], lat_v[0]  # exactly the start, not its round trip through pyproj
    outside = (lons < -180.0) | (lons >= 180.0)
    lons[outside] = normalize_lon(lons[outside])
    headings = np.mod(out.azis[:n], 360.0)
    headings[headings >= 360.0] = 0.0  # -1e-14 mod 360 rounds to 360.0
    return Track(lons, lats, headings, step_m, final_m)


class _Buffers:
    """Preallocated output columns and how many rows are filled."""

    def __init__(self, capacity: int) -> None:
        self.lons = np.empty(capacity)
        self.lats = np.empty(capacity)
        self.azis = np.empty(capacity)
        self.count = 0


class _Placer:
    """One pass over the segments: runs of positions on each, corner cuts between them."""

    def __init__(
        self,
        lon_v: FloatArray,
        lat_v: FloatArray,
        azimuth: FloatArray,
        seg: FloatArray,
        step_m: float,
        out: _Buffers,
    ) -> None:
        self.lon_v, self.lat_v, self.azimuth, self.seg = lon_v, lat_v, azimuth, seg
        self.step = step_m
        self.out = out
        self.last = seg.size  # index of the final vertex

    def run(self) -> float:
        """Fill the buffers; returns the along-track metres from the last step to the end."""
        k, offset = 0, 0.0
        q_lon, q_lat, q_az = float(self.lon_v[0]), float(self.lat_v[0]), float(self.azimuth[0])
        while True:
            count = int((self.seg[k] - offset) // self.step) + 1
            self._run(q_lon, q_lat, q_az, count)
            behind = self.seg[k] - (offset + (count - 1) * self.step)  # metres left on segment k
            p_lon, p_lat = (
                float(self.out.lons[self.out.count - 1]),
                float(self.out.lats[self.out.count - 1]),
            )
            j = self._segment_of_next(k, behind, p_lon, p_lat)
            if j == self.last:
                return self._arrive(k, behind, p_lon, p_lat)
            offset = self._corner(j, p_lon, p_lat)
            q_lon, q_lat, back = GEOD.fwd(
                self.lon_v[j], self.lat_v[j], self.azimuth[j], offset, return_back_azimuth=True
            )
            q_az = float(back) + 180.0
            self.out.azis[self.out.count - 1] = GEOD.inv(p_lon, p_lat, q_lon, q_lat)[0]
            k = j

    def _run(self, lon: float, lat: float, azimuth: float, count: int) -> None:
        """``count`` positions from (lon, lat) along the geodesic with ``azimuth``, step apart."""
        start = self.out.count
        count = min(count, self.out.lons.size - start - 1)
        GEOD.fwd_intermediate(
            lon,
            lat,
            azimuth,
            npts=count,
            del_s=self.step,
            initial_idx=0,
            terminus_idx=0,
            flags=GeodIntermediateFlag.AZIS_KEEP,
            out_lons=self.out.lons[start : start + count],
            out_lats=self.out.lats[start : start + count],
            out_azis=self.out.azis[start : start + count],
            return_back_azimuth=False,
        )
        self.out.count += count

    def _segment_of_next(self, k: int, behind: float, p_lon: float, p_lat: float) -> int:
        """The segment holding the point one step (straight line) from P, or ``last`` if none."""
        j, along = k + 1, behind  # along-track metres from P to vertex j
        while j < self.last:
            if self.seg[j] - along < self.step:  # only then can vertex j+1 be within one step
                _, _, straight = GEOD.inv(p_lon, p_lat, self.lon_v[j + 1], self.lat_v[j + 1])
                if straight < self.step:
                    along += self.seg[j]
                    j += 1
                    continue
            return j
        return j

    def _corner(self, j: int, p_lon: float, p_lat: float) -> float:
        """Metres along segment j from its start to the point exactly one step from P."""
        to_p, _, distance = GEOD.inv(self.lon_v[j], self.lat_v[j], p_lon, p_lat)
        rho = float(distance)
        turn = math.radians(float(to_p) - float(self.azimuth[j]))
        along = rho * math.cos(turn) + math.sqrt(
            max(self.step**2 - (rho * math.sin(turn)) ** 2, 0.0)
        )
        return min(max(along, 0.0), float(self.seg[j]))

    def _arrive(self, k: int, behind: float, p_lon: float, p_lat: float) -> float:
        """Append the destination after P; returns the along-track metres from P to it."""
        final_m = behind + float(self.seg[k + 1 :].sum())
        if final_m <= MIN_SEGMENT_M:
            return 0.0
        end_lon, end_lat = float(self.lon_v[-1]), float(self.lat_v[-1])
        heading, back, _ = GEOD.inv(p_lon, p_lat, end_lon, end_lat)
        i = self.out.count
        self.out.azis[i - 1] = heading
        self.out.lons[i], self.out.lats[i], self.out.azis[i] = end_lon, end_lat, float(back) + 180.0
        self.out.count += 1
        return final_m

"""Placing positions a fixed distance apart *along* a polyline of geodesics.

Position ``k`` is the point ``k x step_m`` metres along the track, so after ``k`` steps at a
constant speed the vessel is exactly where the route says it is, and the arrival (the route's
length at that speed) comes at most one step after the last position. Where the track turns
between two positions the straight line joining them cuts the corner and is a little shorter
than a step; each heading is the bearing to the next position. Which positions fall on which
segment is worked out for all segments at once from the cumulative lengths (no Python loop
over segments or positions); the positions themselves are filled by :mod:`.runs`, and the
headings across the turns come from one vectorised ``Geod.inv``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .geodesy import GEOD, FloatArray, normalize_lon
from .runs import Runs, fill_runs, fill_runs_exactly
from .speeds import SpeedProfile

#: Segments shorter than this (metres) are merged into their neighbours; a last position this
#: close to the destination is put on it.
MIN_SEGMENT_M = 1e-3


@dataclass(frozen=True, slots=True)
class Track:
    """Positions one step apart along the track, then the destination: lon/lat/heading in degrees.

    Position ``k`` lies ``k * step_m`` metres along the track; the last is the destination,
    reached ``final_m`` metres (along the track, at most ``step_m``) after the one before it, or
    ``final_m == 0`` when the last step ends on it. A single position means the voyage has no
    length.
    """

    lons: FloatArray
    lats: FloatArray
    headings_deg: FloatArray
    step_m: float
    final_m: float
    #: On a speed profile (:func:`place_on_profile`): seconds from the last position before
    #: the destination to the arrival (0 when the last step ends on it); ``None`` at one speed.
    final_s: float | None = None


def kept_vertices(segment_m: FloatArray) -> npt.NDArray[np.bool_]:
    """Which vertices of a polyline with these segment lengths (metres) positions are placed
    along: segments under ``MIN_SEGMENT_M`` merged into their neighbours, the ends kept.

    >>> kept_vertices(np.array([5.0, 0.0, 7.0])).tolist()
    [True, True, False, True]
    """
    keep = np.concatenate([[True], segment_m > MIN_SEGMENT_M])
    if not keep[-1] and keep.size > 2:  # keep the destination itself, drop the point next to it
        keep[-1] = True
        previous = int(np.flatnonzero(keep[:-1])[-1])
        if previous > 0:
            keep[previous] = False
    return keep


def place_positions(
    coords: FloatArray, segment_m: FloatArray, step_m: float, *, exact: bool = False
) -> Track:
    """Positions every ``step_m`` metres along the polyline ``coords`` (N x 2 lon/lat).

    ``exact`` places every position with pyproj instead of interpolating between exact anchors
    (about 3x slower; the two agree to a millimetre below 70 degrees of latitude, 3 mm at 75).

    >>> track = place_positions(np.array([[0.0, 0.0], [0.0, 1.0]]), np.array([110_574.4]), 50_000.0)
    >>> track.lats.round(4).tolist(), round(track.final_m, 1)
    ([0.0, 0.4522, 0.9044, 1.0], 10574.4)
    """
    keep = kept_vertices(segment_m)
    lon_v, lat_v = coords[keep, 0].astype(np.float64), coords[keep, 1].astype(np.float64)
    if lon_v.size < 2:
        return Track(lon_v[:1].copy(), lat_v[:1].copy(), np.zeros(1), step_m, 0.0)
    azimuth, _, seg = GEOD.inv(lon_v[:-1], lat_v[:-1], lon_v[1:], lat_v[1:])
    runs, final_m = plan_runs(lon_v, lat_v, np.asarray(azimuth), np.asarray(seg), step_m)
    n = runs.total + (final_m > 0.0)
    lons, lats, azis = np.empty(n), np.empty(n), np.empty(n)
    (fill_runs_exactly if exact else fill_runs)(runs, step_m, lons, lats, azis)
    _turn_headings(runs, lons, lats, azis, final_m, (float(lon_v[-1]), float(lat_v[-1])))
    lons[0], lats[0] = lon_v[0], lat_v[0]  # exactly the start, not its round trip through pyproj
    outside = (lons < -180.0) | (lons >= 180.0)
    lons[outside] = normalize_lon(lons[outside])
    lons[lons >= 180.0] -= 360.0  # -180 - 3e-14 wraps to 360 - 180 = 180.0 in floating point
    turns = np.floor(azis / 360.0)  # np.mod(azis, 360), in place at a quarter of the cost
    turns *= 360.0
    azis -= turns
    azis[azis >= 360.0] = 0.0  # -1e-14 mod 360 rounds to 360.0
    return Track(lons, lats, azis, step_m, final_m)


def plan_runs(
    lon_v: FloatArray, lat_v: FloatArray, azimuth: FloatArray, seg: FloatArray, step_m: float
) -> tuple[Runs, float]:
    """The runs of positions ``0, step_m, 2 step_m, ...`` metres along the track, one per
    segment that holds any, and the metres from the last position to the end.

    Positions ``k`` with ``k * step_m < length`` are placed (the arrival follows at most one
    step later); when the last of them is within ``MIN_SEGMENT_M`` of the end it is dropped
    and the end itself takes its place (``final_m == 0``).
    """
    cumulative = np.concatenate([[0.0], np.cumsum(seg)])
    length = float(cumulative[-1])
    last = max(math.ceil(length / step_m) - 1, 0)  # index of the last position before the end
    while last > 0 and last * step_m >= length:  # guard against rounding in the division
        last -= 1
    final_m = length - last * step_m
    if final_m <= MIN_SEGMENT_M:
        final_m = 0.0
    # Positions first..ends-1 lie on segment i: first = ceil(start of segment i / step).
    first = np.ceil(cumulative[:-1] / step_m).astype(np.int64)
    ends = np.minimum(np.append(first[1:], last + 1), last + 1)
    counts = np.maximum(ends - first, 0)
    used = np.flatnonzero(counts)
    offsets = np.clip(first[used] * step_m - cumulative[used], 0.0, seg[used])
    runs = Runs(lon_v[used], lat_v[used], azimuth[used], offsets, counts[used])
    return runs, final_m


def _turn_headings(
    runs: Runs,
    lons: FloatArray,
    lats: FloatArray,
    azis: FloatArray,
    final_m: float,
    destination: tuple[float, float],
) -> None:
    """Point the last position of each run at the next position (across the corner, or at the
    destination, which is appended after the runs when ``final_m`` is not zero)."""
    last = np.cumsum(runs.counts) - 1
    if final_m > 0.0:
        arrival = runs.total
        lons[arrival], lats[arrival] = destination
    else:  # the final run ends within a millimetre of the destination: put it exactly there
        lons[-1], lats[-1] = destination
        last = last[:-1]
    if last.size == 0:
        return
    heading, back, apart = GEOD.inv(lons[last], lats[last], lons[last + 1], lats[last + 1])
    moved = np.asarray(apart) > 0.0  # a wait's last position and the next can coincide
    azis[last[moved]] = np.asarray(heading)[moved]
    if final_m > 0.0:
        azis[-1] = float(np.asarray(back).reshape(-1)[-1]) + 180.0  # arriving on that course


def track_length_m(coords: FloatArray, segment_m: FloatArray) -> float:
    """The length of the track :func:`place_positions` places along a route (its vertices,
    segments under ``MIN_SEGMENT_M`` merged, each measured by pyproj, summed in order): the
    distance the one-speed arrival is timed by, and the fleet's fast path with it."""
    keep = kept_vertices(segment_m)
    lon_v = coords[keep, 0].astype(np.float64)
    lat_v = coords[keep, 1].astype(np.float64)
    if lon_v.size < 2:
        return 0.0
    _, _, seg = GEOD.inv(lon_v[:-1], lat_v[:-1], lon_v[1:], lat_v[1:])
    return float(np.cumsum(np.asarray(seg))[-1])


#: Seconds under which the last position is taken to end on the destination (at any speed the
#: profile has, well under ``MIN_SEGMENT_M``).
MIN_FINAL_S = 1e-5


def place_on_profile(coords: FloatArray, profile: SpeedProfile, step_s: float) -> Track:
    """Positions every ``step_s`` seconds along the polyline ``coords`` sailed on ``profile``:
    position ``k`` is where the ship is ``k x step_s`` seconds after the start, so positions lie
    closer together where the profile is slower, and on one point through a wait (heading
    along the route). The last position is followed by the destination, ``final_s`` later.

    >>> from sealane.routing.speeds import speed_profile
    >>> ends = np.array([[0.0, 0.0], [0.0, 1.0]])
    >>> slow = speed_profile(np.array([110_574.4]), np.array([0]), (), ((50_000.0, 10),), 10.0)
    >>> track = place_on_profile(ends, slow, 3600.0)
    >>> track.lats.round(3).tolist(), round(track.final_s)
    ([0.0, 0.326, 0.601, 0.768, 0.936, 1.0], 1377)
    """
    lon_v, lat_v = coords[:, 0].astype(np.float64), coords[:, 1].astype(np.float64)
    if lon_v.size < 2 or profile.duration_s.size == 0:
        return Track(lon_v[:1].copy(), lat_v[:1].copy(), np.zeros(1), 0.0, 0.0, 0.0)
    azimuth, _, _ = GEOD.inv(lon_v[:-1], lat_v[:-1], lon_v[1:], lat_v[1:])
    starts_s, last, final_s = _profile_steps(profile, step_s)
    first = np.ceil(starts_s / step_s).astype(np.int64)
    ends = np.minimum(np.append(first[1:], last + 1), last + 1)
    counts = np.maximum(ends - first, 0)
    used = np.flatnonzero(counts)
    speed = profile.speed_mps[used]
    along = np.clip((first[used] * step_s - starts_s[used]) * speed, 0.0, profile.length_m[used])
    segment = profile.segment[used]
    runs = Runs(
        lon_v[segment], lat_v[segment], np.asarray(azimuth)[segment],
        profile.start_m[used] + along, counts[used],
    )  # fmt: skip
    n = runs.total + (final_s > 0.0)
    lons, lats, azis = np.empty(n), np.empty(n), np.empty(n)
    fill_runs(runs, speed * step_s, lons, lats, azis)
    _turn_headings(runs, lons, lats, azis, final_s, (float(lon_v[-1]), float(lat_v[-1])))
    lons[0], lats[0] = lon_v[0], lat_v[0]
    outside = (lons < -180.0) | (lons >= 180.0)
    lons[outside] = normalize_lon(lons[outside])
    lons[lons >= 180.0] -= 360.0
    turns = np.floor(azis / 360.0)  # np.mod(azis, 360) in place, as place_positions does it
    turns *= 360.0
    azis -= turns
    azis[azis >= 360.0] = 0.0
    step_m = float(speed.max()) * step_s if speed.size else 0.0
    final_m = final_s * float(profile.speed_mps[-1])  # along the last piece
    return Track(lons, lats, azis, step_m, final_m, final_s)


def _profile_steps(profile: SpeedProfile, step_s: float) -> tuple[FloatArray, int, float]:
    """When each piece of ``profile`` starts (s), the last whole step before the arrival, and
    the seconds from it to the arrival (0 when within :data:`MIN_FINAL_S`: the arrival is that
    step)."""
    ends_s = np.cumsum(profile.duration_s)
    starts_s = ends_s - profile.duration_s
    total = float(ends_s[-1])
    last = max(math.ceil(total / step_s) - 1, 0)
    while last > 0 and last * step_s >= total:
        last -= 1
    final_s = total - last * step_s
    return starts_s, last, final_s if final_s > MIN_FINAL_S else 0.0


def place_steps_on_profile(
    coords: FloatArray, profile: SpeedProfile, step_s: float, steps: npt.NDArray[np.int64]
) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """Only positions ``steps`` of :func:`place_on_profile` (an index at or past the arrival
    is the arrival), each placed exactly by pyproj: lon, lat, heading and whether arrived.
    What :func:`place_on_profile` interpolates between exact anchors (within a millimetre)."""
    lon_v, lat_v = coords[:, 0].astype(np.float64), coords[:, 1].astype(np.float64)
    if lon_v.size < 2 or profile.duration_s.size == 0:
        n = steps.size
        return np.full(n, lon_v[0]), np.full(n, lat_v[0]), np.zeros(n), np.ones(n, dtype=bool)
    azimuth, _, _ = GEOD.inv(lon_v[:-1], lat_v[:-1], lon_v[1:], lat_v[1:])
    starts_s, last, final_s = _profile_steps(profile, step_s)
    final = final_s > 0.0
    arrival = last + 1 if final else last
    k = np.minimum(steps, arrival)
    first = np.ceil(starts_s / step_s).astype(np.int64)
    run_end = np.minimum(np.append(first[1:], last + 1), last + 1) - 1  # last index of a piece

    def at(
        index: npt.NDArray[np.int64],
    ) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.int64]]:
        piece = _owner(first, run_end, index)
        along = (index * step_s - starts_s[piece]) * profile.speed_mps[piece]
        along = profile.start_m[piece] + np.clip(along, 0.0, profile.length_m[piece])
        segment = profile.segment[piece]
        lons, lats, azis = GEOD.fwd(
            lon_v[segment], lat_v[segment], np.asarray(azimuth)[segment], along,
            return_back_azimuth=False,
        )  # fmt: skip
        return np.atleast_1d(lons), np.atleast_1d(lats), np.atleast_1d(azis), piece

    placed = np.minimum(k, last)
    lons, lats, azis, piece = at(placed)
    turning = (placed == run_end[piece]) & ((placed < last) | final)
    if turning.any():
        nxt = placed[turning] + 1
        nxt_lon, nxt_lat, _, _ = at(np.minimum(nxt, last))
        beyond = nxt > last
        nxt_lon[beyond], nxt_lat[beyond] = lon_v[-1], lat_v[-1]
        heading, back, apart = GEOD.inv(lons[turning], lats[turning], nxt_lon, nxt_lat)
        moved = np.asarray(apart) > 0.0
        turned = np.flatnonzero(turning)
        azis[turned[moved]] = np.asarray(heading)[moved]
    arrived = k == arrival
    if arrived.any() and final:
        lon_l, lat_l, _, _ = at(np.array([last]))
        _, back, _ = GEOD.inv(lon_l, lat_l, [lon_v[-1]], [lat_v[-1]])
        azis[arrived] = float(np.asarray(back).reshape(-1)[-1]) + 180.0
    lons[arrived], lats[arrived] = lon_v[-1], lat_v[-1]
    lons[k == 0], lats[k == 0] = lon_v[0], lat_v[0]
    lons = normalize_lon(lons)
    return np.asarray(lons, dtype=np.float64), lats, azis % 360.0, arrived


def _owner(
    first: npt.NDArray[np.int64], run_end: npt.NDArray[np.int64], index: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The piece holding each position index, among the pieces that hold any."""
    used = np.flatnonzero(run_end >= first)
    return np.asarray(used[np.searchsorted(first[used], index, side="right") - 1])

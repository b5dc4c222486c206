"""Remaining tracks of many vessels: distance, passages and the ETA of each, as the engine's
``future_positions`` would give them, without placing a position every minute.

The engine times the arrival from the length of the track it places positions on: the remaining
route's vertices (segments under a millimetre merged), measured segment by segment with pyproj
and summed in order (``placement.plan_runs``). That sum, the speed and the step give the ETA
(``Positions.from_track``). Here the same sums are made for every vessel of a port pair at once:
the leg's segments are measured once per pair, and each vessel adds its own two (start ->
projection -> next vertex) in front, in the engine's order, so the ETA is the engine's to the
millisecond. A vessel whose track the shortcut does not fit (off its leg, at its destination, a
segment under a millimetre) is given the engine's own remaining route and measured alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

import sealane

from ._engine import (
    GEOD,
    METRES_PER_NM,
    MIN_SEGMENT_M,
    ZERO_LENGTH_M,
    FloatArray,
    Leg,
    Projection,
    kept_vertices,
    project,
    route_for,
    zone_table,
)
from ._profile import leg_rows, route_zones

#: Seconds between the engine's positions.
STEP_S = 60.0
STEP_MS = 60_000
#: Rows of one pair projected in one block (bounds the rows x segments temporaries).
BLOCK_ROWS = 1024


@dataclass(slots=True)
class Track:
    """The track one vessel still sails: its kept vertices, each segment's pyproj length and
    azimuth (degrees), and the remaining route's length (``distance_m``) and passages."""

    lons: FloatArray
    lats: FloatArray
    geod_m: FloatArray
    azimuth_deg: FloatArray
    distance_m: float
    passages: tuple[str, ...]


@dataclass(slots=True)
class Remaining:
    """Per row of a pair: the route's length (m), the placed track's length (m), passages, and
    the track itself when asked for (positions)."""

    distance_m: FloatArray
    track_m: FloatArray
    passages: list[tuple[str, ...]]
    #: Metres in each zone of the speed profile (rows x zones) and seconds of waits ahead.
    zone_m: FloatArray
    waits_s: FloatArray
    tracks: list[Track] = field(default_factory=list)


def remaining(
    leg: Leg | None,
    destination: tuple[float, float],
    dimensions: tuple[tuple[str, float], ...],
    lons: FloatArray,
    lats: FloatArray,
    *,
    keep_tracks: bool = False,
) -> Remaining:
    """The remaining route of vessels at (lons, lats) on ``leg`` towards ``destination``, each
    routed on its own when there is no leg (a previous port flagged inland)."""
    n = lons.size
    zones = len(zone_table().names)
    out = Remaining(np.empty(n), np.empty(n), [()] * n, np.zeros((n, zones)), np.zeros(n), [])
    tracks: list[Track | None] = [None] * n
    for start in range(0, n, BLOCK_ROWS):
        block = slice(start, min(start + BLOCK_ROWS, n))
        if leg is None:
            for row in range(block.start, block.stop):
                alone = (float(lons[row]), float(lats[row]))
                tracks[row] = _routed(route_for(alone, destination, dimensions), out, row)
            continue
        _remaining_block(
            leg, destination, lons[block], lats[block], out, block, tracks, keep_tracks
        )
    if keep_tracks:
        out.tracks = [track for track in tracks if track is not None]
        assert len(out.tracks) == n, "a track for every row"
    return out


def _remaining_block(
    leg: Leg,
    destination: tuple[float, float],
    lons: FloatArray,
    lats: FloatArray,
    out: Remaining,
    block: slice,
    tracks: list[Track | None],
    keep_tracks: bool,
) -> None:
    """One block of rows: the shortcut for rows it fits, the engine's route for the rest
    (``tracks`` gets every row's track; the shortcut's are assembled only when asked for)."""
    at_port = (lons == destination[0]) & (lats == destination[1])
    where = project(leg, lons, lats)
    heads = _heads(leg, where, lons, lats)
    fits = where.on_leg & ~at_port & heads.fits & (where.segment + 1 >= leg.tiny_until)
    rows = np.arange(block.start, block.stop)
    shortcut = np.flatnonzero(fits)
    k = where.segment
    out.track_m[rows[shortcut]] = _track_lengths(leg, k[shortcut], heads.track_m[shortcut])
    out.distance_m[rows[shortcut]] = _distances(leg, k[shortcut], heads.route_m[shortcut])
    zoned = leg_rows(leg, k[shortcut], heads.route_m[shortcut])
    out.zone_m[rows[shortcut]] = zoned.lengths
    out.waits_s[rows[shortcut]] = zoned.waits_s
    for i in shortcut.tolist():
        row, segment = int(rows[i]), int(k[i])
        out.passages[row] = leg.passages_from[segment]
        if keep_tracks:
            tracks[row] = _shortcut_track(leg, where, heads, i, lons, lats, out.distance_m[row])
    for i in np.flatnonzero(~fits).tolist():
        row = int(rows[i])
        if at_port[i] or not where.on_leg[i]:
            start = (float(lons[i]), float(lats[i]))  # routed on its own, as remaining_route does
            route = route_for(start, destination, leg.dimensions)
        else:
            route = _tail(leg, where, i, lons, lats)
        tracks[row] = _routed(route, out, row)


def _routed(route: sealane.Route, out: Remaining, row: int) -> Track:
    """Row ``row`` of ``out`` from its own ``route``; the track placed along it."""
    track = _track_of(route)
    out.distance_m[row] = route.distance_m
    out.track_m[row] = float(track.geod_m.cumsum()[-1]) if track.geod_m.size else 0.0
    out.passages[row] = route.passages
    out.zone_m[row], out.waits_s[row] = route_zones(route)
    return track


@dataclass(frozen=True, slots=True)
class _Heads:
    """Each row's first segments, start -> projection -> the leg's next vertex: as the remaining
    route has them (``route_m``, metres) and as the placed track has them (``track_m``, with its
    azimuths); a start within ``MIN_SEGMENT_M`` of the lane (``on_lane``) goes straight to the
    vertex on the track. ``fits``: no other segment of the head is that short."""

    route_m: FloatArray  # (rows, 2)
    track_m: FloatArray  # (rows, 2); column 0 is 0 where on_lane
    azimuth_deg: FloatArray  # (rows, 2)
    on_lane: npt.NDArray[np.bool_]
    fits: npt.NDArray[np.bool_]


def _heads(leg: Leg, where: Projection, lons: FloatArray, lats: FloatArray) -> _Heads:
    vertex = leg.route.coordinates[where.segment + 1]
    az_first, _, first = GEOD.inv(lons, lats, where.lons, where.lats)
    az_second, _, second = GEOD.inv(where.lons, where.lats, vertex[:, 0], vertex[:, 1])
    az_direct, _, direct = GEOD.inv(lons, lats, vertex[:, 0], vertex[:, 1])
    route_m = np.stack([np.atleast_1d(first), np.atleast_1d(second)], axis=1)
    on_lane = route_m[:, 0] <= MIN_SEGMENT_M
    track_m = np.where(on_lane[:, None], 0.0, route_m)
    track_m[on_lane, 1] = np.atleast_1d(direct)[on_lane]
    azimuth = np.stack([np.atleast_1d(az_first), np.atleast_1d(az_second)], axis=1)
    azimuth[on_lane, 1] = np.atleast_1d(az_direct)[on_lane]
    fits = (route_m[:, 1] > MIN_SEGMENT_M) & (track_m[:, 1] > MIN_SEGMENT_M)
    return _Heads(route_m, track_m, azimuth, on_lane, fits)


def _shortcut_track(
    leg: Leg,
    where: Projection,
    heads: _Heads,
    i: int,
    lons: FloatArray,
    lats: FloatArray,
    distance_m: float,
) -> Track:
    """Row ``i``'s track: its head, then the leg's vertices and segments after its segment."""
    k = int(where.segment[i]) + 1
    head = slice(1, 2) if heads.on_lane[i] else slice(0, 2)
    start_lons = [lons[i]] if heads.on_lane[i] else [lons[i], where.lons[i]]
    start_lats = [lats[i]] if heads.on_lane[i] else [lats[i], where.lats[i]]
    return Track(
        np.concatenate([start_lons, leg.route.coordinates[k:, 0]]),
        np.concatenate([start_lats, leg.route.coordinates[k:, 1]]),
        np.concatenate([heads.track_m[i, head], leg.geod_m[k:]]),
        np.concatenate([heads.azimuth_deg[i, head], leg.azimuth_deg[k:]]),
        distance_m,
        leg.passages_from[k - 1],
    )


def _distances(leg: Leg, k: npt.NDArray[np.int64], route_m: FloatArray) -> FloatArray:
    """Each row's remaining route length as ``Route.distance_m`` sums it: the row's two
    segments (one, their sum, where the first is empty and trimmed) then the leg's after
    segment ``k``, one numpy sum each (pairwise summation depends on where the values sit)."""
    padded = np.concatenate([[0.0], leg.route.segment_m])  # slots k, k + 1 take the row's two
    found = np.empty(k.size)
    for i, (segment, (first, second)) in enumerate(zip(k.tolist(), route_m.tolist(), strict=True)):
        begin = segment
        if first <= ZERO_LENGTH_M:
            begin, padded[segment + 1] = segment + 1, first + second
        else:
            padded[segment], padded[segment + 1] = first, second
        found[i] = padded[begin:].sum()
        padded[segment : segment + 2] = leg_padded_at(leg, segment)
    return found


def leg_padded_at(leg: Leg, segment: int) -> tuple[float, float]:
    """What slots ``segment`` and ``segment + 1`` of the padded leg lengths hold."""
    before = float(leg.route.segment_m[segment - 1]) if segment else 0.0
    return before, float(leg.route.segment_m[segment])


def _tail(leg: Leg, where: Projection, i: int, lons: FloatArray, lats: FloatArray) -> sealane.Route:
    """The engine's tail of the leg from row ``i``'s projection (``Route.tail``)."""
    start = sealane.Location(float(lons[i]), float(lats[i]))
    return leg.route.tail(int(where.segment[i]), float(where.lons[i]), float(where.lats[i]), start)


def _track_lengths(leg: Leg, k: npt.NDArray[np.int64], head_m: FloatArray) -> FloatArray:
    """Each row's track length: its head's two segments, then the leg's from ``k + 1`` on,
    summed in that order as the engine's ``cumsum`` does (zeros in front of a row's first
    segment leave its sum's bits as they are)."""
    if k.size == 0:
        return np.empty(0)
    columns = np.arange(leg.geod_m.size + 1)
    table = np.where(columns[None, :] > k[:, None] + 1, np.concatenate([[0.0], leg.geod_m]), 0.0)
    rows = np.arange(k.size)
    table[rows, k] = head_m[:, 0]
    table[rows, k + 1] = head_m[:, 1]
    return np.asarray(np.cumsum(table, axis=1)[:, -1], dtype=np.float64)


def _track_of(route: sealane.Route) -> Track:
    """The track the engine places positions on (``placement.place_positions``): segments
    under ``MIN_SEGMENT_M`` merged into their neighbours, each measured by pyproj."""
    keep = kept_vertices(route.segment_m)
    lons = route.coordinates[keep, 0].astype(np.float64)
    lats = route.coordinates[keep, 1].astype(np.float64)
    if lons.size < 2:
        empty = np.empty(0)
        return Track(lons[:1], lats[:1], empty, empty, route.distance_m, route.passages)
    azimuth, _, seg = GEOD.inv(lons[:-1], lats[:-1], lons[1:], lats[1:])
    return Track(
        lons,
        lats,
        np.asarray(seg, dtype=np.float64),
        np.asarray(azimuth, dtype=np.float64),
        route.distance_m,
        route.passages,
    )


def step_m(speed_kn: FloatArray) -> FloatArray:
    """Metres sailed in one step at each speed, in the engine's order of operations."""
    return np.asarray(speed_kn * METRES_PER_NM / 3600.0 * STEP_S, dtype=np.float64)


def eta_offsets_ms(track_m: FloatArray, speed_kn: FloatArray) -> npt.NDArray[np.int64]:
    """Milliseconds from the start to the arrival, as ``Positions.from_track`` times it: the
    last whole step before the end of the track, then the rest at the speed (at least 1 ms, at
    most one step)."""
    step = step_m(speed_kn)
    last, final_m = last_steps(track_m, step)
    speed_mps = speed_kn * METRES_PER_NM / 3600.0
    with np.errstate(divide="ignore", invalid="ignore"):
        final_ms = np.rint(final_m / speed_mps * 1000.0)
    final_ms = np.minimum(np.maximum(final_ms, 1.0), float(STEP_MS))
    offsets = last * STEP_MS
    return np.asarray(np.where(final_m > 0.0, offsets + final_ms.astype(np.int64), offsets))


def last_steps(track_m: FloatArray, step: FloatArray) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """Index of the last position before the end of each track, and the metres from it to the
    end (0 within ``MIN_SEGMENT_M``): ``placement.plan_runs``, row by row."""
    last = np.maximum(np.ceil(track_m / step) - 1.0, 0.0).astype(np.int64)
    for _ in range(3):  # the engine steps back while rounding puts a position on the end
        back = (last > 0) & (last * step >= track_m)
        if not back.any():
            break
        last -= back
    final_m = track_m - last * step
    return last, np.where(final_m <= MIN_SEGMENT_M, 0.0, final_m)


__all__ = ["Remaining", "Track", "eta_offsets_ms", "last_steps", "remaining"]

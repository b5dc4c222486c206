"""A batch of vessels as numpy columns, checked row by row, grouped by port pair and sailed.

Each row is checked as the engine checks one call of ``future_positions`` (ports, coordinate,
speed, start at sea); a row that fails keeps the engine's error ``code`` and the batch goes on.
Rows that pass are grouped by (previous port, destination port, vessel dimensions), so a pair's
leg is routed once however many vessels sail it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import sealane

from . import _engine
from ._engine import FloatArray, zone_table
from ._profile import Zoned, extra_seconds
from ._tracks import Remaining, Track, eta_offsets_ms, remaining

ObjectArray = npt.NDArray[np.object_]


@dataclass(frozen=True, slots=True)
class Vessels:
    """The columns of a batch: position (degrees), ports (LOCODE or id, ``None`` when missing),
    speed (knots, NaN when missing), time of the position (ms since the epoch, UTC) and the
    vessel dimensions the engine takes (metres, NaN when unknown)."""

    lons: FloatArray
    lats: FloatArray
    previous: ObjectArray
    destination: ObjectArray
    speed_kn: FloatArray
    time_ms: npt.NDArray[np.int64]
    dimensions: Mapping[str, FloatArray]

    def __len__(self) -> int:
        return int(self.lons.size)


@dataclass(frozen=True, slots=True)
class Sailed:
    """What a batch gives, per row: remaining distance (m), placed track length (m), speed used
    (knots), ETA as ms since the epoch, passages and error code (``None`` when routed); NaN and
    ``-1`` ms where the row failed. ``tracks`` holds each routed row's track when asked for."""

    distance_m: FloatArray
    track_m: FloatArray
    speed_kn: FloatArray
    eta_ms: npt.NDArray[np.int64]
    passages: list[tuple[str, ...] | None]
    errors: list[str | None]
    tracks: dict[int, Track]
    #: Metres in each zone of the speed profile (rows x zones) and seconds of waits ahead.
    zone_m: FloatArray
    waits_s: FloatArray


def sail(vessels: Vessels, *, default_speed_kn: float | None, keep_tracks: bool = False) -> Sailed:
    """Route every row of ``vessels``; failures are recorded per row, never raised."""
    n = len(vessels)
    errors: list[str | None] = [None] * n
    out = Sailed(
        np.full(n, np.nan), np.full(n, np.nan), np.full(n, np.nan),
        np.full(n, -1, dtype=np.int64), [None] * n, errors, {},
        np.zeros((n, len(zone_table().names))), np.zeros(n),
    )  # fmt: skip
    if n == 0:
        return out
    _engine.warm()
    lons, lats = vessels.lons.astype(np.float64), vessels.lats.astype(np.float64)
    _check_coordinates(lons, lats, errors)
    speeds = _speeds(vessels.speed_kn, default_speed_kn, errors)
    previous = _ports(vessels.previous, errors)
    destination = _ports(vessels.destination, errors)
    _to_sea(lons, lats, errors)
    for key, rows in _groups(previous, destination, vessels.dimensions, errors).items():
        _sail_group(key, rows, lons, lats, out, keep_tracks)
    ok = np.array([e is None for e in errors])
    out.speed_kn[ok] = speeds[ok]
    offsets = eta_offsets_ms(out.track_m[ok], speeds[ok])
    # On the speed profile: the track at the speed plus what the zones add (the engine's
    # ``future_positions``), where they add anything.
    extra = extra_seconds(Zoned(out.zone_m[ok], out.waits_s[ok]), speeds[ok])
    speed_mps = speeds[ok] * _engine.METRES_PER_NM / 3600.0
    profiled = np.rint((out.track_m[ok] / speed_mps + extra) * 1000.0).astype(np.int64)
    offsets = np.where(extra > 0.0, profiled, offsets)
    out.eta_ms[ok] = vessels.time_ms[ok] + offsets
    return out


def _sail_group(
    key: tuple[sealane.Port, sealane.Port, tuple[tuple[str, float], ...]],
    rows: npt.NDArray[np.int64],
    lons: FloatArray,
    lats: FloatArray,
    out: Sailed,
    keep_tracks: bool,
) -> None:
    """One port pair (and vessel size): its leg routed once, then every row on it."""
    previous, destination, dimensions = key
    try:
        at = sealane.Location(destination.lon, destination.lat, destination)
        _engine.check_sea_approach(at)
        _engine.check_port_draft(at, dict(dimensions).get("draft_m"), "destination_port")
        # No sea leg leaves a port flagged inland: its rows are routed on their own.
        leg = (
            None
            if previous.inland
            else _engine.leg(previous.coordinates, destination.coordinates, dimensions)
        )
    except sealane.RoutingError as error:
        for row in rows.tolist():
            out.errors[row] = error.code
        return
    done: Remaining = remaining(
        leg, destination.coordinates, dimensions, lons[rows], lats[rows], keep_tracks=keep_tracks
    )
    out.distance_m[rows] = done.distance_m
    out.track_m[rows] = done.track_m
    out.zone_m[rows] = done.zone_m
    out.waits_s[rows] = done.waits_s
    for i, row in enumerate(rows.tolist()):
        out.passages[row] = done.passages[i]
        if keep_tracks:
            out.tracks[row] = done.tracks[i]


def _check_coordinates(lons: FloatArray, lats: FloatArray, errors: list[str | None]) -> None:
    """``invalid_coordinate`` where a position is missing or out of range; 180 becomes -180
    (``resolve_location``)."""
    with np.errstate(invalid="ignore"):
        bad = ~(
            np.isfinite(lons) & np.isfinite(lats) & (np.abs(lons) <= 180) & (np.abs(lats) <= 90)
        )
    for row in np.flatnonzero(bad).tolist():
        errors[row] = sealane.InvalidCoordinateError.code
    lons[lons == 180.0] = -180.0
    lons[bad], lats[bad] = 0.0, 0.0  # placeholders, never routed


def _speeds(
    speed_kn: FloatArray, default_speed_kn: float | None, errors: list[str | None]
) -> FloatArray:
    """The engine's service speed per row: the row's, else ``default_speed_kn``, else the
    engine's default; under 1 kn the engine's default; infinite is ``invalid_speed``."""
    fallback = _service_speed(default_speed_kn)
    speeds = np.asarray(speed_kn, dtype=np.float64).copy()
    speeds[np.isnan(speeds)] = fallback
    for row in np.flatnonzero(np.isinf(speeds)).tolist():
        if errors[row] is None:
            errors[row] = sealane.InvalidSpeedError.code
    speeds[np.isinf(speeds)] = _engine.DEFAULT_SPEED_KN
    speeds[speeds < 1.0] = _engine.DEFAULT_SPEED_KN
    return speeds


def _service_speed(speed_kn: float | None) -> float:
    """The batch's fallback speed, checked like the engine's ``speed_kn``."""
    if speed_kn is None:
        return _engine.DEFAULT_SPEED_KN
    if not isinstance(speed_kn, int | float) or not math.isfinite(speed_kn):
        raise sealane.InvalidSpeedError(f"speed_kn must be a finite number, got {speed_kn!r}")
    return float(speed_kn) if speed_kn >= 1.0 else _engine.DEFAULT_SPEED_KN


def _ports(keys: ObjectArray, errors: list[str | None]) -> list[sealane.Port | None]:
    """Each row's port, looked up once per distinct key: ``unknown_port`` where no port has
    it, ``invalid_coordinate`` where there is none (the engine's codes for those calls)."""
    found: dict[object, sealane.Port | str] = {}
    ports: list[sealane.Port | None] = []
    for row, key in enumerate(keys.tolist()):
        if key not in found:
            found[key] = _port(key)
        port = found[key]
        if isinstance(port, str):
            errors[row] = errors[row] or port
            ports.append(None)
        else:
            ports.append(port)
    return ports


def _port(key: object) -> sealane.Port | str:
    """The port a key names, or the engine's error code for it."""
    if not isinstance(key, str):
        return sealane.InvalidCoordinateError.code
    try:
        return sealane.get_port(key)
    except sealane.RoutingError as error:
        return error.code


def _to_sea(lons: FloatArray, lats: FloatArray, errors: list[str | None]) -> None:
    """Starts in a land cell moved as the engine moves them, or ``on_land`` when far inland."""
    for row in np.flatnonzero(_engine.on_land(lons, lats)).tolist():
        if errors[row] is not None:
            continue
        try:
            lons[row], lats[row] = _engine.at_sea(float(lons[row]), float(lats[row]))
        except sealane.RoutingError as error:
            errors[row] = error.code


def _groups(
    previous: list[sealane.Port | None],
    destination: list[sealane.Port | None],
    dimensions: Mapping[str, FloatArray],
    errors: list[str | None],
) -> dict[tuple[sealane.Port, sealane.Port, tuple[tuple[str, float], ...]], npt.NDArray[np.int64]]:
    """Rows still without an error, by (previous port, destination port, known dimensions)."""
    groups: dict[tuple[sealane.Port, sealane.Port, tuple[tuple[str, float], ...]], list[int]] = {}
    names = [name for name in _engine.DIMENSIONS if name in dimensions]
    columns = [dimensions[name].tolist() for name in names]
    for row, (a, b) in enumerate(zip(previous, destination, strict=True)):
        if errors[row] is not None or a is None or b is None:
            continue
        size = tuple(
            (name, float(values[row]))
            for name, values in zip(names, columns, strict=True)
            if not math.isnan(values[row])
        )
        groups.setdefault((a, b, size), []).append(row)
    return {key: np.asarray(rows, dtype=np.int64) for key, rows in groups.items()}

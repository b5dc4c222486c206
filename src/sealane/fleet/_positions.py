"""One vessel's position some whole steps ahead, without placing every step before it.

The engine places position ``k`` at ``k * step`` metres along the track, on the geodesic of the
segment it falls on (``placement.plan_runs`` cuts the track into those runs), and points the
last position of each run at the next position across the turn. Here only the asked-for
positions are placed, each exactly by pyproj (the engine interpolates between exact anchors,
within a millimetre of them below 70 degrees of latitude), with the engine's headings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import sealane

from ._batch import Vessels
from ._engine import (
    DIMENSIONS,
    GEOD,
    OFF_PATH_NM,
    FloatArray,
    Runs,
    place_steps_on_profile,
    plan_runs,
    remaining_route,
)
from ._tracks import STEP_MS, STEP_S, Track

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Placed:
    """Positions of one vessel, one per asked-for step index: lon/lat and heading in degrees,
    time offset from the start in ms, and whether the vessel has arrived by then."""

    lons: FloatArray
    lats: FloatArray
    headings_deg: FloatArray
    offsets_ms: IntArray
    arrived: npt.NDArray[np.bool_]


def place_at(track: Track, step_m: float, eta_offset_ms: int, steps: IntArray) -> Placed:
    """The positions ``steps`` (indices of the engine's positions, one step apart) of a track;
    an index at or past the arrival is the arrival itself (destination, ETA)."""
    if track.geod_m.size == 0:  # a voyage of no length: one position, the start
        zeros = np.zeros(steps.size)
        return Placed(
            np.full(steps.size, track.lons[0]), np.full(steps.size, track.lats[0]), zeros,
            np.zeros(steps.size, dtype=np.int64), np.ones(steps.size, dtype=bool),
        )  # fmt: skip
    runs, final_m = plan_runs(track.lons, track.lats, track.azimuth_deg, track.geod_m, step_m)
    last = runs.total - 1  # index of the last position placed along the runs
    arrival = last + 1 if final_m > 0.0 else last
    k = np.minimum(steps, arrival)
    lons, lats, azis = _on_runs(runs, step_m, np.minimum(k, last))
    ends = np.cumsum(runs.counts) - 1
    turning = np.isin(k, ends) & ((k < last) | (final_m > 0.0))
    if turning.any():
        nxt_lon, nxt_lat, _ = _on_runs(runs, step_m, np.minimum(k[turning] + 1, last))
        at_end = k[turning] + 1 > last
        nxt_lon[at_end], nxt_lat[at_end] = track.lons[-1], track.lats[-1]
        heading, _, _ = GEOD.inv(lons[turning], lats[turning], nxt_lon, nxt_lat)
        azis[turning] = heading
    arrived = k == arrival
    if arrived.any():
        azis[arrived] = _arrival_heading(runs, step_m, last, final_m, track)
        lons[arrived], lats[arrived] = track.lons[-1], track.lats[-1]
    first = k == 0
    lons[first], lats[first] = track.lons[0], track.lats[0]
    offsets = np.where(arrived, eta_offset_ms, k * STEP_MS)
    return Placed(_wrapped(lons), lats, _degrees(azis), offsets.astype(np.int64), arrived)


def place_on_route(
    track: Track, vessels: Vessels, row: int, speed_kn: float, eta_offset_ms: int, steps: IntArray
) -> Placed:
    """The positions ``steps`` of a row whose route has a speed profile slower than the vessel
    somewhere: its remaining route made as the engine makes it (from the track's start, moved
    to sea), and the asked-for positions placed on that route's profile."""
    size = {
        name: float(vessels.dimensions[name][row])
        for name in DIMENSIONS
        if name in vessels.dimensions and not np.isnan(vessels.dimensions[name][row])
    }
    previous = sealane.get_port(str(vessels.previous[row]))
    destination = sealane.get_port(str(vessels.destination[row]))
    route = remaining_route(
        sealane.Location(float(track.lons[0]), float(track.lats[0])),
        sealane.Location(previous.lon, previous.lat, previous),
        sealane.Location(destination.lon, destination.lat, destination),
        (),
        False,
        OFF_PATH_NM,
        sealane.Vessel(**size),
    )
    lons, lats, azis, arrived = place_steps_on_profile(
        route.coordinates, route.speed_profile(speed_kn), STEP_S, steps
    )
    arrival = np.flatnonzero(arrived)
    k = steps.copy()
    if arrival.size:
        k[arrival] = 0
    offsets = np.where(arrived, eta_offset_ms, k * STEP_MS)
    return Placed(lons, lats, azis, offsets.astype(np.int64), arrived)


def _on_runs(runs: Runs, step_m: float, k: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Position ``k`` on its run: ``offset + j * step`` metres along the run's geodesic, with
    the forward azimuth there."""
    counts = runs.counts
    starts = np.cumsum(counts) - counts
    run = np.searchsorted(starts, k, side="right") - 1
    along = runs.offsets[run] + (k - starts[run]) * step_m
    lons, lats, azis = GEOD.fwd(
        runs.lons[run], runs.lats[run], runs.azis[run], along,
        return_back_azimuth=False,
    )  # fmt: skip
    return (np.atleast_1d(lons).astype(np.float64), np.atleast_1d(lats).astype(np.float64),
            np.atleast_1d(azis).astype(np.float64))  # fmt: skip


def _arrival_heading(runs: Runs, step_m: float, last: int, final_m: float, track: Track) -> float:
    """The heading at the destination: arriving on the course from the last position
    (``final_m > 0``), else the last position's own, which the destination replaced."""
    lon, lat, azi = _on_runs(runs, step_m, np.array([last]))
    if final_m <= 0.0:
        return float(azi[0])
    _, back, _ = GEOD.inv(lon, lat, np.array([track.lons[-1]]), np.array([track.lats[-1]]))
    return float(np.asarray(back).reshape(-1)[-1]) + 180.0


def _wrapped(lons: FloatArray) -> FloatArray:
    """Longitudes in [-180, 180), as the engine wraps them."""
    out = lons.copy()
    outside = (out < -180.0) | (out >= 180.0)
    out[outside] = ((out[outside] + 180.0) % 360.0) - 180.0
    out[out >= 180.0] -= 360.0
    return out


def _degrees(azis: FloatArray) -> FloatArray:
    """Azimuths in [0, 360), as the engine folds them."""
    out = azis - np.floor(azis / 360.0) * 360.0
    out[out >= 360.0] = 0.0
    return np.asarray(out, dtype=np.float64)

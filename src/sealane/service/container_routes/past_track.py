"""The track a vessel sailed on one leg: its recorded positions, bridged by the sea lane.

A leg's track runs from the port it left, through the positions recorded for its vessel, to
where it ends (the vessel's latest position, or the next port). Two consecutive points closer than
``GAP_M`` are joined straight, as the vessel reported them; a longer gap (the port to a first
position recorded days later, a feed that stopped) is bridged by the engine's sea lane of the
leg between the two points, and that piece is marked estimated. With no recorded positions the
whole track is the sea lane, estimated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt

from ...routing.geodesy import GEOD, FloatArray, unwrap_lons

#: Consecutive positions farther apart than this (metres, about 30 nm: an hour and more at
#: container-ship speeds) are bridged by the sea lane rather than a straight line.
GAP_M = 30 * 1852.0
#: At most this many recorded positions per leg are drawn (evenly thinned beyond).
MAX_TRACK_POINTS = 5000


@dataclass(frozen=True, slots=True)
class ReportedTrack:
    """A vessel's recorded positions on one leg, in time order: degrees, and UTC times."""

    lons: FloatArray
    lats: FloatArray
    times: tuple[datetime, ...]


@dataclass(frozen=True, slots=True)
class TrackPiece:
    """A run of the track: (N, 2) lon/lat degrees, whether it is the estimated sea lane rather
    than reported positions, and the times at its two ends (None where not known)."""

    coordinates: FloatArray
    estimated: bool
    start_at: datetime | None
    end_at: datetime | None


def reported_track(points: Sequence[tuple[float, float, datetime]]) -> ReportedTrack:
    """A track from (lon, lat, time) rows in time order, thinned to ``MAX_TRACK_POINTS``."""
    if len(points) > MAX_TRACK_POINTS:
        keep = np.linspace(0, len(points) - 1, MAX_TRACK_POINTS).round().astype(int)
        points = [points[i] for i in keep]
    lons = np.array([p[0] for p in points], dtype=np.float64)
    lats = np.array([p[1] for p in points], dtype=np.float64)
    return ReportedTrack(lons, lats, tuple(p[2] for p in points))


def past_track(
    lane: FloatArray,
    start_at: datetime | None,
    end_at: datetime | None,
    reported: ReportedTrack | None,
    *,
    gap_m: float = GAP_M,
) -> list[TrackPiece]:
    """The pieces of a leg's track from ``lane[0]`` to ``lane[-1]`` (the engine's sailed sea
    lane, (N, 2) degrees), through the ``reported`` positions in between."""
    if reported is None or reported.lons.size == 0:
        return [TrackPiece(lane, True, start_at, end_at)]
    anchors = np.vstack([lane[:1], np.column_stack([reported.lons, reported.lats]), lane[-1:]])
    times = (start_at, *reported.times, end_at)
    _, _, apart_m = GEOD.inv(anchors[:-1, 0], anchors[:-1, 1], anchors[1:, 0], anchors[1:, 1])
    gaps = np.asarray(apart_m) > gap_m
    segments = nearest_segments(lane, anchors) if gaps.any() else None
    pieces: list[TrackPiece] = []
    start = 0
    for i in range(1, gaps.size + 1):  # runs of consecutive pairs of one kind
        if i < gaps.size and gaps[i] == gaps[start]:
            continue
        if gaps[start] and segments is not None:
            coordinates = _along_lane(lane, anchors, segments, start, i)
        else:
            coordinates = anchors[start : i + 1]
        pieces.append(TrackPiece(coordinates, bool(gaps[start]), times[start], times[i]))
        start = i
    return pieces


def _along_lane(
    lane: FloatArray, anchors: FloatArray, segments: npt.NDArray[np.intp], first: int, last: int
) -> FloatArray:
    """Anchors ``first`` to ``last``, each pair joined by the lane's vertices between them."""
    parts = [anchors[first : first + 1]]
    for k in range(first, last):
        a, b = int(segments[k]), int(segments[k + 1])
        parts += [lane[a + 1 : b + 1], anchors[k + 1 : k + 2]]
    return np.concatenate(parts)


def nearest_segments(lane: FloatArray, points: FloatArray) -> npt.NDArray[np.intp]:
    """Index of the segment of ``lane`` nearest each point, on a local equirectangular plane
    (enough to place a point between the lane's vertices; longitudes wrap at +-180)."""
    lons = unwrap_lons(lane[:, 0])
    x0, y0 = lons[:-1], lane[:-1, 1]
    dx, dy = np.diff(lons), np.diff(lane[:, 1])
    scale = np.cos(np.radians((lane[:-1, 1] + lane[1:, 1]) / 2.0))
    px = (points[:, :1] - x0[None, :] + 180.0) % 360.0 - 180.0
    py = points[:, 1:2] - y0[None, :]
    sx, sdx = px * scale, dx * scale
    length2 = np.maximum(sdx**2 + dy**2, 1e-18)
    t = np.clip((sx * sdx + py * dy) / length2, 0.0, 1.0)
    distance2 = (sx - t * sdx) ** 2 + (py - t * dy) ** 2
    nearest: npt.NDArray[np.intp] = np.argmin(distance2, axis=1)
    return nearest

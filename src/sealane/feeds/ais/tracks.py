"""Per-vessel track filter: reject impossible jumps and stale reports, thin what is stored.

A vessel's history keeps at most one point per ``min_interval_s`` while it moves (one per
``stationary_interval_s`` when it stands still), plus a point whenever its course over ground
turns by more than ``course_change_deg``; a year of a busy feed so stays bounded per vessel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

from .reports import PositionReport

NM_PER_DEGREE = 60.0


@dataclass(frozen=True, slots=True)
class TrackRules:
    """Thresholds of the filter (seconds, knots, degrees, nautical miles)."""

    min_interval_s: float = 60.0
    stationary_interval_s: float = 600.0
    #: Below this speed a vessel counts as standing still.
    stationary_speed_kn: float = 0.5
    course_change_deg: float = 10.0
    #: Course changes are ignored below this speed (a drifting vessel's course is noise).
    course_speed_kn: float = 2.0
    max_speed_kn: float = 60.0
    #: Position noise allowed on top of ``max_speed_kn`` between two close reports.
    jitter_nm: float = 0.05
    #: After this many consecutive rejected jumps the newest report becomes the new anchor.
    recover_after: int = 3


class Verdict(IntEnum):
    """What the filter decided for one report."""

    STORE = 0
    THIN = 1
    STALE = 2
    JUMP = 3


@dataclass(slots=True)
class Track:
    """What the filter remembers of one vessel: the last accepted fix and the last stored point.

    ``coslat`` is the cosine of the latitude of the last stored point: it scales degrees of
    longitude to distance in the jump test (a few percent off after a long run north or south,
    well inside the jump limit).
    """

    vessel_id: str
    last_s: float | None = None
    last_lon: float = 0.0
    last_lat: float = 0.0
    stored_s: float | None = None
    stored_course: float | None = None
    rejects: int = 0
    coslat: float = 1.0


def distance_nm(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Equirectangular distance in nautical miles: within 0.5 % of the geodesic below 100 nm.

    >>> round(distance_nm(4.0, 52.0, 4.0, 52.5), 3)
    30.0
    """
    dlon = (lon2 - lon1 + 180.0) % 360.0 - 180.0
    x = dlon * math.cos(math.radians((lat1 + lat2) * 0.5))
    return NM_PER_DEGREE * math.hypot(x, lat2 - lat1)


def judge(track: Track, report: PositionReport, rules: TrackRules) -> Verdict:
    """Accept (STORE or THIN) or reject (STALE, JUMP) ``report``, updating ``track`` in place.

    Called once per report of a feed: the distance is the equirectangular one of
    :func:`distance_nm`, compared squared, without a function call.
    """
    t = report.time_s
    last = track.last_s
    anchored = False
    if last is not None:
        if t <= last:
            return Verdict.STALE
        dlon = report.lon - track.last_lon
        if dlon > 180.0:
            dlon -= 360.0
        elif dlon < -180.0:
            dlon += 360.0
        dx, dy = dlon * track.coslat, report.lat - track.last_lat
        limit_deg = (rules.max_speed_kn * (t - last) / 3600.0 + rules.jitter_nm) / NM_PER_DEGREE
        if dx * dx + dy * dy > limit_deg * limit_deg:
            track.rejects += 1
            if track.rejects < rules.recover_after:
                return Verdict.JUMP
            anchored = True  # a new anchor, stored however soon: the track moved there
    track.rejects = 0
    track.last_s, track.last_lon, track.last_lat = t, report.lon, report.lat
    stored = track.stored_s
    speed = report.speed_kn
    if stored is not None and not anchored:
        still = speed is not None and speed < rules.stationary_speed_kn
        if t - stored < (rules.stationary_interval_s if still else rules.min_interval_s):
            course, before = report.course_deg, track.stored_course
            if course is None or before is None or speed is None or speed < rules.course_speed_kn:
                return Verdict.THIN
            if abs((course - before + 180.0) % 360.0 - 180.0) <= rules.course_change_deg:
                return Verdict.THIN
    track.stored_s, track.stored_course = t, report.course_deg
    track.coslat = math.cos(math.radians(report.lat))
    return Verdict.STORE

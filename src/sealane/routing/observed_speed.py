"""A vessel's own speed at sea, from its recent AIS positions: what an ETA sails at when the
caller gives no speed.

The rule: of the positions in the :data:`WINDOW` up to now, keep those at sea and under way, and
take the median of their speeds over ground.

- **Speed over ground**: the one the position reports (AIS SOG); where it reports none, the
  speed from the position before it (distance over time, when at most :data:`MAX_GAP` earlier).
- **At sea**: farther than :data:`PORT_RADIUS_M` from every port of the registry (port areas and
  their anchorages, the AIS follower's default port area).
- **Under way**: a speed from :data:`MIN_SOG_KN` (below it a ship is moored, at anchor or
  drifting) to :data:`MAX_SOG_KN` (above it the fix is bad).
- At least :data:`MIN_POSITIONS` positions pass, else there is no observed speed.

The median resists a few odd fixes; the spread (coefficient of variation) of the kept speeds is
returned too: it feeds the ETA range (:mod:`.eta_range`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

import numpy as np

from .geodesy import (
    MEAN_EARTH_RADIUS_M,
    METRES_PER_NM,
    SECONDS_PER_HOUR,
    segment_lengths_m,
    unit_vectors,
)
from .ports import registry

#: How far back the positions are read.
WINDOW = timedelta(hours=6)
#: Slowest speed over ground counted as under way, knots.
MIN_SOG_KN = 3.0
#: Fastest speed over ground believed, knots.
MAX_SOG_KN = 40.0
#: A position closer than this to a port is in its port area (or anchorage), metres.
PORT_RADIUS_M = 10_000.0
#: Fewest positions an observed speed is taken from.
MIN_POSITIONS = 3
#: Longest time between two positions a speed is derived over.
MAX_GAP = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class ObservedSpeed:
    """The median speed over ground of the positions kept, how many there were, the spread of
    their speeds (standard deviation over mean) and the time of the first and last kept."""

    knots: float
    positions: int
    variability: float
    since: datetime
    until: datetime


def observed_speed(
    times: Sequence[datetime],
    lons: Sequence[float],
    lats: Sequence[float],
    sogs: Sequence[float | None],
    *,
    now: datetime,
) -> ObservedSpeed | None:
    """The vessel's speed at sea by the rule above, from its positions in time order (UTC
    datetimes, degrees, knots or None); None when too few positions pass it.

    >>> now = datetime(2026, 1, 1, tzinfo=UTC)
    >>> times = [now - timedelta(minutes=m) for m in (60, 40, 20, 0)]
    >>> seen = observed_speed(times, [60.1] * 4, [12.3] * 4, [14.0, 15.0, 0.5, 16.0], now=now)
    >>> seen.knots, seen.positions  # the drifting 0.5 kn left out
    (15.0, 3)
    """
    if not times:
        return None
    stamps = np.array([_seconds(t) for t in times])
    lon = np.asarray(lons, dtype=float)
    lat = np.asarray(lats, dtype=float)
    sog = np.array([math.nan if s is None else float(s) for s in sogs])
    derived = np.full(stamps.size, math.nan)
    if stamps.size > 1:
        gaps = np.diff(stamps)
        metres = segment_lengths_m(lon, lat)
        with np.errstate(divide="ignore", invalid="ignore"):
            speeds = metres / METRES_PER_NM / (gaps / SECONDS_PER_HOUR)
        ok = (gaps > 0) & (gaps <= MAX_GAP.total_seconds())
        derived[1:] = np.where(ok, speeds, math.nan)
    speed = np.where(np.isnan(sog), derived, sog)
    recent = stamps >= _seconds(now) - WINDOW.total_seconds()
    keep = recent & (speed >= MIN_SOG_KN) & (speed <= MAX_SOG_KN)
    candidates = np.flatnonzero(keep)
    keep[candidates] = ~near_port(lon[candidates], lat[candidates])
    if int(keep.sum()) < MIN_POSITIONS:
        return None
    kept = speed[keep]
    median = float(np.median(kept))
    index = np.flatnonzero(keep)
    return ObservedSpeed(
        knots=median,
        positions=int(kept.size),
        variability=float(np.std(kept) / np.mean(kept)),
        since=_moment(stamps[index[0]]),
        until=_moment(stamps[index[-1]]),
    )


def near_port(lons: np.ndarray, lats: np.ndarray) -> np.ndarray:
    """Per position, whether it lies within :data:`PORT_RADIUS_M` of a registry port: the
    ports within the radius's latitude band of it (found by bisection in the ports sorted by
    latitude), measured on the sphere."""
    port_lats, port_xyz = _ports_by_latitude()
    band_deg = math.degrees(PORT_RADIUS_M / MEAN_EARTH_RADIUS_M)
    cos_radius = math.cos(PORT_RADIUS_M / MEAN_EARTH_RADIUS_M)
    low = np.searchsorted(port_lats, np.asarray(lats) - band_deg, side="left")
    high = np.searchsorted(port_lats, np.asarray(lats) + band_deg, side="right")
    points = unit_vectors(lons, lats)
    found = np.zeros(points.shape[0], dtype=bool)
    counts = high - low
    some = np.flatnonzero(counts > 0)
    if some.size == 0:
        return found
    # Every (position, port in its band) pair at once: the port indices run from each
    # position's ``low`` for ``counts`` ports.
    pairs = np.repeat(some, counts[some])
    starts = np.cumsum(counts[some]) - counts[some]
    ports = low[pairs] + np.arange(pairs.size) - np.repeat(starts, counts[some])
    cosines = np.einsum("ij,ij->i", port_xyz[ports], points[pairs])
    found[some] = np.maximum.reduceat(cosines, starts) >= cos_radius
    return found


@cache
def _ports_by_latitude() -> tuple[np.ndarray, np.ndarray]:
    """The registry's ports' latitudes in ascending order and their unit vectors in that order,
    made once."""
    ports = sorted(registry().ports, key=lambda p: p.lat)
    lats = np.array([p.lat for p in ports])
    return lats, unit_vectors([p.lon for p in ports], lats)


def _seconds(moment: datetime) -> float:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.timestamp()


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(float(seconds), tz=UTC)


__all__ = ["ObservedSpeed", "observed_speed"]

"""Where a simulated voyage stands at a given time, as its carrier would report it.

The vessel's position along the engine's sea route of the leg it sails, and the estimated
arrival at and departure from each port of the voyage. Both are stated to the whole minute, as
carriers publish them (Terminal49's and DCSA's timestamps carry no seconds' fractions, and a
carrier's schedule or position feed is refreshed every few minutes, not on every request): a
report asked for twice within the minute, with nothing else new, is the same report.
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from functools import lru_cache

import numpy as np

from ...routing.geodesy import GEOD, METRES_PER_NM
from ...routing.routes import route
from .base import CallEstimate, ShipmentPlan


def to_minute(at: datetime) -> datetime:
    """``at`` to the nearest whole minute, as a carrier states an estimate."""
    floor = at.replace(second=0, microsecond=0)
    return floor + timedelta(minutes=1) if at - floor >= timedelta(seconds=30) else floor


def minute_of(at: datetime) -> datetime:
    """The whole minute ``at`` falls in: when the position reported at ``at`` was taken."""
    return at.replace(second=0, microsecond=0)


def vessel_position(
    plan: ShipmentPlan, now: datetime
) -> tuple[int, float, float, float, float] | None:
    """Where the vessel carrying the cargo is at ``now`` (None when no vessel is sailing)."""
    for index, leg in enumerate(plan.legs):
        if leg.depart_at <= now < leg.arrive_at:
            fraction = (now - leg.depart_at) / (leg.arrive_at - leg.depart_at)
            lon, lat, heading = _along(leg.origin, leg.destination, fraction)
            return index, lon, lat, heading, leg.speed_kn
    return None


@lru_cache(maxsize=4096)
def _leg_route(origin: str, destination: str) -> tuple[np.ndarray, np.ndarray]:
    path = route(origin, destination)
    cumulative = np.concatenate([[0.0], np.cumsum(path.segment_m)])
    return np.asarray(path.coordinates), cumulative


def _along(origin: str, destination: str, fraction: float) -> tuple[float, float, float]:
    """Point and course ``fraction`` of the way along the sea route (lon, lat, heading)."""
    coords, cumulative = _leg_route(origin, destination)
    target = fraction * cumulative[-1]
    i = int(min(np.searchsorted(cumulative, target, side="right") - 1, len(coords) - 2))
    azimuth, _, _ = GEOD.inv(coords[i, 0], coords[i, 1], coords[i + 1, 0], coords[i + 1, 1])
    lon, lat, back = GEOD.fwd(coords[i, 0], coords[i, 1], azimuth, target - cumulative[i])
    return float(lon), float(lat), float((back + 180.0) % 360.0)


def call_estimates(plan: ShipmentPlan, now: datetime) -> tuple[CallEstimate, ...]:
    """The carrier's estimated arrival at and departure from each port, as it would state them
    at ``now`` (the port of lading has no arrival, the port of discharge no departure).

    Sailed legs count as sailed; on the leg at sea, the distance left along the leg's sea route
    (the one the vessel sails: a route from its position would snap it onto the nearest lane,
    which need not be the way it is going) at the nominal speed; legs to come at the nominal
    speed after the planned dwell, never leaving before their planned departure. After arrival,
    the actual one.
    The estimate on the leg at sea is stated to the nearest minute (:func:`to_minute`): it moves
    by the difference between the actual and the nominal speed, a fraction of a second every few
    seconds, which a carrier does not publish; the later ones follow from it. The plan's own
    times (actual, or scheduled and not yet overtaken) are stated as planned.
    """
    estimate = plan.legs[0].depart_at
    arrivals: list[datetime | None] = [None]
    departures: list[datetime | None] = []
    for index, leg in enumerate(plan.legs):
        dwell = leg.depart_at - plan.legs[index - 1].arrive_at if index else timedelta(0)
        departs = leg.depart_at
        if leg.arrive_at <= now:
            estimate = leg.arrive_at
        elif leg.depart_at <= now:
            _, cumulative = _leg_route(leg.origin, leg.destination)
            left = 1.0 - (now - leg.depart_at) / (leg.arrive_at - leg.depart_at)
            remaining_nm = left * float(cumulative[-1]) / METRES_PER_NM
            estimate = to_minute(now + timedelta(hours=remaining_nm / leg.nominal_speed_kn))
        else:
            departs = max(leg.depart_at, estimate + dwell) if index else leg.depart_at
            estimate = departs + timedelta(hours=leg.distance_nm / leg.nominal_speed_kn)
        departures.append(departs)
        arrivals.append(estimate)
    departures.append(None)
    return tuple(itertools.starmap(CallEstimate, zip(arrivals, departures, strict=True)))

"""The speed a vessel's ETA sails at when the caller gives none: its observed speed at sea over
the last hours, else its last reported speed, else the engine's default (14 kn).

The observed speed follows the rule of :mod:`sealane.routing.observed_speed` (positions of the
last six hours, away from ports, between 3 and 40 kn, at least three of them; their median).
The positions are read from ``vessel_positions`` by vessel and time range, a query the unique
(vessel_id, timestamp) index answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from ...clock import utc_iso
from ...routing.observed_speed import MIN_POSITIONS, WINDOW, observed_speed
from ...routing.voyage import DEFAULT_SPEED_KN, MIN_SPEED_KN
from ...store.models import VesselPosition

GIVEN, OBSERVED, REPORTED, DEFAULT = "given", "observed", "reported", "default"


@dataclass(frozen=True, slots=True)
class SpeedChoice:
    """The speed an ETA sails at and where it came from (:data:`GIVEN`, :data:`OBSERVED`,
    :data:`REPORTED` or :data:`DEFAULT`); for an observed one, how many positions it was taken
    from, over which times, and their spread (standard deviation over mean)."""

    knots: float
    source: str
    positions: int = 0
    variability: float | None = None
    since: datetime | None = None
    until: datetime | None = None

    def meta(self) -> dict[str, Any]:
        """What an answer's ``meta.speed`` says."""
        meta: dict[str, Any] = {"knots": round(self.knots, 2), "source": self.source}
        if self.source == OBSERVED:
            meta["positions"] = self.positions
            meta["window_hours"] = WINDOW.total_seconds() / 3600
            meta["observed_from"] = utc_iso(self.since)
            meta["observed_to"] = utc_iso(self.until)
            meta["variability"] = None if self.variability is None else round(self.variability, 3)
        return meta


def choose_speed(
    session: Session,
    vessel_id: str,
    *,
    now: datetime,
    given_kn: float | None = None,
    reported_kn: float | None = None,
) -> SpeedChoice:
    """The speed for the vessel's ETA at ``now``: ``given_kn`` when given, else the observed
    speed, else ``reported_kn`` (its last report) when a usable one, else the default."""
    if given_kn is not None:
        return SpeedChoice(given_kn, GIVEN)
    seen = recent_speed(session, vessel_id, now=now)
    if seen is not None:
        return seen
    if reported_kn is not None and math.isfinite(reported_kn) and reported_kn >= MIN_SPEED_KN:
        return SpeedChoice(reported_kn, REPORTED)
    return SpeedChoice(DEFAULT_SPEED_KN, DEFAULT)


def recent_positions(
    vessel_id: str, since: datetime, until: datetime
) -> Select[datetime, float, float, float | None]:
    """The vessel's positions from ``since`` to ``until`` (time, lon, lat, speed over ground),
    oldest first: a range scan of the unique (vessel_id, timestamp) index."""
    return (
        select(
            VesselPosition.timestamp,
            VesselPosition.longitude,
            VesselPosition.latitude,
            VesselPosition.speed_knots,
        )
        .where(
            VesselPosition.vessel_id == vessel_id,
            VesselPosition.timestamp >= since,
            VesselPosition.timestamp <= until,
        )
        .order_by(VesselPosition.timestamp)
    )


def recent_speed(session: Session, vessel_id: str, *, now: datetime) -> SpeedChoice | None:
    """The vessel's observed speed at sea over the :data:`~sealane.routing.observed_speed.WINDOW`
    before ``now``, or None when too few of its positions there are at sea and under way."""
    # Through the connection (Core): plain rows, without the ORM's loading of each one.
    rows = session.connection().execute(recent_positions(vessel_id, now - WINDOW, now)).all()
    if len(rows) < MIN_POSITIONS:
        return None
    times, lons, lats, sogs = zip(*rows, strict=True)
    seen = observed_speed(times, lons, lats, sogs, now=now)
    if seen is None:
        return None
    return SpeedChoice(
        seen.knots, OBSERVED, seen.positions, seen.variability, seen.since, seen.until
    )

"""Where a container is on its itinerary: the legs sailed, the leg under way, the legs to come.

At sea, the vessel's leg is split at its position into the part sailed (previous port -> vessel)
and the part still to sail (vessel -> next port), whose positions come from
:func:`~.voyage.future_positions`. The pieces join exactly: the sailed part ends and the remaining
part starts on the same point, and every leg starts on the port where the one before ends. The
calls ahead are re-timed from the vessel's ETA; the calls behind keep the itinerary's times.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .frames import progress_frame
from .itinerary_inputs import InvalidItineraryError, plan_speed
from .itinerary_inputs import as_utc as utc
from .itinerary_parts import Leg, LegUnderway, Plan, PortCall, scheduled
from .locations import LocationLike, resolve_location
from .mapfeatures import progress_features
from .voyage import OFF_PATH_NM, future_positions, sailed_route

if TYPE_CHECKING:
    import geopandas


@dataclass(frozen=True, slots=True)
class Progress:
    """An itinerary at one moment: ``calls`` and ``legs`` re-timed, the first ``sailed`` legs
    behind, then the leg ``underway`` (None in port), then the legs still to sail."""

    calls: tuple[PortCall, ...]
    legs: tuple[Leg, ...]
    sailed: int
    underway: LegUnderway | None

    @property
    def completed(self) -> tuple[Leg, ...]:
        """Legs sailed in full."""
        return self.legs[: self.sailed]

    @property
    def upcoming(self) -> tuple[Leg, ...]:
        """Legs not started yet."""
        return self.legs[self.sailed + (self.underway is not None) :]

    @property
    def eta(self) -> datetime | None:
        """Estimated arrival at the POD (UTC), or None when nothing is timed."""
        return self.calls[-1].arrival_at

    def to_geojson(self) -> dict[str, Any]:
        """An RFC 7946 FeatureCollection for a map: ports, past legs, the vessel, the rest of its
        leg and the legs to come (:func:`.mapfeatures.progress_features`)."""
        return progress_features(self)

    def to_geodataframe(self) -> geopandas.GeoDataFrame:
        """One row per piece of geometry (needs the ``geo`` extra)."""
        return progress_frame(self)


def at_port(itinerary: Plan, call: int, *, departs_at: datetime | None = None) -> Progress:
    """The container at port call ``call`` (0 = not departed, the last = arrived at the POD);
    the legs after it leave at ``departs_at`` (default: the call's estimated departure).

    >>> from sealane.routing.itinerary import itinerary
    >>> done = at_port(itinerary(["CNSHA", "SGSIN", "NLRTM"]), 2)
    >>> len(done.completed), done.underway, done.upcoming
    (2, None, ())
    """
    _check_index(call, len(itinerary.calls), "call")
    calls, legs = itinerary.calls, itinerary.legs
    leaving = utc(departs_at, "departs_at")
    if leaving is not None and call < len(calls) - 1:
        calls, legs = scheduled(calls, legs, itinerary.dwell_h, call, departure_at=leaving)
    return Progress(calls, legs, call, None)


def at_sea(
    itinerary: Plan,
    leg: int,
    position: LocationLike,
    at: datetime,
    *,
    speed_kn: float | None = None,
    step_s: float = 60.0,
    off_path_nm: float = OFF_PATH_NM,
) -> Progress:
    """The container on leg ``leg``, its vessel at ``position`` (lon, lat) at time ``at``.

    The leg is split at the vessel, its future positions are sailed at ``speed_kn`` (default:
    the leg's speed) every ``step_s`` seconds, and the calls ahead are re-timed from its ETA.

    >>> from datetime import UTC
    >>> from sealane.routing.itinerary import itinerary
    >>> trip = itinerary(["CNSHA", "SGSIN", "NLRTM"], speed_kn=18)
    >>> now = at_sea(trip, 1, (60.1, 12.3), datetime(2026, 3, 10, tzinfo=UTC))
    >>> now.underway.sailed.coordinates[-1].tolist(), now.underway.remaining.coordinates[0].tolist()
    ([60.1, 12.3], [60.1, 12.3])
    >>> now.eta.isoformat(timespec="minutes")
    '2026-03-23T18:47+00:00'
    """
    _check_index(leg, len(itinerary.legs), "leg")
    moment = utc(at, "at")
    if moment is None:
        raise InvalidItineraryError("at must be the time of the vessel's position")
    planned = itinerary.legs[leg]
    speed = planned.speed_kn if speed_kn is None else plan_speed(speed_kn)
    positions = future_positions(
        position,
        planned.origin,
        planned.destination,
        speed_kn=speed,
        start_time=moment,
        step_s=step_s,
        avoid=itinerary.avoid,
        allow_arctic=itinerary.allow_arctic,
        off_path_nm=off_path_nm,
        vessel=itinerary.vessel,
    )
    sailed = sailed_route(
        positions.route.origin,
        resolve_location(planned.origin),
        resolve_location(planned.destination),
        itinerary.avoid,
        itinerary.allow_arctic,
        off_path_nm,
        itinerary.vessel,
    )
    calls, legs = scheduled(
        itinerary.calls, itinerary.legs, itinerary.dwell_h, leg + 1, arrival_at=positions.eta
    )
    current = replace(legs[leg], arrival_at=positions.eta)
    legs = (*legs[:leg], current, *legs[leg + 1 :])
    return Progress(calls, legs, leg, LegUnderway(current, sailed, positions.route, positions))


def _check_index(index: int, count: int, what: str) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
        raise InvalidItineraryError(f"{what} must be an index from 0 to {count - 1}, got {index!r}")

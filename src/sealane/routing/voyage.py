"""Future positions of a vessel: where it will be every ``step_s`` seconds until it arrives.

The vessel is taken to be on the sea-lane leg from its previous port to its destination port. Its
start coordinate is projected onto that leg and the rest of the leg is sailed at a constant speed;
a start far off the leg (``off_path_nm``) is routed on its own from where it is. Positions are
exactly ``step_s`` apart in time and ``speed x step`` apart along the route, so each is where the
vessel is after that many steps; the straight line between two positions cuts the corner where
the track turns, and each heading is the bearing to the next position. The arrival (the last
position) is timed by the route's length at the speed, at most one step after the position
before it, so the ETA does not depend on the step.

Where the route's speed profile (:mod:`.speeds`) is slower than the vessel (canals, straits,
rivers, port approaches) or holds it (a convoy's or a booking's expected wait), positions stay
exactly ``step_s`` apart in time and lie closer together, on one point through a wait; the
arrival is the route's length at the vessel's speed plus the time the profile adds.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from .errors import InvalidSpeedError, InvalidTimeError
from .geodesy import (
    MEAN_EARTH_RADIUS_M,
    METRES_PER_NM,
    SECONDS_PER_HOUR,
    FloatArray,
    arc_normals,
    lonlat_of,
    nearest_on_arcs,
    unit_vector,
    unit_vectors,
)
from .graph import default_graph
from .locations import Location, LocationLike, resolve_location
from .passages import Passage
from .placement import Track, place_on_profile, place_positions, track_length_m
from .port_limits import check_port_draft
from .ports import Port
from .positions import Positions
from .routes import Route, check_sea_approach, route
from .vessel import UNKNOWN, Vessel, as_vessel
from .water import afloat

#: Speed used when none (or less than ``MIN_SPEED_KN``) is given: a typical container ship's
#: economical service speed.
DEFAULT_SPEED_KN = 14.0
MIN_SPEED_KN = 1.0
#: Shortest step between positions, seconds, and the most positions one call may make.
MIN_STEP_S = 1.0
MAX_POSITIONS = 10_000_000
#: A start farther than this from its leg is routed on its own.
OFF_PATH_NM = 100.0


def future_positions(
    start: LocationLike,
    previous_port: str | Port,
    destination_port: str | Port,
    *,
    speed_kn: float | None = None,
    start_time: datetime | None = None,
    step_s: float = 60.0,
    avoid: Iterable[str | Passage] = (),
    allow_arctic: bool = False,
    off_path_nm: float = OFF_PATH_NM,
    vessel: Vessel | None = None,
    draft_m: float | None = None,
    beam_m: float | None = None,
    length_m: float | None = None,
    air_draft_m: float | None = None,
) -> Positions:
    """Positions every ``step_s`` seconds from ``start`` to ``destination_port``.

    ``start`` is a (lon, lat) pair, ``previous_port`` and ``destination_port`` are LOCODEs, port ids
    or :class:`Port`. Missing or sub-1-knot speeds use ``DEFAULT_SPEED_KN``; a naive ``start_time``
    is taken as UTC, and ``None`` means now. The ``vessel`` (or its dimensions in metres as
    keywords, each optional) closes the passages it does not fit, on its leg as on a route of its
    own (see :func:`~.routes.route`).

    >>> p = future_positions((60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18,
    ...                      start_time=datetime(2026, 1, 1, tzinfo=UTC))
    >>> p.route.passages
    ('babalmandab', 'suez', 'gibraltar', 'dover', 'maas')
    >>> round(p.distance_remaining_nm)
    5661
    >>> p10, p90 = p.eta_range  # the arrival's P10 and P90 (see :mod:`.eta_range`)
    >>> p10 <= p.eta <= p90, p.speed_source
    (True, 'given')
    >>> future_positions((60.1, 12.3), "CNSHA", "NLRTM", draft_m=21.0).route.passages
    ('good_hope', 'dover', 'maas')
    """
    ship = as_vessel(vessel, draft_m, beam_m, length_m, air_draft_m)
    speed = service_speed(speed_kn)
    if not (_is_number(step_s) and math.isfinite(step_s) and step_s >= MIN_STEP_S):
        raise InvalidSpeedError(
            f"step_s must be a number of seconds >= {MIN_STEP_S:g}, got {step_s!r}"
        )
    if not (_is_number(off_path_nm) and math.isfinite(off_path_nm) and off_path_nm >= 0):
        raise InvalidSpeedError(f"off_path_nm must be a non-negative number, got {off_path_nm!r}")
    begin = _utc(start_time)
    origin = resolve_location(start, "start")
    previous = resolve_location(previous_port, "previous_port")
    destination = resolve_location(destination_port, "destination_port")
    check_sea_approach(destination)
    check_port_draft(destination, ship.draft_m, "destination_port")
    closed = tuple(sorted({str(p) for p in avoid}))
    remaining = remaining_route(
        _at_sea(origin), previous, destination, closed, allow_arctic, off_path_nm, ship
    )
    profile = remaining.speed_profile(speed)
    step_m = speed * METRES_PER_NM / SECONDS_PER_HOUR * step_s
    made = remaining.distance_m / step_m + profile.extra_s / step_s
    if made > MAX_POSITIONS:
        raise InvalidSpeedError(
            f"{made:,.0f} positions would be made; at most {MAX_POSITIONS:,} (use a longer step_s)"
        )
    if profile.extra_s == 0.0:  # nothing slower than the vessel: one speed all the way
        track = place_positions(remaining.coordinates, remaining.segment_m, step_m)
        return Positions.from_track(
            track, route=remaining, speed_kn=speed, step_s=float(step_s), start_time=begin
        )
    track = place_on_profile(remaining.coordinates, profile, float(step_s))
    track_m = track_length_m(remaining.coordinates, remaining.segment_m)
    arrival_s = track_m / (speed * METRES_PER_NM / SECONDS_PER_HOUR)
    return Positions.from_track(
        track,
        route=remaining,
        speed_kn=speed,
        step_s=float(step_s),
        start_time=begin,
        arrival_ms=round((arrival_s + profile.extra_s) * 1000),
        speed_source=speed_source(speed_kn),
    )


def service_speed(speed_kn: float | None) -> float:
    """The speed to sail at: ``speed_kn``, or the default when missing or below 1 knot."""
    if speed_kn is None:
        return DEFAULT_SPEED_KN
    if not _is_number(speed_kn) or math.isnan(speed_kn):
        raise InvalidSpeedError(f"speed must be a number of knots, got {speed_kn!r}")
    if not math.isfinite(speed_kn):
        raise InvalidSpeedError(f"speed must be finite, got {speed_kn!r}")
    return float(speed_kn) if speed_kn >= MIN_SPEED_KN else DEFAULT_SPEED_KN


def speed_source(speed_kn: float | None) -> str:
    """``given`` when ``speed_kn`` is sailed at, ``default`` when :func:`service_speed` replaces
    it (missing or below 1 knot)."""
    return "given" if speed_kn is not None and speed_kn >= MIN_SPEED_KN else "default"


def remaining_route(
    start: Location,
    previous: Location,
    destination: Location,
    avoid: tuple[str, ...],
    allow_arctic: bool,
    off_path_nm: float,
    vessel: Vessel = UNKNOWN,
) -> Route:
    """The route still to sail: the leg's tail from the start's projection, or a fresh route
    (also when the previous port is flagged inland: no sea leg leaves it)."""
    if (start.lon, start.lat) == (destination.lon, destination.lat):
        return route(start.coordinates, destination.coordinates, vessel=vessel)
    leg = _sea_leg(previous, destination, avoid, allow_arctic, vessel)
    on_leg = None if leg is None else _projection(start, leg, off_path_nm)
    if leg is None or on_leg is None:
        return route(
            start.coordinates,
            destination.coordinates,
            avoid=avoid,
            allow_arctic=allow_arctic,
            vessel=vessel,
        )
    return leg.route.tail(*on_leg, start)


def sailed_route(
    start: Location,
    previous: Location,
    destination: Location,
    avoid: tuple[str, ...],
    allow_arctic: bool,
    off_path_nm: float,
    vessel: Vessel = UNKNOWN,
) -> Route:
    """The route already sailed, from the previous port to ``start``: the leg's head up to the
    start's projection, or a route of its own when the start is off the leg (the mirror of
    :func:`remaining_route`, so the two join exactly at ``start``)."""
    check_sea_approach(previous)
    leg = _sea_leg(previous, destination, avoid, allow_arctic, vessel)
    on_leg = None if leg is None else _projection(start, leg, off_path_nm)
    if leg is None or on_leg is None:
        return route(
            previous.coordinates,
            start.coordinates,
            avoid=avoid,
            allow_arctic=allow_arctic,
            vessel=vessel,
        )
    return leg.route.head(*on_leg, start)


def _sea_leg(
    previous: Location,
    destination: Location,
    avoid: tuple[str, ...],
    allow_arctic: bool,
    vessel: Vessel,
) -> _Leg | None:
    """The previous-port -> destination-port leg, or None when the previous port is flagged
    inland (no sea leg leaves it: the start is then routed on its own)."""
    if previous.port is not None and previous.port.inland:
        return None
    return _leg(previous.coordinates, destination.coordinates, avoid, allow_arctic, vessel)


def _projection(start: Location, leg: _Leg, off_path_nm: float) -> tuple[int, float, float] | None:
    """The segment of ``leg`` nearest ``start`` and the nearest point on it (lon, lat), or None
    when the start is farther than ``off_path_nm`` from the leg."""
    segment, angle, nearest = nearest_on_arcs(unit_vector(start.lon, start.lat), *leg.arcs)
    if angle * MEAN_EARTH_RADIUS_M > off_path_nm * METRES_PER_NM:
        return None
    lon, lat = lonlat_of(nearest)
    return segment, lon, lat


@dataclass(frozen=True, slots=True)
class _Leg:
    """A port-to-port route with its segments as arcs on the sphere (start and end unit vectors
    and normals), ready for projecting a vessel's position onto it."""

    route: Route
    arcs: tuple[FloatArray, FloatArray, FloatArray]


@lru_cache(maxsize=1024)
def _leg(
    previous: tuple[float, float],
    destination: tuple[float, float],
    avoid: tuple[str, ...],
    allow_arctic: bool,
    vessel: Vessel,
) -> _Leg:
    """The previous-port -> destination-port leg, shared by every vessel of a size sailing it."""
    leg = route(previous, destination, avoid=avoid, allow_arctic=allow_arctic, vessel=vessel)
    coords = leg.coordinates
    a, b = unit_vectors(coords[:-1, 0], coords[:-1, 1]), unit_vectors(coords[1:, 0], coords[1:, 1])
    return _Leg(leg, (a, b, arc_normals(a, b)))


def _at_sea(start: Location) -> Location:
    """The start as a vessel there is taken to be (:func:`~.water.afloat`): as it is on water,
    moved to the sea when just ashore, an error when on land."""
    return afloat(start, "start", default_graph())


def _is_number(value: object) -> bool:
    """A real number that is not a bool (numpy scalars count)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _utc(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.now(UTC)
    if not isinstance(moment, datetime):
        raise InvalidTimeError(f"start_time must be a datetime, got {moment!r}")
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


__all__ = ["DEFAULT_SPEED_KN", "Positions", "Track", "future_positions", "service_speed"]

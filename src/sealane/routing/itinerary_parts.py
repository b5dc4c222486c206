"""The pieces of an itinerary: its port calls, its legs, a leg split at its vessel, and the
re-timing of calls and legs from one call on.

They sit below :mod:`.itinerary` (which makes them), :mod:`.progress` (which moves along them)
and the renderers (:mod:`.mapfeatures`, :mod:`.frames`), which read an itinerary and its
progress through the two protocols here, :class:`Plan` and :class:`Snapshot`, so none of those
modules needs another's classes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .ports import Port
    from .positions import Positions
    from .routes import Route
    from .vessel import Vessel


@dataclass(frozen=True, slots=True)
class PortCall:
    """One port of an itinerary, with its estimated times (UTC, ``None`` when not timed).

    ``sequence`` counts from 1 at the POL; ``label`` is ``POL``, ``TS1``, ``TS2``, ... or ``POD``.
    The POL has no arrival and the POD no departure.
    """

    sequence: int
    port: Port
    label: str
    arrival_at: datetime | None
    departure_at: datetime | None


@dataclass(frozen=True, slots=True)
class Leg:
    """The sea-lane route between two consecutive port calls, sailed at ``speed_kn``.

    ``sequence`` is the sequence of its departure call (1 for the leg leaving the POL).
    """

    sequence: int
    origin: Port
    destination: Port
    route: Route
    speed_kn: float
    departure_at: datetime | None
    arrival_at: datetime | None

    @property
    def distance_nm(self) -> float:
        """Length of the leg in nautical miles."""
        return self.route.distance_nm

    @property
    def duration_h(self) -> float:
        """Hours at sea: the leg's route sailed at its speed, on the route's speed profile."""
        return self.route.duration_h(self.speed_kn)


@dataclass(frozen=True, slots=True)
class LegUnderway:
    """A leg split at its vessel: ``sailed`` ends and ``remaining`` starts where they join,
    the vessel's position (moved to the nearest sea when it was reported just ashore)."""

    leg: Leg
    sailed: Route
    remaining: Route
    positions: Positions

    @property
    def lon(self) -> float:
        """Longitude of the vessel where the two parts join, degrees."""
        return self.remaining.origin.lon

    @property
    def lat(self) -> float:
        """Latitude of the vessel where the two parts join, degrees."""
        return self.remaining.origin.lat

    @property
    def heading_deg(self) -> float | None:
        """Course steered from the position, degrees from true north; None once arrived."""
        return float(self.positions.headings_deg[0]) if len(self.positions) > 1 else None

    @property
    def at(self) -> datetime:
        """Time of the vessel's position (UTC)."""
        return self.positions.start_time

    @property
    def eta(self) -> datetime:
        """Estimated arrival at the leg's destination (UTC)."""
        return self.positions.eta


class Plan(Protocol):
    """An itinerary as :mod:`.progress` moves along it (:class:`.itinerary.Itinerary`)."""

    @property
    def calls(self) -> tuple[PortCall, ...]: ...
    @property
    def legs(self) -> tuple[Leg, ...]: ...
    @property
    def dwell_h(self) -> tuple[float, ...]: ...
    @property
    def avoid(self) -> tuple[str, ...]: ...
    @property
    def allow_arctic(self) -> bool: ...
    @property
    def vessel(self) -> Vessel: ...


class Snapshot(Protocol):
    """An itinerary at one moment as the renderers draw it (:class:`.progress.Progress`)."""

    @property
    def calls(self) -> tuple[PortCall, ...]: ...
    @property
    def legs(self) -> tuple[Leg, ...]: ...
    @property
    def sailed(self) -> int: ...
    @property
    def underway(self) -> LegUnderway | None: ...
    @property
    def completed(self) -> tuple[Leg, ...]: ...
    @property
    def upcoming(self) -> tuple[Leg, ...]: ...


def scheduled(
    calls: tuple[PortCall, ...],
    legs: tuple[Leg, ...],
    dwell_h: tuple[float, ...],
    first: int,
    *,
    arrival_at: datetime | None = None,
    departure_at: datetime | None = None,
) -> tuple[tuple[PortCall, ...], tuple[Leg, ...]]:
    """Calls and legs re-timed from call ``first`` on, which arrives at ``arrival_at`` (kept when
    None) and leaves at ``departure_at`` (default: a given arrival plus the stay, else the time
    it had); every later call follows at the legs' speeds. Earlier calls and legs are kept."""
    new_calls, new_legs = list(calls), list(legs)
    arrival = arrival_at if arrival_at is not None else calls[first].arrival_at
    if departure_at is not None:
        departure: datetime | None = departure_at
    elif arrival_at is not None:
        departure = arrival_at + _hours(dwell_h[first])
    else:
        departure = calls[first].departure_at
    for i in range(first, len(calls)):
        if i == len(calls) - 1:
            new_calls[i] = replace(calls[i], arrival_at=arrival, departure_at=None)
            break
        new_calls[i] = replace(calls[i], arrival_at=arrival, departure_at=departure)
        leg = legs[i]
        arrival = departure + _hours(leg.duration_h) if departure else None
        new_legs[i] = replace(leg, departure_at=departure, arrival_at=arrival)
        departure = arrival + _hours(dwell_h[i + 1]) if arrival else None
    return tuple(new_calls), tuple(new_legs)


def _hours(hours: float) -> timedelta:
    """``hours`` as a timedelta rounded to the millisecond (the resolution of the positions)."""
    return timedelta(milliseconds=round(hours * 3_600_000))

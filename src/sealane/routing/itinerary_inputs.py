"""What an itinerary is made from, checked: the ports called at, a speed per leg, the hours at
each call and times in UTC; a wrong value is an error that names it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import pairwise

from .errors import InvalidSpeedError, InvalidTimeError, RoutingError
from .ports import Port, get_port
from .voyage import service_speed


class InvalidItineraryError(RoutingError):
    """Port calls that make no itinerary: fewer than two, a port called twice in a row, or
    per-leg / per-call values whose count does not match."""

    code = "invalid_itinerary"
    title = "Invalid itinerary"


def ports_called(port_calls: Sequence[str | Port]) -> list[Port]:
    """The ports called at; at least two, never the same one twice in a row."""
    if isinstance(port_calls, str) or not isinstance(port_calls, Sequence):
        raise InvalidItineraryError(f"port_calls must be a sequence of ports, got {port_calls!r}")
    if len(port_calls) < 2:
        raise InvalidItineraryError(
            f"an itinerary needs at least 2 port calls, got {len(port_calls)}"
        )
    ports = []
    for i, call in enumerate(port_calls):
        if isinstance(call, Port):
            ports.append(call)
        elif isinstance(call, str):
            ports.append(get_port(call))
        else:
            raise InvalidItineraryError(f"port_calls[{i}] must be a LOCODE, port id or Port")
    for i, (a, b) in enumerate(pairwise(ports)):
        if a.locode == b.locode:
            raise InvalidItineraryError(f"port_calls[{i}] and [{i + 1}] are both {a.locode}")
    return ports


def speeds_per_leg(speed_kn: float | Sequence[float | None] | None, legs: int) -> list[float]:
    """One speed per leg in knots (:func:`plan_speed` of each)."""
    values = list(speed_kn) if isinstance(speed_kn, Sequence) else [speed_kn] * legs
    if len(values) != legs:
        raise InvalidItineraryError(f"speed_kn has {len(values)} values for {legs} legs")
    return [plan_speed(value) for value in values]


def plan_speed(speed_kn: float | None) -> float:
    """The speed to plan with, in knots: as :func:`~.voyage.service_speed` (None or below 1 kn
    is the service speed), but a negative speed is an error rather than a missing one."""
    if speed_kn is not None and _is_number(speed_kn) and speed_kn < 0:
        raise InvalidSpeedError(f"speed must not be negative, got {speed_kn!r} kn")
    return service_speed(speed_kn)


def dwell_hours(dwell_h: float | Sequence[float], calls: int) -> tuple[float, ...]:
    """Hours at each call: 0 at the POL and POD, the given stay(s) at the others."""
    values = list(dwell_h) if isinstance(dwell_h, Sequence) else [dwell_h] * (calls - 2)
    if len(values) != calls - 2:
        raise InvalidItineraryError(f"dwell_h has {len(values)} values for {calls - 2} stays")
    for value in values:
        if not (_is_number(value) and math.isfinite(value) and value >= 0):
            raise InvalidItineraryError(f"dwell_h must be hours >= 0, got {value!r}")
    return (0.0, *(float(v) for v in values), 0.0)


def _is_number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def as_utc(moment: datetime | None, what: str) -> datetime | None:
    """``moment`` in UTC (naive taken as UTC); None stays None."""
    if moment is None:
        return None
    if not isinstance(moment, datetime):
        raise InvalidTimeError(f"{what} must be a datetime, got {moment!r}")
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

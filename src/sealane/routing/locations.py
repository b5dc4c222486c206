"""Where a route starts and ends: a port (by LOCODE, id or object) or a (lon, lat) pair."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import InvalidCoordinateError
from .geodesy import FloatArray
from .ports import Port, get_port

#: A place a route can start or end: a LOCODE or port id, a Port, or a (lon, lat) pair.
LocationLike = str | Port | Sequence[float] | FloatArray


@dataclass(frozen=True, slots=True)
class Location:
    """A resolved route end: (lon, lat) in degrees and the port it names, if any."""

    lon: float
    lat: float
    port: Port | None = None

    @property
    def coordinates(self) -> tuple[float, float]:
        """(lon, lat) in degrees."""
        return (self.lon, self.lat)


def resolve_location(value: LocationLike, what: str = "location") -> Location:
    """A :class:`Location` from a LOCODE, port id, :class:`Port` or (lon, lat) pair.

    >>> resolve_location((4.0, 52.0)) == resolve_location([4.0, 52.0])
    True
    """
    if isinstance(value, Port):
        return Location(value.lon, value.lat, value)
    if isinstance(value, str):
        return _port_location(value)
    try:
        items = list(value)
        if len(items) != 2 or not all(_is_number(item) for item in items):
            raise ValueError
    except (TypeError, ValueError):
        raise InvalidCoordinateError(
            f"{what} must be a UN/LOCODE, a port id or a (lon, lat) pair, got {value!r}"
        ) from None
    lon, lat = float(items[0]), float(items[1])
    if not (math.isfinite(lon) and -180.0 <= lon <= 180.0):
        raise InvalidCoordinateError(f"{what} longitude {lon!r} is not within [-180, 180]")
    if not (math.isfinite(lat) and -90.0 <= lat <= 90.0):
        raise InvalidCoordinateError(f"{what} latitude {lat!r} is not within [-90, 90]")
    return Location(-180.0 if lon == 180.0 else lon, lat)


@lru_cache(maxsize=4096)
def _port_location(key: str) -> Location:
    """The location of the port a LOCODE or id names (remembered; an unknown key raises
    :class:`~.errors.UnknownPortError` every time)."""
    port = get_port(key)
    return Location(port.lon, port.lat, port)


def _is_number(value: object) -> bool:
    """A real number that is not a bool or a string (numpy scalars count)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)

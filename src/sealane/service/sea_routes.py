"""Route planning: the shortest sea route between two ports or points, with its distance, its
duration at a speed on the speed profile and the passages it sails (the MCP ``plan_sea_route``
tool), and the options side by side (the ``sea_route_options`` endpoint and MCP tool).

Part of the paid routing feature: the shell checks the caller's feature before calling (the
account knows it; this use case needs no database). Engine errors (an unknown port or passage,
no way through) are raised as :class:`~.core.errors.CannotRoute` with the engine's ``code``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..routing.geodesy import METRES_PER_NM, segment_lengths_m
from ..routing.options import RouteOption, route_options
from ..routing.routes import Route, route
from ..routing.vessel import Vessel
from ..routing.voyage import DEFAULT_SPEED_KN
from .core.engine import MAX_SPEED_KN, NO_SIZE, NO_VESSEL, VesselSize, engine_errors
from .core.errors import InvalidInput

Place = str | tuple[float, float]


@dataclass(frozen=True, slots=True)
class SeaRoutePlan:
    """A planned route and its duration in hours at ``speed_kn`` knots."""

    route: Route
    speed_kn: float
    duration_h: float
    avoided: tuple[str, ...]
    #: The dimensions the route was computed for (none given: the engine's default vessel).
    size: VesselSize = NO_SIZE


def plan_sea_route(
    origin: Place,
    destination: Place,
    *,
    avoid: Sequence[str] = (),
    via: Sequence[Place] = (),
    speed_kn: float | None = None,
    vessel: Vessel = NO_VESSEL,
) -> SeaRoutePlan:
    """The shortest route from ``origin`` to ``destination`` (a LOCODE, port id or (lon, lat)
    in degrees) through ``via`` (ports, points or passages to sail, in order), avoiding the
    named passages and those ``vessel`` (the caller's, checked by the shell:
    :func:`~.core.engine.given_vessel`) does not fit, timed on the speed profile at
    ``speed_kn`` (14 kn when None); blocking (CPU)."""
    speed = _speed(speed_kn)
    names = _names(avoid)
    with engine_errors():
        found = route(origin, destination, avoid=names, via=tuple(via), vessel=vessel)
    return SeaRoutePlan(found, speed, found.duration_h(speed), names, VesselSize.given(vessel))


@dataclass(frozen=True, slots=True)
class SeaRouteOptions:
    """The ways between two places, fastest first, at ``speed_kn`` in open water."""

    options: tuple[RouteOption, ...]
    speed_kn: float
    avoided: tuple[str, ...]
    size: VesselSize = NO_SIZE


def sea_route_options(
    origin: Place,
    destination: Place,
    *,
    avoid: Sequence[str] = (),
    speed_kn: float | None = None,
    vessel: Vessel = NO_VESSEL,
) -> SeaRouteOptions:
    """The shortest route and the best avoiding each major passage on the way (Suez or the
    Cape, Panama or Magellan, Malacca or Lombok), each with its time on the speed profile,
    fastest first (:func:`~sealane.routing.options.route_options`); blocking (CPU). Errors as
    :func:`plan_sea_route`."""
    speed = _speed(speed_kn)
    names = _names(avoid)
    with engine_errors():
        found = route_options(origin, destination, speed_kn=speed, avoid=names, vessel=vessel)
    return SeaRouteOptions(tuple(found), speed, names, VesselSize.given(vessel))


def _speed(speed_kn: float | None) -> float:
    """The speed asked for (14 kn when None), checked."""
    speed = DEFAULT_SPEED_KN if speed_kn is None else speed_kn
    if not (math.isfinite(speed) and 0 < speed <= MAX_SPEED_KN):
        raise InvalidInput(
            f"speed_kn must be above 0 and at most {MAX_SPEED_KN:g} knots, got {speed_kn!r}",
            field="speed_kn",
        )
    return float(speed)


def _names(avoid: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name.strip().lower() for name in avoid))


def track_length_nm(lons: Sequence[float], lats: Sequence[float]) -> float:
    """The length in nautical miles of the track through the points (lon, lat in degrees), along
    the geodesic between each point and the next (a vessel's estimated positions, say).

    >>> round(track_length_nm([0.0, 1.0], [0.0, 0.0]), 1)
    60.1
    """
    lengths = segment_lengths_m(np.asarray(lons, dtype=float), np.asarray(lats, dtype=float))
    return float(lengths.sum()) / METRES_PER_NM

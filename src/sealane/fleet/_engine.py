"""The fleet's one seam into the engine: legs shared by a port pair, and many starts projected
onto a leg at once.

A vessel's remaining route is the engine's (:mod:`sealane.routing.voyage`): its start moved to
sea, projected onto the previous port -> destination port leg, and the leg's tail sailed from
there. For one vessel the engine projects with one small numpy call per quantity over the whole
leg; here the rows of a port pair are projected together, with every operation that decides the
result's bits done as the engine does it (one ``normal @ point`` product per row, elementwise
arithmetic, the scalar :func:`~sealane.routing.geodesy.unit_vector` and
:func:`~sealane.routing.geodesy.lonlat_of`), so each projected point is the engine's to the last
bit. The engine internals used are imported here only.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import sealane
from sealane.routing.eta_range import eta_model
from sealane.routing.geodesy import (
    GEOD,
    MEAN_EARTH_RADIUS_M,
    METRES_PER_NM,
    FloatArray,
    arc_normals,
    lonlat_of,
    unit_vector,
    unit_vectors,
)
from sealane.routing.landmask import default_landmask
from sealane.routing.legs import ZERO_LENGTH_M
from sealane.routing.passages import names_from_mask
from sealane.routing.placement import (
    MIN_SEGMENT_M,
    kept_vertices,
    place_steps_on_profile,
    plan_runs,
)
from sealane.routing.port_limits import check_port_draft
from sealane.routing.routes import check_sea_approach
from sealane.routing.runs import Runs
from sealane.routing.speeds import (
    WAIT_SKIP_M,
    end_intervals,
    end_zones,
    overlaps,
    passage_zones,
    waits,
    zone_lengths,
    zone_table,
)
from sealane.routing.voyage import DEFAULT_SPEED_KN, OFF_PATH_NM, _at_sea, remaining_route

#: Vessel dimension columns, in metres, passed on to the engine.
DIMENSIONS = ("draft_m", "beam_m", "length_m")

__all__ = [
    "DEFAULT_SPEED_KN", "DIMENSIONS", "GEOD", "METRES_PER_NM", "MIN_SEGMENT_M", "OFF_PATH_NM",
    "WAIT_SKIP_M", "ZERO_LENGTH_M", "FloatArray", "Leg", "Runs", "at_sea", "check_port_draft",
    "check_sea_approach", "end_intervals", "end_zones", "kept_vertices", "leg", "overlaps",
    "passage_zones", "place_steps_on_profile", "plan_runs", "project", "remaining_route",
    "waits", "zone_lengths", "zone_table",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Leg:
    """A previous port -> destination port route, ready for many vessels on it.

    ``geod_m`` and ``azimuth_deg`` are pyproj's length and forward azimuth of each segment (what
    the engine measures when it places positions), ``tiny_until`` the index after the last
    segment shorter than the placement's ``MIN_SEGMENT_M`` (0 when none is), and
    ``passages_from[k]`` the passages of the leg's tail from a point on segment ``k``.
    """

    route: sealane.Route
    arcs: tuple[FloatArray, FloatArray, FloatArray]
    geod_m: FloatArray
    azimuth_deg: FloatArray
    tiny_until: int
    passages_from: tuple[tuple[str, ...], ...]
    dimensions: tuple[tuple[str, float], ...]


_LEGS: dict[tuple[Any, ...], Leg] = {}
_LOCK = threading.Lock()
_LOADS = 0


def warm() -> int:
    """Load the engine's network, land mask and ports once in this process (under a lock, so
    threads of one worker do not load them twice); returns how many times this process did."""
    global _LOADS
    with _LOCK:
        if _LOADS == 0:
            sealane.route("NLRTM", "BEANR")  # loads the graph and its hierarchy
            default_landmask()
            sealane.routing.registry().nearest(0.0, 0.0)
            _LOADS += 1
    return _LOADS


def load_count() -> int:
    """How many times :func:`warm` loaded the engine in this process (1 once warm)."""
    return _LOADS


def leg(
    previous: tuple[float, float],
    destination: tuple[float, float],
    dimensions: tuple[tuple[str, float], ...],
) -> Leg:
    """The leg between two ports' coordinates for a vessel of these dimensions, made once per
    process (the engine's ``_leg``: the route between the coordinates, not the ports)."""
    key = (previous, destination, dimensions)
    found = _LEGS.get(key)
    if found is None:
        route = route_for(previous, destination, dimensions)
        coords = route.coordinates
        a = unit_vectors(coords[:-1, 0], coords[:-1, 1])
        b = unit_vectors(coords[1:, 0], coords[1:, 1])
        azimuth, _, geod = GEOD.inv(coords[:-1, 0], coords[:-1, 1], coords[1:, 0], coords[1:, 1])
        tiny = np.flatnonzero(route.segment_m <= MIN_SEGMENT_M)
        found = Leg(
            route,
            (a, b, arc_normals(a, b)),
            np.asarray(geod, dtype=np.float64),
            np.asarray(azimuth, dtype=np.float64),
            int(tiny[-1]) + 1 if tiny.size else 0,
            _passages_from(route),
            dimensions,
        )
        _LEGS[key] = found
    return found


def _passages_from(route: sealane.Route) -> tuple[tuple[str, ...], ...]:
    """For each segment ``k``, the passages of the route from there on, in the order they are
    first reached (``Route.passages`` of each tail), in one pass from the end."""
    found: list[tuple[str, ...]] = []
    after: tuple[str, ...] = ()
    for mask in reversed(route.segment_passages.tolist()):
        here = names_from_mask(mask, route.passage_names)
        after = (*here, *(name for name in after if name not in here))
        found.append(after)
    return tuple(reversed(found))


def route_for(
    origin: tuple[float, float],
    destination: tuple[float, float],
    dimensions: tuple[tuple[str, float], ...],
) -> sealane.Route:
    """``sealane.route`` between two points for the vessel of these (known) dimensions, made
    into one :class:`sealane.Vessel` here (once per leg: legs are kept)."""
    size: dict[str, Any] = dict(dimensions)
    return sealane.route(origin, destination, vessel=sealane.Vessel(**size))


@dataclass(frozen=True, slots=True)
class Projection:
    """Where each start meets its leg: segment index, point (lon, lat) and whether it lies
    within the off-path distance (``False``: the engine routes that start on its own)."""

    segment: npt.NDArray[np.int64]
    lons: FloatArray
    lats: FloatArray
    on_leg: npt.NDArray[np.bool_]


def project(leg: Leg, lons: FloatArray, lats: FloatArray) -> Projection:
    """The engine's ``voyage._projection`` of every start (lon, lat) onto ``leg`` at once."""
    a, b, normal = leg.arcs
    points = np.array(
        [unit_vector(lon, lat) for lon, lat in zip(lons.tolist(), lats.tolist(), strict=True)]
    )
    points = points.reshape(-1, 3)
    sin_cross = np.array([normal @ p for p in points]).reshape(points.shape[0], -1)
    projected = points[:, None, :] - sin_cross[:, :, None] * normal[None]
    norm = np.sqrt(np.einsum("rij,rij->ri", projected, projected))
    projected /= np.where(norm > 0, norm, 1.0)[:, :, None]
    inside = (
        (_triple(a[None], projected, normal[None]) >= 0)
        & (_triple(projected, b[None], normal[None]) >= 0)
        & (norm > 1e-12)
    )
    to_a, to_b = a[None] - points[:, None, :], b[None] - points[:, None, :]
    chord_a = np.sqrt(np.einsum("rij,rij->ri", to_a, to_a))
    chord_b = np.sqrt(np.einsum("rij,rij->ri", to_b, to_b))
    across = np.arcsin(np.minimum(np.abs(sin_cross), 1.0))
    to_end = 2.0 * np.arcsin(np.minimum(np.minimum(chord_a, chord_b) / 2.0, 1.0))
    angle = np.where(inside, across, to_end)
    segment = np.argmin(angle, axis=1)
    rows = np.arange(points.shape[0])
    nearest = np.where(
        inside[rows, segment][:, None],
        projected[rows, segment],
        np.where((chord_a <= chord_b)[rows, segment][:, None], a[segment], b[segment]),
    )
    at = [lonlat_of(point) for point in nearest]
    out_lons = np.array([p[0] for p in at], dtype=np.float64)
    out_lats = np.array([p[1] for p in at], dtype=np.float64)
    on_leg = angle[rows, segment] * MEAN_EARTH_RADIUS_M <= OFF_PATH_NM * METRES_PER_NM
    return Projection(segment.astype(np.int64), out_lons, out_lats, on_leg)


def _triple(x: FloatArray, y: FloatArray, n: FloatArray) -> FloatArray:
    """(x cross y) . n over the last axis, written as ``geodesy._triple`` writes it."""
    return np.asarray(
        (x[..., 1] * y[..., 2] - x[..., 2] * y[..., 1]) * n[..., 0]
        + (x[..., 2] * y[..., 0] - x[..., 0] * y[..., 2]) * n[..., 1]
        + (x[..., 0] * y[..., 1] - x[..., 1] * y[..., 0]) * n[..., 2]
    )


def on_land(lons: FloatArray, lats: FloatArray) -> npt.NDArray[np.bool_]:
    """Whether each point falls in a land cell of the engine's mask (``LandMask.land_at``)."""
    return default_landmask().land_at(lons, lats)


def at_sea(lon: float, lat: float) -> tuple[float, float]:
    """The engine's start at sea for a point in a land cell (moved to the nearest sea, kept near
    a port); raises the engine's ``OnLandError`` when far inland."""
    moved = _at_sea(sealane.Location(lon, lat))
    return moved.lon, moved.lat


def eta_offsets_s(
    seconds: FloatArray, distance_nm: FloatArray, passages: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The ETA range's P10 and P90 as seconds from each row's time, for predicted times to go of
    ``seconds`` over ``distance_nm`` with ``passages`` passages (no observed speed: its spread
    unknown), by the engine's model (``sealane.Positions.eta_range``)."""
    unknown = np.full(seconds.size, np.nan)
    return eta_model().offsets_s(seconds, np.nan_to_num(distance_nm), passages, unknown)

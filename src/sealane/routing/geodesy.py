"""WGS84 geodesy for the engine: distances, azimuths, unit vectors and antimeridian handling.

Coordinates are (lon, lat) in degrees everywhere. Ellipsoidal quantities (lengths, azimuths) come
from :class:`pyproj.Geod` on WGS84; unit vectors on the sphere are used only for fast candidate
search and lower bounds, never for a reported distance.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING, Any, Final, cast

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pyproj import Geod

FloatArray = npt.NDArray[np.float64]


@cache
def wgs84() -> Geod:
    """pyproj's geodesic calculator on WGS84, made on first use: importing pyproj costs about as
    much again as numpy, and ``import sealane`` should not pay that before it is needed."""
    from pyproj import Geod

    return Geod(ellps="WGS84")


class _LazyGeod:
    """Stands for :func:`wgs84`'s ``Geod`` until an attribute of it is first asked for."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        return getattr(wgs84(), name)


#: The WGS84 ``Geod`` (``GEOD.inv``, ``GEOD.fwd``, ...), importing pyproj on first use.
GEOD: Final = cast("Geod", _LazyGeod())
METRES_PER_NM: Final = 1852.0
METRES_PER_KM: Final = 1000.0
SECONDS_PER_HOUR: Final = 3600.0
#: WGS84's mean radius (IUGG's R1 = (2a + b) / 3), in metres: the radius of the sphere on which
#: the engine and its build measure spherical approximations (search radii, off-path tests,
#: snapping distances); reported lengths are ellipsoidal, from :data:`GEOD`.
MEAN_EARTH_RADIUS_M: Final = 6_371_008.8
#: Smallest radius of curvature of WGS84 (the meridional radius at the equator), in metres, shrunk
#: by 1 %: ``LOWER_BOUND_RADIUS_M * central_angle`` never exceeds the geodesic length.
LOWER_BOUND_RADIUS_M: Final = 6_335_439.0 * 0.99


def normalize_lon(lon_deg: npt.ArrayLike) -> FloatArray:
    """Longitudes wrapped into [-180, 180).

    >>> normalize_lon([180.0, 241.8, -180.0]).tolist()
    [-180.0, -118.19999999999999, -180.0]
    """
    lon = np.asarray(lon_deg, dtype=np.float64)
    return np.asarray(((lon + 180.0) % 360.0) - 180.0, dtype=np.float64)


def unit_vectors(lon_deg: npt.ArrayLike, lat_deg: npt.ArrayLike) -> FloatArray:
    """Points as (N, 3) unit vectors on the sphere, for nearest-neighbour and lower-bound work."""
    lon = np.radians(np.asarray(lon_deg, dtype=np.float64))
    lat = np.radians(np.asarray(lat_deg, dtype=np.float64))
    cos_lat = np.cos(lat)
    return np.stack([cos_lat * np.cos(lon), cos_lat * np.sin(lon), np.sin(lat)], axis=-1)


def unit_vector(lon_deg: float, lat_deg: float) -> FloatArray:
    """One point as a unit vector (the scalar fast path of :func:`unit_vectors`)."""
    lon, lat = math.radians(lon_deg), math.radians(lat_deg)
    cos_lat = math.cos(lat)
    return np.array([cos_lat * math.cos(lon), cos_lat * math.sin(lon), math.sin(lat)])


def from_unit_vectors(xyz: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Inverse of :func:`unit_vectors`: (lon, lat) in degrees, lon in [-180, 180)."""
    lon = np.degrees(np.arctan2(xyz[..., 1], xyz[..., 0]))
    lat = np.degrees(np.arcsin(np.clip(xyz[..., 2], -1.0, 1.0)))
    return normalize_lon(lon), np.asarray(lat, dtype=np.float64)


def segment_lengths_m(lon_deg: FloatArray, lat_deg: FloatArray) -> FloatArray:
    """Geodesic length in metres of each segment of a polyline (N points -> N - 1 lengths).

    >>> round(float(segment_lengths_m(np.array([0.0, 1.0]), np.array([0.0, 0.0]))[0]))
    111319
    """
    if lon_deg.size < 2:
        return np.zeros(0)
    _, _, dist = GEOD.inv(lon_deg[:-1], lat_deg[:-1], lon_deg[1:], lat_deg[1:])
    return np.asarray(dist, dtype=np.float64)


def lengths_between_m(
    lon1: FloatArray, lat1: FloatArray, lon2: FloatArray, lat2: FloatArray
) -> FloatArray:
    """Geodesic length in metres from each point of the first arrays to the same row of the
    second (edges given by their two ends)."""
    _, _, dist = GEOD.inv(lon1, lat1, lon2, lat2)
    return np.atleast_1d(np.asarray(dist, dtype=np.float64))


def distance_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Geodesic distance in metres between two points on WGS84.

    Vincenty's method in C (``_geodesic.c``; within a tenth of a millimetre of pyproj's
    GeographicLib), and pyproj for the nearly antipodal points where it does not converge or
    where the extension was not built.

    >>> round(distance_m(0.0, 0.0, 1.0, 0.0), 3), round(distance_m(0.0, 0.0, 180.0, 0.0))
    (111319.491, 20003931)
    """
    found = _inverse_m(lon1, lat1, lon2, lat2)
    if math.isnan(found):
        _, _, dist = GEOD.inv(lon1, lat1, lon2, lat2)
        return float(dist)
    return found


def _pyproj_inverse_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    return math.nan  # no compiled kernel: distance_m asks pyproj


try:
    from ._geodesic import inverse_m as _inverse_m
except ImportError:  # pragma: no cover - only where no compiler was available
    _inverse_m = _pyproj_inverse_m


#: Longest straight step of a drawn line (GeoJSON, maps), metres: a longer geodesic segment gets
#: intermediate points, because a reader joins two positions by a straight line in lon/lat.
DRAWN_STEP_M: Final = 100_000.0


def densify(
    lon_deg: FloatArray, lat_deg: FloatArray, max_step_m: float = DRAWN_STEP_M
) -> tuple[FloatArray, FloatArray]:
    """A path with points added on its geodesic segments so that none is longer than
    ``max_step_m``: the path as drawn then follows the geodesic the lengths measure.

    Every original point is kept, in order; a path without long segments comes back unchanged.
    """
    if lon_deg.size < 2:
        return lon_deg, lat_deg
    lengths = segment_lengths_m(lon_deg, lat_deg)
    long = np.flatnonzero(lengths > max_step_m)
    if long.size == 0:
        return lon_deg, lat_deg
    lons: list[FloatArray] = []
    lats: list[FloatArray] = []
    start = 0
    for k in long.tolist():
        lons.append(lon_deg[start : k + 1])
        lats.append(lat_deg[start : k + 1])
        count = math.ceil(lengths[k] / max_step_m) - 1
        points = GEOD.npts(lon_deg[k], lat_deg[k], lon_deg[k + 1], lat_deg[k + 1], count)
        middle = np.array(points, dtype=np.float64).reshape(-1, 2)
        lons.append(normalize_lon(middle[:, 0]))
        lats.append(middle[:, 1])
        start = k + 1
    lons.append(lon_deg[start:])
    lats.append(lat_deg[start:])
    return np.concatenate(lons), np.concatenate(lats)


def drawn_parts(lon_deg: FloatArray, lat_deg: FloatArray) -> list[list[list[float]]]:
    """A geodesic path as the line parts a map or GeoJSON reader should draw: densified
    (:func:`densify`) and cut at the antimeridian (:func:`split_at_antimeridian`)."""
    return split_at_antimeridian(*densify(lon_deg, lat_deg))


def unwrap_lons(lon_deg: FloatArray) -> FloatArray:
    """Longitudes made continuous along a path: no step larger than 180 degrees, may pass +-180.

    Each longitude moves by a whole number of turns only, so untouched values stay exact.

    >>> unwrap_lons(np.array([170.0, -170.0, 175.0])).tolist()
    [170.0, 190.0, 175.0]
    """
    if lon_deg.size == 0:
        return lon_deg.copy()
    steps = np.diff(lon_deg)
    wrapped = ((steps + 180.0) % 360.0) - 180.0
    turns = np.concatenate([[0.0], np.cumsum(np.round((wrapped - steps) / 360.0))])
    return np.asarray(lon_deg + 360.0 * turns, dtype=np.float64)


def split_at_antimeridian(lon_deg: FloatArray, lat_deg: FloatArray) -> list[list[list[float]]]:
    """A path cut into parts that never cross +-180 (RFC 7946 section 3.1.9), lons in [-180, 180].

    The crossing latitude is interpolated linearly in (lon, lat); each part ends or starts on the
    meridian, +180 on the eastern side and -180 on the western side. Repeated points and parts
    of no length are dropped.
    """
    lons = unwrap_lons(lon_deg)
    parts: list[list[list[float]]] = []
    shift = np.floor((lons + 180.0) / 360.0)
    current: list[list[float]] = [[float(lons[0] - 360.0 * shift[0]), float(lat_deg[0])]]
    for i in range(1, lons.size):
        if shift[i] != shift[i - 1]:
            going_east = shift[i] > shift[i - 1]
            boundary = 360.0 * max(shift[i], shift[i - 1]) - 180.0
            frac = (boundary - lons[i - 1]) / (lons[i] - lons[i - 1])
            lat_cross = float(lat_deg[i - 1] + frac * (lat_deg[i] - lat_deg[i - 1]))
            current.append([180.0 if going_east else -180.0, lat_cross])
            parts.append(current)
            current = [[-180.0 if going_east else 180.0, lat_cross]]
        current.append([float(lons[i] - 360.0 * shift[i]), float(lat_deg[i])])
    parts.append(current)
    cleaned = [_without_repeats(part) for part in parts]
    return [part for part in cleaned if len(part) >= 2] or [cleaned[0] * 2]


def _without_repeats(part: list[list[float]]) -> list[list[float]]:
    """The points of ``part`` with consecutive duplicates (within 1e-9 degree) removed."""
    kept = [part[0]]
    for point in part[1:]:
        if abs(point[0] - kept[-1][0]) > 1e-9 or abs(point[1] - kept[-1][1]) > 1e-9:
            kept.append(point)
    return kept


def arc_normals(a: FloatArray, b: FloatArray) -> FloatArray:
    """Unit normals of the great circles through rows of ``a`` and ``b`` (unit vectors)."""
    normal = np.cross(a, b)
    norm = np.sqrt(np.einsum("ij,ij->i", normal, normal))
    return np.asarray(normal / np.where(norm > 0, norm, 1.0)[:, None], dtype=np.float64)


def nearest_on_arcs(
    point: FloatArray, a: FloatArray, b: FloatArray, normal: FloatArray
) -> tuple[int, float, FloatArray]:
    """Index of the arc (a[i] -> b[i]) nearest ``point``, the angle (rad) and the nearest point.

    The point is projected on each arc's great circle; the projection counts only when it falls
    between the arc's ends, otherwise the nearer end is the nearest point. All inputs are unit
    vectors, ``normal`` from :func:`arc_normals`.
    """
    sin_cross = normal @ point
    projected = point - sin_cross[:, None] * normal
    norm = np.sqrt(np.einsum("ij,ij->i", projected, projected))
    projected /= np.where(norm > 0, norm, 1.0)[:, None]
    # Between the ends: a x p and p x b both point along the normal (triple products >= 0).
    inside = (
        (_triple(a, projected, normal) >= 0) & (_triple(projected, b, normal) >= 0) & (norm > 1e-12)
    )
    chord_a = np.sqrt(np.einsum("ij,ij->i", a - point, a - point))
    chord_b = np.sqrt(np.einsum("ij,ij->i", b - point, b - point))
    across = np.arcsin(np.minimum(np.abs(sin_cross), 1.0))
    to_end = 2.0 * np.arcsin(np.minimum(np.minimum(chord_a, chord_b) / 2.0, 1.0))
    angle = np.where(inside, across, to_end)
    i = int(np.argmin(angle))
    end = a[i] if chord_a[i] <= chord_b[i] else b[i]
    return i, float(angle[i]), projected[i] if inside[i] else end


def _triple(x: FloatArray, y: FloatArray, n: FloatArray) -> FloatArray:
    """Row-wise (x cross y) . n without numpy's generic cross machinery."""
    return np.asarray(
        (x[:, 1] * y[:, 2] - x[:, 2] * y[:, 1]) * n[:, 0]
        + (x[:, 2] * y[:, 0] - x[:, 0] * y[:, 2]) * n[:, 1]
        + (x[:, 0] * y[:, 1] - x[:, 1] * y[:, 0]) * n[:, 2]
    )


def lonlat_of(xyz: FloatArray) -> tuple[float, float]:
    """(lon, lat) in degrees of one unit vector, lon in [-180, 180)."""
    lon = math.degrees(math.atan2(float(xyz[1]), float(xyz[0])))
    lat = math.degrees(math.asin(min(1.0, max(-1.0, float(xyz[2])))))
    return (-180.0 if lon >= 180.0 else lon), lat

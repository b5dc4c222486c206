"""The coastline the offline build tests the network against: GSHHG at full resolution.

Land/sea comes from ``roaring-landmask`` (GSHHG 2.3.7 full-resolution shoreline, level 1, held as
a 15 arc-second raster whose positive cells are checked against the shoreline polygons). Its
raster alone is a conservative "maybe land" mask: a cell it calls water holds no land at all, so
paths kept on such cells keep a margin of up to one cell (about 460 m) from the shore.
Build-time only (``build`` extra); the engine never imports this module.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..geodesy import GEOD, FloatArray, normalize_lon

BoolArray = npt.NDArray[np.bool_]
#: Cell size of the roaring-landmask raster, degrees (15 arc-seconds).
RASTER_DEG = 1.0 / 240.0


class Coastline:
    """Vectorised land tests on the GSHHG full-resolution shoreline (lakes count as land)."""

    def __init__(self) -> None:
        from roaring_landmask import RoaringLandmask

        self._exact: Any = RoaringLandmask.new()
        self._raster: Any = self._exact.mask

    def is_land(self, lon_deg: npt.ArrayLike, lat_deg: npt.ArrayLike) -> BoolArray:
        """Whether each point lies on land, by the shoreline polygons."""
        lon, lat = _prepared(lon_deg, lat_deg)
        if lon.size == 0:
            return np.zeros(0, dtype=bool)
        return np.asarray(self._exact.contains_many_par(lon, lat), dtype=bool)

    def maybe_land(self, lon_deg: npt.ArrayLike, lat_deg: npt.ArrayLike) -> BoolArray:
        """Whether each point falls in a raster cell that holds any land (a superset of land)."""
        lon, lat = _prepared(lon_deg, lat_deg)
        if lon.size == 0:
            return np.zeros(0, dtype=bool)
        return np.asarray(self._raster.contains_many_par(lon, lat), dtype=bool)


def _prepared(lon_deg: npt.ArrayLike, lat_deg: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Contiguous float64 copies, longitudes in [-180, 180), latitudes clipped to the poles."""
    lon = np.ascontiguousarray(normalize_lon(np.ravel(lon_deg)), dtype=np.float64)
    lat = np.ascontiguousarray(np.clip(np.ravel(lat_deg), -89.999, 89.999), dtype=np.float64)
    return lon, lat


@cache
def coastline() -> Coastline:
    """The coastline, loaded once per process (decompressing it takes about ten seconds)."""
    return Coastline()


def sample_geodesics(
    lon1: FloatArray, lat1: FloatArray, lon2: FloatArray, lat2: FloatArray, spacing_m: float
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64], FloatArray]:
    """Points along each geodesic segment at most ``spacing_m`` apart, both ends included.

    Returns the points' lon, lat, the index of the segment each belongs to and its distance from
    that segment's start, in metres.
    """
    az, _, length = GEOD.inv(lon1, lat1, lon2, lat2)
    length = np.atleast_1d(np.asarray(length, dtype=np.float64))
    az = np.atleast_1d(np.asarray(az, dtype=np.float64))
    counts = np.maximum(np.ceil(length / spacing_m).astype(np.int64), 1) + 1
    segment = np.repeat(np.arange(length.size), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    along = (np.arange(segment.size) - starts) / (counts[segment] - 1) * length[segment]
    lon, lat, _ = GEOD.fwd(
        np.atleast_1d(lon1)[segment], np.atleast_1d(lat1)[segment], az[segment], along
    )
    return normalize_lon(lon), np.asarray(lat, dtype=np.float64), segment, along


def polyline_is_clear(
    coast: Coastline, lon: FloatArray, lat: FloatArray, spacing_m: float, *, strict: bool
) -> bool:
    """Whether a polyline stays on water: ``strict`` asks for raster water (with its margin)."""
    if lon.size < 2:
        return not bool(coast.is_land(lon, lat).any())
    s_lon, s_lat, _, _ = sample_geodesics(lon[:-1], lat[:-1], lon[1:], lat[1:], spacing_m)
    test = coast.maybe_land if strict else coast.is_land
    return not bool(test(s_lon, s_lat).any())

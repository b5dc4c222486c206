"""Shapely geometries of routes and positions, for analysts, and the import of the optional
libraries (the GeoPandas frames of itineraries are :mod:`.frames`).

shapely and geopandas come with the optional ``geo`` extra (``pip install 'sealane[geo]'``) and are
imported only when a geometry or a frame is made, so ``import sealane`` stays light. Lines are cut
at the antimeridian as in the GeoJSON output: a LineString, or a MultiLineString when a line
crosses. Frames are in WGS84 longitude/latitude (EPSG:4326).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .geodesy import FloatArray, drawn_parts

if TYPE_CHECKING:
    from shapely.geometry import LineString, MultiLineString

#: Coordinate reference system of every frame: WGS84 longitude/latitude in degrees.
CRS = "EPSG:4326"


def require(module: str) -> Any:
    """Import an optional dependency, saying which extra brings it when it is missing."""
    try:
        return import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{module} is needed for this; install it with pip install 'sealane[geo]'"
        ) from error


def lines_to_shapely(lons: FloatArray, lats: FloatArray) -> LineString | MultiLineString:
    """A path as a shapely LineString, or a MultiLineString of its parts when it crosses the
    antimeridian (longitudes in [-180, 180]).

    >>> import numpy as np
    >>> lines_to_shapely(np.array([170.0, -170.0]), np.array([0.0, 0.0])).geom_type
    'MultiLineString'
    """
    geometry = require("shapely.geometry")
    parts = drawn_parts(lons, lats)
    if len(parts) == 1:
        return geometry.LineString(parts[0])
    return geometry.MultiLineString(parts)

"""Shapely geometries and GeoPandas frames of routes, positions and itineraries, for analysts.

shapely and geopandas come with the optional ``geo`` extra (``pip install 'sealane[geo]'``) and are
imported only when one of these functions runs, so ``import sealane`` stays light. Lines are cut at
the antimeridian as in the GeoJSON output: a LineString, or a MultiLineString when a line crosses.
Frames are in WGS84 longitude/latitude (EPSG:4326).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .geodesy import FloatArray, drawn_parts

if TYPE_CHECKING:
    import geopandas
    from shapely.geometry import LineString, MultiLineString

    from .itinerary import Leg
    from .progress import Progress

#: Coordinate reference system of every frame: WGS84 longitude/latitude in degrees.
CRS = "EPSG:4326"


def _require(module: str) -> Any:
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
    geometry = _require("shapely.geometry")
    parts = drawn_parts(lons, lats)
    if len(parts) == 1:
        return geometry.LineString(parts[0])
    return geometry.MultiLineString(parts)


def legs_frame(legs: tuple[Leg, ...]) -> geopandas.GeoDataFrame:
    """One row per leg: sequence, ports, distance, speed, hours, times and the route."""
    rows = [
        {
            "sequence": leg.sequence,
            "origin": leg.origin.locode,
            "destination": leg.destination.locode,
            "distance_nm": leg.distance_nm,
            "speed_kn": leg.speed_kn,
            "duration_h": leg.duration_h,
            "departure_at": leg.departure_at,
            "arrival_at": leg.arrival_at,
            "passages": ", ".join(leg.route.passages),
            "geometry": leg.route.to_shapely(),
        }
        for leg in legs
    ]
    return _frame(rows)


def progress_frame(progress: Progress) -> geopandas.GeoDataFrame:
    """One row per piece of the map: ``past_vessel_locations`` (legs sailed and the part of
    the current leg behind the vessel), ``estimated_partial_leg`` and ``estimated_full_legs``."""
    rows: list[dict[str, Any]] = []
    for leg in progress.completed:
        rows.append(_piece("past_vessel_locations", leg, leg.route.to_shapely()))
    underway = progress.underway
    if underway is not None:
        rows.append(_piece("past_vessel_locations", underway.leg, underway.sailed.to_shapely()))
        rows.append(_piece("estimated_partial_leg", underway.leg, underway.remaining.to_shapely()))
    for leg in progress.upcoming:
        rows.append(_piece("estimated_full_legs", leg, leg.route.to_shapely()))
    return _frame(rows)


def _piece(kind: str, leg: Leg, geometry: Any) -> dict[str, Any]:
    return {
        "feature_type": kind,
        "ports_sequence": leg.sequence,
        "origin": leg.origin.locode,
        "destination": leg.destination.locode,
        "geometry": geometry,
    }


def _frame(rows: list[dict[str, Any]]) -> geopandas.GeoDataFrame:
    gpd = _require("geopandas")
    frame: geopandas.GeoDataFrame = gpd.GeoDataFrame(rows, geometry="geometry", crs=CRS)
    return frame

"""GeoPandas frames of itineraries and their progress, for analysts (the ``geo`` extra, imported
only when a frame is made, as in :mod:`.interop`). Frames are in WGS84 longitude/latitude."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .interop import CRS, require

if TYPE_CHECKING:
    import geopandas

    from .itinerary_parts import Leg, Snapshot


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


def progress_frame(progress: Snapshot) -> geopandas.GeoDataFrame:
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
    gpd = require("geopandas")
    frame: geopandas.GeoDataFrame = gpd.GeoDataFrame(rows, geometry="geometry", crs=CRS)
    return frame

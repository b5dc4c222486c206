"""Sea route options -> JSON:API resources (``GET /v2/sea_route_options``): each option's
distance, time on the speed profile, passages and path."""

from __future__ import annotations

from typing import Any

from ..routing.locations import Location
from ..service.sea_routes import SeaRouteOptions
from .objects import resource


def sea_route_options_document(found: SeaRouteOptions, self_link: str) -> dict[str, Any]:
    """The options, fastest first, as ``sea_route_option`` resources; ``meta`` has the ends,
    the speed in open water, what every option avoids and the vessel's dimensions."""
    data = [
        resource(
            "sea_route_option",
            str(rank),
            {
                "rank": rank,
                "option": option.label,
                "avoided": list(option.avoided),
                "distance_nm": round(option.distance_nm, 1),
                "distance_km": round(option.route.distance_km, 1),
                "duration_h": round(option.duration_h, 2),
                "duration_days": round(option.duration_h / 24.0, 2),
                "passages": list(option.passages),
                "geometry": option.route.to_geojson()["geometry"],
            },
        )
        for rank, option in enumerate(found.options, start=1)
    ]
    first = found.options[0].route
    meta = {
        "origin": _end(first.origin),
        "destination": _end(first.destination),
        "speed_kn": found.speed_kn,
        "avoided": list(found.avoided),
        "vessel_dimensions": found.size.meta(),
        "timing": "on the speed profile: canals, straits, rivers and port approaches at their "
        "speeds, with the expected convoy and booking waits",
    }
    return {"data": data, "links": {"self": self_link}, "meta": meta}


def _end(where: Location) -> dict[str, Any]:
    port = where.port
    return {
        "longitude": round(where.lon, 6),
        "latitude": round(where.lat, 6),
        "locode": port.locode if port else None,
        "name": port.name if port else None,
    }

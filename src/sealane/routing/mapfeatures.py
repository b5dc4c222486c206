"""An itinerary's progress as map features: an RFC 7946 FeatureCollection of Points and LineStrings.

Each feature's ``feature_type`` is one of ``port``, ``past_vessel_locations``, ``current_vessel``,
``estimated_partial_leg`` and ``estimated_full_legs``, with the property names container-tracking
maps use (``ports_sequence``, ``label``, ``inbound_eta_at``, ...). Lines are cut at the antimeridian
into one LineString feature per part, all with the same properties, so a map never draws a line
across the whole world and every geometry is a plain Point or LineString. The engine knows only
estimates: the sailed pieces are the sea-lane route, not a vessel's reported track, and vessel
names and actual times are for the caller to add. Times are ISO 8601 UTC to the second.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .geodesy import drawn_parts

if TYPE_CHECKING:
    from .itinerary_parts import LegUnderway, PortCall, Snapshot
    from .routes import Route


def progress_features(progress: Snapshot) -> dict[str, Any]:
    """The FeatureCollection: each port, then the geometry of the leg that leaves it.

    >>> from sealane.routing.itinerary import itinerary
    >>> features = itinerary(["CNSHA", "NLRTM"]).to_geojson()["features"]
    >>> [(f["geometry"]["type"], f["properties"]["feature_type"]) for f in features]
    [('Point', 'port'), ('LineString', 'estimated_full_legs'), ('Point', 'port')]
    """
    features: list[dict[str, Any]] = []
    total = len(progress.calls)
    for i, call in enumerate(progress.calls):
        features.append(_point(call.port.coordinates, port_properties(call, total)))
        if i == len(progress.legs):
            break
        leg = progress.legs[i]
        if i < progress.sailed:
            features += _lines(leg.route, _past(leg.sequence, leg.departure_at, leg.arrival_at))
        elif i == progress.sailed and progress.underway is not None:
            features += _underway(progress.underway, progress.calls)
        else:
            features += _lines(
                leg.route,
                {
                    "feature_type": "estimated_full_legs",
                    "ports_sequence": leg.sequence,
                    "previous_port_id": leg.origin.id,
                    "next_port_id": leg.destination.id,
                },
            )
    return {"type": "FeatureCollection", "features": features}


def port_properties(call: PortCall, total: int) -> dict[str, Any]:
    """The properties of a port feature (estimated times only)."""
    port = call.port
    return {
        "feature_type": "port",
        "ports_sequence": call.sequence,
        "ports_total": total,
        "location_id": port.id,
        "location_type": "Port",
        "locode": port.locode,
        "name": port.name,
        "country_code": port.country,
        "country": port.country_name,
        "time_zone": port.time_zone,
        "label": call.label,
        "inbound_eta_at": iso(call.arrival_at),
        "outbound_etd_at": iso(call.departure_at),
    }


def _underway(underway: LegUnderway, calls: tuple[PortCall, ...]) -> list[dict[str, Any]]:
    """The sailed part, the vessel and the remaining part of the leg under way."""
    leg = underway.leg
    origin, destination = calls[leg.sequence - 1], calls[leg.sequence]
    vessel = {
        "feature_type": "current_vessel",
        "ports_sequence": leg.sequence,
        "vessel_location_timestamp": iso(underway.at),
        "vessel_location_heading": underway.heading_deg,
        "vessel_location_speed": underway.positions.speed_kn,
        **_port_fields("departure_port", origin),
        **_port_fields("arrival_port", destination),
        "arrival_port_eta": iso(underway.eta),
    }
    partial = {
        "feature_type": "estimated_partial_leg",
        "ports_sequence": leg.sequence,
        "current_port_id": leg.origin.id,
        "next_port_id": leg.destination.id,
    }
    return [
        *_lines(underway.sailed, _past(leg.sequence, leg.departure_at, underway.at)),
        _point((underway.lon, underway.lat), vessel),
        *_lines(underway.remaining, partial),
    ]


def _port_fields(prefix: str, call: PortCall) -> dict[str, Any]:
    port = call.port
    return {
        f"{prefix}_id": port.id,
        f"{prefix}_name": port.name,
        f"{prefix}_country_code": port.country,
        f"{prefix}_country": port.country_name,
        f"{prefix}_label": call.label,
        f"{prefix}_time_zone": port.time_zone,
    }


def _past(sequence: int, start: datetime | None, end: datetime | None) -> dict[str, Any]:
    return {
        "feature_type": "past_vessel_locations",
        "ports_sequence": sequence,
        "start_time": iso(start),
        "end_time": iso(end),
    }


def _lines(route: Route, properties: dict[str, Any]) -> list[dict[str, Any]]:
    """One LineString feature per antimeridian part of ``route``; none for a route of no length."""
    if route.distance_m == 0.0:
        return []
    parts = drawn_parts(route.coordinates[:, 0], route.coordinates[:, 1])
    shared = {**properties, "distance_nm": route.distance_nm}
    return [
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": part},
            "properties": {**shared, "point_count": len(part)},
        }
        for part in parts
    ]


def _point(coordinates: tuple[float, float], properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": list(coordinates)},
        "properties": properties,
    }


def iso(moment: datetime | None) -> str | None:
    """``2026-03-01T00:00:00Z`` (UTC, to the second; years zero-padded to four digits), or None.
    A naive moment is taken to be UTC."""
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds") + "Z"

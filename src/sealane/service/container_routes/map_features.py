"""A container's route as map features: the engine's itinerary with the stored facts laid on.

The engine (:mod:`sealane.routing.mapfeatures`) draws the itinerary through the stored port
calls at the phase the calls' actual times show: not departed, at sea (split at the vessel's
latest position), in port, delivered. Onto that come the facts it cannot know: each port's
estimated and actual times as the carrier and the events gave them, the vessel's identity,
voyage, reported heading and speed, and the track sailed from the vessels' recorded positions
(:mod:`.past_track`). Where the carrier gave no time, the engine's estimate stays.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from ...clock import utc_iso
from ...routing.errors import RoutingError
from ...routing.geodesy import FloatArray, drawn_parts, segment_lengths_m
from ...routing.itinerary import DEFAULT_DWELL_H, Itinerary, itinerary
from ...routing.progress import Progress
from ...vocabulary.vessels import VesselRecord
from ..core.engine import NO_SIZE, sized_call
from ..reference.vessels import reported_size
from .past_track import ReportedTrack, TrackPiece, past_track
from .records import ContainerRoute, MapFeatures, Phase, RouteLocationRecord


def mappable_calls(calls: Sequence[RouteLocationRecord]) -> list[RouteLocationRecord]:
    """The calls a map can show: those at ports the engine knows, a port called twice in a row
    taken as one call (arriving as the first, leaving as the second)."""
    found: list[RouteLocationRecord] = []
    for call in calls:
        if call.port is None:
            continue
        if found and found[-1].port_locode == call.port_locode:
            found[-1] = replace(
                found[-1],
                **{name: getattr(call, name) for name in _OUTBOUND},
            )
        else:
            found.append(call)
    return found


def current_leg(calls: Sequence[RouteLocationRecord]) -> int | None:
    """Index of the leg under way (departed, not arrived), by the calls' actual times."""
    begun = _legs_begun(calls)
    if begun == 0 or calls[begun].inbound_ata_at is not None:
        return None
    return begun - 1


def map_features(route: ContainerRoute, tracks: Mapping[int, ReportedTrack]) -> MapFeatures:
    """The map of ``route``; ``tracks`` holds recorded positions by leg index of
    :func:`mappable_calls`."""
    calls = mappable_calls(route.locations)
    if len(calls) < 2:
        return MapFeatures(route.container_id, Phase.UNKNOWN, ())
    leg = current_leg(calls)
    speed = _reported_speed(calls[leg].outbound_vessel) if leg is not None else None
    sizing = _sizing_vessel(calls, leg)
    plan = partial(
        itinerary,
        [call.port for call in calls if call.port is not None],
        speed_kn=[speed if i == leg else None for i in range(len(calls) - 1)],
        dwell_h=[_dwell_h(call) for call in calls[1:-1]],
        departed_at=calls[0].departure_at,
    )
    trip, size = sized_call(plan, reported_size(NO_SIZE, sizing) if sizing else NO_SIZE)
    phase, progress = _progress(trip, calls, leg, speed)
    features: list[dict[str, Any]] = []
    drawn: set[int] = set()
    for feature in progress.to_geojson()["features"]:
        properties = feature["properties"]
        kind, index = properties["feature_type"], properties["ports_sequence"] - 1
        if kind == "past_vessel_locations":
            track = tracks.get(index)
            if track is not None and track.lons.size:
                if index not in drawn:  # the engine's sea-lane pieces of this leg, replaced once
                    drawn.add(index)
                    features += _past(progress, index, calls, track)
                continue
            properties |= _sailed(progress, index, calls)[1] | {"estimated": True}  # as drawn
        if kind == "port":
            _port(properties, calls[index])
        elif kind == "current_vessel":
            _vessel(properties, calls[index], calls[index + 1])
        features.append(feature)
    sized_by = sizing.id if sizing is not None else None
    return MapFeatures(route.container_id, phase, tuple(features), size, sized_by)


def _sizing_vessel(calls: Sequence[RouteLocationRecord], leg: int | None) -> VesselRecord | None:
    """The vessel whose reported size the legs are routed for: the one sailing the leg under
    way, else the one of the next leg to sail (None once delivered). The engine takes one
    vessel per itinerary; the legs of other vessels are drawn for it too, a known limit."""
    index = leg if leg is not None else _legs_begun(calls)
    return calls[index].outbound_vessel if index < len(calls) - 1 else None


_OUTBOUND = (
    "outbound_mode",
    "outbound_scac",
    "outbound_vessel_id",
    "outbound_voyage_number",
    "outbound_etd_at",
    "outbound_atd_at",
    "outbound_vessel",
)


def _legs_begun(calls: Sequence[RouteLocationRecord]) -> int:
    """How many legs have begun: the last leg departed, or arrived, counts with those before."""
    return max(
        (
            i + 1
            for i in range(len(calls) - 1)
            if calls[i].outbound_atd_at is not None or calls[i + 1].inbound_ata_at is not None
        ),
        default=0,
    )


def _progress(
    trip: Itinerary, calls: Sequence[RouteLocationRecord], leg: int | None, speed: float | None
) -> tuple[Phase, Progress]:
    """The phase the calls show and the engine's progress at it."""
    begun = _legs_begun(calls)
    if begun == 0:
        return Phase.NOT_DEPARTED, trip.at_port(0)
    if leg is None:
        last = begun == len(calls) - 1
        phase = Phase.DELIVERED if last else Phase.IN_PORT
        return phase, trip.at_port(begun, departs_at=calls[begun].departure_at)
    seen = _position(calls[leg].outbound_vessel, calls[leg].outbound_atd_at)
    if seen is not None:
        lon, lat, at = seen
        try:
            return Phase.AT_SEA, trip.at_sea(leg, (lon, lat), at, speed_kn=speed)
        except RoutingError:  # a position the engine cannot place (far inland): as none
            pass
    return Phase.AT_SEA, trip.at_port(leg, departs_at=calls[leg].departure_at)


def _position(
    vessel: VesselRecord | None, departed: datetime | None
) -> tuple[float, float, datetime] | None:
    """The vessel's latest position (lon, lat, time), unless unknown or older than the leg."""
    if vessel is None or vessel.longitude is None or vessel.latitude is None:
        return None
    seen = vessel.position_timestamp
    if seen is None or (departed is not None and seen < departed):
        return None
    return vessel.longitude, vessel.latitude, seen


def _port(properties: dict[str, Any], call: RouteLocationRecord) -> None:
    """The carrier's and the events' times of a port call (the engine's estimate stays where
    there is neither)."""
    properties["state_abbr"] = properties["state"] = None
    if call.inbound_eta_at is not None or call.inbound_ata_at is not None:
        properties["inbound_eta_at"] = utc_iso(call.inbound_eta_at)
    properties["inbound_ata_at"] = utc_iso(call.inbound_ata_at)
    if call.outbound_etd_at is not None or call.outbound_atd_at is not None:
        properties["outbound_etd_at"] = utc_iso(call.outbound_etd_at)
    properties["outbound_atd_at"] = utc_iso(call.outbound_atd_at)
    properties["updated_at"] = utc_iso(call.updated_at)


def _vessel(
    properties: dict[str, Any], origin: RouteLocationRecord, destination: RouteLocationRecord
) -> None:
    """The vessel's identity, voyage, reported heading and speed, and the carrier's ETA at the
    next port (the engine's own from the position stays as ``arrival_port_predicted_eta``)."""
    vessel = origin.outbound_vessel
    if vessel is not None:
        properties |= {"vessel_id": vessel.id, "vessel_name": vessel.name}
        if vessel.imo:
            properties["vessel_imo"] = vessel.imo
        heading = vessel.navigational_heading_degrees
        if heading is not None and math.isfinite(heading) and 0.0 <= heading <= 360.0:
            properties["vessel_location_heading"] = heading
        speed = _reported_speed(vessel)
        if speed is not None:
            properties["vessel_location_speed"] = speed
    properties["voyage_number"] = origin.outbound_voyage_number
    properties["departure_port_atd"] = utc_iso(origin.outbound_atd_at)
    for side in ("departure_port", "arrival_port"):
        properties[f"{side}_state_abbr"] = properties[f"{side}_state"] = None
    properties["arrival_port_predicted_eta"] = properties["arrival_port_eta"]
    if destination.inbound_eta_at is not None:
        properties["arrival_port_eta"] = utc_iso(destination.inbound_eta_at)


def _sailed(
    progress: Progress, leg: int, calls: Sequence[RouteLocationRecord]
) -> tuple[FloatArray, dict[str, Any]]:
    """The sea lane sailed on ``leg`` (to the vessel on the leg under way), and the properties
    of its track: vessel, the times at both ends, the times of its ports."""
    origin, destination = calls[leg], calls[leg + 1]
    planned = progress.legs[leg]
    underway = progress.underway
    end: datetime | None
    if underway is not None and underway.leg.sequence == leg + 1:
        lane, end = underway.sailed.coordinates, underway.at
    else:
        lane, end = planned.route.coordinates, destination.inbound_ata_at or planned.arrival_at
    start = origin.outbound_atd_at or planned.departure_at
    shared: dict[str, Any] = {"feature_type": "past_vessel_locations", "ports_sequence": leg + 1}
    if origin.outbound_vessel_id is not None:
        shared["vessel_id"] = origin.outbound_vessel_id
    for key, moment in (("start_time", start), ("end_time", end)):
        if moment is not None:
            shared[key] = utc_iso(moment)
    shared |= {
        "outbound_atd_at": utc_iso(origin.outbound_atd_at),
        "inbound_ata_at": utc_iso(destination.inbound_ata_at),
        "inbound_eta_at": utc_iso(destination.inbound_eta_at),
    }
    return lane, shared


def _past(
    progress: Progress, leg: int, calls: Sequence[RouteLocationRecord], track: ReportedTrack
) -> list[dict[str, Any]]:
    """The features of the track sailed on ``leg`` through the ``track`` recorded, one
    LineString per piece and side of the antimeridian."""
    lane, shared = _sailed(progress, leg, calls)
    start, end = calls[leg].outbound_atd_at, None
    pieces = past_track(lane, start, end, track)
    return [feature for piece in pieces for feature in _piece_features(piece, shared)]


def _piece_features(piece: TrackPiece, shared: dict[str, Any]) -> list[dict[str, Any]]:
    """One LineString feature per antimeridian part of ``piece``; none for a piece of no length."""
    lons, lats = piece.coordinates[:, 0], piece.coordinates[:, 1]
    distance_m = float(segment_lengths_m(lons, lats).sum()) if lons.size > 1 else 0.0
    if distance_m == 0.0:
        return []
    properties = dict(shared, estimated=piece.estimated, distance_nm=distance_m / 1852.0)
    for key, moment in (("start_time", piece.start_at), ("end_time", piece.end_at)):
        if moment is not None:  # a piece's own end; the leg's (in ``shared``) at its ends
            properties[key] = utc_iso(moment)
    return [
        {
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": part},
            "properties": {**properties, "point_count": len(part)},
        }
        for part in drawn_parts(lons, lats)
    ]


def _dwell_h(call: RouteLocationRecord) -> float:
    """Hours at a transshipment port: from its arrival to its departure when both are known."""
    arrival, departure = call.arrival_at, call.departure_at
    if arrival is None or departure is None:
        return DEFAULT_DWELL_H
    return max((departure - arrival).total_seconds() / 3600.0, 0.0)


def _reported_speed(vessel: VesselRecord | None) -> float | None:
    """The vessel's reported speed in knots, or None when missing or not a speed."""
    speed = vessel.nautical_speed_knots if vessel is not None else None
    if speed is None or not math.isfinite(speed) or speed < 0:
        return None
    return float(speed)

"""Tools of the paid routing feature beyond the document: ``get_vessel_future_positions`` and
``plan_sea_route``. Both check the account's feature first, like the API (a tool error that says
so, and what is available instead, when it is off)."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

import numpy as np
from mcp.types import CallToolResult
from pydantic import Field

from .. import Location, Port
from ..service.core.engine import given_vessel
from ..service.core.errors import InvalidInput, ServiceError
from ..service.reference.ports import known_port
from ..service.reference.vessels import check_speed
from ..service.sea_routes import plan_sea_route as plan
from ..service.sea_routes import sea_route_options, track_length_nm
from .arguments import parse_text
from .backend import Account, Positions
from .calls import Ctx, answer
from .local import blocking
from .outputs import PortRef
from .routing_outputs import (
    FuturePositions,
    Place,
    SeaRoute,
    SeaRouteOption,
    SeaRouteOptions,
    SpeedUsed,
    TrackPoint,
    Vessel,
    VesselDimensions,
)

DEFAULT_TRACK_POINTS = 100
MAX_TRACK_POINTS = 2000
Degrees = Annotated[float | None, Field(description="degrees (WGS84)")]
#: The tool's argument for each port parameter the service names.
_PORT_ARGUMENTS = {"port_id": "destination_port", "previous_port_id": "previous_port"}
Metres = Annotated[
    float | None,
    Field(
        description="the vessel's dimension in metres (default: what the vessel reported, if "
        "the tool names one, else the engine's default vessel)",
        json_schema_extra={"exclusiveMinimum": 0},
    ),
]


async def get_vessel_future_positions(
    vessel: Annotated[str, Field(description="vessel id or IMO number")],
    ctx: Ctx,
    destination_port: Annotated[
        str | None,
        Field(
            description="UN/LOCODE (NLRTM) or port id (default: the next port the vessel calls "
            "on a voyage of a shipment you track)"
        ),
    ] = None,
    previous_port: Annotated[
        str | None,
        Field(
            description="UN/LOCODE or port id (default: the port the vessel last left, from a "
            "shipment you track, else from AIS)"
        ),
    ] = None,
    start_longitude: Degrees = None,
    start_latitude: Degrees = None,
    track_points: Annotated[
        int,
        Field(
            description=f"positions in the sampled track (2 to {MAX_TRACK_POINTS})",
            json_schema_extra={"minimum": 2, "maximum": MAX_TRACK_POINTS},
        ),
    ] = DEFAULT_TRACK_POINTS,
    all_positions: Annotated[
        bool, Field(description="return every position (one per minute; can be tens of thousands)")
    ] = False,
    draft_m: Metres = None,
    beam_m: Metres = None,
    length_m: Metres = None,
    air_draft_m: Metres = None,
    speed_kn: Annotated[
        float | None,
        Field(
            description="speed in knots, 1 to 60 (default: the vessel's own, observed at sea "
            "over the last 6 hours, else its last reported speed, else 14; the answer's speed "
            "says which)"
        ),
    ] = None,
) -> Annotated[CallToolResult, FuturePositions]:
    """Estimate a vessel's voyage from its last reported position (or the start coordinate) to
    the destination port along sea lanes: ETA with its range (P10, P90: the arrival falls between
    them 8 times in 10), the speed sailed at and where it came from, remaining distance and a
    sampled track. Ports
    left out are taken from what sealane knows of the vessel's voyage; dimensions (metres) close
    the passages the vessel does not fit, and a destination whose channel is shallower than its
    draft is refused."""

    async def work(account: Account) -> FuturePositions:
        await account.require_routing()
        start = _start(start_longitude, start_latitude)
        points = _points(track_points, all_positions)
        # a bad dimension or speed is the tool's invalid argument, before any call
        given = given_vessel(draft_m, beam_m, length_m, air_draft_m)
        check_speed(speed_kn)
        try:
            found = await account.future_positions(
                _text(vessel, "vessel"),
                previous_port=_optional(previous_port, "previous_port"),
                destination_port=_optional(destination_port, "destination_port"),
                start=start,
                given=given,
                speed_kn=speed_kn,
            )
        except ServiceError as error:  # the service names the API's parameters: name ours
            error.field = _PORT_ARGUMENTS.get(error.field or "", error.field)
            raise
        ports = found.meta.get("previous_port", {}), found.meta.get("port", {})
        previous = _port(ports[0].get("locode") or previous_port or "")
        destination = _port(ports[1].get("locode") or destination_port or "")
        return future_positions(found, previous, destination, points)

    return await answer(ctx, work)


def future_positions(
    found: Positions, previous: PortRef, destination: PortRef, points: int | None
) -> FuturePositions:
    """The output for ``found``: ETA (the last position), distance along the positions, and the
    track sampled to ``points`` positions (None: all of them)."""
    lons, lats = np.asarray(found.lons, dtype=float), np.asarray(found.lats, dtype=float)
    count = len(found.times)
    chosen = range(count) if points is None or count <= points else _evenly(count, points)
    a = found.vessel
    return FuturePositions(
        vessel=Vessel(
            id=found.vessel_id,
            name=a.get("name"),
            imo=a.get("imo"),
            mmsi=a.get("mmsi"),
            latitude=a.get("latitude"),
            longitude=a.get("longitude"),
            speed_kn=a.get("nautical_speed_knots"),
            heading_deg=a.get("navigational_heading_degrees"),
            position_timestamp=a.get("position_timestamp"),
        ),
        previous_port=previous,
        destination_port=destination,
        eta=found.times[-1] if count else None,
        eta_p10=found.meta.get("eta_p10"),
        eta_p90=found.meta.get("eta_p90"),
        speed=SpeedUsed.model_validate(found.meta["speed"]) if "speed" in found.meta else None,
        distance_remaining_nm=round(track_length_nm(found.lons, found.lats), 1),
        positions_total=count,
        track_points=len(chosen),
        track=[
            TrackPoint(
                longitude=round(float(lons[i]), 5),
                latitude=round(float(lats[i]), 5),
                heading_deg=round(float(found.headings_deg[i]), 1),
                timestamp=found.times[i],
            )
            for i in chosen
        ],
        ports_source=found.meta.get("ports_source"),
        vessel_dimensions=_dimensions(found.meta.get("vessel_dimensions")),
    )


def _evenly(count: int, points: int) -> list[int]:
    """``points`` indices from 0 to ``count - 1``, evenly spaced, first and last included."""
    return sorted({round(i * (count - 1) / (points - 1)) for i in range(points)})


async def plan_sea_route(
    origin: Annotated[str, Field(description="UN/LOCODE, port id, or 'lon,lat' in degrees")],
    destination: Annotated[str, Field(description="UN/LOCODE, port id, or 'lon,lat' in degrees")],
    ctx: Ctx,
    avoid: Annotated[
        list[str] | None,
        Field(description="passages to avoid: suez, panama, malacca, gibraltar, bosporus, ..."),
    ] = None,
    speed_kn: Annotated[float | None, Field(description="speed in knots (default 14)")] = None,
    draft_m: Metres = None,
    beam_m: Metres = None,
    length_m: Metres = None,
    air_draft_m: Metres = None,
    via: Annotated[
        list[str] | None,
        Field(
            description="where to pass, in order: ports (UN/LOCODE), 'lon,lat' points, or "
            "passages to sail (suez, panama, kiel, ...)"
        ),
    ] = None,
) -> Annotated[CallToolResult, SeaRoute]:
    """Plan the shortest sea route between two ports or coordinates, through ``via`` (ports,
    points or a passage to sail, such as suez): distance, duration at a speed on the speed
    profile (canals, straits, rivers and port approaches slower, convoy waits included), the
    passages sailed (Suez, Panama, ...) and the path as GeoJSON. A vessel's
    dimensions (metres) close the passages it does not fit (a canal's locks, a shallow strait)
    and refuse a port whose channel is shallower than the draft."""

    async def work(account: Account) -> SeaRoute:
        await account.require_routing()
        ends = (_place(origin, "origin"), _place(destination, "destination"))
        given = given_vessel(draft_m, beam_m, length_m, air_draft_m)
        stops = [_place(stop, f"via[{i}]") for i, stop in enumerate(via or ())]
        found = await blocking(
            partial(plan, *ends, avoid=avoid or (), via=stops, speed_kn=speed_kn, vessel=given)
        )
        r = found.route
        return SeaRoute(
            origin=_end(r.origin),
            destination=_end(r.destination),
            distance_nm=round(r.distance_nm, 1),
            distance_km=round(r.distance_km, 1),
            speed_kn=found.speed_kn,
            duration_h=round(found.duration_h, 1),
            duration_days=round(found.duration_h / 24, 2),
            passages=list(r.passages),
            avoided=list(found.avoided),
            vessel_dimensions=_dimensions(found.size.meta()),
            geojson=r.to_geojson(),
        )

    return await answer(ctx, work)


async def compare_sea_routes(
    origin: Annotated[str, Field(description="UN/LOCODE, port id, or 'lon,lat' in degrees")],
    destination: Annotated[str, Field(description="UN/LOCODE, port id, or 'lon,lat' in degrees")],
    ctx: Ctx,
    avoid: Annotated[
        list[str] | None,
        Field(description="passages every option avoids: suez, panama, malacca, ..."),
    ] = None,
    speed_kn: Annotated[
        float | None, Field(description="speed in open water, knots (default 14)")
    ] = None,
    draft_m: Metres = None,
    beam_m: Metres = None,
    length_m: Metres = None,
    air_draft_m: Metres = None,
) -> Annotated[CallToolResult, SeaRouteOptions]:
    """Compare the sea routes between two ports or coordinates ("Suez or the Cape?"): the
    shortest, and the best avoiding each major passage on the way (Suez or the Cape, Panama or
    Magellan, Malacca or Lombok), each with its distance, time on the speed profile (canals at
    convoy speed with the expected wait, rivers and port approaches slower) and passages,
    fastest first."""

    async def work(account: Account) -> SeaRouteOptions:
        await account.require_routing()
        ends = (_place(origin, "origin"), _place(destination, "destination"))
        given = given_vessel(draft_m, beam_m, length_m, air_draft_m)
        found = await blocking(
            partial(sea_route_options, *ends, avoid=avoid or (), speed_kn=speed_kn, vessel=given)
        )
        first = found.options[0].route
        return SeaRouteOptions(
            origin=_end(first.origin),
            destination=_end(first.destination),
            speed_kn=found.speed_kn,
            avoided=list(found.avoided),
            options=[
                SeaRouteOption(
                    rank=rank,
                    option=option.label,
                    avoided=list(option.avoided),
                    distance_nm=round(option.distance_nm, 1),
                    duration_h=round(option.duration_h, 1),
                    duration_days=round(option.duration_h / 24, 2),
                    passages=list(option.passages),
                )
                for rank, option in enumerate(found.options, start=1)
            ],
            vessel_dimensions=_dimensions(found.size.meta()),
        )

    return await answer(ctx, work)


def _place(text: str, field: str) -> str | tuple[float, float]:
    value = _text(text, field)
    if "," not in value:
        return value
    lon, _, lat = value.partition(",")
    try:
        return (float(lon), float(lat))
    except ValueError:
        raise InvalidInput(
            f"{field} must be a port or 'lon,lat', got {value!r}", field=field
        ) from None


def _end(where: Location) -> Place:
    port: Port | None = where.port
    return Place(
        longitude=round(where.lon, 5),
        latitude=round(where.lat, 5),
        locode=port.locode if port else None,
        name=port.name if port else None,
    )


def _start(lon: float | None, lat: float | None) -> tuple[float, float] | None:
    if (lon is None) != (lat is None):
        field = "start_latitude" if lat is None else "start_longitude"
        raise InvalidInput("give both start_longitude and start_latitude, or neither", field=field)
    if lon is None or lat is None:
        return None
    if not (-180 <= lon <= 180):
        raise InvalidInput("start_longitude must be within [-180, 180]", field="start_longitude")
    if not (-90 <= lat <= 90):
        raise InvalidInput("start_latitude must be within [-90, 90]", field="start_latitude")
    return (lon, lat)


def _points(track_points: int, all_positions: bool) -> int | None:
    """Positions in the sampled track (None: every position)."""
    if not 2 <= track_points <= MAX_TRACK_POINTS:
        raise InvalidInput(
            f"track_points must be between 2 and {MAX_TRACK_POINTS}", field="track_points"
        )
    return None if all_positions else track_points


def _text(value: str, field: str) -> str:
    found = parse_text(value, field, max_chars=64)
    assert found is not None
    return found


def _optional(value: str | None, field: str) -> str | None:
    """A port argument; blank is the same as not given."""
    return None if value is None or not value.strip() else _text(value, field)


def _dimensions(meta: dict[str, Any] | None) -> VesselDimensions | None:
    return None if not meta else VesselDimensions.model_validate(meta)


def _port(key: str) -> PortRef:
    port = known_port(key.strip())
    if port is None:  # the backend reports it; this only names the port
        return PortRef(locode=key.strip().upper()[:64])
    return PortRef(locode=port.locode, name=port.name, timezone=port.time_zone)

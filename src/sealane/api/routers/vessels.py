"""Vessels, and the paid routing feature: their estimated future positions.

The single-vessel endpoints run on the event loop, not in the thread pool: the look-up is one
indexed query and the routing computation is CPU-bound, holding one core either way. Handing it to
a worker thread measured 1-2 ms slower per 25-day voyage on the 2-CPU dev machine (the 4 MB body
is then written on one core and sent from another), a third of the service's own overhead.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import func, select

from ...routing.errors import UnknownPortError
from ...routing.ports import registry
from ...routing.voyage import future_positions
from ...store.models import Vessel
from ...store.vessels import VesselRecord, find_vessel
from ..auth import Caller, authenticate, authenticate_routing
from ..errors import NotFound, Unprocessable
from ..jsonapi import JsonApiResponse, list_document, parse_include, parse_page, resource
from ..listing import PageNumber, PageSize, paged
from ..params import like_pattern, number, optional_text, required
from ..resources import vessel_attributes, vessel_resource
from ..state import state_of
from .responses import ERRORS

router = APIRouter(tags=["vessels"])
Auth = Annotated[Caller, Depends(authenticate)]
#: Authenticated with the routing feature: answered 403 before parameters are even looked at.
RoutingAuth = Annotated[Caller, Depends(authenticate_routing)]
PortId = Annotated[str, Query(description="destination port: id or UN/LOCODE", min_length=1)]
PreviousPortId = Annotated[str, Query(description="previous port: id or UN/LOCODE", min_length=1)]
Coordinate = r"^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$"
#: Placeholder in the serialised document where the positions' own JSON is spliced in.
_POSITIONS_SLOT = "__sealane_positions__"


@router.get("/vessels", response_class=JsonApiResponse, responses=ERRORS)
def list_vessels(
    request: Request,
    _caller: Auth,
    name: Annotated[str | None, Query(alias="filter[name]")] = None,
    imo: Annotated[str | None, Query(alias="filter[imo]")] = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """Vessels, filtered by name (case-insensitive substring) or IMO number."""
    params = request.query_params
    page = parse_page(params)
    parse_include(params, ())
    query = select(Vessel)
    name_text = optional_text(params, "filter[name]")
    imo_text = optional_text(params, "filter[imo]", max_length=16)
    if name_text:
        query = query.where(func.lower(Vessel.name).like(like_pattern(name_text), escape="\\"))
    if imo_text:
        query = query.where(Vessel.imo == imo_text)
    state = state_of(request)
    with state.sessions() as session:
        total, rows = paged(session, query.order_by(Vessel.name), page)
    base = state.settings.base_url
    data = [vessel_resource(row, base) for row in rows]
    return JsonApiResponse(
        list_document(data, self_url=f"{base}/vessels", params=params, page=page, total=total)
    )


@router.get("/vessels/{vessel_id}", response_class=JsonApiResponse, responses=ERRORS)
async def get_vessel(request: Request, vessel_id: str, _caller: Auth) -> JsonApiResponse:
    """One vessel, by id or IMO number, with its latest known position."""
    parse_include(request.query_params, ())
    state = state_of(request)
    vessel = _vessel(request, vessel_id)
    base = state.settings.base_url
    return JsonApiResponse(
        {"data": vessel_resource(vessel, base), "links": {"self": f"{base}/vessels/{vessel.id}"}}
    )


@router.get(
    "/vessels/{vessel_id}/future_positions_with_coordinates",
    response_class=JsonApiResponse,
    responses=ERRORS,
)
async def future_positions_with_coordinates(
    request: Request,
    vessel_id: str,
    _caller: RoutingAuth,
    port_id: PortId,
    previous_port_id: PreviousPortId,
    latitude: Annotated[
        str, Query(description="start latitude, degrees [-90, 90]", pattern=Coordinate)
    ],
    longitude: Annotated[
        str, Query(description="start longitude, degrees [-180, 180]", pattern=Coordinate)
    ],
) -> JsonApiResponse:
    """Estimated positions one minute apart from the given coordinates to the destination port."""
    params = request.query_params
    parse_include(params, ())
    destination = required(params, "port_id")
    previous = required(params, "previous_port_id")
    lat = number(params, "latitude", -90.0, 90.0)
    lon = number(params, "longitude", -180.0, 180.0)
    vessel = _vessel(request, vessel_id)
    return _positions_response(request, vessel, (lon, lat), previous, destination)


@router.get(
    "/vessels/{vessel_id}/future_positions", response_class=JsonApiResponse, responses=ERRORS
)
async def future_positions_from_last_position(
    request: Request,
    vessel_id: str,
    _caller: RoutingAuth,
    port_id: PortId,
    previous_port_id: PreviousPortId,
) -> JsonApiResponse:
    """Estimated positions one minute apart from the vessel's last known position."""
    params = request.query_params
    parse_include(params, ())
    destination = required(params, "port_id")
    previous = required(params, "previous_port_id")
    vessel = _vessel(request, vessel_id)
    if vessel.latitude is None or vessel.longitude is None:
        raise Unprocessable(f"vessel {vessel.id} has no known position yet", code="no_position")
    return _positions_response(
        request, vessel, (vessel.longitude, vessel.latitude), previous, destination
    )


def _vessel(request: Request, key: str) -> VesselRecord:
    """The vessel ``key`` names (id or IMO number); 404 if there is none."""
    vessel = find_vessel(state_of(request).engine, key)
    if vessel is None:
        raise NotFound(f"no vessel with id or IMO {key!r}", code="not_found")
    return vessel


def _positions_response(
    request: Request,
    vessel: VesselRecord,
    start: tuple[float, float],
    previous: str,
    destination: str,
) -> JsonApiResponse:
    """The vessel document with its positions, serialised without a dict per position."""
    state = state_of(request)
    ports = {}
    for name, key in (("previous_port_id", previous), ("port_id", destination)):
        try:
            ports[name] = registry().get(key)
        except UnknownPortError as error:
            raise Unprocessable(str(error), code=error.code, parameter=name) from None
    speed = vessel.nautical_speed_knots
    usable = speed is not None and math.isfinite(speed) and speed >= 0
    positions = future_positions(
        start,
        ports["previous_port_id"],
        ports["port_id"],
        speed_kn=speed if usable else None,  # a bad stored speed is no speed: use the default
        start_time=state.clock.now(),
    )
    attributes: dict[str, Any] = vessel_attributes(vessel) | {"positions": _POSITIONS_SLOT}
    base = state.settings.base_url
    query = f"?{request.url.query}" if request.url.query else ""
    self_link = f"{base}{request.url.path.removeprefix('/v2')}{query}"
    doc = {"data": resource("vessel", vessel.id, attributes), "links": {"self": self_link}}
    head, tail = orjson.dumps(doc).split(orjson.dumps(_POSITIONS_SLOT), 1)
    return JsonApiResponse(positions.to_json(head=head, tail=tail))  # no copy of the array

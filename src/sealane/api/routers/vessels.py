"""Vessels, and the paid routing feature: their estimated future positions.

A future-positions request looks the vessel up and computes the positions in the thread pool, so
the event loop keeps serving other requests meanwhile; the document is then rendered on the loop
(in C, straight from the position arrays). ``benchmarks/api.py`` measures both choices.
"""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query, Request
from starlette.concurrency import run_in_threadpool

from ...jsonapi import Included, resource
from ...jsonapi.reference import vessel_attributes, vessel_resource
from ...service import vessels
from ...service.access import Caller
from ...service.records import VesselRecord
from ..jsonapi import JsonApiResponse
from ..listing import PageNumber, PageSize
from ..params import (
    authenticated,
    authenticated_routing,
    number,
    optional_text,
    optional_time,
    parse_include,
    parse_page,
    required,
)
from ..render import many, one
from ..route import ApiRoute
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["vessels"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
#: Authenticated with the routing feature: answered 403 before parameters are even looked at.
RoutingAuth = Annotated[Caller, Depends(authenticated_routing)]
PortId = Annotated[str, Query(description="destination port: id or UN/LOCODE", min_length=1)]
PreviousPortId = Annotated[str, Query(description="previous port: id or UN/LOCODE", min_length=1)]
Coordinate = r"^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?$"
#: Placeholder in the serialised document where the positions' own JSON is spliced in.
_POSITIONS_SLOT = "__sealane_positions__"


def render_vessel(included: Included, vessel: VesselRecord) -> dict[str, Any]:
    """A vessel with its latest known position."""
    return vessel_resource(vessel, included.base)


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
    found = vessels.list_vessels(
        context_of(request),
        page,
        name=optional_text(params, "filter[name]"),
        imo=optional_text(params, "filter[imo]", max_length=16),
    )
    return many(request, found, "vessels", render_vessel)


@router.get("/vessels/{vessel_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_vessel(
    request: Request,
    vessel_id: str,
    _caller: Auth,
    positions_from: Annotated[str | None, Query(alias="show_positions[from_timestamp]")] = None,
    positions_to: Annotated[str | None, Query(alias="show_positions[to_timestamp]")] = None,
) -> JsonApiResponse:
    """One vessel, by id or IMO number, with its latest known position; either
    ``show_positions`` bound adds the positions it reported in that window (7 days up to now
    by default, at most 31 days)."""
    params = request.query_params
    start = optional_time(params, "show_positions[from_timestamp]")
    end = optional_time(params, "show_positions[to_timestamp]")
    ctx = context_of(request)
    if {"show_positions[from_timestamp]", "show_positions[to_timestamp]"} & set(params):
        vessel, positions = vessels.vessel_positions(ctx, vessel_id, start=start, end=end)
        return one(request, vessel, lambda inc, v: vessel_resource(v, inc.base, positions))
    return one(request, vessels.get_vessel(ctx, vessel_id), render_vessel)


@router.get(
    "/vessels/{vessel_id}/future_positions_with_coordinates",
    response_class=JsonApiResponse,
    responses=ERRORS,
)
async def future_positions_with_coordinates(
    request: Request,
    vessel_id: str,
    caller: RoutingAuth,
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
    return await _positions_response(request, caller, vessel_id, (lon, lat), previous, destination)


@router.get(
    "/vessels/{vessel_id}/future_positions", response_class=JsonApiResponse, responses=ERRORS
)
async def future_positions_from_last_position(
    request: Request,
    vessel_id: str,
    caller: RoutingAuth,
    port_id: PortId,
    previous_port_id: PreviousPortId,
) -> JsonApiResponse:
    """Estimated positions one minute apart from the vessel's last known position."""
    params = request.query_params
    parse_include(params, ())
    destination = required(params, "port_id")
    previous = required(params, "previous_port_id")
    return await _positions_response(request, caller, vessel_id, None, previous, destination)


async def _positions_response(
    request: Request,
    caller: Caller,
    vessel_key: str,
    start: tuple[float, float] | None,
    previous: str,
    destination: str,
) -> JsonApiResponse:
    """The vessel document with its positions from ``start`` (None: its last known position),
    serialised without a dict per position."""
    ctx = context_of(request)
    vessel, positions = await run_in_threadpool(
        lambda: vessels.vessel_future_positions(
            ctx,
            caller,
            vessel_key,
            previous_port=previous,
            destination_port=destination,
            start=start,
        )
    )
    attributes: dict[str, Any] = vessel_attributes(vessel) | {"positions": _POSITIONS_SLOT}
    query = f"?{request.url.query}" if request.url.query else ""
    self_link = f"{ctx.settings.base_url}{request.url.path.removeprefix('/v2')}{query}"
    doc = {"data": resource("vessel", vessel.id, attributes), "links": {"self": self_link}}
    head, tail = orjson.dumps(doc).split(orjson.dumps(_POSITIONS_SLOT), 1)
    return JsonApiResponse(positions.to_json(head=head, tail=tail))  # no copy of the array

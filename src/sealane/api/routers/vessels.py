"""Vessels, and the paid routing feature: their estimated future positions.

A future-positions request looks the vessel up and computes the positions in the thread pool, so
the event loop keeps serving other requests meanwhile. Next to one client looping on a 25-day
voyage (``benchmarks/api.py``, Table 4: ``wrk -c8`` on ``/v2/ports/NLRTM``, 2-CPU dev machine),
port look-ups got 13-14 ms p50 and 530-560 requests/s, against 34-40 ms and 190-230/s with the
computation on the loop; the voyage itself got 59-60 ms p50 instead of 13-17, sharing the CPUs
with them. The document is then rendered on the loop (in C; the loop waits for it, 1.5-3 ms for
4 MB), which measured up to 2-3 ms faster per response than rendering it in the worker as well.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import func, select
from starlette.concurrency import run_in_threadpool

from ...routing.errors import UnknownPortError
from ...routing.ports import registry
from ...routing.positions import Positions
from ...routing.voyage import future_positions
from ...store.models import Vessel
from ...store.vessels import VesselRecord, find_vessel
from ..auth import Caller, authenticate, authenticate_routing
from ..errors import NotFound, Unprocessable
from ..jsonapi import JsonApiResponse, list_document, parse_include, parse_page, resource
from ..listing import PageNumber, PageSize, paged
from ..params import like_pattern, number, optional_text, required
from ..resources import vessel_attributes, vessel_resource
from ..state import AppState, state_of
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
def get_vessel(request: Request, vessel_id: str, _caller: Auth) -> JsonApiResponse:
    """One vessel, by id or IMO number, with its latest known position."""
    parse_include(request.query_params, ())
    state = state_of(request)
    vessel = _vessel(state, vessel_id)
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
    return await _positions_response(request, vessel_id, (lon, lat), previous, destination)


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
    return await _positions_response(request, vessel_id, None, previous, destination)


def _vessel(state: AppState, key: str) -> VesselRecord:
    """The vessel ``key`` names (id or IMO number); 404 if there is none."""
    vessel = find_vessel(state.engine, key)
    if vessel is None:
        raise NotFound(f"no vessel with id or IMO {key!r}", code="not_found")
    return vessel


async def _positions_response(
    request: Request,
    vessel_key: str,
    start: tuple[float, float] | None,
    previous: str,
    destination: str,
) -> JsonApiResponse:
    """The vessel document with its positions from ``start`` (None: its last known position),
    serialised without a dict per position."""
    state = state_of(request)
    vessel, positions = await run_in_threadpool(
        _sail, state, vessel_key, start, previous, destination
    )
    attributes: dict[str, Any] = vessel_attributes(vessel) | {"positions": _POSITIONS_SLOT}
    base = state.settings.base_url
    query = f"?{request.url.query}" if request.url.query else ""
    self_link = f"{base}{request.url.path.removeprefix('/v2')}{query}"
    doc = {"data": resource("vessel", vessel.id, attributes), "links": {"self": self_link}}
    head, tail = orjson.dumps(doc).split(orjson.dumps(_POSITIONS_SLOT), 1)
    return JsonApiResponse(positions.to_json(head=head, tail=tail))  # no copy of the array


def _sail(
    state: AppState,
    vessel_key: str,
    start: tuple[float, float] | None,
    previous_key: str,
    destination_key: str,
) -> tuple[VesselRecord, Positions]:
    """The vessel and its future positions (blocking: database and CPU; run in a worker).

    Checked in the order the endpoints always answered: unknown vessel (404), no known position
    (422), unknown port (422).
    """
    vessel = _vessel(state, vessel_key)
    if start is None:
        if vessel.latitude is None or vessel.longitude is None:
            raise Unprocessable(f"vessel {vessel.id} has no known position yet", code="no_position")
        start = (vessel.longitude, vessel.latitude)
    ports = {}
    for name, key in (("previous_port_id", previous_key), ("port_id", destination_key)):
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
    return vessel, positions

"""Vessels, and the paid routing feature: their estimated future positions.

A future-positions request looks the vessel up, computes the positions, renders the document (in
C, straight from the position arrays, a piece at a time) and, for a client that accepts gzip,
deflates it, all in one trip to the thread pool (:class:`~..offloaded.OffloadedResponse`), so the
event loop keeps serving other requests meanwhile and sends each deflated piece as soon as it is
made. ``benchmarks/api.py`` measures it against the library call.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from urllib.parse import quote

import orjson
from fastapi import APIRouter, Depends, Query, Request

from ...jsonapi import Included, resource
from ...jsonapi.reference import vessel_attributes, vessel_resource
from ...routing import Vessel
from ...service.access.gatekeeper import Caller
from ...service.core.engine import DIMENSION_BOUNDS_M, given_vessel
from ...service.reference import vessels
from ...vocabulary.vessels import VesselRecord
from ..jsonapi import MEDIA_TYPE, JsonApiResponse
from ..listing import DECIMAL, INSTANT, Paging, moment, text
from ..offloaded import OffloadedResponse
from ..operations import ApiRoute
from ..params import authenticated, authenticated_routing, blank_none
from ..positions_json import PositionsJson
from ..render import base_url, many, one
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["vessels"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
#: Authenticated with the routing feature: answered 403 before parameters are even looked at.
RoutingAuth = Annotated[Caller, Depends(authenticated_routing)]
PortId = Annotated[
    str | None,
    text(
        64,
        description="destination port: id or UN/LOCODE (default: the next port the vessel calls "
        "on a voyage of a shipment you track; meta.port says which port was used and why)",
    ),
]
PreviousPortId = Annotated[
    str | None,
    text(
        64,
        description="previous port: id or UN/LOCODE (default: the port the vessel last left, "
        "from a shipment you track, else from AIS; see meta.previous_port)",
    ),
]
SpeedKn = Annotated[
    float | None,
    Query(
        description="sealane's own: the speed to sail at, knots (default: the vessel's own, "
        "observed at sea over the last 6 hours, else its last reported speed, else 14 kn; "
        "meta.speed says which and where it came from)",
        ge=1.0,
        le=60.0,
    ),
    DECIMAL,
]
#: Placeholder in the serialised document where the positions' own JSON is spliced in.
_POSITIONS_SLOT = "__sealane_positions__"


def _metres(name: str, what: str) -> Any:
    return Query(
        alias=name,
        description=f"sealane's own: the vessel's {what} in metres, to close the passages it "
        "does not fit (default: what the vessel reported, else the engine's default vessel; "
        "meta.vessel_dimensions says which)",
        json_schema_extra={"exclusiveMinimum": 0, "maximum": DIMENSION_BOUNDS_M[name]},
    )


async def vessel_given(
    draft_m: Annotated[float | None, _metres("draft_m", "draft"), DECIMAL] = None,
    beam_m: Annotated[float | None, _metres("beam_m", "beam"), DECIMAL] = None,
    length_m: Annotated[float | None, _metres("length_m", "length overall"), DECIMAL] = None,
    air_draft_m: Annotated[float | None, _metres("air_draft_m", "air draft"), DECIMAL] = None,
) -> Vessel:
    """The vessel a future-positions request describes, checked once here (a bad dimension is
    a 400 naming it); async, so that FastAPI does not send it to the thread pool."""
    return given_vessel(draft_m, beam_m, length_m, air_draft_m)


Given = Annotated[Vessel, Depends(vessel_given)]


def render_vessel(included: Included, vessel: VesselRecord) -> dict[str, Any]:
    """A vessel with its latest known position."""
    return vessel_resource(vessel, included.base)


@router.get("/vessels", response_class=JsonApiResponse, responses=ERRORS)
def list_vessels(
    request: Request,
    _caller: Auth,
    page: Paging,
    name: Annotated[str | None, text(alias="filter[name]")] = None,
    imo: Annotated[str | None, text(16, alias="filter[imo]")] = None,
) -> JsonApiResponse:
    """Vessels, filtered by name (case-insensitive substring) or IMO number."""
    found = vessels.list_vessels(
        context_of(request), page, name=blank_none(name), imo=blank_none(imo)
    )
    return many(request, found, "vessels", render_vessel)


@router.get("/vessels/{vessel_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_vessel(
    request: Request,
    vessel_id: str,
    _caller: Auth,
    start: Annotated[datetime | None, moment("show_positions[from_timestamp]"), INSTANT] = None,
    end: Annotated[datetime | None, moment("show_positions[to_timestamp]"), INSTANT] = None,
) -> JsonApiResponse:
    """One vessel, by id or IMO number, with its latest known position; either
    ``show_positions`` bound adds the positions it reported in that window (7 days up to now
    by default, at most 31 days)."""
    ctx = context_of(request)
    if start is not None or end is not None:
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
    given: Given,
    latitude: Annotated[
        float, Query(description="start latitude, degrees", ge=-90.0, le=90.0), DECIMAL
    ],
    longitude: Annotated[
        float, Query(description="start longitude, degrees", ge=-180.0, le=180.0), DECIMAL
    ],
    port_id: PortId = None,
    previous_port_id: PreviousPortId = None,
    speed_kn: SpeedKn = None,
) -> OffloadedResponse:
    """Estimated positions one minute apart from the given coordinates to the destination port;
    ``meta`` carries the ETA, its range (``eta_p10``, ``eta_p90``) and the speed sailed at."""
    ports = (blank_none(previous_port_id), blank_none(port_id))
    start = (longitude, latitude)
    return await _positions_response(request, caller, vessel_id, start, ports, given, speed_kn)


@router.get(
    "/vessels/{vessel_id}/future_positions", response_class=JsonApiResponse, responses=ERRORS
)
async def future_positions_from_last_position(
    request: Request,
    vessel_id: str,
    caller: RoutingAuth,
    given: Given,
    port_id: PortId = None,
    previous_port_id: PreviousPortId = None,
    speed_kn: SpeedKn = None,
) -> OffloadedResponse:
    """Estimated positions one minute apart from the vessel's last known position; ``meta``
    carries the ETA, its range (``eta_p10``, ``eta_p90``) and the speed sailed at."""
    ports = (blank_none(previous_port_id), blank_none(port_id))
    return await _positions_response(request, caller, vessel_id, None, ports, given, speed_kn)


async def _positions_response(
    request: Request,
    caller: Caller,
    vessel_key: str,
    start: tuple[float, float] | None,
    ports: tuple[str | None, str | None],
    given: Vessel,
    speed_kn: float | None = None,
) -> OffloadedResponse:
    """The vessel document with its positions from ``start`` (None: its last known position)
    between ``ports`` (previous, destination; None: what sealane knows of the voyage); ``meta``
    says which ports and dimensions. Computed and serialised in one trip to the thread pool."""
    ctx = context_of(request)
    query = f"?{request.url.query}" if request.url.query else ""
    endpoint = "future_positions" if start is None else "future_positions_with_coordinates"
    self_link = f"{base_url(request)}/vessels/{quote(vessel_key, safe='')}/{endpoint}{query}"

    def compute() -> PositionsJson:
        found = vessels.vessel_future_positions(
            ctx,
            caller,
            vessel_key,
            previous_port=ports[0],
            destination_port=ports[1],
            start=start,
            given=given,
            speed_kn=speed_kn,
        )
        return _document(found, self_link)

    return OffloadedResponse(compute, media_type=MEDIA_TYPE)


def _document(found: vessels.FutureVoyage, self_link: str) -> PositionsJson:
    """The document: its envelope by orjson around the positions array, which the engine's
    renderer writes straight from the position columns (no dict per position, no copy), whole
    or a piece at a time as the answer is sent."""
    attributes: dict[str, Any] = vessel_attributes(found.vessel) | {"positions": _POSITIONS_SLOT}
    doc = {
        "data": resource("vessel", found.vessel.id, attributes),
        "links": {"self": self_link},
        "meta": found.meta(),
    }
    head, tail = orjson.dumps(doc).split(orjson.dumps(_POSITIONS_SLOT), 1)
    return PositionsJson(found.positions, head=head, tail=tail)

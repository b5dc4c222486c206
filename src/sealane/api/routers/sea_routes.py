"""The paid routing feature's route options: ``GET /v2/sea_route_options``, the shortest sea
route between two places beside the best avoiding each major passage on the way, each timed on
the speed profile (403 without the routing feature, like the future positions)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from ...jsonapi.sea_routes import sea_route_options_document
from ...service.access.gatekeeper import Caller
from ...service.core.engine import MAX_SPEED_KN
from ...service.sea_routes import sea_route_options
from ..jsonapi import JsonApiResponse
from ..listing import DECIMAL, required_text, text
from ..operations import ApiRoute
from ..params import authenticated_routing
from ..render import base_url
from .responses import ERRORS
from .vessels import Given

router = APIRouter(tags=["routing"], route_class=ApiRoute)
#: Authenticated with the routing feature: answered 403 before parameters are even looked at.
RoutingAuth = Annotated[Caller, Depends(authenticated_routing)]
_PLACE = "UN/LOCODE (CNSHA), port id, or 'lon,lat' in degrees"


@router.get("/sea_route_options", response_class=JsonApiResponse, responses=ERRORS)
def list_sea_route_options(
    request: Request,
    _caller: RoutingAuth,
    given: Given,
    origin: Annotated[str, required_text(64, description=f"where from: {_PLACE}")],
    destination: Annotated[str, required_text(64, description=f"where to: {_PLACE}")],
    avoid: Annotated[
        str | None,
        text(
            256,
            description="passages every option avoids, comma-separated (suez,panama); an "
            "unknown name is a 422 naming the known ones",
        ),
    ] = None,
    speed_kn: Annotated[
        float | None,
        Query(
            description="speed in open water, knots (default 14); canals, straits, rivers and "
            "port approaches are sailed at their own speeds",
            gt=0,
            le=MAX_SPEED_KN,
        ),
        DECIMAL,
    ] = None,
) -> JsonApiResponse:
    """The ways between two ports or points, fastest first: the shortest, and the best avoiding
    each major passage it takes (Suez or the Cape, Panama or Magellan, Malacca or Lombok), each
    with its distance, time on the speed profile, passages and path (GeoJSON geometry)."""
    names = [name for name in (avoid or "").split(",") if name.strip()]
    found = sea_route_options(
        _place(origin),
        _place(destination),
        avoid=names,
        speed_kn=speed_kn,
        vessel=given,
    )
    query = f"?{request.url.query}" if request.url.query else ""
    self_link = f"{base_url(request)}/sea_route_options{query}"
    return JsonApiResponse(sea_route_options_document(found, self_link))


def _place(value: str) -> str | tuple[float, float]:
    """'lon,lat' as a coordinate pair, else a port key as given (one no port has is the
    engine's 422 ``unknown_port``, like the future positions' ports)."""
    value = value.strip()
    lon, comma, lat = value.partition(",")
    try:
        return (float(lon), float(lat)) if comma else value
    except ValueError:
        return value

"""``/containers/{id}/route`` and ``/containers/{id}/map_geojson``: the paid routing feature for
containers (403 ``routing_disabled`` before anything else when the account lacks it)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...jsonapi import Included
from ...jsonapi.container_routes import include_route
from ...service.access.gatekeeper import Caller
from ...service.container_routes import reading as routes
from ...service.container_routes.records import ContainerRoute
from ..geojson import GEOJSON, PLAIN_JSON, GeoJsonResponse, geojson_type
from ..jsonapi import JsonApiResponse
from ..listing import include_paths
from ..operations import ApiRoute
from ..params import authenticated_routing, parse_include
from ..render import one
from ..state import context_of
from .responses import ERRORS, FEATURE_COLLECTION_SCHEMA

router = APIRouter(tags=["containers"], route_class=ApiRoute)
#: Authenticated with the routing feature (403 first), then every query parameter checked.
RoutingAuth = Annotated[Caller, Depends(authenticated_routing)]
#: What a route document may include.
Includes = Annotated[str | None, include_paths(routes.INCLUDES)]


@router.get("/containers/{container_id}/route", response_class=JsonApiResponse, responses=ERRORS)
def container_route(
    request: Request, container_id: str, caller: RoutingAuth, include: Includes = None
) -> JsonApiResponse:
    """The container's port calls in order, from the port of lading to the port of discharge;
    ``include`` takes ``port``, ``vessel``, ``terminal``, ``route_location``, ``shipment`` or
    the relationship paths under ``route_locations``."""
    includes = parse_include(include, routes.INCLUDES)
    found = routes.container_route(context_of(request), caller, container_id, includes)

    def render(included: Included, record: ContainerRoute) -> dict[str, Any]:
        return include_route(included, record, includes)

    return one(request, found, render)


@router.get(
    "/containers/{container_id}/map_geojson",
    response_class=GeoJsonResponse,
    responses={
        **ERRORS,
        200: {
            "description": "An RFC 7946 FeatureCollection of the container's route",
            "content": {
                GEOJSON: {"schema": FEATURE_COLLECTION_SCHEMA},
                PLAIN_JSON: {"schema": FEATURE_COLLECTION_SCHEMA},
            },
        },
    },
)
def container_map(request: Request, container_id: str, caller: RoutingAuth) -> GeoJsonResponse:
    """The container's route for a map: ports with their times, the track sailed, the vessel,
    the rest of its leg and the legs to come (``application/geo+json`` when asked for)."""
    found = routes.container_map(context_of(request), caller, container_id)
    return GeoJsonResponse(
        found.to_geojson(),
        media_type=geojson_type(request.headers.get("accept")),
        headers={"Vary": "Accept"},
    )

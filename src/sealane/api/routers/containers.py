"""``/containers``: list, read, edit reference numbers, and each container's events."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...jsonapi import Included
from ...jsonapi.tracking import transport_event_resource
from ...service import containers
from ...service.access import Caller
from ...service.records import ContainerRecord, TransportEventRecord
from ...service.tracking_requests import ListChanges
from ..auth import authenticate
from ..documents import attributes_of
from ..jsonapi import JsonApiResponse
from ..listing import Include, PageNumber, PageSize, Payload
from ..params import parse_include, parse_page
from ..render import many, one
from ..route import ApiRoute
from ..state import context_of
from .responses import ERRORS
from .shipments import Filters, tracking_filter

router = APIRouter(tags=["containers"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticate)]


def render(included: Included, record: ContainerRecord) -> dict[str, Any]:
    """A container, including what it was loaded with."""
    return included.container(record)


@router.get("/containers", response_class=JsonApiResponse, responses=ERRORS)
def list_containers(
    request: Request,
    caller: Auth,
    _filters: Filters,
    include: Include = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """The account's containers, most recently updated first."""
    page = parse_page(request.query_params)  # a bad page is reported before the other parameters
    includes = parse_include(request.query_params, containers.INCLUDES)
    found = containers.list_containers(
        context_of(request), caller, tracking_filter(request), page, includes
    )
    return many(request, found, "containers", render)


@router.get("/containers/{container_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_container(
    request: Request, container_id: str, caller: Auth, include: Include = None
) -> JsonApiResponse:
    """One container."""
    includes = parse_include(request.query_params, containers.INCLUDES)
    found = containers.get_container(context_of(request), caller, container_id, includes)
    return one(request, found, render)


@router.patch("/containers/{container_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_container(
    request: Request, container_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Edit a container's ``ref_numbers`` (its shipment keeps its own)."""
    attributes = attributes_of(payload, "container", id_=container_id)
    changes = ListChanges.of(attributes, containers.EDITABLE)
    found = containers.update_container(context_of(request), caller, container_id, changes)
    return one(request, found, render)


@router.get(
    "/containers/{container_id}/transport_events",
    response_class=JsonApiResponse,
    responses=ERRORS,
)
def container_events(
    request: Request,
    container_id: str,
    caller: Auth,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """A container's transport events in time order."""
    page = parse_page(request.query_params)
    parse_include(request.query_params, ())
    found = containers.list_transport_events(context_of(request), caller, container_id, page)

    def render_event(_included: Included, event: TransportEventRecord) -> dict[str, Any]:
        return transport_event_resource(event, _included.base)

    return many(request, found, f"containers/{container_id}/transport_events", render_event)

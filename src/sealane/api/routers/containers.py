"""``/containers``: list, read, edit reference numbers, each container's transport and raw
events, and an immediate refresh from the carrier."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...jsonapi import Included
from ...jsonapi.tracking import raw_event_resource
from ...service.access.gatekeeper import Caller
from ...service.tracking import containers
from ...service.tracking.records import ContainerRecord, TransportEventRecord
from ...service.tracking.requests import ListChanges
from .. import bodies
from ..bodies import body
from ..documents import attributes_of
from ..jsonapi import JsonApiResponse
from ..listing import KeysetPaging, Paging, include_paths
from ..operations import ApiRoute
from ..params import authenticated, parse_include
from ..render import kept, many, one
from ..state import context_of
from .responses import ERRORS, MESSAGE_SCHEMA, answering
from .shipments import Filters

router = APIRouter(tags=["containers"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
#: What a container document may include.
Includes = Annotated[str | None, include_paths(containers.INCLUDES)]


def render(included: Included, record: ContainerRecord) -> dict[str, Any]:
    """A container, including what it was loaded with."""
    return included.container(record)


@router.get("/containers", response_class=JsonApiResponse, responses=ERRORS)
def list_containers(
    request: Request,
    caller: Auth,
    filters: Filters,
    page: KeysetPaging,
    include: Includes = None,
) -> JsonApiResponse:
    """The account's containers, most recently updated first."""
    paths = parse_include(include, containers.INCLUDES)
    return kept(
        request,
        caller,
        "containers",
        lambda ctx: containers.read_containers(ctx, caller, filters, page, paths),
        render,
    )


@router.get("/containers/{container_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_container(
    request: Request, container_id: str, caller: Auth, include: Includes = None
) -> JsonApiResponse:
    """One container."""
    paths = parse_include(include, containers.INCLUDES)
    found = containers.get_container(context_of(request), caller, container_id, paths)
    return one(request, found, render)


@router.patch("/containers/{container_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_container(
    request: Request,
    container_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.CONTAINER_CHANGES)],
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
    page: Paging,
    include: Annotated[str | None, include_paths(containers.EVENT_INCLUDES)] = None,
) -> JsonApiResponse:
    """A container's transport events in time order; ``include`` may name each event's
    ``shipment``, ``container``, ``location``, ``vessel`` and ``terminal``."""
    paths = parse_include(include, containers.EVENT_INCLUDES)
    found = containers.list_transport_events(context_of(request), caller, container_id, page, paths)

    def render_event(included: Included, event: TransportEventRecord) -> dict[str, Any]:
        return included.transport_event(event, paths)

    return many(request, found, f"containers/{container_id}/transport_events", render_event)


@router.get(
    "/containers/{container_id}/raw_events", response_class=JsonApiResponse, responses=ERRORS
)
def container_raw_events(request: Request, container_id: str, caller: Auth) -> JsonApiResponse:
    """A container's milestones as its carrier states them, planned ones ``estimated``."""
    ctx = context_of(request)
    found = containers.raw_events(ctx, caller, container_id)
    base = ctx.settings.base_url
    return JsonApiResponse({"data": [raw_event_resource(event, base) for event in found]})


@router.patch(
    "/containers/{container_id}/refresh",
    response_class=JsonApiResponse,
    responses=answering(MESSAGE_SCHEMA, "Refreshed"),
)
def refresh_container(request: Request, container_id: str, caller: Auth) -> JsonApiResponse:
    """Ask the carrier about the container's shipment now (10 a minute per account)."""
    found = containers.refresh_container(context_of(request), caller, container_id)
    return JsonApiResponse({"message": f"container {found.number} refreshed"})

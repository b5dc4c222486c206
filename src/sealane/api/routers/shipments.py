"""``/shipments``: list, read, edit reference numbers, stop and resume tracking."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from ...jsonapi import Included
from ...service import shipments
from ...service.access import Caller
from ...service.filters import TrackingFilter
from ...service.records import ShipmentRecord
from ...service.tracking_requests import ListChanges
from ...tracking.events import ContainerStatus
from ..documents import attributes_of
from ..jsonapi import JsonApiResponse
from ..listing import Include, PageNumber, PageSize, Payload
from ..params import (
    authenticated,
    optional_bool,
    optional_enum,
    optional_text,
    optional_time,
    parse_include,
    parse_page,
)
from ..render import many, one
from ..route import ApiRoute
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["shipments"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]


class TrackingFilters:
    """The filters shipments and containers share, declared once for OpenAPI (the values are
    read from the query string by :func:`tracking_filter`)."""

    def __init__(
        self,
        status: Annotated[str | None, Query(alias="filter[status]")] = None,
        pod_locode: Annotated[str | None, Query(alias="filter[pod_locode]")] = None,
        scac: Annotated[str | None, Query(alias="filter[shipping_line_scac]")] = None,
        updated_start: Annotated[str | None, Query(alias="filter[updated_at][start]")] = None,
        number: Annotated[str | None, Query(alias="filter[number]")] = None,
        stopped: Annotated[str | None, Query(alias="filter[tracking_stopped]")] = None,
        q: Annotated[str | None, Query(description="part of a number", deprecated=True)] = None,
        request_number: Annotated[
            str | None, Query(alias="number", description="the number tracking was asked for")
        ] = None,
    ) -> None:
        self.status, self.pod_locode, self.scac = status, pod_locode, scac
        self.updated_start, self.number, self.stopped = updated_start, number, stopped
        self.q, self.request_number = q, request_number


Filters = Annotated[TrackingFilters, Depends()]


def tracking_filter(request: Request) -> TrackingFilter:
    """The shipment and container filters of the query string."""
    params = request.query_params
    return TrackingFilter(
        status=optional_enum(params, "filter[status]", ContainerStatus),
        pod_locode=optional_text(params, "filter[pod_locode]", max_length=5),
        scac=optional_text(params, "filter[shipping_line_scac]", max_length=4),
        updated_from=optional_time(params, "filter[updated_at][start]"),
        number=optional_text(params, "filter[number]"),
        request_number=optional_text(params, "number"),
        text=optional_text(params, "q"),
        tracking_stopped=optional_bool(params, "filter[tracking_stopped]"),
    )


def renderer(includes: list[str]) -> Any:
    """Renders a shipment, including what ``includes`` names."""

    def render(included: Included, record: ShipmentRecord) -> dict[str, Any]:
        return included.shipment(record, includes)

    return render


@router.get("/shipments", response_class=JsonApiResponse, responses=ERRORS)
def list_shipments(
    request: Request,
    caller: Auth,
    _filters: Filters,
    include: Include = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """The account's shipments, most recently updated first."""
    page = parse_page(request.query_params)  # a bad page is reported before the other parameters
    includes = parse_include(request.query_params, shipments.INCLUDES)
    found = shipments.list_shipments(
        context_of(request), caller, tracking_filter(request), page, includes
    )
    return many(request, found, "shipments", renderer(includes))


@router.get("/shipments/{shipment_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_shipment(
    request: Request, shipment_id: str, caller: Auth, include: Include = None
) -> JsonApiResponse:
    """One shipment with its containers."""
    includes = parse_include(request.query_params, shipments.INCLUDES)
    found = shipments.get_shipment(context_of(request), caller, shipment_id, includes)
    return one(request, found, renderer(includes))


@router.patch("/shipments/{shipment_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_shipment(
    request: Request, shipment_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Edit a shipment's ``ref_numbers`` (its containers keep their own) and ``tags``."""
    attributes = attributes_of(payload, "shipment", id_=shipment_id)
    changes = ListChanges.of(attributes, shipments.EDITABLE)
    found = shipments.update_shipment(context_of(request), caller, shipment_id, changes)
    return one(request, found, renderer([]))


@router.patch(
    "/shipments/{shipment_id}/stop_tracking", response_class=JsonApiResponse, responses=ERRORS
)
def stop_shipment(request: Request, shipment_id: str, caller: Auth) -> JsonApiResponse:
    """Stop tracking a shipment (its tracking request becomes tracking_stopped)."""
    found = shipments.set_tracking(context_of(request), caller, shipment_id, stop=True)
    return one(request, found, renderer([]))


@router.patch(
    "/shipments/{shipment_id}/resume_tracking", response_class=JsonApiResponse, responses=ERRORS
)
def resume_shipment(request: Request, shipment_id: str, caller: Auth) -> JsonApiResponse:
    """Track a stopped shipment again."""
    found = shipments.set_tracking(context_of(request), caller, shipment_id, stop=False)
    return one(request, found, renderer([]))

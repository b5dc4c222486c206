"""``/tracking_requests``: start tracking a number, list, read and edit requests, infer a number."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from ...jsonapi import Included
from ...jsonapi.lookups import inference_resource
from ...service import numbers
from ...service import tracking_requests as requests
from ...service.access import Caller
from ...service.records import TrackingRequestRecord
from ...tracking.lifecycle import REQUEST_TYPES, RequestStatus
from ..documents import attributes_of, relationship_id
from ..jsonapi import JsonApiResponse
from ..listing import Include, PageNumber, PageSize, Payload
from ..params import (
    authenticated,
    optional_choice,
    optional_enum,
    optional_text,
    optional_time,
    parse_include,
    parse_page,
    plain_object,
)
from ..render import many, one
from ..route import ApiRoute
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["tracking_requests"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]


def render(included: Included, record: TrackingRequestRecord) -> dict[str, object]:
    """A tracking request with its shipment, when it was loaded."""
    return included.tracking_request(record)


@router.post(
    "/tracking_requests", status_code=201, response_class=JsonApiResponse, responses=ERRORS
)
def create_request(request: Request, caller: Auth, payload: Payload) -> JsonApiResponse:
    """Start tracking a BL, booking or container number with a carrier (201, status pending).

    ``auto_detect_vocc_scac`` without a ``scac`` infers the carrier from the number;
    ``relationships.customer`` names a party; ``shipment_tags`` and ``initial_custom_fields``
    are set on the shipment once found.
    """
    new = requests.NewTrackingRequest.of(
        attributes_of(payload, "tracking_request"),
        customer_id=relationship_id(payload, "customer", "party"),
    )
    created = requests.create_request(context_of(request), caller, new)
    return one(request, created, render, status_code=201)


@router.post("/tracking_requests/infer_number", response_class=JsonApiResponse, responses=ERRORS)
def infer_number(request: Request, _caller: Auth, payload: Payload) -> JsonApiResponse:
    """The kind of a number (container, bill of lading, booking) and its likely carriers; the
    body is ``{"number": "..."}``."""
    number = numbers.number_text(plain_object(request, payload).get("number"))
    found = numbers.infer_number(context_of(request), number)
    return JsonApiResponse({"data": inference_resource(number, found)})


@router.get("/tracking_requests", response_class=JsonApiResponse, responses=ERRORS)
def list_requests(
    request: Request,
    caller: Auth,
    q: Annotated[str | None, Query()] = None,
    status: Annotated[str | None, Query(alias="filter[status]")] = None,
    request_type: Annotated[str | None, Query(alias="filter[request_type]")] = None,
    scac: Annotated[str | None, Query(alias="filter[scac]")] = None,
    number: Annotated[str | None, Query(alias="filter[request_number]")] = None,
    created_start: Annotated[str | None, Query(alias="filter[created_at][start]")] = None,
    created_end: Annotated[str | None, Query(alias="filter[created_at][end]")] = None,
    updated_start: Annotated[str | None, Query(alias="filter[updated_at][start]")] = None,
    updated_end: Annotated[str | None, Query(alias="filter[updated_at][end]")] = None,
    include: Include = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """The account's tracking requests, newest first (``tracked_object`` included unless
    ``include`` says otherwise)."""
    params = request.query_params
    page = parse_page(params)  # a bad page is reported before the other parameters
    includes = parse_include(params, requests.INCLUDES, requests.DEFAULT_INCLUDES)
    filters = requests.RequestFilter(
        status=optional_enum(params, "filter[status]", RequestStatus),
        request_type=optional_choice(params, "filter[request_type]", REQUEST_TYPES),
        scac=optional_text(params, "filter[scac]"),
        number=optional_text(params, "filter[request_number]"),
        created_from=optional_time(params, "filter[created_at][start]"),
        created_to=optional_time(params, "filter[created_at][end]"),
        updated_from=optional_time(params, "filter[updated_at][start]"),
        updated_to=optional_time(params, "filter[updated_at][end]"),
        text=optional_text(params, "q"),
    )
    found = requests.list_requests(context_of(request), caller, filters, page, includes)
    return many(request, found, "tracking_requests", render)


@router.get("/tracking_requests/{request_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_request(
    request: Request, request_id: str, caller: Auth, include: Include = None
) -> JsonApiResponse:
    """One tracking request; its shipment (``tracked_object``) is included unless ``include``
    says otherwise."""
    includes = parse_include(request.query_params, requests.INCLUDES, requests.DEFAULT_INCLUDES)
    return one(
        request, requests.get_request(context_of(request), caller, request_id, includes), render
    )


@router.patch("/tracking_requests/{request_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_request(
    request: Request, request_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Edit a tracking request's ``ref_numbers`` (or one ``ref_number``) and ``tags``."""
    attributes = attributes_of(payload, "tracking_request", id_=request_id)
    changes = requests.ListChanges.of(attributes, requests.EDITABLE)
    return one(
        request, requests.update_request(context_of(request), caller, request_id, changes), render
    )

"""``/tracking_requests``: start tracking a number, list, read and edit requests, infer a number."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from ...jsonapi import Included
from ...jsonapi.lookups import inference_resource
from ...service.access.gatekeeper import Caller
from ...service.tracking import numbers, requests
from ...service.tracking.records import TrackingRequestRecord
from ...vocabulary.statuses import REQUEST_TYPES, RequestStatus
from .. import bodies
from ..bodies import body
from ..documents import attributes_of, relationship_id
from ..jsonapi import JsonApiResponse
from ..listing import INSTANT, KeysetPaging, choice, include_paths, moment, text
from ..operations import ApiRoute
from ..params import authenticated, blank_none, parse_include, plain_object
from ..render import kept, one
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["tracking_requests"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
#: What a tracking request document may include.
Includes = Annotated[
    str | None, include_paths(requests.INCLUDES, default=requests.DEFAULT_INCLUDES)
]


def render(included: Included, record: TrackingRequestRecord) -> dict[str, object]:
    """A tracking request with its shipment, when it was loaded."""
    return included.tracking_request(record)


@router.post(
    "/tracking_requests", status_code=201, response_class=JsonApiResponse, responses=ERRORS
)
def create_request(
    request: Request, caller: Auth, payload: Annotated[Any, body(bodies.NEW_TRACKING_REQUEST)]
) -> JsonApiResponse:
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
def infer_number(
    request: Request, _caller: Auth, payload: Annotated[Any, body(bodies.INFER_NUMBER)]
) -> JsonApiResponse:
    """The kind of a number (container, bill of lading, booking) and its likely carriers; the
    body is ``{"number": "..."}``."""
    number = numbers.number_text(plain_object(request, payload).get("number"))
    found = numbers.infer_number(context_of(request), number)
    return JsonApiResponse({"data": inference_resource(number, found)})


def request_filter(
    q: Annotated[str | None, text()] = None,
    status: Annotated[RequestStatus | None, Query(alias="filter[status]")] = None,
    request_type: Annotated[str | None, choice(REQUEST_TYPES, alias="filter[request_type]")] = None,
    scac: Annotated[str | None, text(alias="filter[scac]")] = None,
    number: Annotated[str | None, text(alias="filter[request_number]")] = None,
    created_from: Annotated[datetime | None, moment("filter[created_at][start]"), INSTANT] = None,
    created_to: Annotated[datetime | None, moment("filter[created_at][end]"), INSTANT] = None,
    updated_from: Annotated[datetime | None, moment("filter[updated_at][start]"), INSTANT] = None,
    updated_to: Annotated[datetime | None, moment("filter[updated_at][end]"), INSTANT] = None,
) -> requests.RequestFilter:
    """The filters of the tracking request list."""
    return requests.RequestFilter(
        status=status,
        request_type=request_type,
        scac=blank_none(scac),
        number=blank_none(number),
        created_from=created_from,
        created_to=created_to,
        updated_from=updated_from,
        updated_to=updated_to,
        text=blank_none(q),
    )


@router.get("/tracking_requests", response_class=JsonApiResponse, responses=ERRORS)
def list_requests(
    request: Request,
    caller: Auth,
    filters: Annotated[requests.RequestFilter, Depends(request_filter)],
    page: KeysetPaging,
    include: Includes = None,
) -> JsonApiResponse:
    """The account's tracking requests, newest first (``tracked_object`` included unless
    ``include`` says otherwise)."""
    paths = parse_include(include, requests.INCLUDES, requests.DEFAULT_INCLUDES)
    return kept(
        request,
        caller,
        "tracking_requests",
        lambda ctx: requests.read_requests(ctx, caller, filters, page, paths),
        render,
    )


@router.get("/tracking_requests/{request_id:id}", response_class=JsonApiResponse, responses=ERRORS)
def get_request(
    request: Request, request_id: str, caller: Auth, include: Includes = None
) -> JsonApiResponse:
    """One tracking request; its shipment (``tracked_object``) is included unless ``include``
    says otherwise."""
    paths = parse_include(include, requests.INCLUDES, requests.DEFAULT_INCLUDES)
    return one(
        request, requests.get_request(context_of(request), caller, request_id, paths), render
    )


@router.patch(
    "/tracking_requests/{request_id:id}", response_class=JsonApiResponse, responses=ERRORS
)
def update_request(
    request: Request,
    request_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.TRACKING_REQUEST_CHANGES)],
) -> JsonApiResponse:
    """Edit a tracking request's ``ref_numbers`` (or one ``ref_number``) and ``tags``."""
    attributes = attributes_of(payload, "tracking_request", id_=request_id)
    changes = requests.ListChanges.of(attributes, requests.EDITABLE)
    return one(
        request, requests.update_request(context_of(request), caller, request_id, changes), render
    )

"""``/shipments``: list, read, edit reference numbers, stop and resume tracking."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from ...jsonapi import Included
from ...service.access.gatekeeper import Caller
from ...service.tracking import shipments
from ...service.tracking.filters import FilterTerms, TrackingFilter, read_filter
from ...service.tracking.records import ShipmentRecord
from ...service.tracking.requests import ListChanges
from ...vocabulary.statuses import ContainerStatus
from .. import bodies
from ..bodies import body
from ..documents import attributes_of
from ..jsonapi import JsonApiResponse
from ..listing import FLAG, INSTANT, KeysetPaging, include_paths, moment, text
from ..operations import ApiRoute
from ..params import authenticated, blank_none, parse_include
from ..render import kept, one
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["shipments"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
#: Longest port and carrier filters (a name; a UN/LOCODE or SCAC is shorter).
PORT_CHARS = CARRIER_CHARS = 100


def tracking_filter(
    request: Request,
    status: Annotated[ContainerStatus | None, Query(alias="filter[status]")] = None,
    port: Annotated[
        str | None,
        text(
            PORT_CHARS,
            alias="filter[pod_locode]",
            description="port of discharge: UN/LOCODE, port id or the exact name of one port",
        ),
    ] = None,
    carrier: Annotated[
        str | None,
        text(
            CARRIER_CHARS,
            alias="filter[shipping_line_scac]",
            description="carrier: SCAC, or a name matching one carrier",
        ),
    ] = None,
    updated_from: Annotated[datetime | None, moment("filter[updated_at][start]"), INSTANT] = None,
    number: Annotated[str | None, text(alias="filter[number]")] = None,
    stopped: Annotated[bool | None, Query(alias="filter[tracking_stopped]"), FLAG] = None,
    q: Annotated[str | None, text(description="part of a number", deprecated=True)] = None,
    request_number: Annotated[
        str | None, text(alias="number", description="the number tracking was asked for")
    ] = None,
) -> TrackingFilter:
    """The filters shipments and containers share, parsed as every shell parses them (a port or
    carrier that names nothing is kept as written, so it matches nothing, as before)."""
    terms = FilterTerms(
        status=status,
        port=blank_none(port),
        carrier=blank_none(carrier),
        updated_from=updated_from,
        number=blank_none(number),
        request_number=blank_none(request_number),
        text=blank_none(q),
        tracking_stopped=stopped,
    )
    return read_filter(context_of(request), terms)


Filters = Annotated[TrackingFilter, Depends(tracking_filter)]
#: What a shipment document may include.
Includes = Annotated[str | None, include_paths(shipments.INCLUDES)]


def renderer(includes: list[str]) -> Any:
    """Renders a shipment, including what ``includes`` names."""

    def render(included: Included, record: ShipmentRecord) -> dict[str, Any]:
        return included.shipment(record, includes)

    return render


@router.get("/shipments", response_class=JsonApiResponse, responses=ERRORS)
def list_shipments(
    request: Request, caller: Auth, filters: Filters, page: KeysetPaging, include: Includes = None
) -> JsonApiResponse:
    """The account's shipments, most recently updated first."""
    paths = parse_include(include, shipments.INCLUDES)
    return kept(
        request,
        caller,
        "shipments",
        lambda ctx: shipments.read_shipments(ctx, caller, filters, page, paths),
        renderer(paths),
    )


@router.get("/shipments/{shipment_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_shipment(
    request: Request, shipment_id: str, caller: Auth, include: Includes = None
) -> JsonApiResponse:
    """One shipment with its containers."""
    paths = parse_include(include, shipments.INCLUDES)
    found = shipments.get_shipment(context_of(request), caller, shipment_id, paths)
    return one(request, found, renderer(paths))


@router.patch("/shipments/{shipment_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_shipment(
    request: Request,
    shipment_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.SHIPMENT_CHANGES)],
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

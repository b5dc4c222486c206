"""Tracking requests, shipments and containers: every query is scoped to the caller's account."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import String, cast, func, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from ...routing.ports import registry
from ...store.database import transaction
from ...store.models import (
    Container,
    Shipment,
    ShippingLine,
    Terminal,
    TrackingRequest,
    TransportEvent,
    Vessel,
)
from ...tracking.events import ContainerStatus
from ...tracking.lifecycle import RequestStatus
from ...tracking.numbers import normalize_container_number
from ...tracking.requests import (
    REQUEST_TYPES,
    InvalidInput,
    create_tracking_request,
    string_list,
    validate_new,
)
from ...tracking.service import resume_tracking, stop_tracking
from ..auth import Caller, authenticate
from ..documents import attributes_of
from ..errors import BadRequest, Unprocessable
from ..jsonapi import JsonApiResponse, list_document, parse_include, parse_page
from ..listing import Include, PageNumber, PageSize, Payload, owned, paged
from ..params import like_pattern, optional_text
from ..resources import port_resource, terminal_resource, vessel_resource
from ..state import state_of
from ..tracking_resources import (
    container_resource,
    shipment_resource,
    tracking_request_resource,
    transport_event_resource,
)
from .responses import ERRORS

router = APIRouter()
Auth = Annotated[Caller, Depends(authenticate)]
Filter = Annotated[str | None, Query()]

REQUEST_INCLUDES = ("tracked_object", "tracked_object.containers")
SHIPMENT_INCLUDES = (
    "containers",
    "containers.transport_events",
    "port_of_lading",
    "port_of_discharge",
    "pod_terminal",
    "pod_vessel",
)
CONTAINER_INCLUDES = ("shipment", "pod_terminal", "transport_events")


# -- documents ---------------------------------------------------------------------------------


class Documents:
    """Builds resources and ``included`` for one request, loading related rows once."""

    def __init__(self, session: Session, base_url: str) -> None:
        self.session = session
        self.base = base_url
        self.included: dict[tuple[str, str], dict[str, Any]] = {}

    def shipment(self, shipment: Shipment, includes: Sequence[str] = ()) -> dict[str, Any]:
        containers = self.session.scalars(
            select(Container).where(Container.shipment_id == shipment.id).order_by(Container.number)
        ).all()
        vessel = (
            self.session.get(Vessel, shipment.pod_vessel_id) if shipment.pod_vessel_id else None
        )
        line = self.session.scalar(
            select(ShippingLine).where(ShippingLine.scac == shipment.shipping_line_scac)
        )
        if "containers" in includes or "containers.transport_events" in includes:
            for container in containers:
                self._add(
                    self.container(
                        container,
                        ("transport_events",) if "containers.transport_events" in includes else (),
                    )
                )
        if "port_of_lading" in includes:
            self._add(port_resource(registry().get(shipment.port_of_lading_locode), self.base))
        if "port_of_discharge" in includes:
            self._add(port_resource(registry().get(shipment.port_of_discharge_locode), self.base))
        if "pod_terminal" in includes and shipment.pod_terminal_id:
            self._terminal(shipment.pod_terminal_id)
        if "pod_vessel" in includes and vessel is not None:
            self._add(vessel_resource(vessel, self.base))
        return shipment_resource(
            shipment, self.base, container_ids=[c.id for c in containers], vessel=vessel, line=line
        )

    def container(self, container: Container, includes: Sequence[str] = ()) -> dict[str, Any]:
        shipment = self.session.get(Shipment, container.shipment_id)
        events = self.session.scalars(
            select(TransportEvent)
            .where(TransportEvent.container_id == container.id)
            .order_by(TransportEvent.timestamp, TransportEvent.sequence)
        ).all()
        if "shipment" in includes and shipment is not None:
            self._add(self.shipment(shipment))
        if "pod_terminal" in includes and container.pod_terminal_id:
            self._terminal(container.pod_terminal_id)
        if "transport_events" in includes:
            for event in events:
                self._add(transport_event_resource(event, self.base))
        pod = shipment.port_of_discharge_locode if shipment else None
        return container_resource(
            container, self.base, pod_locode=pod, event_ids=[e.id for e in events]
        )

    def tracking_request(
        self, request: TrackingRequest, includes: Sequence[str] = ()
    ) -> dict[str, Any]:
        if request.shipment_id and (
            "tracked_object" in includes or "tracked_object.containers" in includes
        ):
            shipment = self.session.get(Shipment, request.shipment_id)
            if shipment is not None:
                nested = ("containers",) if "tracked_object.containers" in includes else ()
                self._add(self.shipment(shipment, nested))
        return tracking_request_resource(request, self.base)

    def _terminal(self, terminal_id: str) -> None:
        terminal = self.session.get(Terminal, terminal_id)
        if terminal is not None:
            self._add(terminal_resource(terminal, self.base))

    def _add(self, obj: dict[str, Any]) -> None:
        self.included.setdefault((obj["type"], obj["id"]), obj)

    def single(self, data: dict[str, Any]) -> dict[str, Any]:
        doc: dict[str, Any] = {"data": data, "links": {"self": data["links"]["self"]}}
        if self.included:
            doc["included"] = list(self.included.values())
        return doc


def list_response(
    request: Request,
    query: Select[Any],
    path: str,
    render: Callable[[Any, Any], dict[str, Any]],
    *,
    documents: type[Documents] | None = None,
) -> JsonApiResponse:
    """A paginated collection document: ``render(docs, row)`` gives each resource, and what the
    documents collect along the way becomes ``included``."""
    params = request.query_params
    page = parse_page(params)
    state = state_of(request)
    base = state.settings.base_url
    with state.sessions() as session:
        total, rows = paged(session, query, page)
        docs = (documents or Documents)(session, base)
        data = [render(docs, row) for row in rows]
    included = list(docs.included.values())
    return JsonApiResponse(
        list_document(
            data,
            self_url=f"{base}/{path}",
            params=params,
            page=page,
            total=total,
            included=included,
        )
    )


# -- shared parsing ------------------------------------------------------------------------------


def _time_filter(request: Request, name: str) -> datetime | None:
    raw = optional_text(request.query_params, name, max_length=40)
    if raw is None:
        return None
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise BadRequest(
            f"{name} must be an ISO 8601 date-time, got {raw!r}",
            parameter=name,
            code="invalid_parameter",
        ) from None
    if moment.tzinfo is None:
        raise BadRequest(
            f"{name} must carry a time zone (e.g. Z), got {raw!r}",
            parameter=name,
            code="invalid_parameter",
        )
    return moment


def _json_array_contains(column: Any, value: str) -> Any:
    """Rows whose JSON array ``column`` holds the string ``value`` (portable: a text match on
    the value as JSON encodes it, so quotes and non-ASCII letters are found too)."""
    return func.lower(cast(column, String)).like(like_pattern(json.dumps(value)), escape="\\")


# -- tracking requests ---------------------------------------------------------------------------


@router.post(
    "/tracking_requests",
    status_code=201,
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["tracking_requests"],
)
def create_request(request: Request, caller: Auth, payload: Payload) -> JsonApiResponse:
    """Start tracking a BL, booking or container number with a carrier (201, status pending)."""
    attributes = attributes_of(payload, "tracking_request")
    state = state_of(request)
    try:
        with transaction(state.sessions) as session:
            new = validate_new(session, caller.account_id, attributes)
            created = create_tracking_request(session, caller.account_id, new, state.clock.now())
            doc = Documents(session, state.settings.base_url).single(
                tracking_request_resource(created, state.settings.base_url)
            )
    except InvalidInput as error:
        raise Unprocessable(error.detail, pointer=error.pointer, code=error.code) from None
    return JsonApiResponse(doc, status_code=201, headers={"Location": doc["links"]["self"]})


@router.get(
    "/tracking_requests",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["tracking_requests"],
)
def list_requests(
    request: Request,
    caller: Auth,
    status: Annotated[str | None, Query(alias="filter[status]")] = None,
    request_type: Annotated[str | None, Query(alias="filter[request_type]")] = None,
    scac: Annotated[str | None, Query(alias="filter[scac]")] = None,
    number: Annotated[str | None, Query(alias="filter[request_number]")] = None,
    created_start: Annotated[str | None, Query(alias="filter[created_at][start]")] = None,
    created_end: Annotated[str | None, Query(alias="filter[created_at][end]")] = None,
    include: Include = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """The account's tracking requests, newest first."""
    params = request.query_params
    parse_page(params)  # a bad page is reported before the other parameters
    includes = parse_include(params, REQUEST_INCLUDES)
    query = select(TrackingRequest).where(TrackingRequest.account_id == caller.account_id)
    if value := optional_text(params, "filter[status]"):
        _one_of(value, "filter[status]", [s.value for s in RequestStatus])
        query = query.where(TrackingRequest.status == value)
    if value := optional_text(params, "filter[request_type]"):
        _one_of(value, "filter[request_type]", REQUEST_TYPES)
        query = query.where(TrackingRequest.request_type == value)
    if value := optional_text(params, "filter[scac]"):
        query = query.where(TrackingRequest.scac == value.upper())
    if value := optional_text(params, "filter[request_number]"):
        forms = {value.upper(), normalize_container_number(value)}
        query = query.where(func.upper(TrackingRequest.request_number).in_(forms))
    if start := _time_filter(request, "filter[created_at][start]"):
        query = query.where(TrackingRequest.created_at >= start)
    if end := _time_filter(request, "filter[created_at][end]"):
        query = query.where(TrackingRequest.created_at <= end)
    return list_response(
        request,
        query.order_by(TrackingRequest.created_at.desc(), TrackingRequest.id),
        "tracking_requests",
        lambda docs, row: docs.tracking_request(row, includes),
    )


@router.get(
    "/tracking_requests/{request_id}",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["tracking_requests"],
)
def get_request(
    request: Request, request_id: str, caller: Auth, include: Include = None
) -> JsonApiResponse:
    """One tracking request; ``include=tracked_object`` adds its shipment."""
    includes = parse_include(request.query_params, REQUEST_INCLUDES)
    state = state_of(request)
    with state.sessions() as session:
        row = owned(session, TrackingRequest, request_id, caller, "tracking request")
        docs = Documents(session, state.settings.base_url)
        doc = docs.single(docs.tracking_request(row, includes))
    return JsonApiResponse(doc)


@router.patch(
    "/tracking_requests/{request_id}",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["tracking_requests"],
)
def update_request(
    request: Request, request_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Edit a tracking request's ``ref_numbers`` and ``tags``."""
    return _edit_lists(
        request,
        payload,
        caller,
        TrackingRequest,
        request_id,
        ("ref_numbers", "tags"),
        lambda docs, row: docs.tracking_request(row),
    )


#: JSON:API type and human name of each editable model.
_KINDS: dict[type[Any], tuple[str, str]] = {
    TrackingRequest: ("tracking_request", "tracking request"),
    Shipment: ("shipment", "shipment"),
    Container: ("container", "container"),
}


def _edit_lists(
    request: Request,
    payload: Any,
    caller: Caller,
    model: type[Any],
    object_id: str,
    editable: tuple[str, ...],
    render: Callable[[Documents, Any], dict[str, Any]],
) -> JsonApiResponse:
    """PATCH of string-list attributes (reference numbers, tags) of one owned object."""
    type_, kind = _KINDS[model]
    attributes = attributes_of(payload, type_, id_=object_id)
    _only(attributes, editable)
    state = state_of(request)
    with transaction(state.sessions) as session:
        row = owned(session, model, object_id, caller, kind)
        for name in editable:
            if name in attributes:
                setattr(row, name, _strings(attributes[name], name))
        row.updated_at = state.clock.now()
        docs = Documents(session, state.settings.base_url)
        doc = docs.single(render(docs, row))
    return JsonApiResponse(doc)


def _one_of(value: str, name: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise BadRequest(
            f"{name} must be one of {', '.join(allowed)}, got {value!r}",
            parameter=name,
            code="invalid_parameter",
        )


def _only(attributes: dict[str, Any], editable: tuple[str, ...]) -> None:
    for name in attributes:
        if name not in editable:
            raise Unprocessable(
                f"{name} cannot be changed; editable: {', '.join(editable)}",
                pointer=f"/data/attributes/{name}",
                code="read_only",
            )


def _strings(value: Any, name: str) -> list[str]:
    try:
        return string_list(value, name)
    except InvalidInput as error:
        raise Unprocessable(error.detail, pointer=error.pointer, code=error.code) from None


# -- shipments and containers --------------------------------------------------------------------


class TrackingFilters:
    """The filters shipments and containers share, declared once for OpenAPI.

    The values are read again from the query string by :func:`_tracking_filters`.
    """

    def __init__(
        self,
        status: Annotated[str | None, Query(alias="filter[status]")] = None,
        pod_locode: Annotated[str | None, Query(alias="filter[pod_locode]")] = None,
        scac: Annotated[str | None, Query(alias="filter[shipping_line_scac]")] = None,
        updated_start: Annotated[str | None, Query(alias="filter[updated_at][start]")] = None,
        number: Annotated[str | None, Query(alias="filter[number]")] = None,
    ) -> None:
        self.status, self.pod_locode, self.scac = status, pod_locode, scac
        self.updated_start, self.number = updated_start, number


def _tracking_filters(request: Request, query: Select[Any], *, containers: bool) -> Select[Any]:
    """The filters shared by shipments and containers (the latter joined to their shipment)."""
    params = request.query_params
    if value := optional_text(params, "filter[status]"):
        if value not in {s.value for s in ContainerStatus}:
            raise BadRequest(
                f"filter[status] {value!r} is not a container status",
                parameter="filter[status]",
                code="invalid_parameter",
            )
        if containers:
            query = query.where(Container.current_status == value)
        else:
            owned = select(Container.shipment_id).where(Container.current_status == value)
            query = query.where(Shipment.id.in_(owned))
    if value := optional_text(params, "filter[pod_locode]", max_length=5):
        query = query.where(Shipment.port_of_discharge_locode == value.upper())
    if value := optional_text(params, "filter[shipping_line_scac]", max_length=4):
        query = query.where(Shipment.shipping_line_scac == value.upper())
    if start := _time_filter(request, "filter[updated_at][start]"):
        query = query.where((Container.updated_at if containers else Shipment.updated_at) >= start)
    if value := optional_text(params, "filter[number]"):
        text = value.strip()
        compact = text.replace(" ", "").replace("-", "").upper()
        by_container = select(Container.shipment_id).where(
            or_(
                Container.number == compact,
                _json_array_contains(Container.ref_numbers, text),
            )
        )
        shipment_match = or_(
            func.upper(Shipment.bill_of_lading_number) == text.upper(),
            func.upper(Shipment.booking_number) == text.upper(),
            _json_array_contains(Shipment.ref_numbers, text),
        )
        if containers:
            query = query.where(
                or_(
                    shipment_match,
                    Container.number == compact,
                    _json_array_contains(Container.ref_numbers, text),
                )
            )
        else:
            query = query.where(or_(shipment_match, Shipment.id.in_(by_container)))
    return query


@router.get("/shipments", response_class=JsonApiResponse, responses=ERRORS, tags=["shipments"])
def list_shipments(
    request: Request,
    caller: Auth,
    _filters: Annotated[TrackingFilters, Depends()],
    include: Include = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """The account's shipments, most recently updated first."""
    params = request.query_params
    parse_page(params)  # a bad page is reported before the other parameters
    includes = parse_include(params, SHIPMENT_INCLUDES)
    query = _tracking_filters(
        request, select(Shipment).where(Shipment.account_id == caller.account_id), containers=False
    )
    return list_response(
        request,
        query.order_by(Shipment.updated_at.desc(), Shipment.id),
        "shipments",
        lambda docs, row: docs.shipment(row, includes),
    )


@router.get(
    "/shipments/{shipment_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["shipments"]
)
def get_shipment(
    request: Request, shipment_id: str, caller: Auth, include: Include = None
) -> JsonApiResponse:
    """One shipment with its containers."""
    includes = parse_include(request.query_params, SHIPMENT_INCLUDES)
    state = state_of(request)
    with state.sessions() as session:
        row = owned(session, Shipment, shipment_id, caller, "shipment")
        docs = Documents(session, state.settings.base_url)
        doc = docs.single(docs.shipment(row, includes))
    return JsonApiResponse(doc)


@router.patch(
    "/shipments/{shipment_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["shipments"]
)
def update_shipment(
    request: Request, shipment_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Edit a shipment's ``ref_numbers`` (its containers keep their own)."""
    return _edit_lists(
        request,
        payload,
        caller,
        Shipment,
        shipment_id,
        ("ref_numbers",),
        lambda docs, row: docs.shipment(row),
    )


@router.patch(
    "/shipments/{shipment_id}/stop_tracking",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["shipments"],
)
def stop_shipment(request: Request, shipment_id: str, caller: Auth) -> JsonApiResponse:
    """Stop tracking a shipment (its tracking request becomes tracking_stopped)."""
    return _set_tracking(request, shipment_id, caller, stop=True)


@router.patch(
    "/shipments/{shipment_id}/resume_tracking",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["shipments"],
)
def resume_shipment(request: Request, shipment_id: str, caller: Auth) -> JsonApiResponse:
    """Track a stopped shipment again."""
    return _set_tracking(request, shipment_id, caller, stop=False)


def _set_tracking(
    request: Request, shipment_id: str, caller: Auth, *, stop: bool
) -> JsonApiResponse:
    state = state_of(request)
    with transaction(state.sessions) as session:
        row = owned(session, Shipment, shipment_id, caller, "shipment")
        (stop_tracking if stop else resume_tracking)(session, row, state.clock.now())
        docs = Documents(session, state.settings.base_url)
        doc = docs.single(docs.shipment(row))
    return JsonApiResponse(doc)


@router.get("/containers", response_class=JsonApiResponse, responses=ERRORS, tags=["containers"])
def list_containers(
    request: Request,
    caller: Auth,
    _filters: Annotated[TrackingFilters, Depends()],
    include: Include = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """The account's containers, most recently updated first."""
    params = request.query_params
    parse_page(params)  # a bad page is reported before the other parameters
    includes = parse_include(params, CONTAINER_INCLUDES)
    base_query = (
        select(Container)
        .join(Shipment, Shipment.id == Container.shipment_id)
        .where(Container.account_id == caller.account_id)
    )
    query = _tracking_filters(request, base_query, containers=True)
    return list_response(
        request,
        query.order_by(Container.updated_at.desc(), Container.id),
        "containers",
        lambda docs, row: docs.container(row, includes),
    )


@router.get(
    "/containers/{container_id}",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["containers"],
)
def get_container(
    request: Request, container_id: str, caller: Auth, include: Include = None
) -> JsonApiResponse:
    """One container."""
    includes = parse_include(request.query_params, CONTAINER_INCLUDES)
    state = state_of(request)
    with state.sessions() as session:
        row = owned(session, Container, container_id, caller, "container")
        docs = Documents(session, state.settings.base_url)
        doc = docs.single(docs.container(row, includes))
    return JsonApiResponse(doc)


@router.patch(
    "/containers/{container_id}",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["containers"],
)
def update_container(
    request: Request, container_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Edit a container's ``ref_numbers`` (its shipment keeps its own)."""
    return _edit_lists(
        request,
        payload,
        caller,
        Container,
        container_id,
        ("ref_numbers",),
        lambda docs, row: docs.container(row),
    )


@router.get(
    "/containers/{container_id}/transport_events",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["containers"],
)
def container_events(
    request: Request,
    container_id: str,
    caller: Auth,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """A container's transport events in time order."""
    params = request.query_params
    page = parse_page(params)
    parse_include(params, ())
    state = state_of(request)
    with state.sessions() as session:
        owned(session, Container, container_id, caller, "container")
        query = (
            select(TransportEvent)
            .where(TransportEvent.container_id == container_id)
            .order_by(TransportEvent.timestamp, TransportEvent.sequence)
        )
        total, rows = paged(session, query, page)
        data = [transport_event_resource(row, state.settings.base_url) for row in rows]
    base = state.settings.base_url
    return JsonApiResponse(
        list_document(
            data,
            self_url=f"{base}/containers/{container_id}/transport_events",
            params=params,
            page=page,
            total=total,
        )
    )


__all__ = ["RequestStatus", "router"]

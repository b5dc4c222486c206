"""The list tools: ``list_shipments``, ``list_containers``, ``list_tracking_requests``.

Each takes ``page`` and ``page_size`` (25 by default, at most 100) and answers with the items,
the paging links and totals, the filters it applied and, by name, any it could not apply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from mcp.types import CallToolResult
from pydantic import Field

from ..service.core.errors import InvalidInput
from ..service.core.paging import PageRequest
from ..service.tracking.filters import (
    CARRIER_CANDIDATES,
    FilterTerms,
    TrackingFilter,
    UnknownTerm,
    is_scac,
    parse_filter,
)
from ..service.tracking.requests import RequestFilter
from ..vocabulary.statuses import REQUEST_TYPES, ContainerStatus, RequestStatus
from . import documents
from .arguments import (
    PageNumber,
    PageSize,
    Timestamp,
    parse_choice,
    parse_includes,
    parse_page,
    parse_text,
    parse_time,
)
from .backend import Account
from .calls import Ctx, answer
from .listings import (
    DEFAULT_PAGE_SIZE,
    ContainerList,
    NotApplied,
    ShipmentList,
    TrackingRequestList,
)
from .tracking_tools import CONTAINER_INCLUDES

Status = Annotated[
    str | None,
    Field(
        description="a container status: " + ", ".join(s.value for s in ContainerStatus),
        json_schema_extra={"enum": [*(s.value for s in ContainerStatus), None]},
    ),
]
Port = Annotated[
    str | None,
    Field(description="port of discharge: UN/LOCODE (NLRTM), port id, or exact port name"),
]
Carrier = Annotated[
    str | None, Field(description="carrier: SCAC code (MAEU) or a name naming one carrier")
]
#: Names ``filters`` of list_tracking_requests understands.
REQUEST_FILTERS = (
    "status",
    "request_type",
    "scac",
    "request_number",
    "created_after",
    "created_before",
)
#: What to give instead of a port or carrier filter that names nothing or several.
HINTS = {
    "port": "give a UN/LOCODE such as NLRTM",
    "carrier": "give a SCAC (see get_supported_shipping_lines)",
}


@dataclass
class Filters:
    """Filters being gathered: what was applied, what could not be, and why."""

    applied: dict[str, str] = field(default_factory=dict)
    skipped: list[NotApplied] = field(default_factory=list)

    def skip(self, name: str, value: Any, reason: str) -> None:
        """Record a filter that could not be applied."""
        self.skipped.append(NotApplied(name=name, value=str(value)[:100], reason=reason))


async def tracking_filter(
    account: Account,
    gathered: Filters,
    status: str | None,
    port: str | None,
    carrier: str | None,
    updated_after: str | None,
) -> TrackingFilter:
    """The shipment and container filters, each checked and parsed as every shell parses them;
    a port or carrier that names nothing (or more than one) is recorded as not applied."""
    terms = FilterTerms(
        status=parse_choice(status, ContainerStatus, "status"),
        port=parse_text(port, "port"),
        carrier=parse_text(carrier, "carrier"),
        updated_from=parse_time(updated_after, "updated_after"),
    )
    carriers = await _carrier_candidates(account, terms.carrier)
    parsed = parse_filter(terms, carriers, unknown=UnknownTerm.LEFT_OUT)
    for missed in parsed.unresolved:
        gathered.skip(missed.name, missed.value, f"{missed.reason}; {HINTS[missed.name]}")
    found = parsed.filter
    if found.pod_locode is not None:
        gathered.applied["port"] = found.pod_locode
    if found.scac is not None:
        gathered.applied["carrier"] = found.scac
    if found.status is not None:
        gathered.applied["status"] = found.status.value
    if found.updated_from is not None:
        gathered.applied["updated_after"] = found.updated_from.isoformat()
    return found


async def _carrier_candidates(account: Account, text: str | None) -> tuple[str, ...]:
    """The SCACs of the carriers ``text`` matches, looked up through the backend (the API's
    ``/shipping_lines`` when remote) as the service's ``carrier_candidates`` looks them up."""
    if text is None or is_scac(text):
        return ()
    document = await account.shipping_lines(text, PageRequest(1, CARRIER_CANDIDATES))
    return tuple(documents.shipping_line(obj).scac for obj in document["data"])


async def list_shipments(
    ctx: Ctx,
    status: Status = None,
    port: Port = None,
    carrier: Carrier = None,
    updated_after: Timestamp = None,
    include_containers: Annotated[
        bool, Field(description="add each shipment's containers")
    ] = False,
    page: PageNumber = 1,
    page_size: PageSize = DEFAULT_PAGE_SIZE,
) -> Annotated[CallToolResult, ShipmentList]:
    """List the account's shipments, most recently updated first, filtered by container status,
    port of discharge, carrier or last update."""

    async def work(account: Account) -> ShipmentList:
        request = parse_page(page, page_size)
        gathered = Filters()
        filters = await tracking_filter(account, gathered, status, port, carrier, updated_after)
        includes = ["containers"] if include_containers else []
        document = await account.list_shipments(filters, request, includes)
        index = documents.Index(document)
        return ShipmentList(
            items=[documents.shipment(obj, index, includes) for obj in document["data"]],
            paging=documents.paging(document, request.number, request.size),
            filters_applied=gathered.applied,
            filters_not_applied=gathered.skipped,
        )

    return await answer(ctx, work)


async def list_containers(
    ctx: Ctx,
    status: Status = None,
    port: Port = None,
    carrier: Carrier = None,
    updated_after: Timestamp = None,
    include: Annotated[
        list[str] | None,
        Field(
            description="related data to add: shipment, pod_terminal, transport_events",
            json_schema_extra={"items": {"enum": list(CONTAINER_INCLUDES)}},
        ),
    ] = None,
    page: PageNumber = 1,
    page_size: PageSize = DEFAULT_PAGE_SIZE,
) -> Annotated[CallToolResult, ContainerList]:
    """List the account's containers, most recently updated first, filtered by status, port of
    discharge, carrier or last update."""

    async def work(account: Account) -> ContainerList:
        request = parse_page(page, page_size)
        includes = parse_includes(include, CONTAINER_INCLUDES, "include")
        gathered = Filters()
        filters = await tracking_filter(account, gathered, status, port, carrier, updated_after)
        document = await account.list_containers(filters, request, includes)
        index = documents.Index(document)
        return ContainerList(
            items=[documents.container(obj, index, includes) for obj in document["data"]],
            paging=documents.paging(document, request.number, request.size),
            filters_applied=gathered.applied,
            filters_not_applied=gathered.skipped,
        )

    return await answer(ctx, work)


async def list_tracking_requests(
    ctx: Ctx,
    filters: Annotated[
        dict[str, str] | None,
        Field(description="more filters by name: " + ", ".join(REQUEST_FILTERS)),
    ] = None,
    status: Annotated[
        str | None,
        Field(
            description="pending, awaiting_manifest, created, failed or tracking_stopped",
            json_schema_extra={"enum": [*(s.value for s in RequestStatus), None]},
        ),
    ] = None,
    request_type: Annotated[
        str | None,
        Field(
            description="bill_of_lading, booking_number or container",
            json_schema_extra={"enum": [*REQUEST_TYPES, None]},
        ),
    ] = None,
    page: PageNumber = 1,
    page_size: PageSize = DEFAULT_PAGE_SIZE,
) -> Annotated[CallToolResult, TrackingRequestList]:
    """List the account's tracking requests, newest first, with their status (pending, created,
    failed with a reason, ...)."""

    async def work(account: Account) -> TrackingRequestList:
        request = parse_page(page, page_size)
        gathered = Filters()
        found = request_filter(dict(filters or {}), status, request_type, gathered)
        document = await account.list_tracking_requests(found, request)
        return TrackingRequestList(
            items=[documents.tracking_request(obj) for obj in document["data"]],
            paging=documents.paging(document, request.number, request.size),
            filters_applied=gathered.applied,
            filters_not_applied=gathered.skipped,
        )

    return await answer(ctx, work)


def request_filter(
    extra: dict[str, str], status: str | None, request_type: str | None, gathered: Filters
) -> RequestFilter:
    """The tracking request filters from the named arguments and the ``filters`` object; a
    name it does not know, or one given twice, is recorded as not applied."""
    for name in list(extra):
        if name not in REQUEST_FILTERS:
            gathered.skip(
                name, extra.pop(name), f"unknown filter; known: {', '.join(REQUEST_FILTERS)}"
            )
        elif (name == "status" and status is not None) or (
            name == "request_type" and request_type is not None
        ):
            gathered.skip(f"filters.{name}", extra.pop(name), f"the {name} argument is used")
    status = status if status is not None else extra.get("status")
    kind = request_type if request_type is not None else extra.get("request_type")
    found = RequestFilter(
        status=parse_choice(status, RequestStatus, "status"),
        request_type=_request_type(kind),
        scac=parse_text(extra.get("scac"), "filters.scac", max_chars=4),
        number=parse_text(extra.get("request_number"), "filters.request_number", max_chars=64),
        created_from=parse_time(extra.get("created_after"), "filters.created_after"),
        created_to=parse_time(extra.get("created_before"), "filters.created_before"),
    )
    values = {
        "status": found.status.value if found.status else None,
        "request_type": found.request_type,
        "scac": found.scac,
        "request_number": found.number,
        "created_after": found.created_from.isoformat() if found.created_from else None,
        "created_before": found.created_to.isoformat() if found.created_to else None,
    }
    gathered.applied.update({k: v for k, v in values.items() if v is not None})
    return found


def _request_type(value: str | None) -> str | None:
    if value is None:
        return None
    if value.strip().lower() not in REQUEST_TYPES:
        raise InvalidInput(
            f"request_type must be one of {', '.join(REQUEST_TYPES)}, got {value[:80]!r}",
            field="request_type",
        )
    return value.strip().lower()

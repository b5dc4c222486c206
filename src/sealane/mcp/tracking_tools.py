"""Tools that read one container or shipment: ``get_container``, ``get_shipment_details``,
``get_container_transport_events``, and the carrier list ``get_supported_shipping_lines``."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ..service.core.paging import MAX_PAGE_SIZE, PageRequest
from . import documents
from .arguments import Id, PageNumber, PageSize, parse_id, parse_includes, parse_page, parse_text
from .backend import Account
from .calls import Ctx, answer
from .listings import DEFAULT_PAGE_SIZE, ShippingLineList
from .outputs import Container, ContainerEvents, Shipment, TransportEvent

CONTAINER_INCLUDES = ("shipment", "pod_terminal", "transport_events")
#: Most events a timeline reads (pages of the API's largest size).
MAX_EVENTS = 1000


async def get_container(
    id: Id,
    ctx: Ctx,
    include: Annotated[
        list[str] | None,
        Field(
            description="related data to add: shipment, pod_terminal, transport_events "
            "(default: shipment)",
            json_schema_extra={"items": {"enum": list(CONTAINER_INCLUDES)}},
        ),
    ] = None,
) -> Annotated[CallToolResult, Container]:
    """Get a container by id: status, equipment, availability, holds, fees, last free day and
    milestone times, with its shipment (ports, vessel, ETA) unless `include` says otherwise."""

    async def work(account: Account) -> Container:
        container_id = parse_id(id)
        wanted = ["shipment"] if include is None else include
        includes = parse_includes(wanted, CONTAINER_INCLUDES, "include")
        return await read_container(account, container_id, includes)

    return await answer(ctx, work)


async def read_container(account: Account, container_id: str, includes: list[str]) -> Container:
    """A container with ``includes``, from the backend's document."""
    document = await account.get_container(container_id, includes)
    return documents.container(document["data"], documents.Index(document), includes)


async def get_shipment_details(
    id: Id,
    ctx: Ctx,
    include_containers: Annotated[
        bool, Field(description="add the shipment's containers (default true)")
    ] = True,
) -> Annotated[CallToolResult, Shipment]:
    """Get a shipment by id: bill of lading and booking numbers, carrier, ports of lading and
    discharge, vessel and voyage, departure and arrival times, and its containers."""

    async def work(account: Account) -> Shipment:
        includes = ["containers"] if include_containers else []
        document = await account.get_shipment(parse_id(id), includes)
        return documents.shipment(document["data"], documents.Index(document), includes)

    return await answer(ctx, work)


async def get_container_transport_events(
    id: Id, ctx: Ctx
) -> Annotated[CallToolResult, ContainerEvents]:
    """The event timeline of a container, in time order: each milestone (loaded, departed,
    transshipped, arrived, discharged, available, picked up, ...) with its time and place."""

    async def work(account: Account) -> ContainerEvents:
        return await read_events(account, parse_id(id))

    return await answer(ctx, work)


async def read_events(account: Account, container_id: str) -> ContainerEvents:
    """Every event of a container (up to :data:`MAX_EVENTS`), reading page after page."""
    events: list[TransportEvent] = []
    number, total = 1, 0
    while True:
        document = await account.container_events(container_id, PageRequest(number, MAX_PAGE_SIZE))
        events += [documents.event(obj) for obj in document["data"]]
        total = int(document.get("meta", {}).get("total", len(events)))
        if len(events) >= min(total, MAX_EVENTS) or not document["data"]:
            break
        number += 1
    return ContainerEvents(container_id=container_id, total=total, events=events[:MAX_EVENTS])


async def get_supported_shipping_lines(
    ctx: Ctx,
    search: Annotated[
        str | None, Field(description="part of a SCAC code or carrier name, any case")
    ] = None,
    page: PageNumber = 1,
    page_size: PageSize = DEFAULT_PAGE_SIZE,
) -> Annotated[CallToolResult, ShippingLineList]:
    """List the shipping lines (carriers) that can be tracked, with their SCAC codes: the code
    track_container and the list filters take."""

    async def work(account: Account) -> ShippingLineList:
        text = parse_text(search, "search")
        request = parse_page(page, page_size)
        document = await account.shipping_lines(text, request)
        return ShippingLineList(
            items=[documents.shipping_line(obj) for obj in document["data"]],
            paging=documents.paging(document, request.number, request.size),
            filters_applied={"search": text} if text else {},
        )

    return await answer(ctx, work)

"""Reliability from the account's own tracking: ``carrier_reliability`` (carriers' on-time share,
transit and ETA drift per lane), ``lane_transit_times`` (one lane's transit by carrier) and
``port_waiting_times`` (a port's anchorage waiting and container dwell by day)."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from ..service.core.errors import InvalidInput
from ..service.core.paging import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PageRequest
from ..service.reliability.inputs import LaneQuery, Window
from . import documents
from .arguments import PageNumber, PageSize, Timestamp, parse_page, parse_text, parse_time
from .backend import Account
from .calls import Ctx, answer
from .reliability_outputs import (
    LaneFigures,
    LaneReliabilityList,
    LaneTransit,
    LaneTransitTimes,
    PortWaitingTimes,
)

Carrier = Annotated[str | None, Field(description="carrier SCAC code (all carriers if not given)")]
Lading = Annotated[str | None, Field(description="port of lading: UN/LOCODE or port id")]
Discharge = Annotated[str | None, Field(description="port of discharge: UN/LOCODE or port id")]
Since = Annotated[
    str | None, Field(description="from this time (ISO 8601; UTC when no offset is given)")
]
Tolerance = Annotated[
    float | None,
    Field(description="on time: arrival within this many days of the first ETA (default 1)"),
]


async def carrier_reliability(
    ctx: Ctx,
    carrier: Carrier = None,
    port_of_lading: Lading = None,
    port_of_discharge: Discharge = None,
    since: Since = None,
    until: Timestamp = None,
    tolerance_days: Tolerance = None,
    page: PageNumber = 1,
    page_size: PageSize = DEFAULT_PAGE_SIZE,
) -> Annotated[CallToolResult, LaneReliabilityList]:
    """How reliable carriers are per lane (port of lading to port of discharge), from the
    account's own arrived shipments: on-time share against the carrier's first ETA, transit time
    (median, P10, P90 in hours), ETA drift (arrival minus first ETA, hours; positive is late),
    and the share of containers rolled to another sailing or transshipped. Percentiles need at
    least 5 shipments."""

    async def work(account: Account) -> LaneReliabilityList:
        request = parse_page(page, page_size)
        query = _query(carrier, port_of_lading, port_of_discharge, since, until, tolerance_days)
        return await lanes(account, query, request)

    return await answer(ctx, work)


async def lane_transit_times(
    ctx: Ctx,
    port_of_lading: Annotated[str, Field(description="port of lading: UN/LOCODE or port id")],
    port_of_discharge: Annotated[str, Field(description="port of discharge: UN/LOCODE or port id")],
    carrier: Carrier = None,
    since: Since = None,
    until: Timestamp = None,
) -> Annotated[CallToolResult, LaneTransitTimes]:
    """How long a lane really takes, by carrier: transit time from actual departure to actual
    arrival of the account's shipments (median, P10 and P90 in hours; percentiles need at least
    5 shipments)."""

    async def work(account: Account) -> LaneTransitTimes:
        for name, value in (
            ("port_of_lading", port_of_lading),
            ("port_of_discharge", port_of_discharge),
        ):
            if parse_text(value, name, max_chars=64) is None:
                raise InvalidInput(f"{name} is required", field=name)
        query = _query(carrier, port_of_lading, port_of_discharge, since, until, None)
        found = await lanes(account, query, PageRequest(1, MAX_PAGE_SIZE))
        assert query.port_of_lading is not None and query.port_of_discharge is not None
        return LaneTransitTimes(
            port_of_lading_locode=query.port_of_lading,
            port_of_discharge_locode=query.port_of_discharge,
            carriers=[
                LaneTransit(
                    carrier_scac=lane.carrier_scac,
                    shipments=lane.shipments,
                    transit_time=lane.transit_time,
                )
                for lane in found.items
            ],
        )

    return await answer(ctx, work)


async def port_waiting_times(
    ctx: Ctx,
    port: Annotated[str, Field(description="the port: UN/LOCODE or port id")],
    since: Since = None,
    until: Timestamp = None,
) -> Annotated[CallToolResult, PortWaitingTimes]:
    """How long vessels wait at anchor off a port before berthing (from AIS port calls), and how
    long the account's containers dwell there from discharge to full out, overall and by UTC
    day (hours; percentiles need at least 5 values)."""

    async def work(account: Account) -> PortWaitingTimes:
        locode = parse_text(port, "port", max_chars=64)
        if locode is None:
            raise InvalidInput("port is required", field="port")
        window = Window(parse_time(since, "since"), parse_time(until, "until"))
        document = await account.port_reliability(locode, window)
        return PortWaitingTimes.of(document["data"])

    return await answer(ctx, work)


async def lanes(account: Account, query: LaneQuery, page: PageRequest) -> LaneReliabilityList:
    """The lanes of ``query`` as the tools show them."""
    document = await account.lane_reliability(query, page)
    return LaneReliabilityList(
        items=[LaneFigures.of(obj) for obj in document["data"]],
        paging=documents.paging(document, page.number, page.size),
    )


def _query(
    carrier: str | None,
    port_of_lading: str | None,
    port_of_discharge: str | None,
    since: str | None,
    until: str | None,
    tolerance_days: float | None,
) -> LaneQuery:
    return LaneQuery.of(
        carrier=parse_text(carrier, "carrier", max_chars=4),
        port_of_lading=parse_text(port_of_lading, "port_of_lading", max_chars=64),
        port_of_discharge=parse_text(port_of_discharge, "port_of_discharge", max_chars=64),
        since=parse_time(since, "since"),
        until=parse_time(until, "until"),
        tolerance_days=tolerance_days,
    )

"""``/reliability``: carrier and lane figures from the account's shipments, and a port's dwell
and anchorage waiting by day."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from ...jsonapi import Included
from ...jsonapi.reliability import lane_resource, port_resource
from ...service.access.gatekeeper import Caller
from ...service.reliability.inputs import MAX_TOLERANCE, LaneQuery, Window
from ...service.reliability.lanes import LaneReliability, lane_reliability
from ...service.reliability.ports import port_reliability
from ..jsonapi import JsonApiResponse
from ..listing import DECIMAL, INSTANT, Paging, moment
from ..operations import ApiRoute
from ..params import authenticated
from ..render import many, one
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["reliability"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
#: Longest port filter (a UN/LOCODE or a port id).
KEY_CHARS = 64
#: A SCAC, or blank (no filter), with spaces around allowed.
SCAC = r"^\s*([A-Za-z0-9]{2,4}\s*)?$"
#: A UN/LOCODE or a port id (a UUID), or blank.
PORT = (
    r"^\s*(([A-Za-z]{2}[A-Za-z0-9]{3})|([0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}))?\s*$"
)
Since = Annotated[
    datetime | None,
    moment("filter[since]", description="from this time (arrivals, discharges, port calls)"),
    INSTANT,
]
Until = Annotated[datetime | None, moment("filter[until]", description="before this time"), INSTANT]


def window(since: Since = None, until: Until = None) -> Window:
    """The window ``filter[since]`` to ``filter[until]``."""
    return Window(since, until)


def lane_query(
    window: Annotated[Window, Depends(window)],
    carrier: Annotated[
        str | None,
        Query(alias="filter[carrier]", pattern=SCAC, description="the carrier's SCAC"),
    ] = None,
    pol: Annotated[
        str | None,
        Query(
            alias="filter[port_of_lading]",
            max_length=KEY_CHARS,
            pattern=PORT,
            description="UN/LOCODE or port id",
        ),
    ] = None,
    pod: Annotated[
        str | None,
        Query(
            alias="filter[port_of_discharge]",
            max_length=KEY_CHARS,
            pattern=PORT,
            description="UN/LOCODE or port id",
        ),
    ] = None,
    tolerance_days: Annotated[
        float | None,
        Query(
            ge=0,
            le=MAX_TOLERANCE.days,
            description="on time: arrival within this many days of the first ETA (default 1)",
        ),
        DECIMAL,
    ] = None,
) -> LaneQuery:
    """The lanes asked about, checked as every shell checks them."""
    return LaneQuery.of(
        carrier=carrier,
        port_of_lading=pol,
        port_of_discharge=pod,
        since=window.since,
        until=window.until,
        tolerance_days=tolerance_days,
    )


def render_lane(included: Included, lane: LaneReliability) -> dict[str, Any]:
    """A lane's figures."""
    return lane_resource(lane, included.base)


@router.get("/reliability/lanes", response_class=JsonApiResponse, responses=ERRORS)
def list_lanes(
    request: Request,
    caller: Auth,
    page: Paging,
    query: Annotated[LaneQuery, Depends(lane_query)],
) -> JsonApiResponse:
    """Each carrier's figures on each lane (port of lading to port of discharge) from the
    account's arrived shipments: count, transit time, on-time share against the first ETA, ETA
    drift, rolled and transshipped containers. Hours; no percentiles under 5 values."""
    found = lane_reliability(context_of(request), caller, query, page)
    return many(request, found, "reliability/lanes", render_lane)


@router.get("/reliability/ports/{locode}", response_class=JsonApiResponse, responses=ERRORS)
def get_port(
    request: Request,
    locode: str,
    caller: Auth,
    window: Annotated[Window, Depends(window)],
) -> JsonApiResponse:
    """A port's container dwell (the account's containers, discharge to full out) and vessels'
    anchorage waiting (AIS port calls, entering the port area to berthing), overall and by UTC
    day. Hours; no percentiles under 5 values."""
    found = port_reliability(context_of(request), caller, locode, window)
    return one(request, found, lambda included, port: port_resource(port, included.base))

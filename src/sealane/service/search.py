"""Finding shipments and containers by a number: deep-link resolution and search.

One matching for every shell (``GET /v2/search``, the web app's ``/shipments/find?q=``, the MCP
``search_container`` tool): case-insensitive; spaces and dashes are ignored in container numbers;
only the caller's account is searched. A container matches by its number or one of its reference
numbers; a shipment by its bill of lading, booking or reference numbers, or by a reference number
of one of its containers. "First" means newest first: ``created_at`` descending, then ``id``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import ColumnElement, case, func, or_, select, true
from sqlalchemy.orm import Session

from ..routing.ports import get_port
from ..store.models import Container, Shipment, TrackingRequest
from .access.gatekeeper import Caller
from .core.context import ServiceContext
from .core.errors import InvalidInput
from .core.inputs import check_text
from .core.queries import contains_text, json_array_contains, json_array_contains_text
from .matching import NumberMatch

#: Most hits a search returns by default, and at most.
DEFAULT_LIMIT = 25
MAX_LIMIT = 100
MAX_QUERY_CHARS = 100


class ResolutionKind(StrEnum):
    """How a deep link resolved, in the order the rules are tried."""

    CONTAINER = "container"  # (1) exact container number: its shipment, container selected
    SHIPMENT = "shipment"  # (2) exact BL, booking or reference number: that shipment
    PARTIAL_CONTAINER = "partial_container"  # (3) first partial container match
    PARTIAL_SHIPMENT = "partial_shipment"  # (4) first partial shipment match
    NONE = "none"  # (5) no match: the shipment list with the query filled in


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where a deep link leads: a shipment (with a container selected or not), or nowhere."""

    kind: ResolutionKind
    query: str
    shipment_id: str | None = None
    container_id: str | None = None


class HitKind(StrEnum):
    """What a search hit is."""

    SHIPMENT = "shipment"
    CONTAINER = "container"
    TRACKING_REQUEST = "tracking_request"


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One search result: a shipment, a container, or a tracking request not found yet."""

    kind: HitKind
    id: str
    number: str
    exact: bool
    shipment_id: str | None
    scac: str | None
    port_of_lading_name: str | None
    port_of_discharge_name: str | None
    containers_count: int | None
    tracking_stopped: bool | None
    tracking_stopped_reason: str | None
    status: str | None
    failed_reason: str | None
    ref_numbers: tuple[str, ...]
    created_at: datetime
    updated_at: datetime


def search_text(value: Any, field: str = "query") -> str:
    """A search text: non-blank, at most :data:`MAX_QUERY_CHARS` characters, stripped."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{field} must be a non-blank text", field=field)
    if len(value) > MAX_QUERY_CHARS:
        raise InvalidInput(f"{field} is longer than {MAX_QUERY_CHARS} characters", field=field)
    return check_text(value.strip(), field)


def resolve(ctx: ServiceContext, caller: Caller, text: str) -> Resolution:
    """Where the deep link for ``text`` leads, by the interface document's five rules."""
    query = search_text(text, "q")
    match = NumberMatch(query, caller.account_id)
    with ctx.reading() as session:
        container = _first_container(session, caller, match.container_exact())
        if container is not None:
            return Resolution(ResolutionKind.CONTAINER, query, container[1], container[0])
        shipment = _first_shipment(session, caller, match.shipment_exact())
        if shipment is not None:
            return Resolution(ResolutionKind.SHIPMENT, query, shipment)
        container = _first_container(session, caller, match.container_partial())
        if container is not None:
            return Resolution(ResolutionKind.PARTIAL_CONTAINER, query, container[1], container[0])
        shipment = _first_shipment(session, caller, match.shipment_partial())
        if shipment is not None:
            return Resolution(ResolutionKind.PARTIAL_SHIPMENT, query, shipment)
    return Resolution(ResolutionKind.NONE, query)


def search(
    ctx: ServiceContext, caller: Caller, text: str, limit: int = DEFAULT_LIMIT
) -> list[SearchHit]:
    """Shipments, then containers, then tracking requests not yet found, matching ``text``;
    exact matches before partial ones, newest first within each; at most ``limit``."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"limit must be between 1 and {MAX_LIMIT}", field="limit")
    match = NumberMatch(search_text(text), caller.account_id)
    with ctx.reading() as session:
        hits = _shipment_hits(session, caller, match, limit)
        hits += _container_hits(session, caller, match, limit - len(hits))
        found = {hit.shipment_id for hit in hits}
        hits += _request_hits(session, caller, match, limit - len(hits), found)
    return hits


def _first_container(
    session: Session, caller: Caller, condition: ColumnElement[bool]
) -> tuple[str, str] | None:
    """(container id, shipment id) of the newest matching container of the account."""
    query = (
        select(Container.id, Container.shipment_id)
        .where(Container.account_id == caller.account_id, condition)
        .order_by(Container.created_at.desc(), Container.id)
        .limit(1)
    )
    row = session.execute(query).first()
    return None if row is None else (row[0], row[1])


def _first_shipment(session: Session, caller: Caller, condition: ColumnElement[bool]) -> str | None:
    """The id of the newest matching shipment of the account."""
    query = (
        select(Shipment.id)
        .where(Shipment.account_id == caller.account_id, condition)
        .order_by(Shipment.created_at.desc(), Shipment.id)
        .limit(1)
    )
    return session.scalar(query)


def _shipment_hits(
    session: Session, caller: Caller, match: NumberMatch, limit: int
) -> list[SearchHit]:
    exact = match.shipment_exact()
    query = (
        select(Shipment, case((exact, 0), else_=1))
        .where(Shipment.account_id == caller.account_id, match.shipment_partial())
        .order_by(case((exact, 0), else_=1), Shipment.created_at.desc(), Shipment.id)
        .limit(limit)
    )
    rows = session.execute(query).all()
    counts = _container_counts(session, [row[0].id for row in rows])
    return [_shipment_hit(row[0], row[1] == 0, counts.get(row[0].id, 0)) for row in rows]


def _container_hits(
    session: Session, caller: Caller, match: NumberMatch, limit: int
) -> list[SearchHit]:
    if limit <= 0:
        return []
    exact, partial = match.container_any()
    query = (
        select(Container, Shipment, case((exact, 0), else_=1))
        .join(Shipment, Shipment.id == Container.shipment_id)
        .where(Container.account_id == caller.account_id, partial)
        .order_by(case((exact, 0), else_=1), Container.created_at.desc(), Container.id)
        .limit(limit)
    )
    return [
        _container_hit(container, shipment, rank == 0)
        for container, shipment, rank in session.execute(query)
    ]


def _request_hits(
    session: Session, caller: Caller, match: NumberMatch, limit: int, found: set[str | None]
) -> list[SearchHit]:
    """Tracking requests whose shipment is not among the hits (not found yet, or failed)."""
    if limit <= 0:
        return []
    exact = or_(
        func.upper(TrackingRequest.request_number) == match.text.upper(),
        json_array_contains(TrackingRequest.ref_numbers, match.text),
    )
    partial = or_(
        contains_text(TrackingRequest.request_number, match.text),
        json_array_contains_text(TrackingRequest.ref_numbers, match.text),
    )
    shown = [key for key in found if key]
    unseen = (
        or_(TrackingRequest.shipment_id.is_(None), TrackingRequest.shipment_id.not_in(shown))
        if shown
        else true()
    )
    query = (
        select(TrackingRequest, case((exact, 0), else_=1))
        .where(TrackingRequest.account_id == caller.account_id, partial, unseen)
        .order_by(case((exact, 0), else_=1), TrackingRequest.created_at.desc(), TrackingRequest.id)
        .limit(limit)
    )
    return [_request_hit(row, rank == 0) for row, rank in session.execute(query)]


def _container_counts(session: Session, shipment_ids: list[str]) -> dict[str, int]:
    if not shipment_ids:
        return {}
    query = (
        select(Container.shipment_id, func.count())
        .where(Container.shipment_id.in_(shipment_ids))
        .group_by(Container.shipment_id)
    )
    return {key: count for key, count in session.execute(query)}


def _shipment_hit(row: Shipment, exact: bool, containers: int) -> SearchHit:
    return SearchHit(
        kind=HitKind.SHIPMENT,
        id=row.id,
        number=row.bill_of_lading_number or row.booking_number or row.carrier_number,
        exact=exact,
        shipment_id=row.id,
        scac=row.shipping_line_scac,
        port_of_lading_name=get_port(row.port_of_lading_locode).name,
        port_of_discharge_name=get_port(row.port_of_discharge_locode).name,
        containers_count=containers,
        tracking_stopped=row.tracking_stopped_at is not None,
        tracking_stopped_reason=row.tracking_stopped_reason,
        status=None,
        failed_reason=None,
        ref_numbers=tuple(row.ref_numbers or ()),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _container_hit(row: Container, shipment: Shipment, exact: bool) -> SearchHit:
    return SearchHit(
        kind=HitKind.CONTAINER,
        id=row.id,
        number=row.number,
        exact=exact,
        shipment_id=row.shipment_id,
        scac=shipment.shipping_line_scac,
        port_of_lading_name=get_port(shipment.port_of_lading_locode).name,
        port_of_discharge_name=get_port(shipment.port_of_discharge_locode).name,
        containers_count=None,
        tracking_stopped=shipment.tracking_stopped_at is not None,
        tracking_stopped_reason=shipment.tracking_stopped_reason,
        status=row.current_status,
        failed_reason=None,
        ref_numbers=tuple(row.ref_numbers or ()),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _request_hit(row: TrackingRequest, exact: bool) -> SearchHit:
    return SearchHit(
        kind=HitKind.TRACKING_REQUEST,
        id=row.id,
        number=row.request_number,
        exact=exact,
        shipment_id=row.shipment_id,
        scac=row.scac,
        port_of_lading_name=None,
        port_of_discharge_name=None,
        containers_count=None,
        tracking_stopped=None,
        tracking_stopped_reason=None,
        status=row.status,
        failed_reason=row.failed_reason,
        ref_numbers=tuple(row.ref_numbers or ()),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )

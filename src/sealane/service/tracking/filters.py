"""The filters shipments and containers share: how a shell's text becomes one (the same for the
API, the MCP server and the web pages, port and carrier names included), and the queries they
become."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from sqlalchemy import ColumnElement, false, func, or_, select, true, union_all
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.sql import Select

from ...store.models import Container, Shipment
from ...tracking.numbers import normalize_container_number
from ...vocabulary.statuses import ContainerStatus
from ..core.context import ServiceContext
from ..core.errors import CannotRoute
from ..core.paging import PageRequest
from ..core.queries import contains_text, json_array_contains, json_array_contains_text
from ..reference.lookups import list_shipping_lines
from ..reference.ports import find_port
from .pages import ACCOUNT

#: Most carriers a carrier name is looked up among (it must match exactly one).
CARRIER_CANDIDATES = 5
_SECOND = timedelta(seconds=1)


def shown_at_or_after(
    column: QueryableAttribute[datetime], moment: datetime
) -> ColumnElement[bool]:
    """``column`` at or after ``moment`` as the shells show it (to the second): a start bound
    includes whatever is shown at that second or later."""
    whole = moment.replace(microsecond=0)
    if whole != moment:
        try:
            whole += _SECOND
        except OverflowError:  # after the last second a date-time holds: nothing is
            return false()
    return column >= whole


def shown_at_or_before(
    column: QueryableAttribute[datetime], moment: datetime
) -> ColumnElement[bool]:
    """``column`` at or before ``moment`` as the shells show it (to the second): an end bound
    includes what happened during its last second, not only up to its first microsecond (a
    request shown as created at 10:27:20Z was created at or before 10:27:20Z)."""
    try:
        return column < moment.replace(microsecond=0) + _SECOND
    except OverflowError:  # the last second a date-time holds: everything is before it
        return true()


@dataclass(frozen=True, slots=True)
class TrackingFilter:
    """Filters of the shipment and container lists; None means any.

    ``number`` matches a container number (spaces and dashes ignored), a bill of lading or
    booking number, or a reference number of the shipment or of one of its containers;
    ``request_number`` the number a shipment was asked for (its bill of lading or booking
    number, as given); ``text`` is part of any of those; ``tracking_stopped`` whether the
    shipment is no longer followed.
    """

    status: ContainerStatus | None = None
    pod_locode: str | None = None
    scac: str | None = None
    updated_from: datetime | None = None
    number: str | None = None
    request_number: str | None = None
    text: str | None = None
    tracking_stopped: bool | None = None


class UnknownTerm(Enum):
    """What a port or carrier filter naming nothing (or several) does: kept ``AS_WRITTEN`` it
    matches only what is stored under that very code (the API's and the web's rule: an unknown
    code has always meant no shipments); ``LEFT_OUT`` it is dropped and reported (the MCP
    server's rule, which says which filters it could not apply)."""

    AS_WRITTEN = "as_written"
    LEFT_OUT = "left_out"


@dataclass(frozen=True, slots=True)
class FilterTerms:
    """A shipment or container filter as a shell received it: ``port`` (of discharge) and
    ``carrier`` as the caller wrote them, the rest already typed (see :class:`TrackingFilter`).

    A port is a UN/LOCODE, a port id or the exact name of one port; a carrier is a SCAC (four
    letters or digits) or a name, SCAC or short name matching exactly one carrier.
    """

    status: ContainerStatus | None = None
    port: str | None = None
    carrier: str | None = None
    updated_from: datetime | None = None
    number: str | None = None
    request_number: str | None = None
    text: str | None = None
    tracking_stopped: bool | None = None


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A ``port`` or ``carrier`` filter (``name``) whose ``value`` names nothing or several."""

    name: str
    value: str
    reason: str


@dataclass(frozen=True, slots=True)
class ParsedFilter:
    """The filter, and the port or carrier terms that named nothing (or several)."""

    filter: TrackingFilter
    unresolved: tuple[Unresolved, ...] = ()


def is_scac(text: str) -> bool:
    """Whether a carrier filter is a SCAC as written (four letters or digits), so it needs no
    look-up of carrier names."""
    return len(text.strip()) == 4 and text.strip().isalnum()


def carrier_candidates(ctx: ServiceContext, carrier: str | None) -> tuple[str, ...]:
    """The SCACs of the carriers a carrier filter's text matches (by SCAC, name or short
    name), as many as :func:`parse_filter` needs; none when it is a SCAC as written."""
    if carrier is None or is_scac(carrier):
        return ()
    found = list_shipping_lines(ctx, PageRequest(1, CARRIER_CANDIDATES), search=carrier.strip())
    return tuple(line.scac for line in found.items)


def parse_filter(
    terms: FilterTerms, carriers: Sequence[str] = (), *, unknown: UnknownTerm
) -> ParsedFilter:
    """``terms`` with the port resolved to its UN/LOCODE and the carrier to its SCAC;
    ``carriers`` are the SCACs a look-up of the carrier's text found
    (:func:`carrier_candidates`, or the shell's own look-up of the same carriers)."""
    unresolved: list[Unresolved] = []
    pod_locode = scac = None
    if terms.port is not None:
        try:
            pod_locode = find_port(terms.port).locode
        except CannotRoute as error:
            unresolved.append(Unresolved("port", terms.port, error.detail))
            pod_locode = terms.port if unknown is UnknownTerm.AS_WRITTEN else None
    if terms.carrier is not None:
        if is_scac(terms.carrier):
            scac = terms.carrier.strip().upper()
        elif len(carriers) == 1:
            scac = carriers[0]
        else:
            reason = "no carrier matches" if not carriers else "several carriers match"
            unresolved.append(Unresolved("carrier", terms.carrier, reason))
            scac = terms.carrier if unknown is UnknownTerm.AS_WRITTEN else None
    found = TrackingFilter(
        status=terms.status,
        pod_locode=pod_locode,
        scac=scac,
        updated_from=terms.updated_from,
        number=terms.number,
        request_number=terms.request_number,
        text=terms.text,
        tracking_stopped=terms.tracking_stopped,
    )
    return ParsedFilter(found, tuple(unresolved))


def read_filter(
    ctx: ServiceContext, terms: FilterTerms, *, unknown: UnknownTerm = UnknownTerm.AS_WRITTEN
) -> TrackingFilter:
    """``terms`` parsed, looking the carrier up among the known carriers (the API and the web
    pages; an unknown port or carrier is kept as written by default)."""
    return parse_filter(terms, carrier_candidates(ctx, terms.carrier), unknown=unknown).filter


def filter_shipments(query: Select[Any], filters: TrackingFilter) -> Select[Any]:
    """``query`` over the shipments of the account :data:`~.pages.ACCOUNT` narrowed by
    ``filters``. A number or text is looked up in each column's own index (the shipments' and
    the containers' numbers, each subquery within the account) and the ids found are kept."""
    if filters.status is not None:
        having = select(Container.shipment_id).where(
            Container.account_id == ACCOUNT, Container.current_status == filters.status.value
        )
        query = query.where(Shipment.id.in_(having))
    query = _shipment_fields(query, filters)
    if filters.updated_from is not None:
        query = query.where(shown_at_or_after(Shipment.updated_at, filters.updated_from))
    if filters.number is not None:
        text = filters.number.strip()
        query = query.where(
            Shipment.id.in_(_shipment_ids(_shipment_number(text), _container_number(text)))
        )
    if filters.text is not None:
        found = _shipment_ids(_shipment_text(filters.text), _container_text(filters.text))
        query = query.where(Shipment.id.in_(found))
    return query


def filter_containers(query: Select[Any], filters: TrackingFilter) -> Select[Any]:
    """``query`` over the containers of the account :data:`~.pages.ACCOUNT` narrowed by
    ``filters``, joined to their shipment only where a filter reads the shipment's fields."""
    if filters.status is not None:
        query = query.where(Container.current_status == filters.status.value)
    if _reads_shipment(filters):
        query = _shipment_fields(
            query.join(Shipment, Shipment.id == Container.shipment_id), filters
        )
    if filters.updated_from is not None:
        query = query.where(shown_at_or_after(Container.updated_at, filters.updated_from))
    if filters.number is not None:
        text = filters.number.strip()
        query = query.where(
            Container.id.in_(_container_ids(_shipment_number(text), _container_number(text)))
        )
    if filters.text is not None:
        found = _container_ids(_shipment_text(filters.text), _container_text(filters.text))
        query = query.where(Container.id.in_(found))
    return query


def _reads_shipment(filters: TrackingFilter) -> bool:
    return (
        filters.request_number is not None
        or filters.tracking_stopped is not None
        or filters.pod_locode is not None
        or filters.scac is not None
    )


def _shipment_ids(of_shipment: Any, of_container: Any) -> Any:
    """Ids of the account's shipments matching ``of_shipment`` or with a container matching
    ``of_container``: one subquery each, within the account, each answered by its indexes."""
    return union_all(
        select(Shipment.id).where(Shipment.account_id == ACCOUNT, of_shipment),
        select(Container.shipment_id).where(Container.account_id == ACCOUNT, of_container),
    )


def _container_ids(of_shipment: Any, of_container: Any) -> Any:
    """Ids of the account's containers matching ``of_container`` or of a shipment matching
    ``of_shipment``."""
    shipments = select(Shipment.id).where(Shipment.account_id == ACCOUNT, of_shipment)
    return union_all(
        select(Container.id).where(Container.account_id == ACCOUNT, of_container),
        select(Container.id).where(
            Container.account_id == ACCOUNT, Container.shipment_id.in_(shipments)
        ),
    )


def _shipment_fields(query: Select[Any], filters: TrackingFilter) -> Select[Any]:
    if filters.request_number is not None:
        wanted = filters.request_number.strip().upper()
        query = query.where(func.upper(Shipment.carrier_number) == wanted)
    if filters.tracking_stopped is not None:
        stopped = Shipment.tracking_stopped_at.is_not(None)
        query = query.where(stopped if filters.tracking_stopped else ~stopped)
    if filters.pod_locode is not None:
        query = query.where(Shipment.port_of_discharge_locode == filters.pod_locode.upper())
    if filters.scac is not None:
        query = query.where(Shipment.shipping_line_scac == filters.scac.upper())
    return query


def _shipment_number(text: str) -> Any:
    # lower(), as the trigram indexes hold the numbers (they answer = as well as LIKE)
    return or_(
        func.lower(Shipment.bill_of_lading_number) == text.lower(),
        func.lower(Shipment.booking_number) == text.lower(),
        json_array_contains(Shipment.ref_numbers, text),
    )


def _shipment_text(text: str) -> Any:
    return or_(
        contains_text(Shipment.bill_of_lading_number, text),
        contains_text(Shipment.booking_number, text),
        json_array_contains_text(Shipment.ref_numbers, text),
    )


def _container_text(text: str) -> Any:
    return or_(
        contains_text(Container.number, normalize_container_number(text)),
        json_array_contains_text(Container.ref_numbers, text),
    )


def _container_number(text: str) -> Any:
    return or_(
        Container.number == normalize_container_number(text),
        json_array_contains(Container.ref_numbers, text),
    )

"""Tracking requests: list, read, create (validated, deduplicated) and edit reference lists.

What a new request may say is checked in :mod:`.new_requests`, an edit of its lists in
:mod:`..core.list_changes`; both are re-exported here.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from ...store.models import ShippingLine, TrackingRequest
from ...store.reading import ReadLog
from ...tracking.lifecycle import OPEN_STATUSES
from ...tracking.numbers import infer_number as classify
from ...tracking.numbers import normalize_container_number
from ...vocabulary.statuses import RequestStatus
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput, ObjectNotFound
from ..core.list_changes import ListChanges, apply_list_changes
from ..core.paging import Page, PageRequest
from ..core.queries import contains_text, json_array_contains_text, owned
from .convert import tracking_request_record
from .filters import shown_at_or_after, shown_at_or_before
from .loading import Loader
from .new_requests import MAX_NUMBER_CHARS, NewTrackingRequest
from .numbers import carrier_codes
from .pages import ACCOUNT, KEPT_QUERIES, Keyset, ReadPage, counted_page, read_page
from .parties import owned_party
from .records import TrackingRequestRecord

__all__ = [
    "DEFAULT_INCLUDES",
    "EDITABLE",
    "INCLUDES",
    "INCLUDE_ALIASES",
    "MAX_NUMBER_CHARS",
    "OPEN_REQUEST_INDEX",
    "ListChanges",
    "NewTrackingRequest",
    "RequestFilter",
    "apply_list_changes",
    "create_request",
    "get_request",
    "list_requests",
    "open_request_unique",
    "read_requests",
    "update_request",
]

#: ``shipment`` is another name of ``tracked_object`` (the reference API's clients send it).
INCLUDE_ALIASES = {"shipment": "tracked_object"}
INCLUDES = ("tracked_object", "tracked_object.containers", *INCLUDE_ALIASES)
#: The unique index that keeps one open request per account, carrier and number.
OPEN_REQUEST_INDEX = "uq_tracking_requests_open"
#: What a request document without ``include`` includes (as the reference API does).
DEFAULT_INCLUDES = ("tracked_object",)
#: ``ref_number`` (one reference number) is the reference API's form of ``ref_numbers``.
EDITABLE = ("ref_numbers", "tags", "ref_number")


@dataclass(frozen=True, slots=True)
class RequestFilter:
    """Filters of the tracking request list; None means any."""

    status: RequestStatus | None = None
    request_type: str | None = None
    scac: str | None = None
    number: str | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None
    updated_from: datetime | None = None
    updated_to: datetime | None = None
    #: Part of the request number or of a reference number (case-insensitive).
    text: str | None = None


def list_requests(
    ctx: ServiceContext,
    caller: Caller,
    filters: RequestFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> Page[TrackingRequestRecord]:
    """The account's tracking requests, newest first."""
    with ctx.reading() as session:
        return _page(session, caller, filters, page, includes)


def read_requests(
    ctx: ServiceContext,
    caller: Caller,
    filters: RequestFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> ReadPage[TrackingRequestRecord]:
    """:func:`list_requests` with what it read, for a shell that keeps its rendering of the
    page while the reads give the same rows (:func:`.pages.read_page`)."""
    return read_page(ctx, lambda session, log: _page(session, caller, filters, page, includes, log))


def _page(
    session: Session,
    caller: Caller,
    filters: RequestFilter,
    page: PageRequest,
    includes: Collection[str],
    log: ReadLog | None = None,
) -> Page[TrackingRequestRecord]:
    """A page of the account's tracking requests, its reads logged in ``log`` when given."""
    total, rows, after = counted_page(
        session, _listed(filters), page, caller.account_id, keyset=KEYSET, log=log
    )
    found = Loader(session, log).tracking_requests(rows, _tracked(includes))
    return Page(tuple(found), total, page, after)


def get_request(
    ctx: ServiceContext, caller: Caller, request_id: str, includes: Collection[str] = ()
) -> TrackingRequestRecord:
    """One of the account's tracking requests."""
    with ctx.reading() as session:
        row = owned(session, TrackingRequest, request_id, caller.account_id, "tracking request")
        return Loader(session).tracking_requests([row], _tracked(includes))[0]


def _tracked(includes: Collection[str]) -> list[str]:
    """``includes`` with the other names of the tracked object replaced by its own."""
    return [INCLUDE_ALIASES.get(path, path) for path in includes]


def create_request(
    ctx: ServiceContext, caller: Caller, new: NewTrackingRequest
) -> TrackingRequestRecord:
    """Store a pending request, due for its first lookup now; 422-style errors for an unknown
    carrier (or one that cannot be inferred), a number the account already tracks with it, an
    unknown customer or custom field."""
    now = ctx.clock.now()
    with open_request_unique(new.request_number, new.scac), ctx.writing() as session:
        scac = _carrier(session, new)
        if session.scalar(_open_duplicate(caller.account_id, new.request_number, scac)):
            raise _duplicate(new.request_number, scac)
        if new.customer_id is not None:
            _customer(session, caller, new.customer_id)
        initial = new.initial_custom_fields.resolved(session, caller.account_id)
        row = TrackingRequest(
            account_id=caller.account_id,
            request_type=new.request_type,
            request_number=new.request_number,
            scac=scac,
            status=RequestStatus.PENDING.value,
            is_retrying=False,
            retry_count=0,
            next_attempt_at=now,
            ref_numbers=list(new.ref_numbers),
            tags=list(new.tags),
            shipment_tags=list(new.shipment_tags),
            initial_custom_fields=initial,
            customer_id=new.customer_id,
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        session.flush()
        return tracking_request_record(row)


def update_request(
    ctx: ServiceContext, caller: Caller, request_id: str, changes: ListChanges
) -> TrackingRequestRecord:
    """Replace a tracking request's ``ref_numbers`` and/or ``tags``."""
    with ctx.writing() as session:
        row = owned(session, TrackingRequest, request_id, caller.account_id, "tracking request")
        apply_list_changes(row, changes, ctx.clock.now())
        return tracking_request_record(row)


@contextmanager
def open_request_unique(number: str, scac: str | None) -> Iterator[None]:
    """Turn the database's refusal of a second open request for a number into the duplicate
    error: the check before the insert is only for a quick answer, this is the guarantee."""
    try:
        yield
    except IntegrityError as error:
        if OPEN_REQUEST_INDEX not in str(error.orig):
            raise
        raise _duplicate(number, scac) from None


def _duplicate(number: str, scac: str | None) -> InvalidInput:
    return InvalidInput(
        f"{number} with {scac or 'its carrier'} is already being tracked in this account",
        field="request_number",
        code="duplicate",
    )


def _carrier(session: Session, new: NewTrackingRequest) -> str:
    """The SCAC to track ``new`` with: the one given (or the carrier it is an alternative code
    of), else the one inferred from the number."""
    if new.scac is None:
        inferred = classify(new.request_number, carrier_codes(session)).selected
        if inferred is None:
            raise InvalidInput(
                f"no carrier can be inferred from {new.request_number!r}; give a scac",
                field="scac",
                code="scac_not_inferred",
            )
        return inferred.scac
    found = session.scalars(
        select(ShippingLine).where(
            or_(
                ShippingLine.scac == new.scac,
                ShippingLine.alternative_scacs.contains(new.scac),
            )
        )
    ).all()
    for line in sorted(found, key=lambda line: line.scac != new.scac):
        if line.scac == new.scac or new.scac in line.alternative_scacs.split("|"):
            return line.scac
    raise InvalidInput(
        f"{new.scac} is not a supported shipping line", field="scac", code="unknown_scac"
    )


def _customer(session: Session, caller: Caller, party_id: str) -> None:
    try:
        owned_party(session, caller.account_id, party_id)
    except ObjectNotFound:
        raise InvalidInput(
            f"no party with id {party_id[:80]!r} in this account",
            field="customer",
            code="unknown_party",
        ) from None


def _open_duplicate(account_id: str, number: str, scac: str) -> Select[Any]:
    return (
        select(func.count())
        .select_from(TrackingRequest)
        .where(
            TrackingRequest.account_id == account_id,
            func.upper(TrackingRequest.request_number) == number.upper(),
            TrackingRequest.scac == scac,
            TrackingRequest.status.in_([s.value for s in OPEN_STATUSES]),
        )
    )


#: The list's order: newest first, read by key (``ix_tracking_requests_account_created``).
KEYSET = Keyset(TrackingRequest.created_at, TrackingRequest.id)


@lru_cache(maxsize=KEPT_QUERIES)
def _listed(filters: RequestFilter) -> Select[Any]:
    """Any account's tracking requests through ``filters``, newest first (kept: see
    :mod:`.pages`)."""
    query = select(TrackingRequest).where(TrackingRequest.account_id == ACCOUNT)
    if filters.status is not None:
        query = query.where(TrackingRequest.status == filters.status.value)
    if filters.request_type is not None:
        query = query.where(TrackingRequest.request_type == filters.request_type)
    if filters.scac is not None:
        query = query.where(TrackingRequest.scac == filters.scac.upper())
    if filters.number is not None:
        forms = {filters.number.upper(), normalize_container_number(filters.number)}
        query = query.where(func.upper(TrackingRequest.request_number).in_(forms))
    if filters.created_from is not None:
        query = query.where(shown_at_or_after(TrackingRequest.created_at, filters.created_from))
    if filters.created_to is not None:
        query = query.where(shown_at_or_before(TrackingRequest.created_at, filters.created_to))
    if filters.updated_from is not None:
        query = query.where(shown_at_or_after(TrackingRequest.updated_at, filters.updated_from))
    if filters.updated_to is not None:
        query = query.where(shown_at_or_before(TrackingRequest.updated_at, filters.updated_to))
    if filters.text is not None:
        query = query.where(
            or_(
                contains_text(TrackingRequest.request_number, filters.text),
                json_array_contains_text(TrackingRequest.ref_numbers, filters.text),
            )
        )
    return query.order_by(*KEYSET.order())

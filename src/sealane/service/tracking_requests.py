"""Tracking requests: list, read, create (validated, deduplicated) and edit reference lists."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from ..store.models import ShippingLine, TrackingRequest
from ..tracking.lifecycle import OPEN_STATUSES, REQUEST_TYPES, RequestStatus
from ..tracking.numbers import infer_number as classify
from ..tracking.numbers import is_container_number, normalize_container_number
from .access import Caller
from .context import ServiceContext
from .convert import tracking_request_record
from .errors import InvalidInput, NotFound
from .fields.initial import InitialFields
from .inputs import check_text, editable_only, known_only, string_list
from .loading import Loader
from .numbers import carrier_codes
from .paging import Page, PageRequest
from .parties import owned_party
from .queries import contains_text, fetch_page, json_array_contains_text, owned
from .records import TrackingRequestRecord

INCLUDES = ("tracked_object", "tracked_object.containers")
#: The unique index that keeps one open request per account, carrier and number.
OPEN_REQUEST_INDEX = "uq_tracking_requests_open"
#: What a request document without ``include`` includes (as the reference API does).
DEFAULT_INCLUDES = ("tracked_object",)
#: ``ref_number`` (one reference number) is the reference API's form of ``ref_numbers``.
EDITABLE = ("ref_numbers", "tags", "ref_number")
#: What a new tracking request may say.
ATTRIBUTES = (
    "request_type",
    "request_number",
    "scac",
    "auto_detect_vocc_scac",
    "ref_numbers",
    "tags",
    "shipment_tags",
    "initial_custom_fields",
)
MAX_NUMBER_CHARS = 64


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


@dataclass(frozen=True, slots=True)
class NewTrackingRequest:
    """A request to track a number with a carrier, checked and normalised (see :meth:`of`).

    ``scac`` is None when the carrier is to be inferred from the number; ``shipment_tags`` and
    ``initial_custom_fields`` are applied to the shipment and containers once found.
    """

    request_type: str
    request_number: str
    scac: str | None
    ref_numbers: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    shipment_tags: tuple[str, ...] = ()
    customer_id: str | None = None
    initial_custom_fields: InitialFields = field(default_factory=InitialFields)

    @classmethod
    def of(
        cls, attributes: Mapping[str, Any], *, customer_id: str | None = None
    ) -> NewTrackingRequest:
        """Checked from untyped attributes (and the ``customer`` relationship's party id);
        :class:`InvalidInput` names the first bad one."""
        known_only(attributes, ATTRIBUTES)
        request_type = attributes.get("request_type")
        if request_type not in REQUEST_TYPES:
            raise InvalidInput(
                f"request_type must be one of {', '.join(REQUEST_TYPES)}, got {request_type!r}",
                field="request_type",
            )
        number = attributes.get("request_number")
        if not isinstance(number, str) or not number.strip():
            raise InvalidInput("request_number must be a non-blank string", field="request_number")
        number = check_text(number.strip(), "request_number")
        if len(number) > MAX_NUMBER_CHARS:
            raise InvalidInput(
                f"request_number is longer than {MAX_NUMBER_CHARS} characters",
                field="request_number",
            )
        if request_type == "container":
            if not is_container_number(number):
                raise InvalidInput(
                    f"{number!r} is not a valid ISO 6346 container number "
                    "(bad check digit or format)",
                    field="request_number",
                    code="invalid_number",
                )
            number = normalize_container_number(number)
        return cls(
            request_type=request_type,
            request_number=number,
            scac=_scac(attributes),
            ref_numbers=string_list(attributes.get("ref_numbers"), "ref_numbers"),
            tags=string_list(attributes.get("tags"), "tags"),
            shipment_tags=string_list(attributes.get("shipment_tags"), "shipment_tags"),
            customer_id=customer_id,
            initial_custom_fields=InitialFields.of(attributes.get("initial_custom_fields")),
        )


@dataclass(frozen=True, slots=True)
class ListChanges:
    """New values of an object's string lists; None leaves a list as it is."""

    ref_numbers: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None

    @classmethod
    def of(cls, attributes: Mapping[str, Any], editable: Collection[str]) -> ListChanges:
        """Checked from untyped attributes, refusing any outside ``editable``."""
        editable_only(attributes, editable)
        refs = attributes.get("ref_numbers")
        if "ref_number" in attributes:
            single = attributes["ref_number"]
            if single is not None and not isinstance(single, str):
                raise InvalidInput("ref_number must be a string or null", field="ref_number")
            refs = [single] if single is not None else []
        return cls(
            ref_numbers=string_list(refs, "ref_numbers")
            if {"ref_numbers", "ref_number"} & set(attributes)
            else None,
            tags=string_list(attributes["tags"], "tags") if "tags" in attributes else None,
        )


def list_requests(
    ctx: ServiceContext,
    caller: Caller,
    filters: RequestFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> Page[TrackingRequestRecord]:
    """The account's tracking requests, newest first."""
    query = _filtered(select(TrackingRequest), caller, filters)
    query = query.order_by(TrackingRequest.created_at.desc(), TrackingRequest.id)
    with ctx.reading() as session:
        total, rows = fetch_page(session, query, page)
        return Page(tuple(Loader(session).tracking_requests(rows, includes)), total, page)


def get_request(
    ctx: ServiceContext, caller: Caller, request_id: str, includes: Collection[str] = ()
) -> TrackingRequestRecord:
    """One of the account's tracking requests."""
    with ctx.reading() as session:
        row = owned(session, TrackingRequest, request_id, caller.account_id, "tracking request")
        return Loader(session).tracking_requests([row], includes)[0]


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


def apply_list_changes(row: Any, changes: ListChanges, now: datetime) -> None:
    """Set the lists ``changes`` gives on ``row`` and stamp it updated."""
    if changes.ref_numbers is not None:
        row.ref_numbers = list(changes.ref_numbers)
    if changes.tags is not None:
        row.tags = list(changes.tags)
    row.updated_at = now


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
    except NotFound:
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


def _filtered(
    query: Select[tuple[TrackingRequest]], caller: Caller, filters: RequestFilter
) -> Select[tuple[TrackingRequest]]:
    query = query.where(TrackingRequest.account_id == caller.account_id)
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
        query = query.where(TrackingRequest.created_at >= filters.created_from)
    if filters.created_to is not None:
        query = query.where(TrackingRequest.created_at <= filters.created_to)
    if filters.updated_from is not None:
        query = query.where(TrackingRequest.updated_at >= filters.updated_from)
    if filters.updated_to is not None:
        query = query.where(TrackingRequest.updated_at <= filters.updated_to)
    if filters.text is not None:
        query = query.where(
            or_(
                contains_text(TrackingRequest.request_number, filters.text),
                json_array_contains_text(TrackingRequest.ref_numbers, filters.text),
            )
        )
    return query


def _scac(attributes: Mapping[str, Any]) -> str | None:
    """The 4-character ``scac``; None (infer it) when absent and ``auto_detect_vocc_scac``."""
    scac = attributes.get("scac")
    detect = attributes.get("auto_detect_vocc_scac", False)
    if not isinstance(detect, bool):
        raise InvalidInput(
            "auto_detect_vocc_scac must be true or false", field="auto_detect_vocc_scac"
        )
    if scac is None and detect:
        return None
    if not isinstance(scac, str) or len(scac) != 4 or not scac.isascii():
        raise InvalidInput("scac must be exactly 4 characters", field="scac")
    return check_text(scac, "scac").upper()

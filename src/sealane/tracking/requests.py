"""Creating and editing tracking requests: validation, duplicates, reference numbers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..store.models import ShippingLine, TrackingRequest
from .lifecycle import RequestStatus
from .numbers import is_container_number, normalize_container_number

REQUEST_TYPES = ("bill_of_lading", "booking_number", "container")
OPEN_STATUSES = (RequestStatus.PENDING, RequestStatus.AWAITING_MANIFEST, RequestStatus.CREATED)
MAX_REFERENCES = 50
MAX_TEXT = 100


class InvalidInput(ValueError):
    """A bad attribute: ``pointer`` names it (JSON Pointer into the request document)."""

    def __init__(self, detail: str, *, pointer: str, code: str = "invalid") -> None:
        super().__init__(detail)
        self.detail = detail
        self.pointer = pointer
        self.code = code


@dataclass(frozen=True, slots=True)
class NewTrackingRequest:
    """Validated attributes of a tracking request."""

    request_type: str
    request_number: str
    scac: str
    ref_numbers: list[str]
    tags: list[str]


def _attr(name: str) -> str:
    return f"/data/attributes/{name}"


def string_list(value: Any, name: str) -> list[str]:
    """A list of non-blank strings (duplicates dropped, order kept); None is an empty list."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidInput(f"{name} must be an array of strings", pointer=_attr(name))
    cleaned = [item.strip() for item in value]
    if any(not item or len(item) > MAX_TEXT for item in cleaned):
        raise InvalidInput(
            f"each of {name} must be 1 to {MAX_TEXT} characters", pointer=_attr(name)
        )
    if len(cleaned) > MAX_REFERENCES:
        raise InvalidInput(f"{name} may hold at most {MAX_REFERENCES} entries", pointer=_attr(name))
    return list(dict.fromkeys(cleaned))


def validate_new(
    session: Session, account_id: str, attributes: dict[str, Any]
) -> NewTrackingRequest:
    """Check a new request's attributes; raises :class:`InvalidInput` naming the first bad one."""
    request_type = attributes.get("request_type")
    if request_type not in REQUEST_TYPES:
        raise InvalidInput(
            f"request_type must be one of {', '.join(REQUEST_TYPES)}, got {request_type!r}",
            pointer=_attr("request_type"),
        )
    number = attributes.get("request_number")
    if not isinstance(number, str) or not number.strip():
        raise InvalidInput(
            "request_number must be a non-blank string", pointer=_attr("request_number")
        )
    number = number.strip()
    if len(number) > 64:
        raise InvalidInput(
            "request_number is longer than 64 characters", pointer=_attr("request_number")
        )
    if request_type == "container":
        if not is_container_number(number):
            raise InvalidInput(
                f"{number!r} is not a valid ISO 6346 container number (bad check digit or format)",
                pointer=_attr("request_number"),
                code="invalid_number",
            )
        number = normalize_container_number(number)
    scac = attributes.get("scac")
    if not isinstance(scac, str) or len(scac) != 4:
        raise InvalidInput("scac must be exactly 4 characters", pointer=_attr("scac"))
    scac = scac.upper()
    if session.scalar(select(ShippingLine.id).where(ShippingLine.scac == scac)) is None:
        raise InvalidInput(
            f"{scac} is not a supported shipping line", pointer=_attr("scac"), code="unknown_scac"
        )
    duplicate = session.scalar(
        select(func.count())
        .select_from(TrackingRequest)
        .where(
            TrackingRequest.account_id == account_id,
            func.upper(TrackingRequest.request_number) == number.upper(),
            TrackingRequest.scac == scac,
            TrackingRequest.status.in_([s.value for s in OPEN_STATUSES]),
        )
    )
    if duplicate:
        raise InvalidInput(
            f"{number} with {scac} is already being tracked in this account",
            pointer=_attr("request_number"),
            code="duplicate",
        )
    return NewTrackingRequest(
        request_type=request_type,
        request_number=number,
        scac=scac,
        ref_numbers=string_list(attributes.get("ref_numbers"), "ref_numbers"),
        tags=string_list(attributes.get("tags"), "tags"),
    )


def create_tracking_request(
    session: Session, account_id: str, new: NewTrackingRequest, now: datetime
) -> TrackingRequest:
    """Store a pending request, due for its first lookup now."""
    request = TrackingRequest(
        account_id=account_id,
        request_type=new.request_type,
        request_number=new.request_number,
        scac=new.scac,
        status=RequestStatus.PENDING.value,
        is_retrying=False,
        retry_count=0,
        next_attempt_at=now,
        ref_numbers=new.ref_numbers,
        tags=new.tags,
        created_at=now,
        updated_at=now,
    )
    session.add(request)
    session.flush()
    return request

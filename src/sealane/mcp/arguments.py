"""Tool arguments: their JSON Schemas, and their checking into the application layer's inputs.

The schemas tell a model the formats and bounds (``format: uuid``, ``minimum``/``maximum``);
the checks here enforce them and raise :class:`~sealane.service.core.errors.InvalidInput` naming the
argument, so a bad argument is reported like every other domain error (see :mod:`.errors`).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Annotated, TypeVar

from pydantic import Field

from ..service.core.errors import InvalidInput
from ..service.core.inputs import check_text, instant
from ..service.core.paging import PageRequest
from .listings import MAX_PAGE_SIZE

E = TypeVar("E", bound=StrEnum)

Id = Annotated[
    str, Field(description="the object's id (a UUID)", json_schema_extra={"format": "uuid"})
]
PageNumber = Annotated[
    int, Field(description="1-based page number", json_schema_extra={"minimum": 1})
]
PageSize = Annotated[
    int,
    Field(
        description=f"items per page (1 to {MAX_PAGE_SIZE})",
        json_schema_extra={"minimum": 1, "maximum": MAX_PAGE_SIZE},
    ),
]
Timestamp = Annotated[
    str | None,
    Field(
        description="ISO 8601 date or date-time (UTC when no offset is given)",
        json_schema_extra={"format": "date-time"},
    ),
]
MAX_PAGE = 1_000_000


def parse_id(value: str, field: str = "id") -> str:
    """``value`` as a canonical lowercase UUID."""
    try:
        return str(uuid.UUID(value.strip()))
    except (ValueError, AttributeError):
        shown = value[:80] if isinstance(value, str) else value
        raise InvalidInput(f"{field} must be a UUID, got {shown!r}", field=field) from None


def parse_page(page: int, page_size: int) -> PageRequest:
    """The page asked for; ``page_size`` is 1 to 100 (25 when not given)."""
    if not 1 <= page <= MAX_PAGE:
        raise InvalidInput(f"page must be between 1 and {MAX_PAGE}, got {page}", field="page")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise InvalidInput(
            f"page_size must be between 1 and {MAX_PAGE_SIZE}, got {page_size}", field="page_size"
        )
    return PageRequest(page, page_size)


def parse_choice(value: str | None, kind: type[E], field: str) -> E | None:
    """``value`` as a member of ``kind`` (case-insensitive), or None."""
    if value is None:
        return None
    try:
        return kind(value.strip().lower())
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise InvalidInput(
            f"{field} must be one of {allowed}, got {value[:80]!r}", field=field
        ) from None


def parse_time(value: str | None, field: str) -> datetime | None:
    """An ISO 8601 date or date-time as an aware UTC datetime, or None."""
    if value is None:
        return None
    return instant(value, field)


def parse_text(value: str | None, field: str, *, max_chars: int = 100) -> str | None:
    """A stripped non-blank text of at most ``max_chars``, or None."""
    if value is None:
        return None
    text = check_text(value.strip(), field)
    if not text or len(text) > max_chars:
        raise InvalidInput(f"{field} must be 1 to {max_chars} characters", field=field)
    return text


def parse_includes(values: Sequence[str] | None, allowed: Sequence[str], field: str) -> list[str]:
    """The relations to include, each one of ``allowed``, in the order given, once each."""
    found: list[str] = []
    for value in values or ():
        if value not in allowed:
            raise InvalidInput(
                f"{field} takes {', '.join(allowed)}; {value[:80]!r} is not one of them",
                field=field,
            )
        if value not in found:
            found.append(value)
    return found

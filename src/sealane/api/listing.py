"""Query parameters, declared once: the OpenAPI document shows each one's type, bounds, values
and pattern, and FastAPI checks exactly that (a bad value is a 400 naming the parameter, see
``errors.validation_errors``). Routers take the checked values as arguments."""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Query
from pydantic import BeforeValidator

from ..service.core.paging import (
    DEFAULT_PAGE_SIZE,
    MAX_AFTER_CHARS,
    MAX_PAGE_NUMBER,
    MAX_PAGE_SIZE,
    PageKey,
    PageRequest,
)
from .regexes import NO_NUL, NON_BLANK, RFC3339, one_of

#: Longest value of a text filter, in characters.
MAX_TEXT_CHARS = 200
_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_FLAGS = ("true", "false", "1", "0")


def _whole(value: Any) -> Any:
    """Only plain digits stand for an integer (not ``+5``, ``5.0`` or ``5_0``)."""
    if isinstance(value, str) and not _WHOLE.fullmatch(value):
        raise ValueError(f"must be a whole number, got {value[:40]!r}")
    return value


def _decimal(value: Any) -> Any:
    """Only a plain decimal number stands for a number (not ``inf``, ``nan`` or ``1_0``)."""
    if isinstance(value, str) and not _DECIMAL.fullmatch(value):
        raise ValueError(f"must be a decimal number, got {value[:40]!r}")
    return value


def _flag(value: Any) -> Any:
    """``true`` or ``false`` (also ``1`` / ``0``), in any case."""
    if isinstance(value, str) and value.lower() not in _FLAGS:
        raise ValueError(f"must be true or false, got {value[:40]!r}")
    return value


def _instant(value: Any) -> Any:
    """An RFC 3339 date-time with a zone, in UTC; one beyond the years a date-time can hold in
    UTC is the earliest or latest instant (a range filter's meaning is kept)."""
    if not isinstance(value, str):
        return value
    if not re.fullmatch(RFC3339, value):
        raise ValueError(f"must be an RFC 3339 date-time with a zone, got {value[:40]!r}")
    moment = datetime.fromisoformat(value)  # the pattern leaves only impossible days to refuse
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        return (datetime.min if moment.year == 1 else datetime.max).replace(tzinfo=UTC)


WHOLE = BeforeValidator(_whole)
DECIMAL = BeforeValidator(_decimal)
FLAG = BeforeValidator(_flag)
INSTANT = BeforeValidator(_instant)

PageNumber = Annotated[
    int,
    Query(alias="page[number]", ge=1, le=MAX_PAGE_NUMBER, description="1-based page number"),
    WHOLE,
]
PageSize = Annotated[
    int, Query(alias="page[size]", ge=1, le=MAX_PAGE_SIZE, description="items per page"), WHOLE
]


def paging(number: PageNumber = 1, size: PageSize = DEFAULT_PAGE_SIZE) -> PageRequest:
    """The page a list operation is asked for."""
    return PageRequest(number, size)


#: ``page[number]`` and ``page[size]`` of a list operation.
Paging = Annotated[PageRequest, Depends(paging)]

PageAfter = Annotated[
    str | None,
    Query(
        alias="page[after]",
        max_length=MAX_AFTER_CHARS,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="the key the page begins after, as the previous page's next link gives it",
    ),
]


def keyset_paging(
    number: PageNumber = 1, size: PageSize = DEFAULT_PAGE_SIZE, after: PageAfter = None
) -> PageRequest:
    """The page a list read by key is asked for: ``page[after]``, which its ``next`` links
    carry, says where it begins (``page[number]`` then only names it)."""
    return PageRequest(number, size, None if after is None else PageKey.decode(after))


#: ``page[number]``, ``page[size]`` and ``page[after]`` of a list read by key.
KeysetPaging = Annotated[PageRequest, Depends(keyset_paging)]


def text(max_chars: int = MAX_TEXT_CHARS, **query: Any) -> Any:
    """A text filter of at most ``max_chars`` characters (blank means absent)."""
    return Query(max_length=max_chars, pattern=NO_NUL, **query)


def required_text(max_chars: int, **query: Any) -> Any:
    """A required text parameter with something besides whitespace in it."""
    return Query(max_length=max_chars, pattern=NON_BLANK, **query)


def choice(values: Collection[str], **query: Any) -> Any:
    """A parameter that is one of ``values`` (listed as the schema's ``enum``)."""
    return Query(pattern=one_of(values), json_schema_extra={"enum": list(values)}, **query)


def moment(alias: str, **query: Any) -> Any:
    """A date-time parameter (with :data:`INSTANT`): RFC 3339, with a zone."""
    return Query(alias=alias, json_schema_extra={"pattern": RFC3339}, **query)


def include_paths(allowed: Collection[str], default: Collection[str] = ()) -> Any:
    """``include``: a comma-separated list of the relationship paths in ``allowed`` (read by
    ``params.parse_include``); ``default`` is what is included when it is absent."""
    text = "relationship paths to include, comma-separated; an empty value includes nothing"
    if default:
        text += f" (default: {','.join(default)})"
    return Query(
        description=text,
        json_schema_extra={"type": "array", "items": {"type": "string", "enum": list(allowed)}},
    )

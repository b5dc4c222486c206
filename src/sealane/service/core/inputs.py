"""Typing untrusted JSON values into the values the use cases take, naming the field at fault.

Shells that receive JSON (the API's request documents, MCP tool arguments) share these, so a
value is checked the same way whichever door it came in by.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import UTC, datetime
from typing import Any

from .errors import InvalidInput

#: Most entries of a list attribute (reference numbers, tags) and the longest entry.
MAX_LIST_ENTRIES = 50
MAX_ENTRY_CHARS = 100


def string_list(value: Any, field: str) -> tuple[str, ...]:
    """A list of non-blank strings (stripped, duplicates dropped, order kept); None is empty."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
        raise InvalidInput(f"{field} must be an array of strings", field=field)
    cleaned = [item.strip() for item in value]
    if any(not item or len(item) > MAX_ENTRY_CHARS for item in cleaned):
        raise InvalidInput(
            f"each of {field} must be 1 to {MAX_ENTRY_CHARS} characters", field=field
        )
    if len(cleaned) > MAX_LIST_ENTRIES:
        raise InvalidInput(f"{field} may hold at most {MAX_LIST_ENTRIES} entries", field=field)
    for item in cleaned:
        check_text(item, field)
    return tuple(dict.fromkeys(cleaned))


def instant(value: str, field: str) -> datetime:
    """An ISO 8601 date or date-time as an aware UTC datetime (one without a zone is UTC).

    A moment that has no UTC equivalent a datetime can hold (``0001-01-01T00:00:00+01:00`` is
    in year 0 in UTC) is refused like a malformed one, naming ``field``.
    """
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInput(
            f"{field} must be an ISO 8601 date or date-time, got {value[:80]!r}", field=field
        ) from None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise InvalidInput(
            f"{field} is outside the years 0001 to 9999 in UTC, got {value[:80]!r}", field=field
        ) from None


def check_text(value: str, field: str) -> str:
    """``value`` if it can be stored: no NUL character and no lone surrogate."""
    if "\x00" in value:
        raise InvalidInput(f"{field} must not contain a NUL character", field=field)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{field} is not valid Unicode text", field=field) from None
    return value


def editable_only(attributes: Mapping[str, Any], editable: Collection[str]) -> None:
    """Refuse any attribute outside ``editable`` (code ``read_only``)."""
    for name in attributes:
        if name not in editable:
            raise InvalidInput(
                f"{name[:80]!r} cannot be changed; editable: {', '.join(editable)}",
                field=name[:200],
                code="read_only",
            )


def known_only(attributes: Mapping[str, Any], known: Collection[str]) -> None:
    """Refuse any attribute outside ``known`` (code ``unknown_attribute``): a misspelt or
    unsupported attribute is reported, never silently dropped."""
    for name in attributes:
        if name not in known:
            raise InvalidInput(
                f"{name[:80]!r} is not an attribute here; known: {', '.join(known)}",
                field=name[:200],
                code="unknown_attribute",
            )

"""Query helpers every use case shares: paging, ownership, text and JSON-array matching."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, String, cast, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from .errors import ObjectNotFound
from .paging import PageRequest

T = TypeVar("T")


def fetch_page(session: Session, query: Select[Any], page: PageRequest) -> tuple[int, list[Any]]:
    """The row count of ``query`` and the rows of ``page`` (two statements, whatever the size).

    A query of a mapped class gives plain result rows of its table: lists only read them, and
    building mapped objects cost more than the queries themselves.
    """
    total = session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0
    entity = query.column_descriptions[0].get("entity")
    if entity is not None and len(query.column_descriptions) == 1:
        query = query.with_only_columns(*entity.__table__.columns, maintain_column_froms=True)
    rows = session.execute(query.offset(page.offset).limit(page.size)).all()
    return total, list(rows)


def owned(session: Session, model: type[T], object_id: str, account_id: str, kind: str) -> T:
    """The account's object ``object_id``; another account's object is not found, like none."""
    obj = session.get(model, object_id) if plausible_key(object_id) else None
    if obj is None or getattr(obj, "account_id", None) != account_id:
        raise ObjectNotFound(kind, object_id)
    return obj


def plausible_key(text: str) -> bool:
    """Whether ``text`` could name a row (an id, a code): keys are short and never hold a NUL,
    which PostgreSQL refuses in any text it is asked to compare."""
    return 0 < len(text) <= 64 and "\x00" not in text


def like_pattern(text: str, *, prefix: bool = False) -> str:
    """A case-insensitive substring (or ``prefix``) pattern for SQL LIKE with ``\\`` escaping
    ``%`` and ``_``."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}%" if prefix else f"%{escaped}%"


def contains_text(column: Any, text: str) -> ColumnElement[bool]:
    """Rows whose ``column`` holds ``text``, case-insensitively."""
    return func.lower(column).like(like_pattern(text), escape="\\")


def json_array_contains_text(column: Any, text: str) -> ColumnElement[bool]:
    """Rows whose JSON array ``column`` has a string holding ``text``, case-insensitively (the
    pattern is the text as JSON escapes it, so it never spans two entries)."""
    escaped = json.dumps(text)[1:-1]
    return func.lower(cast(column, String)).like(like_pattern(escaped), escape="\\")


def json_array_contains(column: Any, value: str) -> ColumnElement[bool]:
    """Rows whose JSON array ``column`` holds the string ``value`` (portable: a text match on the
    value as JSON encodes it, so quotes and non-ASCII letters are found too)."""
    return func.lower(cast(column, String)).like(like_pattern(json.dumps(value)), escape="\\")

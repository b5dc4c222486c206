"""A table's columns typed for reading many rows fast: the values lists show, converted by one
plain function each instead of SQLAlchemy's chain of processors.

A UTC date-time column (:class:`~sealane.store.models.base.UTCDateTime`) reads through three
Python calls per value on SQLite (a regular expression, the ``datetime`` built from its groups,
the zone set); here ``datetime.fromisoformat`` reads the stored text in one. A JSON column on
SQLite is parsed with orjson; PostgreSQL's driver has parsed it already. The
values are the ones the mapped columns give: aware UTC date-times, the JSON's objects.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import JSON, ColumnElement, FromClause, String, TypeDecorator, type_coerce
from sqlalchemy.engine import Dialect

from .models.base import UTCDateTime

Processor = Callable[[Any], Any]


def _sqlite_moment(value: str | None) -> datetime | None:
    """A date-time SQLite stored as text (``2026-11-21 14:00:30.000000``, no zone: UTC)."""
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


def _driver_moment(value: datetime | None) -> datetime | None:
    """A date-time the driver read (aware, in the session's zone) in UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _sqlite_json(value: Any) -> Any:
    """A JSON value SQLite stored as text (by orjson; what it refuses, such as ``NaN`` or an
    integer beyond 64 bits, by the standard library as before)."""
    if not isinstance(value, str):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return json.loads(value)


class _ReadMoment(TypeDecorator[datetime]):
    """A UTC date-time column, read only."""

    impl = String
    cache_ok = True

    def result_processor(self, dialect: Dialect, coltype: object) -> Processor:
        return _sqlite_moment if dialect.name == "sqlite" else _driver_moment


class _ReadJson(TypeDecorator[Any]):
    """A JSON column, read only."""

    impl = String
    cache_ok = True

    def result_processor(self, dialect: Dialect, coltype: object) -> Processor | None:
        return _sqlite_json if dialect.name == "sqlite" else None


def read_columns(table: FromClause) -> list[ColumnElement[Any]]:
    """Every column of ``table`` under its own name, date-times and JSON typed for reading.

    Select them (with rows of the same shape as ``select(table)``) only to read rows: the
    types cannot write. The list is made once per table.
    """
    found = _READ_COLUMNS.get(table)
    if found is None:
        found = _READ_COLUMNS[table] = _typed_for_reading(table)
    return found


#: :func:`read_columns` by table.
_READ_COLUMNS: dict[FromClause, list[ColumnElement[Any]]] = {}


def _typed_for_reading(table: FromClause) -> list[ColumnElement[Any]]:
    columns: list[ColumnElement[Any]] = []
    for column in table.columns:
        if isinstance(column.type, UTCDateTime):
            columns.append(type_coerce(column, _ReadMoment()).label(column.name))
        elif isinstance(column.type, JSON):
            columns.append(type_coerce(column, _ReadJson()).label(column.name))
        else:
            columns.append(column)
    return columns

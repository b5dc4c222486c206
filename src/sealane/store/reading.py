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
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TypeAlias, cast

import orjson
from sqlalchemy import JSON, ColumnElement, FromClause, String, TypeDecorator, type_coerce
from sqlalchemy.engine import Connection, CursorResult, Dialect
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import Label, TypeCoerce
from sqlalchemy.types import NullType

from ..fingerprint import fingerprint
from .models.base import UTCDateTime

Processor = Callable[[Any], Any]
#: A select statement of any columns.
AnySelect: TypeAlias = Select[*tuple[Any, ...]]


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


class RawStatement:
    """A select statement's twin that reads its columns' values as the driver gives them (no
    conversion in Python), with what converts a row of it into a row of the statement.

    The raw values are cheap to read and to compare: a list page is read raw, and converted
    only when what was read differs from what its kept body was made from (see
    :class:`ReadLog`).
    """

    def __init__(self, statement: AnySelect) -> None:
        columns = list(statement.selected_columns)
        self.statement = statement
        self.raw: AnySelect = statement.with_only_columns(
            *(type_coerce(_bare(column), NullType()).label(column.key) for column in columns),
            maintain_column_froms=True,
        )
        self._columns = columns
        self._row: Any = namedtuple("ReadRow", [str(column.key) for column in columns])  # type: ignore[misc]
        #: The converters of each dialect: (position, converter) of the columns that have one.
        self._converters: dict[str, list[tuple[int, Processor]]] = {}

    def typed(self, rows: Sequence[Any], dialect: Dialect, description: Sequence[Any]) -> list[Any]:
        """``rows`` read by :attr:`raw` as ``statement`` would have read them (named tuples);
        ``description`` is the driver's description of the columns read."""
        converters = self._converters.get(dialect.name)
        if converters is None:
            converters = self._converters[dialect.name] = [
                (position, found)
                for position, (column, described) in enumerate(
                    zip(self._columns, description, strict=True)
                )
                if (
                    found := column.type.dialect_impl(dialect).result_processor(
                        dialect, described[1]
                    )
                )
            ]
        make = self._row._make
        if not converters:
            return [make(row) for row in rows]
        typed = []
        for row in rows:
            values = list(row)
            for position, convert in converters:
                values[position] = convert(values[position])
            typed.append(make(values))
        return typed


def _bare(column: ColumnElement[Any]) -> ColumnElement[Any]:
    """``column`` without its label and its type coercion (the expression the database reads)."""
    element: Any = column
    if isinstance(element, Label):
        element = element.element
    if isinstance(element, TypeCoerce):
        element = element.clause
    return cast(ColumnElement[Any], element)


@lru_cache(maxsize=1024)
def raw_statement(statement: AnySelect) -> RawStatement:
    """The :class:`RawStatement` of ``statement`` (kept for the statements in use)."""
    return RawStatement(statement)


class ReadLog:
    """The statements one use case ran, with their parameters and the raw rows they gave.

    What is made from those rows alone (a rendered page) is made again from equal rows: when
    :meth:`replay` runs the same statements in the same order and each gives the rows it gave
    before, whatever the reads would lead to is the same as before. The statements after the
    first take their parameters (keys) from earlier rows, so equal rows also mean the same
    statements are the ones to run; nothing else is read.
    """

    def __init__(self) -> None:
        #: Each statement, its parameters, how many rows it gave and their :func:`fingerprint`.
        self.reads: list[tuple[RawStatement, Mapping[str, Any], int, bytes]] = []

    def read(
        self, connection: Connection, statement: AnySelect, params: Mapping[str, Any]
    ) -> list[Any]:
        """The rows of ``statement`` (converted as it converts them), logged raw."""
        raw = raw_statement(statement)
        result = connection.execute(raw.raw, params)
        description = result.cursor.description
        rows = _fetched(result)
        self.reads.append((raw, params, len(rows), fingerprint(rows)))
        return raw.typed(rows, connection.dialect, description)

    def replay(self, connection: Connection) -> bool:
        """Whether every logged statement gives the rows it gave, read again in order (it stops
        at the first that does not). Rows compare by :func:`fingerprint`, so a value whose type
        alone changed (a JSON ``1`` rewritten as ``true``) is a change."""
        return all(
            fingerprint(_fetched(connection.execute(raw.raw, params))) == printed
            for raw, params, _, printed in self.reads
        )

    def weight(self) -> int:
        """About how many values the log holds."""
        return sum(count * len(raw.raw.selected_columns) for raw, _, count, _ in self.reads)


def _fetched(result: CursorResult[Any]) -> list[tuple[Any, ...]]:
    """Every row of ``result`` as the driver's tuples: the raw statements convert nothing, so
    the rows the result would build add nothing but their cost (and compare slower)."""
    try:
        return list(result.cursor.fetchall())
    finally:
        result.close()

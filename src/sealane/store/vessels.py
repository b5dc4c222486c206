"""Vessel look-up by id or IMO number: one indexed query, no ORM session, no Core execution.

The routing endpoints read one vessel per request before a CPU-heavy computation; going through
the ORM (session, identity map, instance loading) cost several times the query itself. The Core
query is compiled once per dialect, and each look-up runs it on a pooled DBAPI connection,
converting the row with the columns' own result processors: the same row, for about half the
CPU of a Core execution (which, with caches cold after a megabyte-sized answer, cost a future
positions request about 0.3 ms). Nothing is kept between look-ups but the statement: every one
reads the vessel's latest position from the database.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Dialect, Engine, String, bindparam, or_, select
from sqlalchemy.sql.elements import BindParameter

from ..vocabulary.vessels import VesselRecord
from .models import Vessel

_TABLE = Vessel.__table__
#: The columns of what a vessel reports of itself, in :class:`VesselRecord` order after the
#: position (see :mod:`sealane.feeds.ais.statics`).
STATIC_FIELDS = (
    "call_sign",
    "ship_type",
    "length_m",
    "beam_m",
    "draught_m",
    "dimensions_source",
    "dimensions_updated_at",
    "reported_destination",
    "reported_eta",
    "static_updated_at",
)
_KEY: BindParameter[str] = bindparam("key", type_=String())
#: The vessel whose id is the key, else the one whose IMO number is (ids are uuids, IMO numbers
#: seven digits, so at most one of each; the id wins if both exist).
_BY_ID_OR_IMO = (
    select(
        _TABLE.c.id,
        _TABLE.c.name,
        _TABLE.c.imo,
        _TABLE.c.mmsi,
        _TABLE.c.latitude,
        _TABLE.c.longitude,
        _TABLE.c.nautical_speed_knots,
        _TABLE.c.navigational_heading_degrees,
        _TABLE.c.position_timestamp,
        *(_TABLE.c[name] for name in STATIC_FIELDS),
    )
    .where(or_(_TABLE.c.id == _KEY, _TABLE.c.imo == _KEY))
    .order_by((_TABLE.c.id == _KEY).desc())
    .limit(1)
)


Processor = Callable[[Any], Any]


@dataclass(slots=True)
class _Compiled:
    """:data:`_BY_ID_OR_IMO` as one dialect runs it: its SQL, the parameters besides the key (in
    the order a positional driver takes them, or by name), the key's bind processor, and each
    column's result processor (found from the driver's column types at the first read)."""

    dialect: Dialect
    sql: str
    names: tuple[str, ...] | None
    fixed: dict[str, Any]
    key_processor: Processor | None
    processors: tuple[Processor | None, ...] | None = None

    def parameters(self, key: str) -> tuple[Any, ...] | dict[str, Any]:
        value = key if self.key_processor is None else self.key_processor(key)
        values = self.fixed | {"key": value}
        return values if self.names is None else tuple(values[name] for name in self.names)

    def record(self, row: Sequence[Any], description: Sequence[Sequence[Any]]) -> VesselRecord:
        processors = self.processors
        if processors is None:
            columns = zip(_BY_ID_OR_IMO.selected_columns, description, strict=True)
            self.processors = processors = tuple(
                column.type.dialect_impl(self.dialect).result_processor(self.dialect, found[1])
                for column, found in columns
            )
        pairs = zip(processors, row, strict=True)
        return VesselRecord(*(v if p is None or v is None else p(v) for p, v in pairs))


_COMPILED: dict[tuple[type[Dialect], str], _Compiled] = {}


def _compiled(dialect: Dialect) -> _Compiled:
    """The look-up compiled for ``dialect`` (once per dialect class and parameter style)."""
    known = _COMPILED.get((type(dialect), dialect.paramstyle))
    if known is not None:
        return known
    compiled = _BY_ID_OR_IMO.compile(dialect=dialect)
    fixed = dict(compiled.construct_params({"key": ""}))
    del fixed["key"]
    for name in fixed:
        process = compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
        if process is not None:
            fixed[name] = process(fixed[name])
    key_processor = _KEY.type.dialect_impl(dialect).bind_processor(dialect)
    names = tuple(compiled.positiontup or ()) if dialect.positional else None
    made = _Compiled(dialect, compiled.string, names, fixed, key_processor)
    _COMPILED[type(dialect), dialect.paramstyle] = made
    return made


def find_vessel(engine: Engine, key: str) -> VesselRecord | None:
    """The vessel whose id or IMO number is ``key``, or None (read now, never kept)."""
    compiled = _compiled(engine.dialect)
    connection = engine.raw_connection()  # from the pool; closing it returns it, rolled back
    try:
        cursor = connection.cursor()
        try:
            cursor.execute(compiled.sql, compiled.parameters(key))
            row = cursor.fetchone()
            description = cursor.description
        finally:
            cursor.close()
    finally:
        connection.close()
    return None if row is None else compiled.record(row, description)

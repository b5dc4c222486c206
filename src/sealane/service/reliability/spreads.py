"""Durations and their spread (median, P10, P90) by SQL aggregates that give the same numbers on
SQLite and PostgreSQL.

SQLite has no ``percentile_cont``. Both databases have window functions, so each value is ranked
within its group (``row_number`` over the group ordered by the value, NULLs last) beside the
group's count of values; the group's aggregate then picks, for each percentile, the values at the
two ranks around its position, and :func:`interpolated` interpolates linearly between them as
``percentile_cont`` does (position ``1 + (n - 1) x p``). Durations are whole seconds on both
databases (rounded), so ranks, picks and results agree exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Float, case, cast, func, literal, text
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import KeyedColumnElement

#: Percentiles of a spread, in per cent.
PERCENTILES = (10, 50, 90)
#: Fewest values for which percentiles are stated; below it only ``n`` (and a mean) are.
MIN_SAMPLES = 5
SECONDS_PER_HOUR = 3600.0
#: Memory PostgreSQL may give each sort of a reliability query (its default, 4 MB, sends the
#: ranking of 100,000 shipments to disk).
SORT_MEMORY = "64MB"


@dataclass(frozen=True, slots=True)
class Spread:
    """How a duration is spread over ``n`` values, in hours: median, P10 and P90 (None under
    :data:`MIN_SAMPLES` values), and the mean (None without values)."""

    n: int
    median_h: float | None = None
    p10_h: float | None = None
    p90_h: float | None = None
    mean_h: float | None = None


def seconds_between(later: Any, earlier: Any, dialect: str) -> ColumnElement[Any]:
    """Whole seconds from ``earlier`` to ``later`` (NULL when either is), on ``dialect``."""
    exact: ColumnElement[Any]
    if dialect == "postgresql":
        exact = func.extract("epoch", later - earlier)
    else:
        exact = (func.julianday(later) - func.julianday(earlier)) * 86400.0
    return cast(func.round(exact), Float)


def sorting_room(session: Session) -> str:
    """Let this transaction's sorts (the rankings) work in memory, without JIT compilation; the
    session's dialect name."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(text(f"SET LOCAL work_mem = '{SORT_MEMORY}'"))
        # The planner's cost of the correlated look-ups passes jit_above_cost, and compiling
        # the query then takes longer than running it.
        session.execute(text("SET LOCAL jit = off"))
    return dialect


def group_key(column: Any, dialect: str) -> Any:
    """``column`` as a grouping key: compared byte by byte on PostgreSQL (codes need no
    locale's collation, and sorting by it is several times faster)."""
    return column.collate("C") if dialect == "postgresql" else column


def ranked(value: ColumnElement[Any], groups: Sequence[Any], name: str) -> list[Any]:
    """Columns for a ranked subquery: ``value`` as ``name``, its rank among the group's values
    (NULLs after them) as ``name_rank``, and the group's count of values as ``name_n``."""
    last = case((value.is_(None), 1), else_=0)
    partition = list(groups) or None
    return [
        value.label(name),
        func.row_number()
        .over(partition_by=partition, order_by=[last, value])
        .label(f"{name}_rank"),
        func.count(value).over(partition_by=partition).label(f"{name}_n"),
    ]


def picks(sub: Any, name: str) -> list[KeyedColumnElement[Any]]:
    """Aggregates over a subquery of :func:`ranked` columns: the count of values, their mean
    (seconds), and for each of :data:`PERCENTILES` the values at the two ranks around it."""
    value, rank, n = sub.c[name], sub.c[f"{name}_rank"], sub.c[f"{name}_n"]
    columns: list[KeyedColumnElement[Any]] = [
        func.max(n).label(f"{name}_n"),
        func.avg(value).label(f"{name}_mean"),
    ]
    for p in PERCENTILES:
        low = (n - 1) * p // 100 + 1
        columns.append(func.max(case((rank == low, value))).label(f"{name}_lo{p}"))
        high = case((rank == low + literal(1), value))
        columns.append(func.max(high).label(f"{name}_hi{p}"))
    return columns


def interpolated(n: int, p: int, low: float | None, high: float | None) -> float | None:
    """``percentile_cont(p / 100)`` of ``n`` values from the two around its position.

    >>> interpolated(5, 90, 40.0, 50.0)  # position 1 + 4 x 0.9 = 4.6: 40 + 0.6 x 10
    46.0
    >>> interpolated(1, 50, 7.0, None)
    7.0
    """
    if low is None:
        return None
    fraction = ((n - 1) * p % 100) / 100.0
    if high is None or fraction == 0.0:
        return float(low)
    return float(low) + fraction * (float(high) - float(low))


def spread_of(row: Any, name: str) -> Spread:
    """The :class:`Spread` of the ``name`` picks in an aggregate ``row`` (seconds to hours)."""
    n = int(getattr(row, f"{name}_n") or 0)
    if n == 0:
        return Spread(0)
    mean = _hours(getattr(row, f"{name}_mean"))
    if n < MIN_SAMPLES:
        return Spread(n, mean_h=mean)
    found = {
        p: interpolated(
            n, p, _float(getattr(row, f"{name}_lo{p}")), _float(getattr(row, f"{name}_hi{p}"))
        )
        for p in PERCENTILES
    }
    return Spread(n, _hours(found[50]), _hours(found[10]), _hours(found[90]), mean)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _hours(seconds: Any) -> float | None:
    """Seconds (a float or a database's decimal) as hours to the second's precision."""
    if seconds is None:
        return None
    return round(float(seconds) / SECONDS_PER_HOUR, 6)

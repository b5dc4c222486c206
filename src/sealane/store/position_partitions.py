"""The monthly partitions of ``vessel_positions`` on PostgreSQL, and the retention of positions.

On PostgreSQL ``vessel_positions`` is partitioned by ``timestamp``, one partition a calendar
month (UTC) named ``vessel_positions_YYYYMM``, plus ``vessel_positions_default`` for any row
whose month has none yet, so that an insert or COPY into the parent never fails (migration
0018). The ingest makes the months it writes before writing them and the worker makes the
next ones ahead (:func:`ensure_months`); a month made after rows fell into the default
partition takes those rows over. Old positions go a whole partition at a time
(:func:`drop_positions_before`); SQLite keeps one plain table and deletes old rows instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, text

PARENT = "vessel_positions"
DEFAULT = "vessel_positions_default"
_NAME = re.compile(r"^vessel_positions_(\d{4})(\d{2})$")

Month = tuple[int, int]


def month_of(time_s: float) -> Month:
    """The (year, month) in UTC of UNIX time ``time_s``."""
    at = datetime.fromtimestamp(time_s, UTC)
    return at.year, at.month


def next_month(month: Month) -> Month:
    """The month after ``month``."""
    year, number = month
    return (year + 1, 1) if number == 12 else (year, number + 1)


def partition_name(month: Month) -> str:
    """The name of ``month``'s partition (``vessel_positions_202612``)."""
    return f"{PARENT}_{month[0]:04d}{month[1]:02d}"


def _bound(month: Month) -> str:
    return f"{month[0]:04d}-{month[1]:02d}-01 00:00:00+00"


def is_partitioned(connection: Connection) -> bool:
    """Whether ``vessel_positions`` is a partitioned table (PostgreSQL after migration 0018)."""
    if connection.dialect.name != "postgresql":
        return False
    found = connection.scalar(
        text("SELECT relkind FROM pg_class WHERE oid = to_regclass(:name)"), {"name": PARENT}
    )
    return bool(found == "p")


def ensure_months(connection: Connection, months: Iterable[Month]) -> list[Month]:
    """Make the partition of each month that has none, in the caller's transaction; the months
    made. Rows of such a month already in the default partition are moved into its partition.

    A no-op on SQLite. Runs one look-up per month asked about; the making itself (rare: once a
    month and process at most) first locks the parent alone (not its partitions, which a vacuum
    may hold) in SHARE UPDATE EXCLUSIVE mode until the transaction ends: the lock ATTACH
    PARTITION takes, which lets rows be read and written meanwhile but not a second process
    make the same month (taking a table's lock also brings the catalogue this session reads up
    to date, so it sees a month made while it waited).
    """
    if connection.dialect.name != "postgresql":
        return []
    wanted = sorted(set(months))
    exists = text("SELECT to_regclass(:name) IS NOT NULL")
    missing = [m for m in wanted if not connection.scalar(exists, {"name": partition_name(m)})]
    if not missing:
        return []
    connection.execute(text(f"LOCK TABLE ONLY {PARENT} IN SHARE UPDATE EXCLUSIVE MODE"))
    made = []
    for month in missing:
        if connection.scalar(exists, {"name": partition_name(month)}):
            continue  # another process made it while this one waited for the lock
        _make(connection, month)
        made.append(month)
    return made


def _make(connection: Connection, month: Month) -> None:
    """Make ``month``'s partition: a table of the parent's shape, filled with the month's rows
    from the default partition, then attached (which builds its indexes and checks its rows)."""
    name, low, high = partition_name(month), _bound(month), _bound(next_month(month))
    connection.execute(
        text(f'CREATE TABLE "{name}" (LIKE {PARENT} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)')
    )
    moved = text(
        f"WITH moved AS (DELETE FROM {DEFAULT} WHERE timestamp >= :low AND timestamp < :high"
        f' RETURNING *) INSERT INTO "{name}" SELECT * FROM moved'
    )
    connection.execute(moved, {"low": low, "high": high})
    connection.execute(
        text(
            f'ALTER TABLE {PARENT} ATTACH PARTITION "{name}"'
            f" FOR VALUES FROM ('{low}') TO ('{high}')"
        )
    )


def partition_months(connection: Connection) -> list[Month]:
    """The months that have a partition, oldest first (none on SQLite)."""
    if connection.dialect.name != "postgresql":
        return []
    names = connection.scalars(
        text(
            "SELECT child.relname FROM pg_inherits JOIN pg_class child ON child.oid = inhrelid"
            " WHERE inhparent = to_regclass(:parent)"
        ),
        {"parent": PARENT},
    )
    found = (_NAME.match(name) for name in names)
    return sorted((int(m.group(1)), int(m.group(2))) for m in found if m is not None)


@dataclass(frozen=True, slots=True)
class Retention:
    """What a retention pass removed: the partitions dropped (PostgreSQL) and the rows deleted
    one by one (SQLite's table, PostgreSQL's default partition)."""

    partitions: tuple[str, ...]
    rows: int


def drop_positions_before(connection: Connection, cutoff: datetime) -> Retention:
    """Remove the positions older than ``cutoff``, in the caller's transaction.

    PostgreSQL drops each monthly partition that ends at or before ``cutoff`` (the month that
    holds it stays whole until it has passed too) and deletes the default partition's older
    rows; SQLite deletes the older rows of its table.
    """
    if not is_partitioned(connection):
        deleted = connection.execute(
            text(f"DELETE FROM {PARENT} WHERE timestamp < :cutoff"),
            {"cutoff": _as_stored(connection, cutoff)},
        )
        return Retention((), deleted.rowcount)
    dropped = []
    for month in partition_months(connection):
        if month_start(next_month(month)) <= cutoff:
            name = partition_name(month)
            connection.execute(text(f'DROP TABLE "{name}"'))
            dropped.append(name)
    deleted = connection.execute(
        text(f"DELETE FROM {DEFAULT} WHERE timestamp < :cutoff"), {"cutoff": cutoff}
    )
    return Retention(tuple(dropped), deleted.rowcount)


def month_start(month: Month) -> datetime:
    """The first instant of ``month`` (UTC)."""
    return datetime(month[0], month[1], 1, tzinfo=UTC)


def _as_stored(connection: Connection, at: datetime) -> datetime | str:
    """``at`` as the table compares it: SQLite holds UTC text (as SQLAlchemy writes it)."""
    if connection.dialect.name == "sqlite":
        return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    return at

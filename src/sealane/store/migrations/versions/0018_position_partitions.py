"""position partitions: vessel positions by month on PostgreSQL; tracked shipments by vessel

On PostgreSQL ``vessel_positions`` becomes a table partitioned by ``timestamp``, one partition a
calendar month (UTC, ``vessel_positions_YYYYMM``) and a default partition for rows of a month
that has none yet, so that positions can be kept for years and dropped a month at a time
(``SEALANE_POSITION_RETENTION_DAYS``). Partitions are made for every month from the oldest
stored position to the month after this one; the stored rows are copied over (in one
statement: minutes for millions of positions, with room for the table twice meanwhile).

Its only index is the unique one on (vessel_id, timestamp), made on each partition: it keeps
one point per vessel and time (0010), answers a vessel's track between two times and its
newest point. The primary key on ``id`` is not carried over: a key of a partitioned table must
hold the partition column, nothing reads a position by its id, and the ids are uuids made by
the writer, so its index (a third of the table's size again) only slowed every insert.

Both databases get the partial index of tracked shipments by vessel, which the AIS ingest
reads for all the vessels of a batch at once. SQLite keeps its plain positions table.

Revision ID: 0018_position_partitions
Revises: 0016_official_port_codes
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0018_position_partitions"
down_revision = "0017_list_paging"
branch_labels = None
depends_on = None

_TRACKED = sa.text("tracking_stopped_at IS NULL")
_COLUMNS = (
    "id, vessel_id, latitude, longitude, speed_knots, heading_degrees, course_degrees, timestamp"
)
_SHAPE = (
    "(id VARCHAR(36) NOT NULL,"
    " vessel_id VARCHAR(36) NOT NULL REFERENCES vessels (id) ON DELETE CASCADE,"
    " latitude FLOAT NOT NULL, longitude FLOAT NOT NULL, speed_knots FLOAT,"
    " heading_degrees FLOAT, course_degrees FLOAT, timestamp TIMESTAMP WITH TIME ZONE NOT NULL"
)


def _months(first: tuple[int, int], last: tuple[int, int]) -> list[tuple[int, int]]:
    months, (year, month) = [], first
    while (year, month) <= last:
        months.append((year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def _bound(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}-01 00:00:00+00"


def upgrade() -> None:
    op.create_index(
        "ix_shipments_pod_vessel_tracked",
        "shipments",
        ["pod_vessel_id"],
        sqlite_where=_TRACKED,
        postgresql_where=_TRACKED,
    )
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE vessel_positions RENAME TO vessel_positions_plain")
    op.execute("ALTER INDEX uq_vessel_positions_vessel_time RENAME TO uq_vessel_positions_plain")
    op.execute("ALTER INDEX vessel_positions_pkey RENAME TO vessel_positions_plain_pkey")
    op.execute(f"CREATE TABLE vessel_positions {_SHAPE}) PARTITION BY RANGE (timestamp)")
    op.execute("CREATE TABLE vessel_positions_default PARTITION OF vessel_positions DEFAULT")
    oldest = bind.scalar(sa.text("SELECT min(timestamp) FROM vessel_positions_plain"))
    now = datetime.now(UTC)
    start = oldest.astimezone(UTC) if oldest is not None else now
    ahead = (now.year + 1, 1) if now.month == 12 else (now.year, now.month + 1)
    for year, month in _months((start.year, start.month), ahead):
        after = (year + 1, 1) if month == 12 else (year, month + 1)
        op.execute(
            f"CREATE TABLE vessel_positions_{year:04d}{month:02d} PARTITION OF vessel_positions"
            f" FOR VALUES FROM ('{_bound(year, month)}') TO ('{_bound(*after)}')"
        )
    op.execute(
        f"INSERT INTO vessel_positions ({_COLUMNS}) SELECT {_COLUMNS} FROM vessel_positions_plain"
    )
    # built after the copy: one sorted build a partition, denser and quicker than row by row
    op.execute(
        "CREATE UNIQUE INDEX uq_vessel_positions_vessel_time"
        " ON vessel_positions (vessel_id, timestamp)"
    )
    op.execute("DROP TABLE vessel_positions_plain")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.execute(f"CREATE TABLE vessel_positions_plain {_SHAPE}, PRIMARY KEY (id))")
        op.execute(
            f"INSERT INTO vessel_positions_plain ({_COLUMNS}) SELECT {_COLUMNS}"
            " FROM vessel_positions"
        )
        op.execute("DROP TABLE vessel_positions")  # and every partition with it
        op.execute("ALTER TABLE vessel_positions_plain RENAME TO vessel_positions")
        op.execute("ALTER INDEX vessel_positions_plain_pkey RENAME TO vessel_positions_pkey")
        op.execute(
            "ALTER TABLE vessel_positions RENAME CONSTRAINT vessel_positions_plain_vessel_id_fkey"
            " TO vessel_positions_vessel_id_fkey"
        )
        op.execute(
            "CREATE UNIQUE INDEX uq_vessel_positions_vessel_time"
            " ON vessel_positions (vessel_id, timestamp)"
        )
    op.drop_index("ix_shipments_pod_vessel_tracked", table_name="shipments")

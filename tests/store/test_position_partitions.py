"""Vessel positions by month on PostgreSQL (made ahead, on demand, never an insert refused) and
their retention on both databases: whole partitions dropped on PostgreSQL, rows deleted on
SQLite; the worker's job that runs both; migration 0018 carrying stored rows over and back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.feeds.ais.ingest import Ingestor
from sealane.feeds.ais.reports import PositionReport
from sealane.runtime import build_runtime
from sealane.service.ingest.retention import PositionRetention
from sealane.store.database import transaction
from sealane.store.migrate import downgrade, upgrade
from sealane.store.models import Vessel, VesselPosition
from sealane.store.position_partitions import (
    drop_positions_before,
    ensure_months,
    month_of,
    partition_months,
)

MMSI = 244_670_316
NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def at(year: int, month: int, day: int = 15) -> datetime:
    return datetime(year, month, day, 12, 0, tzinfo=UTC)


def vessel(sessions: sessionmaker[Session]) -> str:
    with transaction(sessions) as session:
        row = Vessel(name="Partitioned", mmsi=str(MMSI))
        session.add(row)
        session.flush()
        return row.id


def store(sessions: sessionmaker[Session], vessel_id: str, *times: datetime) -> None:
    """Positions stored straight through the ORM (not the ingest, which makes months first)."""
    with transaction(sessions) as session:
        for moment in times:
            session.add(
                VesselPosition(vessel_id=vessel_id, latitude=50.0, longitude=0.0, timestamp=moment)
            )


def stored(sessions: sessionmaker[Session]) -> list[datetime]:
    with sessions() as session:
        return list(
            session.scalars(select(VesselPosition.timestamp).order_by(VesselPosition.timestamp))
        )


def where(engine: Engine) -> dict[str, int]:
    """How many positions each partition holds (PostgreSQL)."""
    query = text("SELECT tableoid::regclass::text, count(*) FROM vessel_positions GROUP BY 1")
    with engine.connect() as connection:
        return {name.rsplit(".", 1)[-1]: count for name, count in connection.execute(query)}


def test_migrated__positions_are_partitioned_by_month_with_a_default(
    migrated: Engine, backend: str
) -> None:
    with migrated.connect() as connection:
        months = partition_months(connection)
        kind = (
            connection.scalar(
                text("SELECT relkind FROM pg_class WHERE relname = 'vessel_positions'")
            )
            if backend == "postgresql"
            else None
        )
    if backend == "sqlite":
        assert months == []
        return
    assert kind == "p"
    now = month_of(datetime.now(UTC).timestamp())
    assert now in months and len(months) == 2  # this month and the next, made ahead


@pytest.mark.usefixtures("backend")
def test_ingest__makes_the_month_of_its_points_and_stores_them_there(
    sessions: sessionmaker[Session], migrated: Engine
) -> None:
    vessel(sessions)
    old = at(2025, 3).timestamp()
    reports = [
        PositionReport(MMSI, old + 60.0 * k, 0.01 * k, 50.0, 12.0, 90.0, 90) for k in range(3)
    ]
    report = Ingestor(sessions, ManualClock(NOW)).ingest(reports)
    assert report.stored == 3
    if migrated.dialect.name == "postgresql":
        with migrated.connect() as connection:
            assert (2025, 3) in partition_months(connection)
        assert where(migrated) == {"vessel_positions_202503": 3}


def test_ingest__makes_no_month_years_ahead_of_its_clock(
    sessions: sessionmaker[Session], migrated: Engine
) -> None:
    vessel(sessions)
    ahead = at(2030, 1).timestamp()  # a receiver's clock gone wrong
    report = Ingestor(sessions, ManualClock(NOW)).ingest(
        [PositionReport(MMSI, ahead, 0.0, 50.0, 12.0, 90.0, 90)]
    )
    assert report.stored == 1  # stored all the same
    if migrated.dialect.name == "postgresql":
        with migrated.connect() as connection:
            assert (2030, 1) not in partition_months(connection)
        assert where(migrated) == {"vessel_positions_default": 1}


def test_insert_without_a_month__lands_in_the_default_then_moves_into_its_month(
    sessions: sessionmaker[Session], migrated: Engine, backend: str
) -> None:
    vessel_id = vessel(sessions)
    store(sessions, vessel_id, at(2024, 6), at(2024, 6, 20), at(2024, 7))
    assert len(stored(sessions)) == 3
    if backend == "sqlite":
        return
    assert where(migrated) == {"vessel_positions_default": 3}
    with migrated.begin() as connection:
        assert ensure_months(connection, [(2024, 6)]) == [(2024, 6)]
        assert ensure_months(connection, [(2024, 6)]) == []  # made once
    assert where(migrated) == {"vessel_positions_202406": 2, "vessel_positions_default": 1}
    assert stored(sessions) == [at(2024, 6), at(2024, 6, 20), at(2024, 7)]


def test_retention__removes_what_is_older_than_the_cutoff(
    sessions: sessionmaker[Session], migrated: Engine, backend: str
) -> None:
    vessel_id = vessel(sessions)
    with migrated.begin() as connection:
        ensure_months(connection, [(2026, 8), (2026, 9), (2026, 10)])
    times = [at(2026, 8, 2), at(2026, 8, 30), at(2026, 9, 10), at(2026, 9, 25), at(2026, 10, 5)]
    store(sessions, vessel_id, *times)
    store(sessions, vessel_id, at(2026, 7, 1))  # no partition: the default (PostgreSQL)
    cutoff = datetime(2026, 9, 20, tzinfo=UTC)
    with migrated.begin() as connection:
        removed = drop_positions_before(connection, cutoff)
    if backend == "sqlite":  # row by row: exactly what is older
        assert removed.partitions == () and removed.rows == 4
        assert stored(sessions) == [at(2026, 9, 25), at(2026, 10, 5)]
        return
    # PostgreSQL: August ended before the cutoff and goes whole; September holds the cutoff
    # and stays whole until it has passed; the default's older row is deleted
    assert removed.partitions == ("vessel_positions_202608",) and removed.rows == 1
    assert stored(sessions) == [at(2026, 9, 10), at(2026, 9, 25), at(2026, 10, 5)]
    with migrated.connect() as connection:
        assert (2026, 8) not in partition_months(connection)
    with migrated.begin() as connection:  # a month boundary as cutoff drops the month before
        again = drop_positions_before(connection, datetime(2026, 10, 1, tzinfo=UTC))
    assert again.partitions == ("vessel_positions_202609",)
    assert stored(sessions) == [at(2026, 10, 5)]


def test_worker_job__keeps_positions_for_the_retention_days(
    database_url: str, backend: str
) -> None:
    clock = ManualClock(NOW)
    kept = build_runtime(Settings(database_url=database_url), clock=clock)
    short = build_runtime(
        Settings(database_url=database_url, position_retention_days=30), clock=clock
    )
    try:
        sessions = kept.sessions
        vessel_id = vessel(sessions)
        store(sessions, vessel_id, NOW - timedelta(days=200), NOW - timedelta(days=1))
        assert PositionRetention(kept.context).tick() is None  # no retention: kept for good
        assert len(stored(sessions)) == 2
        done = PositionRetention(short.context).tick()
        assert done is not None
        assert stored(sessions) == [NOW - timedelta(days=1)]
        with kept.engine.connect() as connection:
            months = partition_months(connection)
        if backend == "postgresql":  # this month and the next made ahead by the job
            assert {(2026, 12), (2027, 1)} <= set(months)
    finally:
        for runtime in (kept, short):
            runtime.stop()
            runtime.engine.dispose()


def test_settings__retention_days_from_the_environment() -> None:
    assert Settings.from_env({}).position_retention_days is None
    found = Settings.from_env({"SEALANE_POSITION_RETENTION_DAYS": "400"})
    assert found.position_retention_days == 400
    for bad in ("0", "-3", "a year"):
        with pytest.raises(ValueError, match="SEALANE_POSITION_RETENTION_DAYS"):
            Settings.from_env({"SEALANE_POSITION_RETENTION_DAYS": bad})


def test_upgrade_0018__carries_stored_positions_over_and_downgrade_brings_them_back(
    engine: Engine,
) -> None:
    upgrade(engine, "0016_official_port_codes")
    rows = [
        ("p1", "2025-11-03 10:00:00"),
        ("p2", "2026-02-01 00:00:00"),
        ("p3", "2026-02-01 00:01:00"),
    ]
    with engine.begin() as connection:  # the models describe the newest schema: plain SQL here
        connection.execute(text("INSERT INTO vessels (id, name) VALUES ('v1', 'Before')"))
        for key, moment in rows:
            connection.execute(
                text(
                    "INSERT INTO vessel_positions (id, vessel_id, latitude, longitude, timestamp)"
                    " VALUES (:id, 'v1', 1.5, 2.5, :at)"
                ),
                {"id": key, "at": moment},
            )
    upgrade(engine)
    query = text("SELECT id, latitude, longitude FROM vessel_positions ORDER BY timestamp")
    with engine.connect() as connection:
        assert [tuple(r) for r in connection.execute(query)] == [
            ("p1", 1.5, 2.5),
            ("p2", 1.5, 2.5),
            ("p3", 1.5, 2.5),
        ]
        months = partition_months(connection)
    if engine.dialect.name == "postgresql":  # every month from the oldest stored one to now
        assert months[0] == (2025, 11) and (2026, 1) in months and (2026, 2) in months
        assert where(engine) == {"vessel_positions_202511": 1, "vessel_positions_202602": 2}
    downgrade(engine, "0016_official_port_codes")
    with engine.connect() as connection:
        assert [r[0] for r in connection.execute(query)] == ["p1", "p2", "p3"]
        assert partition_months(connection) == []
    with pytest.raises(IntegrityError, match=r"(?i)unique|duplicate"), engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO vessel_positions (id, vessel_id, latitude, longitude, timestamp)"
                " VALUES ('p4', 'v1', 0, 0, '2026-02-01 00:00:00')"
            )
        )
    upgrade(engine)
    with engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(text("vessel_positions"))) == 3

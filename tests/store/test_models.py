"""Models on SQLite and PostgreSQL: UTC datetimes, constraints, and all-or-nothing transactions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.orm import Session, sessionmaker

from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Account, ApiKey, UTCDateTime, Vessel, VesselPosition

from .conftest import START

PLUS_0530 = timezone(timedelta(hours=5, minutes=30))
MINUS_0800 = timezone(timedelta(hours=-8))


def count(session: Session, model: type[object]) -> int:
    return session.scalar(select(func.count()).select_from(model)) or 0


def assert_rejected_as_naive(error: pytest.ExceptionInfo[BaseException]) -> None:
    """The UTCDateTime ValueError, raised as is or wrapped by SQLAlchemy's StatementError."""
    cause = error.value.orig if isinstance(error.value, StatementError) else error.value
    assert isinstance(cause, ValueError)
    assert "naive datetimes are not stored" in str(cause)


@pytest.mark.parametrize(
    "moment",
    [
        START,
        datetime(2026, 3, 29, 1, 30, 15, 123456, tzinfo=UTC),
        datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(2026, 11, 21, 17, 30, tzinfo=PLUS_0530),
        datetime(2026, 11, 21, 4, 0, tzinfo=MINUS_0800),
    ],
    ids=["utc", "utc-micro", "y2k-eve", "plus0530", "minus0800"],
)
def test_utc_datetime__round_trips_as_aware_utc(
    sessions: sessionmaker[Session], moment: datetime
) -> None:
    with transaction(sessions) as session:
        vessel = Vessel(name="Round Trip", position_timestamp=moment)
        session.add(vessel)
    with sessions() as session:  # a new session: values come from the database
        stored = session.get_one(Vessel, vessel.id).position_timestamp
        raw = session.scalar(select(Vessel.position_timestamp).where(Vessel.id == vessel.id))
    for value in (stored, raw):
        assert value is not None
        assert value.tzinfo is UTC
        assert value == moment  # same instant
        assert value.replace(tzinfo=None) == moment.astimezone(UTC).replace(tzinfo=None)


def test_utc_datetime__none_stays_none(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        vessel = Vessel(name="Never Seen")
        session.add(vessel)
    with sessions() as session:
        assert session.get_one(Vessel, vessel.id).position_timestamp is None


def test_utc_datetime__orders_and_filters_by_instant(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        vessel = Vessel(name="Ordered")
        session.add(vessel)
        session.flush()
        # Written out of order and in different zones; all are 1 h apart.
        for moment in (
            START + timedelta(hours=2),
            START.astimezone(MINUS_0800),
            (START + timedelta(hours=1)).astimezone(PLUS_0530),
        ):
            session.add(
                VesselPosition(vessel_id=vessel.id, latitude=1, longitude=2, timestamp=moment)
            )
    with sessions() as session:
        times = session.scalars(
            select(VesselPosition.timestamp).order_by(VesselPosition.timestamp)
        ).all()
        assert times == [START, START + timedelta(hours=1), START + timedelta(hours=2)]
        later = session.scalars(
            select(VesselPosition.timestamp).where(
                VesselPosition.timestamp > START.astimezone(PLUS_0530)
            )
        ).all()
        assert sorted(later) == [START + timedelta(hours=1), START + timedelta(hours=2)]
        assert [p.timestamp for p in session.get_one(Vessel, vessel.id).positions] == times


def test_utc_datetime__naive_is_rejected_on_flush(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        session.add(Vessel(name="Naive", position_timestamp=datetime(2026, 11, 21, 12, 0)))
        with pytest.raises((ValueError, StatementError)) as error:
            session.flush()
        assert_rejected_as_naive(error)
    with sessions() as session:
        assert count(session, Vessel) == 0


def test_utc_datetime__naive_is_rejected_on_commit(sessions: sessionmaker[Session]) -> None:
    naive = datetime(2026, 11, 21, 12, 0)
    with pytest.raises((ValueError, StatementError)) as error, transaction(sessions) as session:
        create_account(session, "Naive Co", routing=False, now=naive)
    assert_rejected_as_naive(error)
    with sessions() as session:
        assert count(session, Account) == 0
        assert count(session, ApiKey) == 0


def test_utc_datetime__naive_is_rejected_in_queries_too(sessions: sessionmaker[Session]) -> None:
    with sessions() as session, pytest.raises((ValueError, StatementError)) as error:
        session.scalars(select(Vessel).where(Vessel.position_timestamp < datetime(2026, 1, 1)))
    assert_rejected_as_naive(error)


def test_utc_datetime__bind_and_result_processing_directly() -> None:
    kind = UTCDateTime()
    dialect = None  # the processors do not look at it
    assert kind.process_bind_param(None, dialect) is None  # type: ignore[arg-type]
    assert kind.process_result_value(None, dialect) is None  # type: ignore[arg-type]
    moment = datetime(2026, 11, 21, 17, 30, tzinfo=PLUS_0530)
    bound = kind.process_bind_param(moment, dialect)  # type: ignore[arg-type]
    assert bound is not None and bound.tzinfo is UTC and bound == moment
    naive = datetime(2026, 11, 21, 12, 0)
    back = kind.process_result_value(naive, dialect)  # type: ignore[arg-type]
    assert back == naive.replace(tzinfo=UTC)
    with pytest.raises(ValueError, match="naive"):
        kind.process_bind_param(naive, dialect)  # type: ignore[arg-type]


def test_transaction__commits_on_success(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        create_account(session, "Committed Co", routing=True, now=START)
        session.add(Vessel(name="Committed", imo="9000001", position_timestamp=START))
    with sessions() as session:
        assert count(session, Account) == 1
        assert count(session, ApiKey) == 1
        assert count(session, Vessel) == 1


def test_transaction__exception_rolls_back_everything(sessions: sessionmaker[Session]) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction(sessions) as session:
        create_account(session, "Half Co", routing=True, now=START)  # flushed already
        vessel = Vessel(name="Half", imo="9000002", position_timestamp=START)
        session.add(vessel)
        session.flush()
        session.add(VesselPosition(vessel_id=vessel.id, latitude=1, longitude=2, timestamp=START))
        session.flush()
        raise Boom
    with sessions() as session:
        assert count(session, Account) == 0
        assert count(session, ApiKey) == 0
        assert count(session, Vessel) == 0
        assert count(session, VesselPosition) == 0


def test_transaction__database_error_midway_rolls_back_earlier_writes(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as session:
        session.add(Vessel(name="Original", imo="9000003"))
    with pytest.raises(IntegrityError), transaction(sessions) as session:
        create_account(session, "Doomed Co", routing=False, now=START)
        session.add(Vessel(name="Duplicate IMO", imo="9000003"))
        session.flush()
    with sessions() as session:
        assert count(session, Account) == 0
        assert session.scalars(select(Vessel.name)).all() == ["Original"]


def test_transaction__sessions_see_only_committed_work(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as writer:
        create_account(session=writer, name="Pending Co", routing=False, now=START)
        writer.flush()
        with sessions() as reader:
            assert count(reader, Account) == 0
    with sessions() as reader:
        assert count(reader, Account) == 1


def test_foreign_keys__are_enforced(sessions: sessionmaker[Session]) -> None:
    """A key of a missing account is refused (on SQLite only with PRAGMA foreign_keys=ON)."""
    with pytest.raises(IntegrityError), transaction(sessions) as session:
        session.add(
            ApiKey(
                account_id="00000000-0000-0000-0000-000000000000",
                prefix="sl_xxxxxxx",
                key_hash="0" * 64,
                created_at=START,
            )
        )
    with sessions() as session:
        assert count(session, ApiKey) == 0


def test_unique_key_hash__is_enforced(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        new = create_account(session, "Unique Co", routing=False, now=START)
    with pytest.raises(IntegrityError), transaction(sessions) as session:
        original = session.get_one(ApiKey, new.key_id)
        session.add(
            ApiKey(
                account_id=new.account_id,
                prefix=original.prefix,
                key_hash=original.key_hash,
                created_at=START,
            )
        )


def test_engine__backend_is_the_requested_one(migrated: Engine, backend: str) -> None:
    assert migrated.dialect.name == backend
    if backend == "postgresql":
        assert migrated.dialect.driver == "psycopg"

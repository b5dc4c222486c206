"""Vessel look-up by id or IMO number (one query, on a pooled connection), SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from sealane.store import vessels
from sealane.store.database import transaction
from sealane.store.models import Vessel
from sealane.store.vessels import find_vessel
from sealane.vocabulary.vessels import VesselRecord

from .conftest import START


def _add(sessions: sessionmaker[Session], **fields: object) -> str:
    with transaction(sessions) as session:
        vessel = Vessel(**fields)
        session.add(vessel)
        session.flush()
        return vessel.id


def test_find_vessel__by_id_and_by_imo_returns_every_stored_field(
    migrated: Engine, sessions: sessionmaker[Session]
) -> None:
    vessel_id = _add(
        sessions,
        name="Ever Given",
        imo="9811000",
        mmsi="353136000",
        latitude=30.01,
        longitude=32.58,
        nautical_speed_knots=12.5,
        navigational_heading_degrees=161.0,
        position_timestamp=START,
    )
    expected = VesselRecord(
        vessel_id, "Ever Given", "9811000", "353136000", 30.01, 32.58, 12.5, 161.0, START
    )
    assert find_vessel(migrated, vessel_id) == expected
    assert find_vessel(migrated, "9811000") == expected
    found = find_vessel(migrated, "9811000")
    assert found is not None and found.position_timestamp is not None
    assert found.position_timestamp.tzinfo is not None  # UTC-aware, as the ORM gives it


def test_find_vessel__unknown_key_and_a_vessel_without_position(
    migrated: Engine, sessions: sessionmaker[Session]
) -> None:
    vessel_id = _add(sessions, name="Nameless", imo=None)
    assert find_vessel(migrated, "9999999") is None
    assert find_vessel(migrated, "") is None
    found = find_vessel(migrated, vessel_id)
    assert found is not None
    assert (found.imo, found.latitude, found.longitude, found.position_timestamp) == (
        None,
        None,
        None,
        None,
    )


def test_find_vessel__an_id_wins_over_another_vessels_equal_imo(
    migrated: Engine, sessions: sessionmaker[Session]
) -> None:
    _add(sessions, name="Squatter", imo="9000002")  # an IMO equal to the next vessel's id
    first = _add(sessions, id="9000002", name="First", imo="9000001")
    found = find_vessel(migrated, first)
    assert found is not None and found.name == "First"
    by_imo = find_vessel(migrated, "9000001")
    assert by_imo is not None and by_imo.id == "9000002"


def test_find_vessel__a_failed_read_gives_its_connection_back_usable(
    migrated: Engine, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look-up runs on a pooled DBAPI connection: one whose statement fails goes back to
    the pool (rolled back on PostgreSQL, not left in a failed transaction), and the next
    look-up on it works."""
    vessel_id = _add(sessions, name="Ever Given", imo="9811000")
    real = vessels._compiled(migrated.dialect)
    broken = replace(real, sql="SELECT name FROM no_such_table")
    monkeypatch.setattr(vessels, "_compiled", lambda _dialect: broken)
    with pytest.raises(migrated.dialect.loaded_dbapi.Error) as failed:
        find_vessel(migrated, vessel_id)
    # Given back by find_vessel, not by the collector: the failure's frames are still held.
    assert failed.traceback and migrated.pool.checkedout() == 0  # type: ignore[attr-defined]
    monkeypatch.setattr(vessels, "_compiled", lambda _dialect: real)
    found = find_vessel(migrated, vessel_id)
    assert found is not None and found.name == "Ever Given"

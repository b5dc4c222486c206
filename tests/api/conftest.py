"""Fixtures for API tests: a real app on a real SQLite file, a manual clock, two accounts."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.store.conftest import postgres_admin, postgres_url
from tests.templates import prepared_sqlite

__all__ = ["postgres_admin", "postgres_url"]  # the PostgreSQL server, for tests on both backends

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
JSONAPI = "application/vnd.api+json"


@dataclass(frozen=True)
class Keys:
    """API keys of the two test accounts."""

    routing: str
    plain: str


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings on a new SQLite file (a copy of a migrated one: ``tests.templates``)."""
    return Settings(
        database_url=prepared_sqlite(tmp_path / "sealane.db"),
        rate_limit_per_minute=10_000,
        base_url="http://testserver/v2",
    )


@pytest.fixture
def app(settings: Settings, clock: ManualClock) -> FastAPI:
    return create_app(settings, clock=clock)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def keys(app: FastAPI) -> Keys:
    with transaction(app.state.sealane.sessions) as session:
        routing = create_account(session, "Routing Co", routing=True, now=START)
        plain = create_account(session, "Plain Co", routing=False, now=START)
    return Keys(routing=routing.secret, plain=plain.secret)


def auth(key: str) -> dict[str, str]:
    """Headers authenticating with ``key``."""
    return {"Authorization": f"Token {key}"}


@pytest.fixture
def vessel(app: FastAPI) -> Vessel:
    """A vessel in the Arabian Sea bound from Shanghai to Rotterdam, last seen at START."""
    with transaction(app.state.sealane.sessions) as session:
        ship = Vessel(
            name="Test Mariner",
            imo="9400001",
            mmsi="211000001",
            latitude=12.3,
            longitude=60.1,
            nautical_speed_knots=18.0,
            navigational_heading_degrees=250.0,
            position_timestamp=START,
        )
        session.add(ship)
    return ship


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    """One app per test module, for read-only tests (creating an app costs about 0.3 s; on a
    copy of a prepared database, as :func:`settings`, much less)."""
    path = tmp_path_factory.mktemp("shared") / "sealane.db"
    settings = Settings(
        database_url=prepared_sqlite(path),
        rate_limit_per_minute=100_000,
        base_url="http://testserver/v2",
    )
    return create_app(settings, clock=ManualClock(START))


@pytest.fixture(scope="module")
def shared_client(shared_app: FastAPI) -> Iterator[TestClient]:
    """A client of :func:`shared_app`; tests using it must not change the database."""
    with TestClient(shared_app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def shared_keys(shared_app: FastAPI) -> Keys:
    """Keys of a routing and a plain account in :func:`shared_app`."""
    with transaction(shared_app.state.sealane.sessions) as session:
        routing = create_account(session, "Shared Routing Co", routing=True, now=START)
        plain = create_account(session, "Shared Plain Co", routing=False, now=START)
    return Keys(routing=routing.secret, plain=plain.secret)

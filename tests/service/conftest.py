"""Fixtures of the application-layer tests: a runtime on a real database, callers, a fleet."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.runtime import Runtime, build_runtime
from sealane.service.access.gatekeeper import Caller
from tests.store.conftest import BACKENDS, postgres_admin, postgres_url, schema_url
from tests.templates import migrated_postgres, prepared_sqlite
from tests.toolkit import START, Scenario

__all__ = ["postgres_admin", "postgres_url"]


#: The world's two accounts.
ROUTING, PLAIN = "Routing Co", "Plain Co"


@dataclass(frozen=True)
class World:
    """A runtime with two accounts: ``routing`` has the paid feature, ``plain`` has not; its
    ``scenario`` makes more of what a test needs (tracked numbers, vessels, time)."""

    runtime: Runtime
    clock: ManualClock
    routing: Caller
    plain: Caller
    scenario: Scenario


def make_world(database_url: str) -> World:
    """A fresh runtime on ``database_url`` with its two accounts."""
    clock = ManualClock(START)
    settings = Settings(
        database_url=database_url,
        rate_limit_per_minute=100_000,
        base_url="http://testserver/v2",
        webhook_allow_private=True,
        webhook_retry_schedule=(60,),
    )
    runtime = build_runtime(settings, clock=clock)
    scenario = Scenario.on(runtime)
    scenario.account(ROUTING, routing=True)
    scenario.account(PLAIN, routing=False)
    return World(runtime, clock, scenario.caller(ROUTING), scenario.caller(PLAIN), scenario)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """A world on a SQLite file, for one test."""
    made = make_world(prepared_sqlite(tmp_path / "sealane.db"))
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


@pytest.fixture(scope="module", params=BACKENDS)
def module_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database shared by one module's tests: a SQLite file, or a PostgreSQL schema (its
    schema at head already: ``tests.templates``)."""
    if request.param == "sqlite":
        yield prepared_sqlite(tmp_path_factory.mktemp("service") / "sealane.db")
        return
    server = request.getfixturevalue("postgres_url")
    with schema_url(server, request.getfixturevalue("postgres_admin")) as url:
        migrated_postgres(url)
        yield url

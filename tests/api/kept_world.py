"""The world of the kept pages' tests: an app tracking four shipments on SQLite or on a schema of
the test PostgreSQL, with ways to write to its database as the app and as another process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Select

from sealane.api.kept_pages import KeptPages
from sealane.clock import ManualClock
from sealane.store.database import make_engine, transaction
from tests.store.conftest import schema_url
from tests.toolkit import START, Scenario, make_app
from tests.tracking.support import get_json


@dataclass
class World:
    """An app whose account tracks some shipments, its client and key."""

    app: FastAPI
    client: TestClient
    key: str
    clock: ManualClock
    url: str

    @property
    def pages(self) -> KeptPages:
        pages: KeptPages = self.app.state.pages
        return pages

    def get(self, url: str, params: dict[str, str], key: str | None = None) -> Any:
        return get_json(self.client, key or self.key, url, **params)

    def kept(self, url: str, params: dict[str, str]) -> Any:
        """The page, asked twice: the second answer is the kept one, and equal."""
        first = self.get(url, params)
        reused = self.pages.reused
        assert self.get(url, params) == first
        assert self.pages.reused == reused + 1, "the page was not kept"
        return first

    def write(self, statement: Any) -> None:
        with transaction(self.app.state.sealane.sessions) as session:
            session.execute(statement)

    def write_elsewhere(self, statement: Any) -> None:
        """Write on a connection of another engine, as another process would."""
        engine = make_engine(self.url)
        try:
            with engine.begin() as connection:
                connection.execute(statement)
        finally:
            engine.dispose()

    def one(self, statement: Select[Any]) -> Any:
        with self.app.state.sealane.sessions() as session:
            return session.execute(statement).first()


@contextmanager
def _database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'kept.db'}"
        return
    server = request.getfixturevalue("postgres_url")
    with schema_url(server, request.getfixturevalue("postgres_admin")) as url:
        yield url


@contextmanager
def world_on(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    """Four tracked shipments on a SQLite file, or on a schema of the test PostgreSQL
    (``request.param``, one of :data:`BACKENDS`): the body of a module's ``world`` fixture."""
    with _database(request, tmp_path) as url:
        clock = ManualClock(START)
        app = make_app(url, clock=clock, rate_limit_per_minute=100_000)
        try:
            scenario = Scenario.on(app)
            key = scenario.account("Kept Co", routing=False).secret
            with TestClient(app, raise_server_exceptions=False) as client:
                for number in ("TESTKEPT0001", "TESTKEPT0002", "TESTKEPT0003", "TESTKEPT0004"):
                    scenario.with_client(client).track("Kept Co", number)
                scenario.tick()
                yield World(app, client, key, clock, url)
        finally:  # its pool and its stamp connection, also after a failed test
            app.state.sealane.engine.dispose()

"""Fixtures of the webhook tests.

The shared fixtures of ``tests/conftest.py`` (a SQLite file, a manual clock at 2026-11-21T12:00Z,
two accounts), except that ``app`` may deliver to http receivers on 127.0.0.1 and retries on a
short schedule (:data:`tests.webhooks.support.SCHEDULE`); and the real PostgreSQL of
``tests/store/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi import FastAPI

from sealane.clock import ManualClock
from sealane.config import Settings
from tests.store.conftest import fresh_postgres_url, postgres_admin, postgres_url

from .support import close_app, private_app, private_settings
from .world import World, world_on

__all__ = [
    "app",
    "backend_settings",
    "fresh_postgres_url",
    "postgres_admin",
    "postgres_url",
    "world",
]


@pytest.fixture
def app(settings: Settings, clock: ManualClock) -> Iterator[FastAPI]:
    the_app = private_app(settings, clock)
    yield the_app
    close_app(the_app)


@pytest.fixture
def world(app: FastAPI) -> Iterator[World]:
    """An account of :func:`app` with a client and a tracking request to emit events about."""
    with world_on(app) as the_world:
        yield the_world


@pytest.fixture(
    params=[
        pytest.param("sqlite"),
        pytest.param("postgresql"),
    ]
)
def backend_settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """The test's settings on a fresh SQLite file or a fresh PostgreSQL schema."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("fresh_postgres_url")
        settings = replace(settings, database_url=url)
    return private_settings(settings)

"""Fixtures of the tracking tests: the API's app, client, clock and keys; the storage backends.

The API fixtures are those of ``tests/api/conftest.py`` (a real app on a SQLite file, a manual
clock at 2026-11-21T12:00Z, two accounts); ``database_url`` is the storage tests' fixture that
runs a test on SQLite and on a real PostgreSQL.
"""

from __future__ import annotations

from tests.api.conftest import app, client, clock, keys, settings
from tests.store.conftest import (
    database_url,
    fresh_postgres_url,
    postgres_admin,
    postgres_database_url,
    postgres_url,
)

__all__ = [
    "app",
    "client",
    "clock",
    "database_url",
    "fresh_postgres_url",
    "keys",
    "postgres_admin",
    "postgres_database_url",
    "postgres_url",
    "settings",
]

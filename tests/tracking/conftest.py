"""Fixtures of the tracking tests: the storage backends. The app, client, clock and keys are the
shared fixtures of ``tests/conftest.py``; ``database_url`` is the storage tests' fixture that
runs a test on SQLite and on a real PostgreSQL.
"""

from __future__ import annotations

from tests.store.conftest import (
    database_url,
    fresh_postgres_url,
    postgres_admin,
    postgres_database_url,
    postgres_url,
)

__all__ = [
    "database_url",
    "fresh_postgres_url",
    "postgres_admin",
    "postgres_database_url",
    "postgres_url",
]

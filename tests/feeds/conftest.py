"""Fixtures of the feeds tests: the storage tests' databases (SQLite and a real PostgreSQL)."""

from __future__ import annotations

from tests.store.conftest import (
    backend,
    database_url,
    engine,
    fresh_postgres_url,
    migrated,
    postgres_admin,
    postgres_database_url,
    postgres_url,
    sessions,
)

__all__ = [
    "backend",
    "database_url",
    "engine",
    "fresh_postgres_url",
    "migrated",
    "postgres_admin",
    "postgres_database_url",
    "postgres_url",
    "sessions",
]

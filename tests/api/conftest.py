"""API tests use the shared fixtures of ``tests/conftest.py`` (an app, a client, two accounts'
keys, a vessel) and the factories of :mod:`tests.toolkit`; the PostgreSQL server's fixtures are
brought in here for the tests that run on both databases."""

from __future__ import annotations

from tests.store.conftest import postgres_admin, postgres_url

__all__ = ["postgres_admin", "postgres_url"]  # the PostgreSQL server, for tests on both backends

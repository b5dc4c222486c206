"""Storage fixtures: every test using ``database_url`` runs on SQLite and on a real PostgreSQL.

PostgreSQL is the private throwaway server of ``tests.pg`` (installed with apt and started by
the session if need be), or ``$SEALANE_TEST_POSTGRES_URL``; each test gets a fresh schema of its
own, first and only on its search path.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.orm import Session, sessionmaker

from sealane.store.database import make_engine, session_factory
from sealane.store.migrate import upgrade
from tests import pg
from tests.templates import migrated_postgres, migrated_sqlite

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
BACKENDS = ["sqlite", "postgresql"]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    line = pg.summary()
    if line:
        terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """URL of the session's PostgreSQL (its maintenance database ``postgres``)."""
    with pg.postgres_server() as url:
        yield url


@pytest.fixture(scope="session")
def postgres_admin(postgres_url: str) -> Iterator[Engine]:
    """An autocommit engine on the server's database, for CREATE/DROP SCHEMA."""
    url = make_url(postgres_url).set(drivername="postgresql+psycopg")
    engine = create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1)
    yield engine
    engine.dispose()


def terminate_backends(admin: Engine, pids: list[int]) -> None:
    """Cut the server's connections ``pids`` off, as a failover or an administrator would."""
    with admin.connect() as connection:
        ended = connection.execute(
            text("SELECT bool_and(pg_terminate_backend(pid, 10000)) FROM unnest(:pids) pid"),
            {"pids": pids},
        ).scalar_one()
    assert ended


@contextmanager
def schema_url(postgres_url: str, admin: Engine) -> Iterator[str]:
    """URL of a new, empty schema that is the whole search path (dropped afterwards).

    A schema, not a database: CREATE DATABASE costs 0.1-0.7 s, CREATE SCHEMA about 1 ms, and
    unqualified names (Alembic's, the inspector's, the app's) all resolve to it alike.
    """
    schema = f"sealane_test_{uuid.uuid4().hex[:16]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = (
        make_url(postgres_url)
        .set(drivername="postgresql+psycopg")
        .update_query_dict({"options": f"-csearch_path={schema}"})
    )
    try:
        yield url.render_as_string(hide_password=False)
    finally:  # after a failure in the block too (an outside server keeps what is left)
        with admin.connect() as connection:
            connection.execute(text("SET lock_timeout = '20s'"))  # a leaked connection: fail
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def fresh_postgres_url(postgres_url: str, postgres_admin: Engine) -> Iterator[str]:
    """URL of a new, empty PostgreSQL schema for one test."""
    with schema_url(postgres_url, postgres_admin) as url:
        yield url


@pytest.fixture
def postgres_database_url(fresh_postgres_url: str) -> str:
    """A fresh PostgreSQL schema, with its socket directory and search path in the URL."""
    return fresh_postgres_url


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of this test's own: a SQLite file, or a new schema on the PostgreSQL
    server. Empty for a test that asks for ``engine`` (the migrations' tests, and ``migrated``);
    for any other its schema is at head already, as Alembic leaves it (a migrated template's
    copy: ``tests.templates``), so the app, runtime or command the test starts on it finds
    nothing to migrate and goes on to load the reference data as every start does."""
    empty = "engine" in request.fixturenames
    if request.param == "sqlite":
        path = tmp_path / "sealane.db"
        return f"sqlite:///{path}" if empty else migrated_sqlite(path)
    url: str = request.getfixturevalue("postgres_database_url")
    if not empty:
        migrated_postgres(url)
    return url


@pytest.fixture
def backend(database_url: str) -> str:
    """``sqlite`` or ``postgresql``: the backend of this test's ``database_url``."""
    return make_url(database_url).get_backend_name()


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine (``make_engine``) on the fresh database, schema not yet migrated."""
    the_engine = make_engine(database_url)
    yield the_engine
    the_engine.dispose()


@pytest.fixture
def migrated(engine: Engine) -> Engine:
    """The engine, with the schema migrated to head: a copy of a migrated SQLite file, or a
    migrated PostgreSQL schema's dump replayed (``tests.templates``); Alembic's upgrade where
    there is no template (no ``pg_dump``)."""
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and not Path(database).exists():
        migrated_sqlite(Path(database))
    elif engine.dialect.name != "postgresql" or not migrated_postgres(
        engine.url.render_as_string(hide_password=False)
    ):
        upgrade(engine)
    return engine


@pytest.fixture
def sessions(migrated: Engine) -> sessionmaker[Session]:
    """Session factory on the migrated database."""
    return session_factory(migrated)

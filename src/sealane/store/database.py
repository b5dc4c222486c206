"""Engines and sessions: SQLite tuned for a single server process, PostgreSQL as given."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from .unavailable import DatabaseUnavailable

#: Connections kept open per process: as many as the requests a busy server handles at once
#: (beyond the pool, each checkout opens a connection and closes it on return), and as many
#: again opened for bursts.
POOL_SIZE = 20
MAX_OVERFLOW = 20


def _unavailable(context: ExceptionContext) -> None:
    """Raise :class:`DatabaseUnavailable` for an error that means the database is out of reach:
    a connection the dialect finds dropped, or a connection that could not be made."""
    if context.is_disconnect or (
        context.connection is None and isinstance(context.sqlalchemy_exception, OperationalError)
    ):
        raise DatabaseUnavailable("the database cannot be reached") from context.original_exception


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys and a busy timeout. Errors that mean
    the database is out of reach are raised as :class:`DatabaseUnavailable`."""
    engine = _engine(url)
    event.listen(engine, "handle_error", _unavailable)
    return engine


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            **({} if _in_memory(url) else {"pool_size": POOL_SIZE, "max_overflow": MAX_OVERFLOW}),
        )

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=MAX_OVERFLOW)


def _in_memory(url: str) -> bool:
    """Whether a SQLite URL names no file (its engine keeps one connection per thread)."""
    return make_url(url).database in (None, "", ":memory:")


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded objects usable after commit."""
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session whose work commits on success and rolls back entirely on any error."""
    with factory() as session, session.begin():
        yield session

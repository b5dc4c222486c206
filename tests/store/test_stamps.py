"""Database stamps (``store.stamps``): a commit by another connection changes the stamp; on
PostgreSQL the stamp is asked on a connection of its own, closed with the engine's pool, and one
the server cut off gives no stamp once, never an error, and is replaced."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import Engine
from sqlalchemy.pool import QueuePool

from sealane.store import stamps
from sealane.store.database import make_engine
from sealane.store.stamps import _Snapshots, _snapshots, database_stamp
from tests.store.conftest import terminate_backends


def _commit_elsewhere(url: str, statement: str) -> None:
    """Run ``statement`` and commit it on another engine's connection, as another process."""
    other = make_engine(url)
    try:
        with other.begin() as connection:
            connection.exec_driver_sql(statement)
    finally:
        other.dispose()


def _backend(engine: Engine) -> int:
    """The server process of ``engine``'s stamp connection."""
    connection = _snapshots[engine]._connection
    assert connection is not None
    return int(connection.info.backend_pid)


def test_database_stamp__a_commit_by_another_connection_changes_it(
    engine: Engine, database_url: str
) -> None:
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE stamped (x INTEGER)")
    before = database_stamp(engine)
    assert before is not None
    _commit_elsewhere(database_url, "INSERT INTO stamped VALUES (1)")
    after = database_stamp(engine)
    assert after is not None and after != before
    with engine.begin() as connection:  # one of the engine's own connections: the same
        connection.exec_driver_sql("INSERT INTO stamped VALUES (2)")
    assert database_stamp(engine) not in (before, after)


def test_database_stamp__postgresql_asks_outside_the_pool(postgres_database_url: str) -> None:
    engine = make_engine(postgres_database_url)
    try:
        for _ in range(3):
            assert database_stamp(engine) is not None
        pool = engine.pool
        assert isinstance(pool, QueuePool)
        assert pool.checkedin() == 0 and pool.checkedout() == 0  # the pool never connected
        connection = _snapshots[engine]._connection
        assert connection is not None  # one connection, for every stamp
        # A database that stops answering cannot hold a request asking for a stamp for long.
        settings = connection.info.get_parameters()
        assert settings["connect_timeout"] == "5" and settings["keepalives_idle"] == "5"
        assert settings["tcp_user_timeout"] == "10000"
    finally:
        engine.dispose()
    assert engine not in _snapshots
    assert connection.closed  # closed with the engine's pool


def test_database_stamp__a_stamp_connection_cut_off_is_replaced(
    postgres_database_url: str, postgres_admin: Engine
) -> None:
    engine = make_engine(postgres_database_url)
    try:
        assert database_stamp(engine) is not None
        pids = [_backend(engine)]
        terminate_backends(postgres_admin, pids)
        assert database_stamp(engine) is None  # the cut-off connection: no stamp, no error
        _commit_elsewhere(postgres_database_url, "CREATE TABLE after_the_cut (x INTEGER)")
        again = database_stamp(engine)  # on a new connection
        assert again is not None
        assert [_backend(engine)] != pids
    finally:
        engine.dispose()


class _Cursor:
    """A cursor of :class:`_Server`: each query waits until the test lets it answer."""

    def __init__(self, server: _Server) -> None:
        self.server = server

    def execute(self, statement: str) -> None:
        with self.server.lock:
            self.server.queries += 1
            number = self.server.queries
        self.server.asked[number].set()
        assert self.server.answer[number].wait(30)
        if number in self.server.failing:
            raise RuntimeError(f"query {number} failed")
        self.row = (f"snapshot {number}",)

    def fetchone(self) -> tuple[str]:
        return self.row

    def close(self) -> None:
        pass


class _Server:
    """Stands in for PostgreSQL: the snapshot is the number of the query that found it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queries = 0
        self.asked = [threading.Event() for _ in range(10)]
        self.answer = [threading.Event() for _ in range(10)]
        self.failing: set[int] = set()
        self.autocommit = False
        self.closed = False

    def cursor(self) -> _Cursor:
        return _Cursor(self)

    def close(self) -> None:
        self.closed = True


def _waiting(snapshots: _Snapshots, count: int) -> None:
    """Return once ``count`` stamps wait for the query under way."""
    deadline = time.monotonic() + 30
    while len(snapshots._turn._waiters) < count:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline
        time.sleep(0.01)


@pytest.fixture(autouse=True)
def _patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stamps wait for the stand-in server's queries as long as the tests do (a loaded machine
    must not turn a waiting stamp into None)."""
    monkeypatch.setattr(stamps, "STAMP_WAIT_S", 30.0)


def test_snapshots__a_stamp_asked_during_a_query_waits_for_the_next_one() -> None:
    """Stamps asked for while a query is under way share the next query (it began after they
    were asked for), never the one under way."""
    server = _Server()
    snapshots = _Snapshots(lambda: server, Exception)
    with ThreadPoolExecutor(4) as pool:
        first = pool.submit(snapshots.snapshot)
        assert server.asked[1].wait(30)
        later = [pool.submit(snapshots.snapshot) for _ in range(3)]
        _waiting(snapshots, 3)
        server.answer[1].set()
        assert first.result(30) == "snapshot 1"
        assert server.asked[2].wait(30)
        server.answer[2].set()
        assert [found.result(30) for found in later] == ["snapshot 2"] * 3
    assert server.queries == 2 and server.autocommit
    snapshots.close()
    assert snapshots.snapshot() is None


def test_snapshots__a_query_that_raises_leaves_no_stamp_waiting() -> None:
    """An unexpected failure of the query under way reaches the stamp that asked it; those that
    waited for the next query get it (none waits on for a round that has ended)."""
    server = _Server()
    server.failing.add(1)
    snapshots = _Snapshots(lambda: server, OSError)  # RuntimeError is not a driver's error
    with ThreadPoolExecutor(3) as pool:
        first = pool.submit(snapshots.snapshot)
        assert server.asked[1].wait(30)
        later = [pool.submit(snapshots.snapshot) for _ in range(2)]
        _waiting(snapshots, 2)
        server.answer[1].set()
        with pytest.raises(RuntimeError, match="query 1 failed"):
            first.result(30)
        assert server.asked[2].wait(30)
        server.answer[2].set()
        assert [found.result(30) for found in later] == ["snapshot 2"] * 2
    assert server.queries == 2


def test_snapshots__closed_during_a_query_the_connection_is_closed_after_it() -> None:
    """The engine disposed of while a stamp's query is under way: those waiting get no stamp at
    once, the query's own stamp its answer, and the connection is closed when it ends (not left
    open)."""
    server = _Server()
    snapshots = _Snapshots(lambda: server, Exception)
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(snapshots.snapshot)
        assert server.asked[1].wait(30)
        later = pool.submit(snapshots.snapshot)
        _waiting(snapshots, 1)
        snapshots.close()
        assert later.result(30) is None
        assert not server.closed  # the query under way still has it
        server.answer[1].set()
        assert first.result(30) == "snapshot 1"
    assert server.closed and snapshots._connection is None
    assert snapshots.snapshot() is None and server.queries == 1

"""Database stamps (``store.stamps``): a commit by another connection changes the stamp; on
PostgreSQL the stamp is asked on connections of its own, and one the server cut off gives no
stamp once, never an error, and is replaced."""

from __future__ import annotations

from sqlalchemy import Engine, text
from sqlalchemy.pool import QueuePool

from sealane.store.database import make_engine
from sealane.store.stamps import _snapshots, database_stamp


def _commit_elsewhere(url: str, statement: str) -> None:
    """Run ``statement`` and commit it on another engine's connection, as another process."""
    other = make_engine(url)
    try:
        with other.begin() as connection:
            connection.exec_driver_sql(statement)
    finally:
        other.dispose()


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
        (stamps,) = [found for key, found in _snapshots.items() if key is engine]
        assert len(stamps._idle) == 1  # one connection, taken in turn
    finally:
        engine.dispose()
    assert engine not in _snapshots  # its connections were closed with the engine's pool


def test_database_stamp__a_stamp_connection_cut_off_is_replaced(
    postgres_database_url: str, postgres_admin: Engine
) -> None:
    engine = make_engine(postgres_database_url)
    try:
        assert database_stamp(engine) is not None
        pids = [connection.info.backend_pid for connection in _snapshots[engine]._idle]
        with postgres_admin.connect() as connection:
            ended = connection.execute(
                text("SELECT bool_and(pg_terminate_backend(pid, 10000)) FROM unnest(:pids) pid"),
                {"pids": pids},
            ).scalar_one()
        assert ended
        assert database_stamp(engine) is None  # the cut-off connection: no stamp, no error
        _commit_elsewhere(postgres_database_url, "CREATE TABLE after_the_cut (x INTEGER)")
        again = database_stamp(engine)  # on a new connection
        assert again is not None
        assert [connection.info.backend_pid for connection in _snapshots[engine]._idle] != pids
    finally:
        engine.dispose()

"""Whether anything was committed to a database between two moments, asked cheaply.

:func:`database_stamp` gives a value that a later call gives again only if no transaction that
wrote was committed in between, by any connection of any process. What is read after taking a
stamp is still true while the stamp is the same (the kept list pages rely on it, see
``service.tracking.pages``): the reads began after the stamp was taken, so they saw at least
what it saw, and nothing was committed since that they could have missed.

SQLite: ``PRAGMA data_version`` of a connection changes with every commit of another connection
to the file, in any process (its own commits it does not count). Each database file gets a
watching connection of its own that never writes, so every commit of the service's connections
is another connection's; its stamps carry the watch's serial number, since a new watch (after
the engine's ``dispose()``) counts again from where a fresh connection starts.

PostgreSQL: the current snapshot (``pg_current_snapshot``): its highest finished transaction id
and its list of running ones stay the same only while no transaction that holds an id (one that
wrote, or locked a row) finishes; an equal snapshot means the same transactions are visible. It
is asked on a connection of the stamps' own, outside the engine's pool, in autocommit: one round
trip, where a pooled connection costs its pre-ping, a ``BEGIN`` and a ``ROLLBACK`` besides (a
single statement in autocommit is its own transaction, so the snapshot is the one it ran under).
Stamps asked for at once share a query that began after each of them was asked for. A stamp
connection that fails (the server closed it, the network broke) is closed and the stamp is None,
which only means the page is read again; the next stamp opens a new one.

:func:`list_stamp` is the same promise narrowed to what list pages show: the version in
``list_stamps``, which triggers on those tables bump (migration ``0017_list_paging``), asked on
the same kind of connection. The rate limiter's counts and other bookkeeping commit without
moving it, so they no longer send every kept page to be read again.
"""

from __future__ import annotations

import contextlib
import itertools
import sqlite3
import threading
import weakref
from collections.abc import Callable, Hashable
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.engine import Connection

#: Serial numbers of the watches: a stamp names its watch, whose versions only it can compare.
_serials = itertools.count()


class _Watch:
    """A connection to one SQLite file that only asks it for its ``data_version``."""

    def __init__(self, path: str) -> None:
        self._connection = sqlite3.connect(path, check_same_thread=False, timeout=30)
        self._lock = threading.Lock()
        self.serial = next(_serials)
        self._closed = False

    def version(self) -> tuple[int, int] | None:
        """The watch's serial number and the file's ``data_version`` as it sees it; None once
        closed (a request that took the watch as the engine was disposed of reads as usual)."""
        with self._lock:
            if self._closed:
                return None
            found = self._connection.execute("PRAGMA data_version").fetchone()
        return self.serial, int(found[0])

    def list_version(self) -> tuple[int, int] | None:
        """The watch's serial number and the list stamp's version (``list_stamps``); None once
        closed, or where the table is missing (a database not migrated yet)."""
        with self._lock:
            if self._closed:
                return None
            try:
                found = self._connection.execute(_LIST_VERSION).fetchone()
            except sqlite3.Error:
                return None
        return None if found is None else (self.serial, int(found[0]))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._connection.close()


#: The watch of each SQLite engine's file, until the engine is disposed of or gone.
_watches: weakref.WeakKeyDictionary[Engine, _Watch] = weakref.WeakKeyDictionary()
#: Held while an engine's watch or stamp connection (below) is made or dropped.
_made_lock = threading.Lock()


def _watch(engine: Engine) -> _Watch | None:
    """The watch of ``engine``'s file (made at first use), or None for a database in memory."""
    found = _watches.get(engine)
    if found is not None:
        return found
    path = engine.url.database
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    with _made_lock:
        found = _watches.get(engine)
        if found is None:
            found = _watches[engine] = _Watch(path)
            event.listen(engine, "engine_disposed", _unwatch)
    return found


def _unwatch(engine: Engine) -> None:
    with _made_lock:
        found = _watches.pop(engine, None)
    if found is not None:
        found.close()


#: How long a stamp waits for the query under way before it is None (the page is read again).
STAMP_WAIT_S = 1.0
_SNAPSHOT = "SELECT pg_current_snapshot()::text"
#: The version of what list pages show (migration 0017's ``list_stamps``).
_LIST_VERSION = "SELECT version FROM list_stamps WHERE id = 1"
#: libpq settings of the stamp connection unless the database URL sets them: a database that
#: stops answering (a fail-over, a cut network) costs the request asking for a stamp at most
#: about 10 s (to connect, for TCP keepalives to find the connection dead, or for the query
#: sent to go unacknowledged: keepalives wait while data is in flight), after which it is
#: None and the page is read as without a stamp.
_STAMP_LIBPQ: dict[str, Any] = {
    "connect_timeout": 5,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 2,
    "tcp_user_timeout": 10_000,  # ms
}


class _Snapshots:
    """An autocommit connection to one PostgreSQL database that only asks for its current
    snapshot, in rounds shared by the stamps asked for meanwhile.

    A stamp must come from a query that began after it was asked for (so that what the caller
    saw committed before asking is in it). A stamp asked for while a query is under way waits
    for the next one, which begins as soon as that one ends and answers every stamp that waited
    for it: one query a round trip however many requests come at once, not one each.
    """

    def __init__(
        self, connect: Callable[[], Any], errors: type[Exception], query: str = _SNAPSHOT
    ) -> None:
        self._connect = connect
        self._query = query
        self._errors = errors
        self._connection: Any | None = None
        self._turn = threading.Condition()
        #: Rounds begun, the last round ended and the snapshot it found (None if it failed):
        #: one round at a time, so a round is under way while the two differ.
        self._begun = 0
        self._ended = 0
        self._found: str | None = None
        self._closed = False

    @property
    def _asking(self) -> bool:
        """Whether a round is under way (its query asked, or its connection being opened)."""
        return self._ended != self._begun

    def snapshot(self) -> str | None:
        """The database's current snapshot as text, from a query that began after this call;
        None when it could not be asked."""
        with self._turn:
            wanted = self._begun + 1  # the first round to begin from now on
            while self._ended < wanted and self._asking and not self._closed:
                if not self._turn.wait(STAMP_WAIT_S):
                    return None
            if self._closed:
                return None
            if self._ended >= wanted:
                return self._found
            self._begun += 1  # the next round is this call's to ask
            mine = self._begun
        found: str | None = None
        try:
            found = self._ask()
        finally:
            with self._turn:
                self._ended, self._found = mine, found
                self._turn.notify_all()
                leftover = self._connection if self._closed else None
                if leftover is not None:
                    self._connection = None
            if leftover is not None:
                self._close(leftover)
        return found

    def _ask(self) -> str | None:
        """One query on the connection, opened if need be; None if it failed (it is closed
        then, and the next round opens a new one)."""
        connection = self._connection
        try:
            if connection is None:
                connection = self._connect()
                connection.autocommit = True
                self._connection = connection
            cursor = connection.cursor()
            try:
                cursor.execute(self._query)
                row = cursor.fetchone()
            finally:
                cursor.close()
        except self._errors:  # a broken connection: no stamp now, a new connection next time
            self._connection = None
            if connection is not None:
                self._close(connection)
            return None
        return None if row is None else str(row[0])

    def _close(self, connection: Any) -> None:
        with contextlib.suppress(self._errors):
            connection.close()

    def close(self) -> None:
        """Close the connection (at the end of the round under way, if one is)."""
        with self._turn:
            self._closed = True
            connection = None if self._asking else self._connection
            if connection is not None:
                self._connection = None
            self._turn.notify_all()
        if connection is not None:
            self._close(connection)


#: The stamp connection of each PostgreSQL engine, until the engine is disposed of or gone.
_snapshots: weakref.WeakKeyDictionary[Engine, _Snapshots] = weakref.WeakKeyDictionary()
#: The list stamp connection of each PostgreSQL engine, likewise.
_list_versions: weakref.WeakKeyDictionary[Engine, _Snapshots] = weakref.WeakKeyDictionary()


def _snapshots_of(
    engine: Engine,
    kept: weakref.WeakKeyDictionary[Engine, _Snapshots] = _snapshots,
    query: str = _SNAPSHOT,
) -> _Snapshots:
    """The stamp connection of ``engine`` asking ``query`` (made at first use)."""
    found = kept.get(engine)
    if found is not None:
        return found
    with _made_lock:
        found = kept.get(engine)
        if found is None:
            dialect = engine.dialect
            cargs, cparams = dialect.create_connect_args(engine.url)
            cparams.setdefault("application_name", "sealane-stamps")
            for name, value in _STAMP_LIBPQ.items():
                cparams.setdefault(name, value)

            def connect() -> Any:
                return dialect.connect(*cargs, **cparams)

            errors = dialect.loaded_dbapi.Error
            found = kept[engine] = _Snapshots(connect, errors, query)
            event.listen(engine, "engine_disposed", _unsnapshot)
    return found


def _unsnapshot(engine: Engine) -> None:
    with _made_lock:
        found = [kept.pop(engine, None) for kept in (_snapshots, _list_versions)]
    for snapshots in found:
        if snapshots is not None:
            snapshots.close()


def database_stamp(bind: Engine | Connection) -> Hashable | None:
    """A value a later call gives again only if nothing was committed to the database in
    between, by anyone; None where the database offers no cheap way to tell (or did not answer
    now). Take it before reading what it is to vouch for; ``bind`` is only the way to the
    database (on PostgreSQL and SQLite the stamp is asked on a connection of its own)."""
    engine = bind.engine
    dialect = engine.dialect.name
    if dialect == "postgresql":
        return _snapshots_of(engine).snapshot()
    if dialect != "sqlite":
        return None
    watch = _watch(engine)
    return None if watch is None else watch.version()


def list_stamp(bind: Engine | Connection) -> Hashable | None:
    """A value a later call gives again only if nothing a list page shows was committed in
    between (the ``list_stamps`` version its tables' triggers bump); the writes of bookkeeping
    (rate limit counts, sessions, positions, deliveries) leave it. None where it cannot be
    asked, as :func:`database_stamp`."""
    engine = bind.engine
    dialect = engine.dialect.name
    if dialect == "postgresql":
        version = _snapshots_of(engine, _list_versions, _LIST_VERSION).snapshot()
        return None if version is None else ("list", version)
    if dialect != "sqlite":
        return None
    watch = _watch(engine)
    return None if watch is None else watch.list_version()

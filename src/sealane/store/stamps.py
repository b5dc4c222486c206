"""Whether anything was committed to a database between two moments, asked cheaply.

:func:`database_stamp` gives a value that a later call gives again only if no transaction that
wrote was committed in between, by any connection of any process. What is read after taking a
stamp is still true while the stamp is the same (the kept list pages rely on it, see
``service.tracking.pages``).

SQLite: ``PRAGMA data_version`` of a connection changes with every commit of another connection
to the file, in any process (its own commits it does not count). Each database file gets a
watching connection of its own that never writes, so every commit of the service's connections
is another connection's; its stamps carry the watch's serial number, since a new watch (after
the engine's ``dispose()``) counts again from where a fresh connection starts. PostgreSQL: the
current snapshot (``pg_current_snapshot``): its highest finished transaction id and its list of
running ones stay the same only while no transaction that holds an id (one that wrote) finishes.
"""

from __future__ import annotations

import itertools
import sqlite3
import threading
import weakref
from collections.abc import Hashable

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

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._connection.close()


#: The watch of each SQLite engine's file, until the engine is disposed of or gone.
_watches: weakref.WeakKeyDictionary[Engine, _Watch] = weakref.WeakKeyDictionary()
_watches_lock = threading.Lock()


def _watch(engine: Engine) -> _Watch | None:
    """The watch of ``engine``'s file (made at first use), or None for a database in memory."""
    found = _watches.get(engine)
    if found is not None:
        return found
    path = engine.url.database
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    with _watches_lock:
        found = _watches.get(engine)
        if found is None:
            found = _watches[engine] = _Watch(path)
            event.listen(engine, "engine_disposed", _unwatch)
    return found


def _unwatch(engine: Engine) -> None:
    with _watches_lock:
        found = _watches.pop(engine, None)
    if found is not None:
        found.close()


def database_stamp(connection: Connection) -> Hashable | None:
    """A value a later call gives again only if nothing was committed to the database in
    between, by anyone; None where the database offers no cheap way to tell. Take it before
    reading what it is to vouch for."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        snapshot: str = connection.exec_driver_sql(
            "SELECT pg_current_snapshot()::text"
        ).scalar_one()
        return snapshot
    if dialect != "sqlite":
        return None
    watch = _watch(connection.engine)
    return None if watch is None else watch.version()

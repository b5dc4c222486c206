"""Rate limits over a rolling window, counted in the shared database.

Every server process (and the MCP endpoint) counts the same rows, so a limit of 100 requests a
minute holds however many processes serve an account. Requests are counted per key and whole
second (one row each, incremented), so checking a limit sums at most the window's length in rows
whatever the traffic: a key allowed 10,000 requests a minute costs what one allowed 100 does. A
request leaves the window between ``window_s - 1`` and ``window_s`` seconds after it was made.

A hit runs in one short transaction that first takes a lock for its key (an advisory lock on
PostgreSQL; SQLite's single writer lock, taken by the pruning ``DELETE``), so two processes
cannot both admit the last request of a window. On SQLite the threads of one process also queue
on a lock of their own first: SQLite's busy handler polls with growing sleeps, so threads racing
for its writer lock wait unfairly, a few of them for seconds under load, where a thread lock
hands over as soon as it is released. Rejected requests are not counted, so waiting out
``Retry-After`` always works.
"""

from __future__ import annotations

import hashlib
import math
import threading
from contextlib import nullcontext
from functools import cache

from sqlalchemy import Connection, Engine, Table, bindparam, delete, func, select, text
from sqlalchemy.dialects import postgresql, sqlite

from ...clock import Clock
from ...store.models import RateLimitCount

WINDOW_S = 60.0
_COUNTS: Table = RateLimitCount.__table__  # type: ignore[assignment]
# The statements are built once: every request runs them, and building a statement costs more
# CPU than SQLite takes to run it.
_PRUNE = delete(_COUNTS).where(
    _COUNTS.c.key == bindparam("key"), _COUNTS.c.second <= bindparam("cutoff")
)
_WINDOW = select(func.coalesce(func.sum(_COUNTS.c.count), 0), func.min(_COUNTS.c.second)).where(
    _COUNTS.c.key == bindparam("key"), _COUNTS.c.second > bindparam("cutoff")
)
_LOCK = text("SELECT pg_advisory_xact_lock(:lock)")


class RateLimiter:
    """At most ``limit`` hits per key in any ``window_s`` seconds of the clock's wall time."""

    def __init__(self, engine: Engine, limit: int, clock: Clock, window_s: float = WINDOW_S):
        self.engine = engine
        self.limit = limit
        self.clock = clock
        self.window_s = window_s
        sqlite_file = engine.dialect.name == "sqlite"
        self._writers = threading.Lock() if sqlite_file else nullcontext()

    def hit(self, key: str) -> float | None:
        """Count a request for ``key``: None if admitted, else seconds until one would be."""
        with self._writers:
            return self._hit(key)

    def _hit(self, key: str) -> float | None:
        now = self.clock.now().timestamp()
        with self.engine.begin() as connection:
            self._lock(connection, key)
            connection.execute(_PRUNE, {"key": key, "cutoff": now - self.window_s})
            wait = self._wait(connection, key, now)
            if wait is None:
                upsert = _increment(connection.dialect.name)
                connection.execute(upsert, {"key": key, "second": math.floor(now)})
            return wait

    def exceeded(self, key: str) -> float | None:
        """Seconds until ``key`` may be counted again if it is at its limit now, else None (a
        look without counting)."""
        with self.engine.connect() as connection:
            return self._wait(connection, key, self.clock.now().timestamp())

    def _wait(self, connection: Connection, key: str, now: float) -> float | None:
        cutoff = now - self.window_s
        total, oldest = connection.execute(_WINDOW, {"key": key, "cutoff": cutoff}).one()
        if total < self.limit:
            return None
        return max(float(oldest) + self.window_s - now, 0.0)

    def _lock(self, connection: Connection, key: str) -> None:
        """Serialise the hits of one key until the transaction ends."""
        if connection.dialect.name == "postgresql":
            digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
            lock = int.from_bytes(digest, "big", signed=True)
            connection.execute(_LOCK, {"lock": lock})


@cache
def _increment(dialect_name: str) -> postgresql.Insert | sqlite.Insert:
    """One more hit in the row of a key and second (made on the second's first hit), for the
    database ``dialect_name``: parameters ``key`` and ``second``."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    statement = dialect.insert(_COUNTS).values(
        key=bindparam("key"), second=bindparam("second"), count=1
    )
    upsert: postgresql.Insert | sqlite.Insert = statement.on_conflict_do_update(
        index_elements=[_COUNTS.c.key, _COUNTS.c.second],
        set_={"count": _COUNTS.c.count + 1},
    )
    return upsert


def retry_after_header(wait_s: float) -> str:
    """Whole seconds for ``Retry-After`` (at least 1)."""
    return str(max(1, math.ceil(wait_s)))

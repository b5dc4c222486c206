"""Rate limits over a rolling window, counted in the shared database.

Every server process (and the MCP endpoint) counts the same rows, so a limit of 100 requests a
minute holds however many processes serve an account. Each admitted request is one row; a hit
runs in one short transaction that first takes a lock for its key (an advisory lock on
PostgreSQL; SQLite's single writer lock, taken by the pruning ``DELETE``), so two processes
cannot both admit the last request of a window. Rejected requests are not counted, so waiting
out ``Retry-After`` always works.
"""

from __future__ import annotations

import hashlib
import math

from sqlalchemy import Connection, Engine, Table, delete, func, insert, select, text

from ..clock import Clock
from ..store.models import RateLimitHit

WINDOW_S = 60.0
_HITS: Table = RateLimitHit.__table__  # type: ignore[assignment]


class RateLimiter:
    """At most ``limit`` hits per key in any ``window_s`` seconds of the clock's wall time."""

    def __init__(self, engine: Engine, limit: int, clock: Clock, window_s: float = WINDOW_S):
        self.engine = engine
        self.limit = limit
        self.clock = clock
        self.window_s = window_s

    def hit(self, key: str) -> float | None:
        """Count a request for ``key``: None if admitted, else seconds until one would be."""
        now = self.clock.now().timestamp()
        with self.engine.begin() as connection:
            self._lock(connection, key)
            connection.execute(
                delete(_HITS).where(_HITS.c.key == key, _HITS.c.at <= now - self.window_s)
            )
            wait = self._wait(connection, key, now)
            if wait is None:
                connection.execute(insert(_HITS).values(key=key, at=now))
            return wait

    def exceeded(self, key: str) -> float | None:
        """Seconds until ``key`` may be counted again if it is at its limit now, else None (a
        look without counting)."""
        with self.engine.connect() as connection:
            return self._wait(connection, key, self.clock.now().timestamp())

    def _wait(self, connection: Connection, key: str, now: float) -> float | None:
        count, oldest = connection.execute(
            select(func.count(), func.min(_HITS.c.at)).where(
                _HITS.c.key == key, _HITS.c.at > now - self.window_s
            )
        ).one()
        if count < self.limit:
            return None
        return max(float(oldest) + self.window_s - now, 0.0)

    def _lock(self, connection: Connection, key: str) -> None:
        """Serialise the hits of one key until the transaction ends."""
        if connection.dialect.name == "postgresql":
            digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
            lock = int.from_bytes(digest, "big", signed=True)
            connection.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": lock})


def retry_after_header(wait_s: float) -> str:
    """Whole seconds for ``Retry-After`` (at least 1)."""
    return str(max(1, math.ceil(wait_s)))

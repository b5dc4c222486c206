"""Rate limits over a rolling window, counted in the shared database and spent from leases.

Every server process (and the MCP endpoint) counts the same rows, so a limit of 100 requests a
minute holds however many processes serve an account. Requests are counted per key and whole
second (one row each, incremented), so checking a limit sums at most the window's length in rows
whatever the traffic. A request leaves the window between ``window_s - 1`` and ``window_s``
seconds after it was made.

A process does not ask the database for every request. It counts a block of hits for a key in
the current second in one transaction (a *lease*) and admits that key's requests from it in
memory, without blocking, until the block is spent or the second ends. The block doubles while
each lease is used up within its second, falls back to what was used when one is not, and
starts again at one for a key idle for more than a second; it never exceeds ``max_lease`` (by
default a hundredth of the limit, at most 256: no leasing at all for limits under 200) nor the
room left in the window. Hits a lease left unspent when its second ended are given back
(subtracted from that second's row) at the process's next lease of the key, admitted or not.

What holds, for any number of processes on one database:

- **Never more than ``limit`` admitted requests in any window.** A request is admitted only
  from a hit already counted in the row of the second it is admitted in, and a lease is granted
  only within the room the window has left.
- **A refusal is exact within one process**, whose own unspent hits are given back before the
  window is read. Another process can hold back at most the unspent rest of its one current
  lease of the key, fewer than ``max_lease`` hits, until its next request of that key (if it
  never makes one, until they leave the window): with N processes a key may be refused while
  up to ``(N - 1) * (max_lease - 1)`` hits of its limit are unused.

A lease runs in one short transaction that first takes a lock for its key (an advisory lock on
PostgreSQL; SQLite's single writer lock, taken by the first write), so two processes cannot
both take the last room of a window. On SQLite the threads of one process also queue on a lock
of their own first: SQLite's busy handler polls with growing sleeps, so threads racing for its
writer lock wait unfairly, where a thread lock hands over as soon as it is released. Rejected
requests are not counted, so waiting out ``Retry-After`` always works.
"""

from __future__ import annotations

import hashlib
import math
import threading
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cache
from typing import Final

from sqlalchemy import Connection, Engine, Table, bindparam, delete, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from ...clock import Clock
from ...store.models import RateLimitCount

WINDOW_S = 60.0
#: The largest lease a limit gets by default, and its share of the limit.
MAX_LEASE: Final = 256
LEASE_SHARE: Final = 100
#: Keys whose lease state is kept before idle ones are forgotten.
KEPT_KEYS: Final = 4096
_NEVER: Final = -(2**62)
_COUNTS: Table = RateLimitCount.__table__  # type: ignore[assignment]
# The statements are built once: every lease runs them, and building a statement costs more
# CPU than SQLite takes to run it.
_PRUNE = delete(_COUNTS).where(
    _COUNTS.c.key == bindparam("key"), _COUNTS.c.second <= bindparam("cutoff")
)
_WINDOW = select(func.coalesce(func.sum(_COUNTS.c.count), 0), func.min(_COUNTS.c.second)).where(
    _COUNTS.c.key == bindparam("key"), _COUNTS.c.second > bindparam("cutoff")
)
_GIVE_BACK = (
    update(_COUNTS)
    .where(_COUNTS.c.key == bindparam("lease_key"), _COUNTS.c.second == bindparam("lease_second"))
    .values(count=_COUNTS.c.count - bindparam("unspent"))
)
_LOCK = text("SELECT pg_advisory_xact_lock(:lock)")


def default_max_lease(limit: int) -> int:
    """The largest lease for ``limit``: a hundredth of it, between 1 and :data:`MAX_LEASE`.

    >>> default_max_lease(100), default_max_lease(1_000), default_max_lease(10**7)
    (1, 10, 256)
    """
    return max(1, min(limit // LEASE_SHARE, MAX_LEASE))


@dataclass(slots=True)
class _Lease:
    """This process's hits of one key counted in advance."""

    #: The whole second (since the epoch) they were counted in.
    second: int = _NEVER
    #: Counted and not admitted yet.
    left: int = 0
    #: How many the last lease got.
    granted: int = 0
    #: One lease transaction at a time for the key in this process.
    lock: threading.Lock = field(default_factory=threading.Lock)


class RateLimiter:
    """At most ``limit`` hits per key in any ``window_s`` seconds of the clock's wall time,
    leased ``max_lease`` at most at a time (:func:`default_max_lease` when None)."""

    def __init__(
        self,
        engine: Engine,
        limit: int,
        clock: Clock,
        window_s: float = WINDOW_S,
        *,
        max_lease: int | None = None,
    ):
        self.engine = engine
        self.limit = limit
        self.clock = clock
        self.window_s = window_s
        self.max_lease = default_max_lease(limit) if max_lease is None else max(1, max_lease)
        sqlite_file = engine.dialect.name == "sqlite"
        self._writers = threading.Lock() if sqlite_file else nullcontext()
        self._guard = threading.Lock()  # held for a few operations on the leases, never for I/O
        self._leases: dict[str, _Lease] = {}

    def spend(self, key: str) -> bool:
        """Admit a request of ``key`` from this process's lease, in memory: True if admitted,
        False when :meth:`hit` must ask the database. Never blocks on I/O, so an event loop may
        call it."""
        second = math.floor(self.clock.now().timestamp())
        with self._guard:
            lease = self._leases.get(key)
            if lease is None or lease.left <= 0 or lease.second != second:
                return False
            lease.left -= 1
            return True

    def hit(self, key: str) -> float | None:
        """Count a request for ``key``: None if admitted, else seconds until one would be."""
        if self.spend(key):
            return None
        lease = self._lease_of(key)
        with lease.lock:
            if self.spend(key):  # another thread leased meanwhile
                return None
            with self._writers:
                return self._renew(key, lease)

    def exceeded(self, key: str) -> float | None:
        """Seconds until ``key`` may be counted again if it is at its limit now, else None (a
        look without counting)."""
        with self.engine.connect() as connection:
            return self._wait(connection, key, self.clock.now().timestamp())

    def _renew(self, key: str, lease: _Lease) -> float | None:
        """Give back what the last lease left, then lease a block and admit its first hit, or
        return the wait when the window is full (one transaction)."""
        now = self.clock.now().timestamp()
        second = math.floor(now)
        with self._guard:
            unspent, counted_in, lease.left = lease.left, lease.second, 0
        size = self._next_size(lease, unspent, second)
        with self.engine.begin() as connection:
            self._lock(connection, key)
            if unspent > 0:
                given = {"lease_key": key, "lease_second": counted_in, "unspent": unspent}
                connection.execute(_GIVE_BACK, given)
            connection.execute(_PRUNE, {"key": key, "cutoff": now - self.window_s})
            total, oldest = self._window(connection, key, now)
            if total >= self.limit:
                return max(float(oldest) + self.window_s - now, 0.0)
            granted = min(size, self.limit - total)
            upsert = _increment(connection.dialect.name)
            connection.execute(upsert, {"key": key, "second": second, "hits": granted})
        with self._guard:
            lease.second, lease.left, lease.granted = second, granted - 1, granted
        return None

    def _next_size(self, lease: _Lease, unspent: int, second: int) -> int:
        """The block to lease: doubled after a lease used up, what was used of one that was not,
        one for a key idle for more than a second; at most :attr:`max_lease`."""
        if self.max_lease == 1 or lease.second < second - 1:
            return 1
        if unspent <= 0:
            return min(2 * max(lease.granted, 1), self.max_lease)
        return max(1, min(lease.granted - unspent, self.max_lease))

    def _lease_of(self, key: str) -> _Lease:
        """The lease state of ``key`` (made on its first lease); past :data:`KEPT_KEYS` keys,
        the ones with nothing to give back and no lease under way are forgotten first."""
        with self._guard:
            lease = self._leases.get(key)
            if lease is None:
                if len(self._leases) >= KEPT_KEYS:
                    self._forget_idle()
                lease = self._leases[key] = _Lease()
            return lease

    def _forget_idle(self) -> None:
        """Drop the keys with nothing to give back and no lease under way (``_guard`` held)."""
        idle = [k for k, v in self._leases.items() if not v.left and not v.lock.locked()]
        for key in idle:
            del self._leases[key]

    def _window(self, connection: Connection, key: str, now: float) -> tuple[int, float]:
        """Hits counted for ``key`` in the window ending ``now``, and the oldest second of them."""
        cutoff = now - self.window_s
        total, oldest = connection.execute(_WINDOW, {"key": key, "cutoff": cutoff}).one()
        return int(total), float(oldest) if oldest is not None else now

    def _wait(self, connection: Connection, key: str, now: float) -> float | None:
        total, oldest = self._window(connection, key, now)
        if total < self.limit:
            return None
        return max(oldest + self.window_s - now, 0.0)

    def _lock(self, connection: Connection, key: str) -> None:
        """Serialise the leases of one key until the transaction ends."""
        if connection.dialect.name == "postgresql":
            digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
            lock = int.from_bytes(digest, "big", signed=True)
            connection.execute(_LOCK, {"lock": lock})


@cache
def _increment(dialect_name: str) -> postgresql.Insert | sqlite.Insert:
    """``hits`` more in the row of a key and second (made on the second's first lease), for the
    database ``dialect_name``: parameters ``key``, ``second`` and ``hits``."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    statement = dialect.insert(_COUNTS).values(
        key=bindparam("key"), second=bindparam("second"), count=bindparam("hits")
    )
    upsert: postgresql.Insert | sqlite.Insert = statement.on_conflict_do_update(
        index_elements=[_COUNTS.c.key, _COUNTS.c.second],
        set_={"count": _COUNTS.c.count + statement.excluded.count},
    )
    return upsert


def retry_after_header(wait_s: float) -> str:
    """Whole seconds for ``Retry-After`` (at least 1)."""
    return str(max(1, math.ceil(wait_s)))

"""A short-lived cache of API keys already checked, so a request costs no database round trip.

Checking a key is a hashed lookup joined to its account; caching the answer for a few seconds
is what API gateways do, and here it also saves the request a hop to the thread pool. Only valid
keys are cached (an unknown key always reaches the database), entries expire after ``ttl_s``
seconds of the injected clock's monotonic time, and the size is bounded. A key revoked, or an
account's routing flag changed, takes effect within ``ttl_s``; ``ttl_s = 0`` turns caching off.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, TypeVar

from ...clock import Clock

Value = TypeVar("Value")

#: Most keys remembered at once; the least recently used goes first.
MAX_ENTRIES = 10_000


@dataclass(frozen=True, slots=True)
class _Entry(Generic[Value]):
    value: Value
    expires: float


class KeyCache(Generic[Value]):
    """Answers for API keys, each kept ``ttl_s`` seconds; safe to share between threads."""

    def __init__(self, ttl_s: float, clock: Clock, max_entries: int = MAX_ENTRIES) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self.max_entries = max_entries
        self._entries: OrderedDict[bytes, _Entry[Value]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, secret: str) -> Value | None:
        """The cached answer for ``secret``, or None when absent or expired."""
        if self.ttl_s <= 0:
            return None
        digest = _digest(secret)
        with self._lock:
            entry = self._entries.get(digest)
            if entry is None:
                return None
            if entry.expires <= self.clock.monotonic():
                del self._entries[digest]
                return None
            self._entries.move_to_end(digest)
            return entry.value

    def put(self, secret: str, value: Value) -> None:
        """Remember ``value`` for ``secret`` for ``ttl_s`` seconds."""
        if self.ttl_s <= 0:
            return
        digest = _digest(secret)
        with self._lock:
            self._entries[digest] = _Entry(value, self.clock.monotonic() + self.ttl_s)
            self._entries.move_to_end(digest)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every key (after revoking keys or changing accounts in this process)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


def _digest(secret: str) -> bytes:
    """The cache's own key: the plain secret is never held in memory longer than the request."""
    return hashlib.blake2b(secret.encode(), digest_size=16).digest()

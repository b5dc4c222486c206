"""Per-account rate limit over a rolling 60-second window, safe under concurrent requests."""

from __future__ import annotations

import math
import threading
from collections import deque

from ..clock import Clock

WINDOW_S = 60.0


class RateLimiter:
    """Sliding-window counter per key: at most ``limit`` hits in any ``WINDOW_S`` seconds.

    State lives in this process (one server process per database in the default deployment);
    a lock makes check-and-record atomic across request threads.
    """

    def __init__(self, limit: int, clock: Clock) -> None:
        self.limit = limit
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> float | None:
        """Record a request for ``key``; None if allowed, else seconds until one is allowed."""
        now = self.clock.monotonic()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - WINDOW_S:
                hits.popleft()
            if len(hits) >= self.limit:
                return max(hits[0] + WINDOW_S - now, 0.0)
            hits.append(now)
            return None


def retry_after_header(wait_s: float) -> str:
    """Whole seconds for ``Retry-After`` (at least 1)."""
    return str(max(1, math.ceil(wait_s)))

"""Time as an injected object, so tests move time forward instead of sleeping."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Source of the current time (UTC) and of a monotonic reading in seconds."""

    def now(self) -> datetime: ...

    def monotonic(self) -> float: ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        """Current UTC time."""
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going backwards."""
        return time.monotonic()


class ManualClock:
    """A clock that only moves when told to (tests, simulations)."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware UTC start time")
        self._now = start.astimezone(UTC)
        self._mono = 0.0
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """The clock's current UTC time."""
        with self._lock:
            return self._now

    def monotonic(self) -> float:
        """Seconds advanced since creation."""
        with self._lock:
            return self._mono

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``."""
        with self._lock:
            self._now += timedelta(seconds=seconds)
            self._mono += seconds

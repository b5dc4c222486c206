"""Time as an injected object, so tests move time forward instead of sleeping; and the one way a
moment is written out (ISO 8601 UTC to the second), which every layer above the engine uses."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol, overload


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


@overload
def utc_iso(moment: datetime) -> str: ...
@overload
def utc_iso(moment: None) -> None: ...
@overload
def utc_iso(moment: datetime | None) -> str | None: ...
def utc_iso(moment: datetime | None) -> str | None:
    """``moment`` as ISO 8601 / RFC 3339 UTC to the second (None stays None). An aware moment in
    another zone is converted to UTC; a naive one is taken to be UTC already (as stored times
    are). Years before 1000 are zero-padded to four digits (glibc's ``strftime("%Y")`` does not).

    >>> from datetime import timezone
    >>> utc_iso(datetime(2026, 11, 21, 14, 0, 30, 999, tzinfo=timezone(timedelta(hours=1))))
    '2026-11-21T13:00:30Z'
    >>> utc_iso(datetime(2026, 11, 21, 14, 0)), utc_iso(None)
    ('2026-11-21T14:00:00Z', None)
    >>> utc_iso(datetime(1, 1, 1)), utc_iso(datetime(9999, 12, 31, 23, 59, 59, 999999))
    ('0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z')
    """
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"

"""Background poller: runs a service's ``tick()`` every few seconds (tracking, webhook delivery)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("sealane.tracking")


def never() -> bool:
    """The ``stopping`` of a pass nobody stops (a test's, a one-off run's)."""
    return False


class Tickable(Protocol):
    """Anything with a ``tick()`` doing one pass of background work, which ends early (between
    units of work, each claimed and committed alone, so none is lost) once ``stopping()``."""

    def tick(self, stopping: Callable[[], bool] = never) -> Any: ...


class Poller:
    """A daemon thread calling ``service.tick()`` every ``interval_s`` seconds until stopped."""

    def __init__(self, service: Tickable, interval_s: float) -> None:
        self.service = service
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start polling (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sealane-poller", daemon=True)
            self._thread.start()

    def request_stop(self) -> None:
        """Ask the pass in flight to end at its next unit of work, and no other to start."""
        self._stop.set()

    def stop(self) -> None:
        """Stop polling and wait for the current pass to end (at its next unit of work)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.service.tick(self._stop.is_set)
            except Exception:  # one bad pass must not stop tracking for good
                log.exception("tracking poll failed")
            self._stop.wait(self.interval_s)

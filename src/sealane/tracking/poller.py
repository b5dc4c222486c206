"""Background poller: runs a service's ``tick()`` every few seconds (tracking, webhook delivery)."""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

log = logging.getLogger("sealane.tracking")


class Tickable(Protocol):
    """Anything with a ``tick()`` doing one pass of background work."""

    def tick(self) -> Any: ...


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

    def stop(self) -> None:
        """Stop polling and wait for the current pass to finish."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.service.tick()
            except Exception:  # one bad pass must not stop tracking for good
                log.exception("tracking poll failed")
            self._stop.wait(self.interval_s)

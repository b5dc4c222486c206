"""The demo's moving vessels: the bundled sample replayed in a background thread, moved to now.

``sealane serve --demo`` seeds the demo vessels part-way along their legs at start-up; the
sample (``data/ais_demo.nmea``, generated, see ``data/README.md``) continues each of them from
there, so with ``speed`` 1 they move in real time for six hours. A higher speed replays faster
and so dates positions ahead of the clock.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from ...clock import Clock
from .pipeline import RunReport, replay_file
from .sample import demo_sample_path

log = logging.getLogger("sealane.feeds")


class _Stopped(Exception):
    """Raised inside the replay when the thread is asked to stop."""


class DemoReplay:
    """Replays an NMEA file (the demo sample by default) in a daemon thread until stopped."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Clock,
        *,
        speed: float = 1.0,
        path: Path | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.speed = speed
        self.path = path or demo_sample_path()
        self.report: RunReport | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sealane-ais-demo", daemon=True)

    def start(self) -> None:
        """Start replaying."""
        self._thread.start()

    def stop(self, timeout_s: float = 30.0) -> None:
        """Stop replaying (the batch in progress is committed or rolled back whole)."""
        self._stop.set()
        self._thread.join(timeout=timeout_s)

    def _sleep(self, seconds: float) -> None:
        if self._stop.wait(seconds):
            raise _Stopped

    def _run(self) -> None:
        try:
            self.report = replay_file(
                self.sessions,
                self.path,
                clock=self.clock,
                speed=self.speed,
                shift_to_now=True,
                from_start=True,
                batch_size=500,
                sleep=self._sleep,
            )
        except _Stopped:
            return
        except Exception:  # the demo must not take the server down with it
            log.exception("the AIS demo replay stopped")

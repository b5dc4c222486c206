"""The demo replay: the bundled sample moves the seeded demo vessels on from where they are."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.demo import DemoReplay
from sealane.feeds.ais.sample import DEMO_HOURS, demo_sample_path, demo_vessels
from sealane.feeds.ais.tracks import distance_nm
from sealane.store.database import transaction
from sealane.store.models import Vessel
from sealane.store.seed import seed_demo

from .support import T0


def test_demo_sample__bundled_and_of_the_demo_vessels() -> None:
    text = demo_sample_path().read_text(encoding="ascii")
    assert text.startswith("\\c:")
    mmsis = {str(v.mmsi) for v in demo_vessels()}
    assert len(mmsis) == 4


def test_demo_replay__vessels_continue_from_their_seeded_positions(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as session:
        seed_demo(session, T0)
    with sessions() as session:
        seeded = {v.mmsi: (v.longitude, v.latitude) for v in session.scalars(select(Vessel))}
    replay = DemoReplay(sessions, ManualClock(T0), speed=0)
    replay.start()
    replay.stop(timeout_s=300)
    assert replay.report is not None and replay.report.ingest.stored > 1000
    with sessions() as session:
        for vessel in session.scalars(select(Vessel)):
            assert vessel.position_timestamp is not None
            assert vessel.position_timestamp > T0 + timedelta(hours=DEMO_HOURS - 0.1)
            lon, lat = seeded[vessel.mmsi]
            assert vessel.longitude is not None and vessel.latitude is not None
            moved = distance_nm(lon, lat, vessel.longitude, vessel.latitude)
            assert 70 < moved < 6 * 21  # about six hours at 16-20 kn, the lanes bend


class PacedReplay(DemoReplay):
    """A demo replay that says when it first waits between two sentences."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        super().__init__(sessions, ManualClock(T0), speed=1.0)
        self.pacing = threading.Event()

    def _sleep(self, seconds: float) -> None:
        self.pacing.set()
        super()._sleep(seconds)


def test_demo_replay__stops_when_asked(sessions: sessionmaker[Session]) -> None:
    """Asked to stop while it waits to keep pace, the replay ends there: at speed 1 the sample
    lasts six hours, so a thread still alive after ``stop`` returned has not stopped."""
    replay = PacedReplay(sessions)
    replay.start()
    assert replay.pacing.wait(timeout=120), "the replay never paced its sentences"
    replay.stop(timeout_s=120)
    assert not replay._thread.is_alive()
    assert replay.report is None  # interrupted: a replay that ran to its end leaves a report


def test_add_ais_replay__runs_with_the_runtime_and_not_at_speed_0(tmp_path: Path) -> None:
    from sealane.config import Settings
    from sealane.demo import add_ais_replay
    from sealane.runtime import build_runtime

    runtime = build_runtime(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}"))
    try:
        assert add_ais_replay(runtime, speed=0) is None
        assert runtime.background == []
        replay = add_ais_replay(runtime, speed=1.0)
        assert replay is not None and runtime.background == [replay]
        runtime.start()
        assert replay._thread.is_alive()
        runtime.stop()
        assert not replay._thread.is_alive()
    finally:
        runtime.engine.dispose()

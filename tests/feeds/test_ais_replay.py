"""``sealane ais replay`` as a real process: killed with SIGKILL mid-run and run again, it ends
with exactly the track of an uninterrupted run (nothing lost, nothing twice), on both databases.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from sealane.clock import ManualClock
from sealane.feeds.ais.pipeline import replay_file
from sealane.feeds.ais.sample import SampleVessel, sample_lines
from sealane.store.database import make_engine, session_factory
from sealane.store.migrate import upgrade
from sealane.store.models import FeedCheckpoint, Vessel, VesselPosition

from .support import T0, T0_S

ROUTES = [("CNSHA", "NLRTM"), ("SGSIN", "DEHAM"), ("USNYC", "BEANR"), ("JPYOK", "USLGB")]


def fleet(count: int) -> list[SampleVessel]:
    return [
        SampleVessel(
            mmsi=200_000_000 + k,
            imo="9074729",
            name=f"FLEET {k}",
            previous_port=ROUTES[k % 4][0],
            destination_port=ROUTES[k % 4][1],
            speed_kn=12.0 + k % 8,
            hours_sailed=24.0 + 3 * k,
        )
        for k in range(count)
    ]


@pytest.fixture(scope="module")
def nmea_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ais") / "fleet.nmea"
    lines = sample_lines(fleet(40), T0_S, 30 * 60.0, seed=7)
    path.write_text("".join(line + "\n" for line in lines), encoding="ascii")
    return path


def replay_command(path: Path, url: str) -> list[str]:
    return [
        *(sys.executable, "-m", "sealane.cli", "ais", "replay", str(path)),
        *("--speed", "0", "--all-vessels", "--batch-size", "200", "--database", url),
    ]


def stored(url: str) -> tuple[set[tuple[object, ...]], set[tuple[object, ...]], int]:
    """Track points and latest positions by MMSI, and the file checkpoint."""
    engine = make_engine(url)
    try:
        with session_factory(engine)() as session:
            points = {
                (mmsi, at, lat, lon)
                for mmsi, at, lat, lon in session.execute(
                    select(
                        Vessel.mmsi,
                        VesselPosition.timestamp,
                        VesselPosition.latitude,
                        VesselPosition.longitude,
                    ).join(Vessel, Vessel.id == VesselPosition.vessel_id)
                )
            }
            latest = set(
                session.execute(
                    select(
                        Vessel.mmsi, Vessel.latitude, Vessel.longitude, Vessel.position_timestamp
                    )
                ).all()
            )
            checkpoint = session.scalar(select(FeedCheckpoint.position)) or 0
        return points, latest, checkpoint
    finally:
        engine.dispose()


def checkpoint_of(url: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return connection.scalar(select(FeedCheckpoint.position)) or 0
    finally:
        engine.dispose()


@pytest.mark.slow
def test_replay__killed_mid_run_and_rerun_equals_an_uninterrupted_run(
    nmea_file: Path, database_url: str, tmp_path: Path
) -> None:
    reference_url = f"sqlite:///{tmp_path / 'reference.db'}"
    size = nmea_file.stat().st_size
    done = subprocess.run(
        replay_command(nmea_file, reference_url), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    expected_points, expected_latest, end = stored(reference_url)
    assert end == size and len(expected_points) > 500

    engine = make_engine(database_url)
    upgrade(engine)  # so the checkpoint can be polled from the start
    engine.dispose()
    process = subprocess.Popen(replay_command(nmea_file, database_url), stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while checkpoint_of(database_url) < size // 3 and time.monotonic() < deadline:
        assert process.poll() is None, "the replay ended before it could be killed"
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    partial_points, _, killed_at = stored(database_url)
    assert 0 < killed_at < size, "killed after the end: nothing was interrupted"
    assert partial_points < expected_points  # what was committed is right, nothing extra

    again = subprocess.run(
        replay_command(nmea_file, database_url), capture_output=True, text=True, timeout=300
    )
    assert again.returncode == 0, again.stderr
    points, latest, end = stored(database_url)
    assert end == size
    assert points == expected_points
    assert latest == expected_latest


def test_replay_file__a_finished_file_replays_nothing_more(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'once.db'}"
    engine = make_engine(url)
    upgrade(engine)
    sessions = session_factory(engine)
    path = tmp_path / "small.nmea"
    lines = sample_lines(fleet(3), T0_S, 600.0, seed=3)
    path.write_text("".join(line + "\n" for line in lines), encoding="ascii")
    clock = ManualClock(T0)
    first = replay_file(sessions, path, clock=clock, speed=0)
    second = replay_file(sessions, path, clock=clock, speed=0)
    assert first.sentences == len(lines) and second.sentences == 0
    third = replay_file(sessions, path, clock=clock, speed=0, from_start=True)
    engine.dispose()
    assert third.sentences == len(lines) and third.ingest.stored == 0


def test_replay_file__paced_by_the_recorded_times(tmp_path: Path) -> None:
    """At speed 60, ten recorded minutes take ten seconds of (the manual clock's) time."""
    url = f"sqlite:///{tmp_path / 'paced.db'}"
    engine = make_engine(url)
    upgrade(engine)
    path = tmp_path / "paced.nmea"
    lines = sample_lines(fleet(2), T0_S, 600.0, seed=5)
    path.write_text("".join(line + "\n" for line in lines), encoding="ascii")
    clock = ManualClock(T0)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    replay_file(session_factory(engine), path, clock=clock, speed=60.0, sleep=sleep)
    engine.dispose()
    first, last = (float(line[3:13]) for line in (lines[0], lines[-1]))
    assert sum(slept) == pytest.approx((last - first) / 60.0, abs=0.1)


def test_replay_file__a_shorter_file_under_the_same_name_starts_over(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'again.db'}"
    engine = make_engine(url)
    upgrade(engine)
    sessions = session_factory(engine)
    path = tmp_path / "rolling.nmea"
    lines = sample_lines(fleet(2), T0_S, 600.0, seed=9)
    path.write_text("".join(line + "\n" for line in lines), encoding="ascii")
    clock = ManualClock(T0)
    replay_file(sessions, path, clock=clock, speed=0)
    path.write_text("".join(line + "\n" for line in lines[:10]), encoding="ascii")
    again = replay_file(sessions, path, clock=clock, speed=0)
    engine.dispose()
    assert again.sentences == 10

"""A replay's progress: the running totals while it reads and while it waits, shown by
``sealane ais replay`` on stderr (throttled, on a terminal or with ``--progress``)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from sealane.cli.ais import ProgressLine
from sealane.clock import ManualClock
from sealane.feeds.ais.pipeline import RunReport, replay_file
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.migrate import upgrade
from sealane.store.models import Vessel

from .support import T0, T0_S, at, sentence

MMSI = 244670316


def track_file(path: Path, gap_s: float = 5.0) -> Path:
    """Three reports of the vessel ``gap_s`` apart (tag-block times), moving north at 6 kn."""
    lines = [
        at(sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0 + k * 0.001, speed=6.0), T0_S + k * gap_s)
        for k in range(3)
    ]
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def database(url: str) -> sessionmaker[Session]:
    engine = make_engine(url)
    upgrade(engine)
    sessions = session_factory(engine)
    with transaction(sessions) as session:
        session.add(Vessel(name="Sealane Test", imo="9074729", mmsi=str(MMSI)))
    return sessions


class Totals:
    def __init__(self, line: str) -> None:
        self.line = line

    def progress_line(self) -> str:
        return self.line


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_replay_file__progress_after_each_batch_and_each_second_of_waiting(
    tmp_path: Path,
) -> None:
    sessions = database(f"sqlite:///{tmp_path / 'ais.db'}")
    clock = ManualClock(T0)
    slept: list[float] = []
    seen: list[tuple[int, int]] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    def progress(report: RunReport) -> None:
        seen.append((report.sentences, report.ingest.positions))

    report = replay_file(
        sessions,
        track_file(tmp_path / "a.nmea"),
        clock=clock,
        speed=1.0,
        sleep=sleep,
        progress=progress,
    )
    assert report.sentences == 3
    assert max(slept) <= 1.0 and sum(slept) == 10.0  # two gaps of 5 s, in slices of a second
    assert len(seen) >= 10 + 3  # every second of the waits, and each of the three batches
    assert seen[-1] == (3, 3)
    assert seen == sorted(seen)


def test_replay_file__without_progress_a_wait_is_one_sleep(tmp_path: Path) -> None:
    sessions = database(f"sqlite:///{tmp_path / 'ais.db'}")
    clock = ManualClock(T0)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    replay_file(sessions, track_file(tmp_path / "a.nmea"), clock=clock, speed=1.0, sleep=sleep)
    assert slept == [5.0, 5.0]


def test_run_report__progress_line_names_what_was_read_stored_and_dropped() -> None:
    report = RunReport(sentences=12_345)
    report.ingest.stored = 1_200
    report.ingest.drops.update({"stale": 3, "malformed": 2})
    assert report.progress_line() == (
        "12,345 sentences read, 1,200 positions stored, 0 thinned; dropped: malformed 2, stale 3"
    )


def test_progress_line__not_a_terminal_shows_nothing_unless_asked() -> None:
    quiet, asked = io.StringIO(), io.StringIO()
    ProgressLine(quiet, enabled=None)(Totals("5 sentences read"))
    ProgressLine(asked, enabled=True)(Totals("5 sentences read"))
    assert quiet.getvalue() == ""
    assert asked.getvalue() == "5 sentences read\n"


def test_progress_line__throttled() -> None:
    stream = io.StringIO()
    shown = ProgressLine(stream, enabled=True, every_s=3600.0)
    for k in range(5):
        shown(Totals(f"{k} sentences read"))
    assert stream.getvalue() == "0 sentences read\n"


def test_progress_line__a_terminal_redraws_in_place_and_ends_the_line() -> None:
    stream = Terminal()
    shown = ProgressLine(stream, enabled=None, every_s=0.0)
    shown(Totals("1 sentences read"))
    shown(Totals("2 sentences read"))
    shown.close()
    assert stream.getvalue() == "\r1 sentences read\x1b[K\r2 sentences read\x1b[K\n"


def test_progress_line__a_terminal_told_no_progress_stays_quiet() -> None:
    stream = Terminal()
    shown = ProgressLine(stream, enabled=False, every_s=0.0)
    shown(Totals("1 sentences read"))
    shown.close()
    assert stream.getvalue() == ""


def test_cli_replay__progress_on_stderr_and_the_summary_on_stdout(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ais.db'}"
    database(url).kw["bind"].dispose()
    path = track_file(tmp_path / "a.nmea")
    done = subprocess.run(
        [
            *(sys.executable, "-m", "sealane.cli", "ais", "replay", str(path)),
            *("--speed", "0", "--progress", "--database", url),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "sentences read" in done.stderr and "positions stored" in done.stderr
    assert done.stdout.startswith("3 sentences, 3 positions")


def test_cli_replay__help_says_how_to_replay_at_full_speed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sealane.cli", "ais", "replay", "--help"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    text = " ".join(done.stdout.split())
    assert "--speed 0 to replay as fast as possible" in text
    assert "--progress" in text

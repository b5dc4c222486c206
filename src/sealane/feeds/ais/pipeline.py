"""From lines to the database: decode, batch, ingest; file replays checkpointed and paced.

What "nothing lost" means here: every accepted report of a committed batch is stored, and a
file replay's checkpoint commits with its batch, so a replay killed at any point and run again
ends with the same stored track as one that was never interrupted (what was re-read is judged
stale or thinned exactly as before). A live TCP or UDP feed cannot be re-read: what was
received but not yet committed when the process died is gone, at most one batch.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from ...clock import Clock
from .decoding import Decoded, SentenceDecoder
from .ingest import Ingestor, IngestReport, IngestSettings
from .sources import file_lines
from .storage import read_checkpoint

_TAG_TIME = re.compile(rb"^\\[^\\]*?c:(\d{9,13})")


@dataclass
class RunReport:
    """Totals of a run: sentences read, messages ignored, and the ingest counts."""

    sentences: int = 0
    ignored: int = 0
    batches: int = 0
    ingest: IngestReport = field(default_factory=IngestReport)

    def add(self, decoded: Decoded, result: IngestReport) -> None:
        """Count one committed batch: what its decoding dropped and what its ingest did."""
        result.drops.update(decoded.drops)
        result.blanks.update(decoded.blanks)
        self.sentences += decoded.sentences
        self.ignored += decoded.ignored
        self.batches += 1
        self.ingest.add(result)

    def summary(self, unit: str = "sentences") -> str:
        """One line for the command line; ``unit`` names what was read (a JSON feed reads
        messages)."""
        i = self.ingest
        drops = ", ".join(f"{k} {v}" for k, v in sorted((i.drops + i.blanks).items())) or "none"
        return (
            f"{self.sentences} {unit}, {i.positions} positions, {i.statics} static reports,"
            f" {self.ignored} of other types; stored {i.stored}, thinned {i.thinned},"
            f" vessels moved {i.vessels_moved}, MMSIs learnt {i.mmsi_learned};"
            f" arrivals {i.follow.arrivals}, departures {i.follow.departures},"
            f" events {i.follow.events}, estimates {i.follow.estimates}; dropped: {drops}"
        )

    def progress_line(self) -> str:
        """The counts a replay in progress shows: sentences read, positions stored, drops."""
        i = self.ingest
        drops = ", ".join(f"{k} {v:,}" for k, v in sorted((i.drops + i.blanks).items()))
        return (
            f"{self.sentences:,} sentences read, {i.stored:,} positions stored,"
            f" {i.thinned:,} thinned; dropped: {drops or 'none'}"
        )


#: What is told of a run's progress: its totals so far.
ProgressHook = Callable[[RunReport], None]


class Pipeline:
    """Decodes lines and ingests them in batches of ``batch_size`` (or every ``max_delay_s``)."""

    def __init__(
        self,
        ingestor: Ingestor,
        *,
        batch_size: int = 5000,
        max_delay_s: float = 1.0,
        decoder: SentenceDecoder | None = None,
    ) -> None:
        self.ingestor = ingestor
        self.batch_size = batch_size
        self.max_delay_s = max_delay_s
        self.decoder = decoder or SentenceDecoder()
        self.report = RunReport()
        #: Called with the running totals after every committed batch.
        self.on_commit: ProgressHook | None = None

    def run_live(self, lines: Iterable[bytes | None]) -> RunReport:
        """Ingest a network feed until it ends or Ctrl-C (``None`` items are idle ticks).

        On Ctrl-C the lines already received are committed before returning.
        """
        clock = self.ingestor.clock
        batch: list[tuple[bytes, float, int]] = []
        opened = clock.monotonic()
        try:
            for line in lines:
                if line is not None:
                    if not batch:
                        opened = clock.monotonic()
                    batch.append((line, clock.now().timestamp(), 0))
                due = batch and clock.monotonic() - opened >= self.max_delay_s
                if len(batch) >= self.batch_size or due:
                    self.commit(batch, None)
                    batch = []
        except KeyboardInterrupt:
            pass
        self.commit(batch, None)
        return self.report

    def commit(
        self, batch: list[tuple[bytes, float, int]], checkpoint: tuple[str, int] | None
    ) -> None:
        """Decode and ingest one batch (one transaction, with the checkpoint if given)."""
        if not batch and checkpoint is None:
            return
        decoded: Decoded = self.decoder.decode(batch)
        result = self.ingestor.ingest(decoded.positions, decoded.statics, checkpoint=checkpoint)
        self.report.add(decoded, result)
        if self.on_commit is not None:
            self.on_commit(self.report)


def replay_file(
    sessions: sessionmaker[Session],
    path: Path,
    *,
    clock: Clock,
    speed: float = 1.0,
    shift_to_now: bool = False,
    from_start: bool = False,
    batch_size: int = 5000,
    settings: IngestSettings | None = None,
    sleep: Callable[[float], None] = time.sleep,
    progress: ProgressHook | None = None,
) -> RunReport:
    """Replay an NMEA file (tag-block times) into the database, resuming at its checkpoint.

    ``speed`` is the replay's pace as a multiple of the recorded time (0: as fast as possible);
    ``shift_to_now`` moves the recorded times so the first line is now (the demo's vessels move
    in the present). Lines without a tag block are timed by ``clock`` as they are read (their
    reports' UTC seconds, broadcast whenever the file was recorded, do not move that time).
    ``progress`` is given the counts so far after every batch and, while the replay waits for
    the recorded time of the next line, about once a second.
    """
    path = path.resolve()
    source = f"file:{path}"
    with sessions() as session:
        start = 0 if from_start else read_checkpoint(session, source)
    if start > path.stat().st_size:  # a shorter file under the same name: a new recording
        start = 0
    first = _first_time(path)
    shift = clock.now().timestamp() - first if shift_to_now and first is not None else 0.0
    pipeline = Pipeline(
        Ingestor(sessions, clock, settings),
        batch_size=batch_size,
        decoder=SentenceDecoder(shift_s=shift, received_live=False),
    )
    if progress is not None:
        pipeline.on_commit = progress
    pace = _Pace(clock, speed, sleep, None if progress is None else _report_to(progress, pipeline))
    batch: list[tuple[bytes, float, int]] = []
    end = start
    for line, begin, end in file_lines(path, start):
        stamp = _line_time(line)
        if stamp is not None and pace.wait_needed(stamp) and batch:
            pipeline.commit(batch, (source, _resume_at(pipeline, begin)))
            batch = []
        if stamp is not None:
            pace.until(stamp)
        batch.append((line, clock.now().timestamp(), begin))
        if len(batch) >= batch_size:
            pipeline.commit(batch, (source, _resume_at(pipeline, end)))
            batch = []
    pipeline.commit(batch, (source, _resume_at(pipeline, end)))
    return pipeline.report


def _resume_at(pipeline: Pipeline, offset: int) -> int:
    """Where a restart must read from: before any message still waiting for its other parts."""
    pending = pipeline.decoder.pending_start()
    return offset if pending is None else min(pending, offset)


def _report_to(progress: ProgressHook, pipeline: Pipeline) -> Callable[[], None]:
    return lambda: progress(pipeline.report)


class _Pace:
    """Sleeps so that recorded times pass ``speed`` times faster than the clock; with ``tick``,
    in slices of at most a second, calling ``tick`` after each (a long wait shows progress)."""

    def __init__(
        self,
        clock: Clock,
        speed: float,
        sleep: Callable[[float], None],
        tick: Callable[[], None] | None = None,
    ) -> None:
        self.clock, self.speed, self.sleep, self.tick = clock, speed, sleep, tick
        self.origin: tuple[float, float] | None = None

    def _delay(self, stamp: float) -> float:
        if self.speed <= 0:
            return 0.0
        if self.origin is None:
            self.origin = (stamp, self.clock.monotonic())
        due = self.origin[1] + (stamp - self.origin[0]) / self.speed
        return due - self.clock.monotonic()

    def wait_needed(self, stamp: float) -> bool:
        return self._delay(stamp) > 0.05

    def until(self, stamp: float) -> None:
        delay = self._delay(stamp)
        if self.tick is None:
            if delay > 0:
                self.sleep(delay)
            return
        while delay > 0:  # counted down, not read again from a clock that may stand still
            step = min(delay, 1.0)
            self.sleep(step)
            delay -= step
            self.tick()


def _line_time(line: bytes) -> float | None:
    """The ``c:`` time of a line's tag block, in UNIX seconds (None without one)."""
    found = _TAG_TIME.match(line)
    if found is None:
        return None
    value = float(found.group(1))
    return value / 1000.0 if value > 1e11 else value


def _first_time(path: Path) -> float | None:
    for line, _begin, _end in file_lines(path):
        stamp = _line_time(line)
        if stamp is not None:
            return stamp
    return None

"""The time a replayed report gets (issue 31: tag-less reports replayed beside a demo vessel were
all "stale"). A report's UTC second refines its receiver's time on that receiver's clock: a
live line's arrival, a tag block's recorded time (before a replay's shift); a line replayed
without a tag block is timed as read, and its second, broadcast whenever it was recorded, is
no part of that clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.decoding import SentenceDecoder
from sealane.feeds.ais.pipeline import replay_file
from sealane.store.database import transaction
from sealane.store.models import Vessel

from .support import T0, T0_S, at, line, sentence

MMSI = 244670316


def report(second: int, lat: float = 52.0) -> str:
    return sentence(type=1, mmsi=MMSI, lon=4.0, lat=lat, speed=4.0, course=0.0, second=second)


def test_live__a_line_is_timed_by_its_second_within_the_minute_it_arrived() -> None:
    out = SentenceDecoder().decode([line(report(10), T0_S + 30.5)])
    assert out.positions[0].time_s == T0_S + 10


def test_replay__a_line_without_a_tag_block_keeps_the_time_it_was_read() -> None:
    out = SentenceDecoder(received_live=False).decode([line(report(10), T0_S + 30.5)])
    assert out.positions[0].time_s == T0_S + 30.5


def test_replay__a_shifted_tag_block_time_is_refined_before_the_shift() -> None:
    """The report was fixed 2 s before it was received; the shift is not whole minutes."""
    shift = 86_400.0 + 1_234.5
    stamped = at(report(3), T0_S + 5)
    out = SentenceDecoder(shift_s=shift, received_live=False).decode([(stamped, 0.0, 0)])
    assert out.positions[0].time_s == T0_S + 3 + shift


class Ticking(ManualClock):
    """A clock that moves 10 ms each time it is read, as a real one moves between lines."""

    def now(self) -> datetime:
        self.advance(0.01)
        return super().now()


def test_replay__reports_without_tag_blocks_are_the_newest_the_vessel_has(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    """The vessel was last seen 30 s before the replay; its reports carry the seconds of the
    20 s before that (they were recorded some other day) and are all newer: the first is
    stored, the two after it, a few metres on, thinned, and the vessel is at the last."""
    clock = Ticking(T0 + timedelta(seconds=40))
    with transaction(sessions) as session:
        session.add(
            Vessel(
                name="Sealane Test",
                mmsi=str(MMSI),
                latitude=52.0,
                longitude=4.0,
                position_timestamp=T0 + timedelta(seconds=10),
            )
        )
    seconds = ((T0 + timedelta(seconds=10 - 20 + 10 * k)).second for k in range(3))
    lines = [report(second, lat=52.0 + 0.0002 * k) for k, second in enumerate(seconds)]
    path = tmp_path / "three.nmea"
    path.write_text("".join(text + "\n" for text in lines), encoding="ascii")
    done = replay_file(sessions, path, clock=clock, speed=0)
    assert not done.ingest.drops, done.summary()
    assert done.ingest.stored == 1 and done.ingest.thinned == 2
    with sessions() as session:
        vessel = session.scalars(select(Vessel)).one()
        assert vessel.position_timestamp is not None
        assert T0 + timedelta(seconds=40) < vessel.position_timestamp < clock.now()
        assert vessel.latitude == 52.0004

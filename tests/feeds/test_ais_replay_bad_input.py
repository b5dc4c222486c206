"""Bad input on the NMEA path stays harmless: a replayed file (and a live feed) with malformed
lines, message types sealane does not use, or one MMSI flooding it is counted and dropped, never
fatal, and the good reports around it are stored as if it were not there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.ingest import Ingestor
from sealane.feeds.ais.pipeline import Pipeline, RunReport, replay_file
from sealane.store.database import transaction
from sealane.store.models import Vessel, VesselPosition

from .support import T0, T0_S, at, sentence, sentences, with_checksum

MMSI = 244670316
#: Reports of the vessel, one a minute, sailing north at 6 kn (each is stored).
GOOD = [
    at(
        sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0 + k * 0.1 / 60, speed=6.0, course=0.0),
        T0_S + 60 * k,
    )
    for k in range(5)
]
PAYLOAD = sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0).split(",")[5]
#: Lines that are not usable NMEA, each with the reason it is counted under.
MALFORMED = [
    (b"", "malformed"),
    (b"hello, world", "malformed"),
    (b"\x00\xff\xfe\x80 binary junk \x1b[2J", "malformed"),
    (b"!AIVDM,1,1,,A," + PAYLOAD.encode(), "malformed"),  # no fill bits, no checksum
    (b"!AIVDM,1,1,,A," + PAYLOAD.encode() + b",0*00", "bad_checksum"),
    (with_checksum("!AIVDM,1,1,,A,1,0").encode(), "truncated"),
    (with_checksum(f"!AIVDM,1,1,,A,{PAYLOAD[:-3]}~~~,0").encode(), "malformed"),
    (with_checksum("!AIVDM,x,y,,A,,0").encode(), "malformed"),
    (with_checksum("!GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M").encode(), "malformed"),
    (b"\\c:1767225601*00\\", "malformed"),  # a tag block and nothing behind it
    (b"\\c:17672256" + b"9" * 5000 + b"\\" + PAYLOAD.encode(), "malformed"),
    (b"!" * 100_000, "malformed"),
]


def add_vessel(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        session.add(Vessel(name="Sealane Test", imo="9074729", mmsi=str(MMSI)))


def replay(sessions: sessionmaker[Session], path: Path, lines: list[bytes]) -> RunReport:
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return replay_file(sessions, path, clock=ManualClock(T0), speed=0, batch_size=7)


def stored(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(VesselPosition)) or 0


def test_replay__malformed_lines_are_counted_by_reason_and_skipped(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    add_vessel(sessions)
    bad = [line for line, _reason in MALFORMED]
    mixed = [GOOD[0], *bad[:7], GOOD[1], GOOD[2], *bad[7:], GOOD[3], GOOD[4]]
    report = replay(sessions, tmp_path / "bad.nmea", mixed)
    expected: dict[str, int] = {}
    for _line, reason in MALFORMED:
        expected[reason] = expected.get(reason, 0) + 1
    assert dict(report.ingest.drops) == expected
    assert report.sentences == len(mixed)
    assert report.ingest.stored == stored(sessions) == len(GOOD)


def test_replay__message_types_not_used_are_counted_and_ignored(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    add_vessel(sessions)
    other = [
        sentence(type=4, mmsi=2_442_000, lon=4.1, lat=52.1, year=2026, month=1, day=1),  # base
        sentence(type=21, mmsi=992_446_000, lon=4.2, lat=52.2, name="BUOY"),  # aid to navigation
        sentence(type=8, mmsi=MMSI, dac=1, fid=31, data=b"\x01\x02\x03\x04"),  # binary broadcast
        sentence(type=14, mmsi=MMSI, text="SAFETY"),  # safety broadcast
        with_checksum("!AIVDM,1,1,,A," + "w" * 28 + ",0"),  # type 63: no such message
    ]
    lines = [GOOD[0], *(at(line, T0_S + 30) for line in other), *GOOD[1:]]
    report = replay(sessions, tmp_path / "types.nmea", lines)
    assert report.ignored == len(other)
    assert not report.ingest.drops
    assert report.ingest.stored == stored(sessions) == len(GOOD)


def test_replay__a_flood_of_one_mmsi_is_thinned_not_stored(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    """Ten reports a second for ten minutes (6,000): a point a minute is kept."""
    add_vessel(sessions)
    flood = [
        at(
            sentence(
                type=1,
                mmsi=MMSI,
                lon=4.0,
                lat=52.0 + t * 6.0 / 3600 / 60,
                speed=6.0,
                course=0.0,
                second=int(t) % 60,
            ),
            T0_S + t,
        )
        for t in (k / 10 for k in range(6000))
    ]
    report = replay(sessions, tmp_path / "flood.nmea", flood)
    assert report.ingest.positions == 6000
    # tag-block times are whole seconds: ten reports share each, the nine after the first stale
    assert report.ingest.drops == {"stale": 5400}
    assert report.ingest.stored == stored(sessions) == 10
    assert report.ingest.thinned == 600 - 10
    assert report.ingest.vessels_moved <= report.batches


def test_replay__the_same_line_repeated_is_stored_once(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    add_vessel(sessions)
    report = replay(sessions, tmp_path / "repeat.nmea", [GOOD[0]] * 2000)
    assert report.ingest.stored == stored(sessions) == 1
    assert report.ingest.drops == {"stale": 1999}


def test_live_feed__bad_lines_and_a_flood_never_stop_it(sessions: sessionmaker[Session]) -> None:
    """The TCP/UDP path (``Pipeline.run_live``), lines timed as received: the same outcome."""
    add_vessel(sessions)
    clock = ManualClock(T0)

    def lines() -> list[bytes | None]:
        fed: list[bytes | None] = []
        for _round in range(5):
            fed += [line for line, _reason in MALFORMED]
            fed += [sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0, speed=0.0).encode()] * 50
            fed.append(None)  # an idle tick: the partial batch is committed
        return fed

    def ticking() -> Iterator[bytes | None]:
        for line in lines():
            if line is None:
                clock.advance(60.0)
            yield line

    pipeline = Pipeline(Ingestor(sessions, clock), batch_size=40)
    report = pipeline.run_live(ticking())
    assert report.sentences == 5 * (len(MALFORMED) + 50)
    drops = report.ingest.drops
    assert sum(drops.values()) - drops["stale"] == 5 * len(MALFORMED)
    # each round's 50 identical reports share one time: the first is kept, 49 are stale; a
    # vessel standing still keeps a point every ten minutes, so four of the five are thinned
    assert report.ingest.positions == 250 and drops["stale"] == 5 * 49
    assert report.ingest.stored == stored(sessions) == 1
    assert report.ingest.thinned == 4


def test_multi_sentence_parts_without_their_first_part_are_dropped(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    add_vessel(sessions)
    static = sentences(type=5, mmsi=MMSI, imo=9074729, shipname="SEALANE TEST")
    orphans = [static[1]] * 300  # second parts of a message whose first never came
    lines = [GOOD[0], *(at(line, T0_S + 1) for line in orphans), *GOOD[1:]]
    report = replay(sessions, tmp_path / "orphans.nmea", lines)
    assert report.ingest.stored == len(GOOD)
    assert report.ingest.statics == 0

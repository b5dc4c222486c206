"""Decoding and validating AIS sentences: a table of good and malformed input, never a crash."""

from __future__ import annotations

import pytest

from sealane.feeds.ais.decoding import SentenceDecoder, valid_imo
from sealane.feeds.ais.reports import Blank, Drop, PositionReport, StaticReport

from .support import T0_S, at, line, sentence, sentences, with_checksum

MMSI = 244670316
GOOD_1 = sentence(type=1, mmsi=MMSI, lon=4.1, lat=51.9, speed=12.3, course=87.5, heading=88)


def decode(*texts: str, time_s: float = T0_S) -> tuple[list[PositionReport], SentenceDecoder]:
    decoder = SentenceDecoder()
    out = decoder.decode([line(t, time_s) for t in texts])
    return out.positions, decoder


def one(text: str) -> tuple[list[PositionReport], dict[str, int], dict[str, int]]:
    out = SentenceDecoder().decode([line(text)])
    return out.positions, dict(out.drops), dict(out.blanks)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            dict(type=1, mmsi=MMSI, lon=4.1, lat=51.9, speed=12.3, course=87.5, heading=88),
            (4.1, 51.9, 12.3, 87.5, 88),
        ),
        (
            dict(type=2, mmsi=MMSI, lon=-74.0, lat=40.6, speed=0.0, course=0.0, heading=0),
            (-74.0, 40.6, 0.0, 0.0, 0),
        ),
        (
            dict(type=3, mmsi=MMSI, lon=179.99, lat=-33.9, speed=20.0, course=359.9, heading=359),
            (179.99, -33.9, 20.0, 359.9, 359),
        ),
        (
            dict(type=18, mmsi=MMSI, lon=103.8, lat=1.26, speed=8.0, course=45.0, heading=44),
            (103.8, 1.26, 8.0, 45.0, 44),
        ),
        (
            dict(type=19, mmsi=MMSI, lon=10.0, lat=54.0, speed=5.5, course=10.0, heading=12),
            (10.0, 54.0, 5.5, 10.0, 12),
        ),
        (
            dict(type=27, mmsi=MMSI, lon=4.1, lat=51.9, speed=12, course=87),
            (4.1, 51.9, 12.0, 87.0, None),
        ),
    ],
)
def test_position_types__decode_to_lon_lat_speed_course_heading(
    fields: dict[str, object], expected: tuple[object, ...]
) -> None:
    positions, drops, blanks = one(sentence(**fields))
    assert drops == {} and blanks == {}
    (report,) = positions
    lon, lat, speed, course, heading = expected
    assert report.mmsi == MMSI
    assert report.lon == pytest.approx(lon, abs=1e-4)
    assert report.lat == pytest.approx(lat, abs=1e-4)
    assert (report.speed_kn, report.course_deg, report.heading_deg) == (speed, course, heading)


@pytest.mark.parametrize(
    ("text", "drop"),
    [
        (GOOD_1[:-2] + ("00" if not GOOD_1.endswith("00") else "11"), Drop.BAD_CHECKSUM),
        (with_checksum(GOOD_1.split(",")[0] + ",1,1,,A,13aEOK?P1s0Bi;,0"), Drop.TRUNCATED),
        ("!AIVDM,1,1,,A", Drop.MALFORMED),
        ("hello world", Drop.MALFORMED),
        ("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47", Drop.MALFORMED),
        (with_checksum("!AIVDM,1,1,,A,1\x7f\x7f\x7f,0"), Drop.MALFORMED),
        (sentence(type=1, mmsi=MMSI, lon=181.0, lat=91.0), Drop.POSITION_UNAVAILABLE),
        (sentence(type=1, mmsi=MMSI, lon=4.0, lat=91.0), Drop.POSITION_UNAVAILABLE),
        (sentence(type=1, mmsi=MMSI, lon=-185.0, lat=10.0), Drop.POSITION_OUT_OF_RANGE),
        (sentence(type=1, mmsi=MMSI, lon=4.0, lat=-90.5), Drop.POSITION_OUT_OF_RANGE),
        (sentence(type=1, mmsi=12345, lon=4.0, lat=52.0), Drop.BAD_MMSI),
        (sentence(type=27, mmsi=MMSI, lon=181.0, lat=91.0), Drop.POSITION_UNAVAILABLE),
    ],
)
def test_bad_input__is_counted_and_dropped(text: str, drop: Drop) -> None:
    positions, drops, _ = one(text)
    assert positions == []
    assert drops == {drop: 1}


@pytest.mark.parametrize(
    ("fields", "blank"),
    [
        (dict(type=1, mmsi=MMSI, lon=4.0, lat=52.0, speed=102.3, heading=10), Blank.SPEED),
        (dict(type=1, mmsi=MMSI, lon=4.0, lat=52.0, speed=5, heading=511), Blank.HEADING),
        (dict(type=1, mmsi=MMSI, lon=4.0, lat=52.0, speed=5, course=360, heading=1), Blank.COURSE),
        (dict(type=18, mmsi=MMSI, lon=4.0, lat=52.0, speed=102.3, heading=1), Blank.SPEED),
        (dict(type=27, mmsi=MMSI, lon=4.0, lat=52.0, speed=63, course=5), Blank.SPEED),
        (dict(type=27, mmsi=MMSI, lon=4.0, lat=52.0, speed=6, course=511), Blank.COURSE),
    ],
)
def test_unavailable_values__are_blanked_and_counted_the_position_kept(
    fields: dict[str, object], blank: Blank
) -> None:
    positions, drops, blanks = one(sentence(**fields))
    assert drops == {} and blanks == {blank: 1}
    (report,) = positions
    field = {Blank.SPEED: "speed_kn", Blank.COURSE: "course_deg", Blank.HEADING: "heading_deg"}
    assert getattr(report, field[blank]) is None


def test_type5__two_sentences_reassembled_imo_learnt() -> None:
    parts = sentences(seq_id=3, type=5, mmsi=MMSI, imo=9074729, shipname="SEALANE TEST")
    assert len(parts) == 2
    out = SentenceDecoder().decode([line(p) for p in parts])
    unset = {"ship_type": 0, "to_bow_m": 0, "to_stern_m": 0, "to_port_m": 0, "to_starboard_m": 0}
    assert out.statics == [
        StaticReport(MMSI, T0_S, "9074729", "SEALANE TEST", None, None, draught_m=0.0, **unset)
    ]


def test_type5__parts_split_across_two_calls_are_joined() -> None:
    decoder = SentenceDecoder()
    first, second = sentences(seq_id=4, type=5, mmsi=MMSI, imo=9074729, shipname="X")
    assert decoder.decode([line(first, start=100)]).statics == []
    assert decoder.pending_start() == 100
    assert decoder.decode([line(second, start=180)]).statics[0].imo == "9074729"
    assert decoder.pending_start() is None


def test_type5__missing_part_counted_when_the_next_message_begins() -> None:
    first, _second = sentences(seq_id=5, type=5, mmsi=MMSI, imo=9074729)
    again, last = sentences(seq_id=5, type=5, mmsi=MMSI, imo=9074729)
    out = SentenceDecoder().decode([line(first), line(again), line(last)])
    assert out.drops == {Drop.FRAGMENT_MISSING: 1}
    assert len(out.statics) == 1


def test_type5__interleaved_messages_on_two_sequence_ids() -> None:
    a1, a2 = sentences(seq_id=1, type=5, mmsi=MMSI, imo=9074729)
    b1, b2 = sentences(seq_id=2, type=5, mmsi=MMSI + 1, imo=9811000)
    out = SentenceDecoder().decode([line(a1), line(b1), line(b2), line(a2)])
    assert sorted(s.imo for s in out.statics if s.imo) == ["9074729", "9811000"]


def test_type5__invalid_imo_check_digit_is_not_learnt() -> None:
    parts = sentences(seq_id=6, type=5, mmsi=MMSI, imo=9074720)
    out = SentenceDecoder().decode([line(p) for p in parts])
    assert out.statics[0].imo is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [(9074729, "9074729"), (9811000, "9811000"), (9074720, None), (0, None), (123, None)],
)
def test_valid_imo(value: int, expected: str | None) -> None:
    assert valid_imo(value) == expected


def test_type24__name_and_callsign_parts() -> None:
    name = sentence(type=24, mmsi=MMSI, partno=0, shipname="LITTLE ONE")
    call = sentence(type=24, mmsi=MMSI, partno=1, callsign="AB123")
    out = SentenceDecoder().decode([line(name), line(call)])
    assert [(s.name, s.callsign) for s in out.statics] == [("LITTLE ONE", None), (None, "AB123")]


def test_other_types__ignored_not_dropped() -> None:
    base_station = sentence(type=4, mmsi=2442000, lon=4.0, lat=52.0)
    out = SentenceDecoder().decode([line(base_station)])
    assert (out.ignored, dict(out.drops), out.positions) == (1, {}, [])


def test_tag_block_time__wins_over_the_receive_time() -> None:
    stamped = at(sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0, second=60), T0_S - 3600)
    out = SentenceDecoder().decode([(stamped, T0_S, 0)])
    assert out.positions[0].time_s == T0_S - 3600


def test_report_second__refines_the_receiver_time() -> None:
    received = T0_S + 30.7  # 12:00:30.7; the report says second 28
    report = sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0, second=28)
    assert decode(report, time_s=received)[0][0].time_s == T0_S + 28
    late = sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0, second=58)  # of the previous minute
    assert decode(late, time_s=received)[0][0].time_s == T0_S - 2


def test_shift__moves_tag_block_times() -> None:
    stamped = at(sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0, second=60), T0_S)
    out = SentenceDecoder(shift_s=86400.0).decode([(stamped, 0.0, 0)])
    assert out.positions[0].time_s == T0_S + 86400.0


def test_longitude_180__normalised_to_minus_180() -> None:
    assert decode(sentence(type=1, mmsi=MMSI, lon=180.0, lat=0.0))[0][0].lon == -180.0


def test_garbage_stream__never_raises() -> None:
    junk = [b"", b"\x00\xff\xfe", b"!AIVDM", b"!AIVDM,9,9,9,A,,0*00", b"\\c:abc*00\\!AIVDM"]
    junk += [GOOD_1.encode()[:n] for n in range(len(GOOD_1))]
    out = SentenceDecoder().decode([(j, T0_S, 0) for j in junk])
    assert out.sentences == len(junk)
    assert out.positions == []

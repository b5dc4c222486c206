"""Position reports read from pyais's bit vector, or from the one-sentence line itself: the same
values as pyais's own decoding, and every other line left to pyais."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyais import encode_dict
from pyais.messages import NMEASentenceFactory

from sealane.feeds.ais import decoding
from sealane.feeds.ais.framing import RunningXor
from sealane.feeds.ais.positionbits import KINDS, read_position, single_position
from sealane.feeds.ais.sample import demo_sample_path

FIELDS = ("mmsi", "speed", "lon", "lat", "course", "heading", "second")


def xor(line: bytes) -> int:
    """The checksum a sentence should carry, taken as the decoder takes it."""
    return RunningXor([line]).xor(1, line.index(b"*"))


def both(fields: dict[str, Any]) -> tuple[Any, Any]:
    """(ours, pyais's) for the message ``fields`` encodes; ours read both ways must agree."""
    kind = fields["type"]  # pyais's encoder reads the type from ``msg_type``
    line = encode_dict({**fields, "msg_type": kind}, sentence_type="VDM")[0].encode()
    sentence: Any = NMEASentenceFactory.produce(line)
    assert sentence.ais_id == kind
    ours = read_position(sentence.bv, kind)
    assert single_position(line, xor(line)) == (kind, ours)
    return ours, sentence.decode()


def assert_same(ours: Any, theirs: Any, kind: int) -> None:
    for name in FIELDS:
        mine, pyais_value = getattr(ours, name), getattr(theirs, name)
        assert mine == pyais_value and type(mine) is type(pyais_value), name
    assert ours.status == (15 if kind == 18 else int(theirs.status))


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(sorted(KINDS)),
    mmsi=st.integers(0, 2**30 - 1),
    status=st.integers(0, 15),
    speed=st.integers(0, 1023),
    lon=st.integers(-(2**27), 2**27 - 1),
    lat=st.integers(-(2**26), 2**26 - 1),
    course=st.integers(0, 4095),
    heading=st.integers(0, 511),
    second=st.integers(0, 63),
)
def test_read_position__equals_pyais_for_any_field_values(
    kind: int,
    mmsi: int,
    status: int,
    speed: int,
    lon: int,
    lat: int,
    course: int,
    heading: int,
    second: int,
) -> None:
    fields = {
        "type": kind,
        "mmsi": mmsi,
        "status": status,
        "speed": speed / 10,
        "lon": lon / 600_000,
        "lat": lat / 600_000,
        "course": course / 10,
        "heading": heading,
        "second": second,
    }
    ours, theirs = both(fields)
    assert (theirs.lon, theirs.lat) == (ours.lon, ours.lat)  # the raw values survived encoding
    assert_same(ours, theirs, kind)


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize(
    "values",
    [
        {"lon": 181, "lat": 91, "speed": 102.3, "course": 360, "heading": 511, "second": 60},
        {"lon": -180, "lat": -90, "speed": 0, "course": 0, "heading": 0, "second": 0},
        {"lon": 0.0, "lat": -0.0000017, "speed": 0.1, "course": 359.9, "heading": 359},
        {"lon": -0.0000017, "lat": 0.0000017, "speed": 102.2, "course": 409.5},
    ],
)
def test_read_position__not_available_and_edge_values(kind: int, values: dict[str, Any]) -> None:
    ours, theirs = both({"type": kind, "mmsi": 244670316, "status": 5, **values})
    assert_same(ours, theirs, kind)


def test_read_position__every_position_report_of_the_demo_sample() -> None:
    count = 0
    for raw in demo_sample_path().read_bytes().splitlines():
        sentence: Any = NMEASentenceFactory.produce(raw.split(b"\\")[-1])
        if sentence.ais_id in KINDS:
            kind = sentence.ais_id
            assert_same(read_position(sentence.bv, kind), sentence.decode(), kind)
            count += 1
    assert count > 1000


def sealed(sentence: bytes) -> bytes:
    """``sentence`` with the checksum it should carry."""
    return b"%s*%02X" % (sentence, RunningXor([sentence]).xor(1, len(sentence)))


TYPE_1 = b"!AIVDM,1,1,,A,15M67FC000G?ufbE`FepT@3n00Sa,0"


@pytest.mark.parametrize(
    "line",
    [
        sealed(b"!AIVDM,2,1,3,B,55?MbV02;H;s<HtKR20EHE:0@T4@Dn2222222216L961O5Gf0NSQEp6ClRp8,0"),
        sealed(b"!AIVDM,1,1,,A,H42O55i18tMET00000000000000,2"),  # type 24
        sealed(TYPE_1[:-1] + b"6"),  # fill bits out of range
        sealed(TYPE_1.replace(b"Sa,", b"S,")),  # 162 bits: truncated
        sealed(TYPE_1.replace(b"15M6", b"15~6")),  # not in the armour
        sealed(TYPE_1.replace(b",,A,", b",x,A,")),  # a sequence id that is no number
        sealed(TYPE_1.replace(b"!AIVDM", b"!BSVDM")),  # another talker: pyais decides
        sealed(TYPE_1) + b"\r",  # trailing bytes after the checksum
        sealed(TYPE_1).replace(b"*", b"*0"),  # a checksum of three digits
        sealed(TYPE_1 + b",x"),  # a field too many
    ],
)
def test_single_position__leaves_every_other_line_to_pyais(line: bytes) -> None:
    assert single_position(line, xor(line)) is None


def test_single_position__reads_the_line_only_with_the_checksum_it_carries() -> None:
    line = sealed(TYPE_1)
    kind, fields = single_position(line, xor(line)) or (0, None)
    assert (kind, fields) == (1, read_position(NMEASentenceFactory.produce(line).bv, 1))
    assert single_position(line, None) is None  # no checksum taken: pyais decides
    assert single_position(line, xor(line) ^ 1) is None


def test_decoder__the_demo_sample_decodes_the_same_without_the_one_sentence_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raw = demo_sample_path().read_bytes().splitlines()
    lines = [(line, 1_767_225_600.0, k) for k, line in enumerate(raw)]
    fast = decoding.SentenceDecoder().decode(lines)
    monkeypatch.setattr(decoding, "single_position", lambda _line, _xor: None)
    slow = decoding.SentenceDecoder().decode(lines)
    assert len(fast.positions) > 1000
    assert (fast.positions, fast.statics) == (slow.positions, slow.statics)
    assert (fast.drops, fast.blanks, fast.ignored) == (slow.drops, slow.blanks, slow.ignored)

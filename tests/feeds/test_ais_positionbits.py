"""Position reports read from pyais's bit vector: the same values as pyais's own decoding."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyais import encode_dict
from pyais.messages import NMEASentenceFactory

from sealane.feeds.ais.positionbits import KINDS, read_position
from sealane.feeds.ais.sample import demo_sample_path

FIELDS = ("mmsi", "speed", "lon", "lat", "course", "heading", "second")


def both(fields: dict[str, Any]) -> tuple[Any, Any]:
    """(ours, pyais's) for the message ``fields`` encodes."""
    text = encode_dict(fields, sentence_type="VDM")[0]
    sentence: Any = NMEASentenceFactory.produce(text.encode())
    return read_position(sentence.bv, fields["type"]), sentence.decode()


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

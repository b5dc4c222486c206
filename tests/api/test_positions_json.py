"""The API's positions JSON: the compiled renderer (``_positions_json.c``) against its numpy twin,
byte for byte, the records it writes, and its fixed-width and time helpers."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sealane
from sealane.api import positions_json
from sealane.api.positions_json import _fixed, _iso_seconds, _positions_json_numpy
from sealane.routing.positions import Positions
from sealane.routing.routes import Route
from tests.routing.test_positions import gulf_of_aden, made, pacific

_render = pytest.importorskip("sealane.api._positions_json")

Columns = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
RENDERERS: dict[str, Callable[..., bytes]] = {
    "compiled": _render.render,
    "numpy": _positions_json_numpy,
}
SECONDS_1900 = -2_208_988_800  # 1900-01-01T00:00:00Z
SECONDS_2200 = 7_258_118_400  # 2200-01-01T00:00:00Z
#: Largest error of a written value: half a unit of the last decimal, plus float noise.
LONLAT_TOLERANCE = 0.5e-6 + 1e-9
HEADING_TOLERANCE = 0.5e-2 + 1e-9


def degrees(low: float, high: float, specials: list[float]) -> st.SearchStrategy[float]:
    """Floats in [low, high]: arbitrary, on the half-micro-degree grid (ties), or special."""
    grid = st.integers(round(low * 2e6), round(high * 2e6)).map(lambda k: k / 2e6)
    return st.one_of(st.floats(low, high), grid, st.sampled_from(specials))


LATS = degrees(-90.0, 90.0, [-90.0, 90.0, -0.0, 0.0, -4e-7, -5e-7, -1.5e-6, 89.9999995])
LONS = degrees(
    -180.0, 180.0, [-180.0, 180.0, 179.9999995, 179.9999994, -179.9999995, -0.0, -4.9e-7]
)
HEADINGS = st.one_of(
    st.floats(0.0, 360.0, exclude_max=True),
    st.integers(0, 71_999).map(lambda k: k / 200),  # ties at the second decimal
    st.sampled_from([359.996, 359.995, 359.994999, 0.005, 0.125, 0.375, 99.995, 9.995]),
)
SECONDS = st.one_of(
    st.integers(SECONDS_1900, SECONDS_2200),
    st.sampled_from([-1, 0, 86_399, 86_400, 951_782_400, 951_868_799, SECONDS_1900]),
)


@st.composite
def columns(draw: st.DrawFn, min_size: int = 0) -> Columns:
    """Four equal-length columns: latitudes, longitudes, headings (float64), seconds (int64)."""
    n = draw(st.integers(min_size, 30))
    return (
        np.array(draw(st.lists(LATS, min_size=n, max_size=n)), dtype=np.float64),
        np.array(draw(st.lists(LONS, min_size=n, max_size=n)), dtype=np.float64),
        np.array(draw(st.lists(HEADINGS, min_size=n, max_size=n)), dtype=np.float64),
        np.array(draw(st.lists(SECONDS, min_size=n, max_size=n)), dtype=np.int64),
    )


@cache
def dummy_route() -> Route:
    return sealane.route("NLRTM", "BEANR")


def as_positions(
    lats: np.ndarray, lons: np.ndarray, headings: np.ndarray, seconds: np.ndarray
) -> Positions:
    times = seconds.astype("datetime64[s]").astype("datetime64[ms]")
    return Positions(lons, lats, headings, times, dummy_route(), speed_kn=18.0, step_s=60.0)


def circular_gap(a: np.ndarray, b: np.ndarray, period: float) -> np.ndarray:
    """|a - b| on a circle of ``period`` (-180 and 179.9999996 are 4e-7 apart)."""
    gap: np.ndarray = np.abs((a - b + period / 2) % period - period / 2)
    return gap


# --- the compiled renderer against the twin ------------------------------------------------------


def test_render__compiled_renderer_is_in_use() -> None:
    assert positions_json._render_json is _render.render


@settings(max_examples=200, deadline=None)
@given(data=columns(), head=st.binary(max_size=8), tail=st.binary(max_size=8))
def test_render__matches_numpy(data: Columns, head: bytes, tail: bytes) -> None:
    assert _render.render(*data, head, tail) == _positions_json_numpy(*data, head, tail)


def test_render__matches_numpy_on_a_long_track() -> None:
    # Thousands of rows a minute apart: the compiled date cache across days, months and years.
    rng = np.random.default_rng(5)
    n = 20_000
    lats = rng.uniform(-90.0, 90.0, n)
    lons = rng.uniform(-180.0, 180.0, n)
    headings = rng.uniform(0.0, 360.0, n)
    seconds = 1_798_675_200 - 10_000 * 60 + 60 * np.arange(n, dtype=np.int64)  # over 2027-01-01
    compiled = _render.render(lats, lons, headings, seconds, b"", b"")
    assert compiled == _positions_json_numpy(lats, lons, headings, seconds, b"", b"")
    assert b'"timestamp":"2026-12-31T23:59:00Z"' in compiled
    assert b'"timestamp":"2027-01-01T00:00:00Z"' in compiled


# (column, value, expected field text): ties round half to even, like np.rint.
ROUNDING = [
    ("lon", 179.9999995, b"-180.000000"),  # rounds to 180: written as -180, like the columns
    ("lon", 179.9999994, b" 179.999999"),
    ("lon", -0.0, b"   0.000000"),
    ("lon", -4e-7, b"   0.000000"),  # rounds to zero: no minus sign
    ("lat", -5e-7, b"   0.000000"),  # half to even
    ("lat", -1.5e-6, b"  -0.000002"),
    ("lat", -9.5, b"  -9.500000"),
    ("lat", -90.0, b" -90.000000"),
    ("heading", 359.996, b"   0.00"),  # rounds to 360, written as 0
    ("heading", 0.125, b"   0.12"),
    ("heading", 0.375, b"   0.38"),
    ("heading", 12.5, b"  12.50"),
    ("heading", -90.0, b" 270.00"),  # outside [0, 360): numpy's remainder, sign of the divisor
    ("heading", -0.004, b"   0.00"),
    ("heading", 720.25, b"   0.25"),
]


@pytest.mark.parametrize(("column", "value", "expected"), ROUNDING)
@pytest.mark.parametrize("renderer", RENDERERS)
def test_render__rounding_golden(column: str, value: float, expected: bytes, renderer: str) -> None:
    values = {"lat": 0.0, "lon": 0.0, "heading": 0.0} | {column: value}
    text = RENDERERS[renderer](
        np.array([values["lat"]]),
        np.array([values["lon"]]),
        np.array([values["heading"]]),
        np.zeros(1, dtype=np.int64),
        b"",
        b"",
    )
    key = {"lat": b'"latitude":', "lon": b'"longitude":', "heading": b'"heading":'}[column]
    start = text.index(key) + len(key)
    assert text[start : start + len(expected)] == expected
    assert text[start + len(expected) : start + len(expected) + 1] == b","


@pytest.mark.parametrize("renderer", RENDERERS)
def test_render__empty(renderer: str) -> None:
    empty = np.zeros(0)
    no_seconds = np.zeros(0, dtype=np.int64)
    assert RENDERERS[renderer](empty, empty, empty, no_seconds, b"", b"") == b"[]"
    assert RENDERERS[renderer](empty, empty, empty, no_seconds, b'{"a":', b"}") == b'{"a":[]}'


@pytest.mark.parametrize("renderer", RENDERERS)
def test_render__head_and_tail_splice(renderer: str) -> None:
    head, tail = b'{"data":{"positions":', b',"count":2},"links":{}}'
    one = np.array([1.0, 2.0])
    text = RENDERERS[renderer](one, one, one, np.array([0, 60]), head, tail)
    assert text.startswith(head + b'[{"latitude":')
    assert text.endswith(b'"estimated":true}]' + tail)
    document = json.loads(text)
    assert document["data"]["count"] == 2
    assert [p["timestamp"] for p in document["data"]["positions"]] == [
        "1970-01-01T00:00:00Z",
        "1970-01-01T00:01:00Z",
    ]


def test_render__to_json_splices_head_and_tail() -> None:
    data = (np.array([2.0]), np.array([1.0]), np.array([3.0]), np.array([0]))
    spliced = positions_json.positions_json(as_positions(*data), head=b"[", tail=b"]")
    assert spliced == b"[" + _positions_json_numpy(*data, b"", b"") + b"]"


# --- the JSON against the records ----------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(data=columns(min_size=1))
def test_render__json_matches_records(data: Columns) -> None:
    track = as_positions(*data)
    decoded: list[dict[str, Any]] = json.loads(positions_json.positions_json(track))
    records = track.to_records()
    assert [list(d) for d in decoded] == [list(r) for r in records]
    assert [d["timestamp"] for d in decoded] == [r["timestamp"] for r in records]
    assert all(d["estimated"] is True for d in decoded)

    def column(rows: list[dict[str, Any]], key: str) -> np.ndarray:
        return np.array([row[key] for row in rows])

    lat_gap = np.abs(column(decoded, "latitude") - column(records, "latitude"))
    lon_gap = circular_gap(column(decoded, "longitude"), column(records, "longitude"), 360.0)
    heading_gap = circular_gap(column(decoded, "heading"), column(records, "heading"), 360.0)
    assert lat_gap.max() <= LONLAT_TOLERANCE
    assert lon_gap.max() <= LONLAT_TOLERANCE
    assert heading_gap.max() <= HEADING_TOLERANCE
    assert np.all((column(decoded, "longitude") >= -180.0) & (column(decoded, "longitude") < 180))
    assert np.all((column(decoded, "heading") >= 0.0) & (column(decoded, "heading") < 360.0))


# --- bad input -----------------------------------------------------------------------------------

GOOD = np.zeros(3)
GOOD_SECONDS = np.zeros(3, dtype=np.int64)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((GOOD.astype(np.float32), GOOD, GOOD, GOOD_SECONDS), TypeError, "lats must be float64"),
        ((GOOD, GOOD, GOOD.astype(">f8"), GOOD_SECONDS), TypeError, "headings must be float64"),
        ((GOOD, GOOD, GOOD, GOOD_SECONDS.astype(np.int32)), TypeError, "seconds must be int64"),
        ((GOOD, GOOD, GOOD, GOOD), TypeError, "seconds must be int64"),
        (([0.0] * 3, GOOD, GOOD, GOOD_SECONDS), TypeError, "bytes-like"),
        ((GOOD, GOOD[:2], GOOD, GOOD_SECONDS), ValueError, "lons has 2 values but lats has 3"),
        ((GOOD, GOOD, GOOD, GOOD_SECONDS[:1]), ValueError, "seconds has 1 values"),
        ((np.zeros((3, 1)), GOOD, GOOD, GOOD_SECONDS), ValueError, "one-dimensional"),
        ((np.zeros(6)[::2], GOOD, GOOD, GOOD_SECONDS), ValueError, "contiguous"),
    ],
    ids=[
        "float32",
        "big-endian",
        "int32-seconds",
        "float-seconds",
        "list",
        "short-lons",
        "short-seconds",
        "two-dimensional",
        "strided",
    ],
)
def test_render__bad_columns(args: tuple[Any, ...], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        _render.render(*args, b"", b"")


def test_render__bad_head() -> None:
    with pytest.raises(TypeError):
        _render.render(GOOD, GOOD, GOOD, GOOD_SECONDS, "head", b"")


def test_numpy__columns_differ_in_length() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        _positions_json_numpy(GOOD, GOOD[:2], GOOD, GOOD_SECONDS, b"", b"")


# (column, value, message): values with no text are refused by both renderers.
UNWRITABLE = [
    ("lat", np.nan, "row 1: latitude is NaN"),
    ("lon", np.nan, "row 1: longitude is NaN"),
    ("heading", np.nan, "row 1: heading is NaN or infinite"),
    ("heading", np.inf, "row 1: heading is NaN or infinite"),
    ("seconds", 253_402_300_800, "year is outside 0000-9999"),  # 10000-01-01
    ("seconds", -62_167_219_201, "year is outside 0000-9999"),  # the second before 0000-01-01
    ("seconds", np.iinfo(np.int64).min, "year is outside 0000-9999"),  # NaT
]


@pytest.mark.parametrize(("column", "value", "match"), UNWRITABLE)
@pytest.mark.parametrize("renderer", RENDERERS)
def test_render__unwritable_value(column: str, value: float, match: str, renderer: str) -> None:
    data = {"lat": GOOD.copy(), "lon": GOOD.copy(), "heading": GOOD.copy()}
    seconds = GOOD_SECONDS.copy()
    if column == "seconds":
        seconds[1] = value
    else:
        data[column][1] = value
    with pytest.raises(ValueError, match=match):
        RENDERERS[renderer](data["lat"], data["lon"], data["heading"], seconds, b"", b"")


@pytest.mark.parametrize("renderer", RENDERERS)
def test_render__extreme_values_clamp(renderer: str) -> None:
    # Four digits of year at both ends; infinite coordinates clamp to the widest number.
    seconds = np.array([-62_167_219_200, 253_402_300_799])  # 0000-01-01, 9999-12-31T23:59:59
    lats, lons = np.array([np.inf, -np.inf]), np.array([-np.inf, 1e300])
    text = RENDERERS[renderer](lats, lons, np.zeros(2), seconds, b"", b"")
    assert text == _render.render(lats, lons, np.zeros(2), seconds, b"", b"")
    first, second = json.loads(text)
    assert (first["latitude"], first["longitude"]) == (999.999999, -999.999999)
    assert (second["latitude"], second["longitude"]) == (-999.999999, 999.999999)
    assert (first["timestamp"], second["timestamp"]) == (
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
    )


# --- the records, from the engine's columns -----------------------------------------------------


@pytest.mark.parametrize("which", ["gulf-of-aden", "pacific", "hourly"])
def test_positions__to_json_matches_records(which: str) -> None:
    positions = (
        pacific() if which == "pacific" else gulf_of_aden(3600.0 if which == "hourly" else 60.0)
    )
    decoded = json.loads(positions_json.positions_json(positions))
    records = positions.to_records()
    assert len(decoded) == len(records)
    assert [d["timestamp"] for d in decoded] == [r["timestamp"] for r in records]
    assert all(d["estimated"] is True for d in decoded)
    assert list(decoded[0]) == list(records[0])
    np.testing.assert_allclose(
        [d["latitude"] for d in decoded], [r["latitude"] for r in records], rtol=0, atol=1e-6
    )
    np.testing.assert_allclose(
        [d["longitude"] for d in decoded], [r["longitude"] for r in records], rtol=0, atol=1e-6
    )
    np.testing.assert_allclose(
        [d["heading"] for d in decoded], [r["heading"] for r in records], rtol=0, atol=0.005
    )


def test_positions__to_json_fixed_width() -> None:
    text = positions_json.positions_json(
        made([-179.5, 4.0, 0.0], [-45.25, 51.9, 0.0], [0.0, 359.5, 90.0])
    )
    assert text.startswith(b'[{"latitude":')
    assert text.endswith(b'"estimated":true}]')
    rows = text[1:-2].split(b"},")
    assert len({len(row) for row in rows}) == 1
    assert rows[0].startswith(b'{"latitude": -45.250000,"longitude":-179.500000,"heading":   0.00,')
    assert b'"latitude":  51.900000,"longitude":   4.000000,"heading": 359.50,' in rows[1]
    assert positions_json.positions_json(made([1.0], [2.0], [3.0])) == (
        b'[{"latitude":   2.000000,"longitude":   1.000000,"heading":   3.00,'
        b'"timestamp":"2026-11-21T12:00:00Z","estimated":true}]'
    )


def test_positions__to_json_heading_below_360() -> None:
    (record,) = json.loads(positions_json.positions_json(made([0.0], [0.0], [359.999])))
    assert 0.0 <= record["heading"] < 360.0


def test_positions__to_json_longitude_below_180() -> None:
    # 179.9999999 rounds to 180.000000 at six decimals: written as -180, like the columns.
    decoded = json.loads(
        positions_json.positions_json(made([179.9999999, 179.9999994], [0.0, 0.0], [90.0, 90.0]))
    )
    assert [record["longitude"] for record in decoded] == [-180.0, 179.999999]


# --- _fixed --------------------------------------------------------------------------------------

# (value, int_digits, decimals, expected text)
FIXED = [
    (-4.25, 3, 2, "  -4.25"),
    (4.25, 3, 2, "   4.25"),
    (0.0, 3, 2, "   0.00"),
    (-0.0, 2, 6, "  0.000000"),
    (-0.0000001, 2, 6, "  0.000000"),  # rounds to zero: no minus sign
    (-0.0000005, 2, 6, "  0.000000"),  # half to even
    (-0.0000015, 2, 6, " -0.000002"),
    (0.5, 2, 6, "  0.500000"),
    (179.9999999, 3, 6, " 180.000000"),
    (-179.9999999, 3, 6, "-180.000000"),
    (-180.0, 3, 6, "-180.000000"),
    (123.0, 3, 2, " 123.00"),
    (-123.456, 3, 2, "-123.46"),
    (100.0, 3, 2, " 100.00"),
    (90.0, 2, 6, " 90.000000"),
    (-90.0, 2, 6, "-90.000000"),
    (-9.5, 2, 6, " -9.500000"),
    (12.3, 2, 6, " 12.300000"),
]


@pytest.mark.parametrize(("value", "int_digits", "decimals", "expected"), FIXED)
def test_fixed__golden(value: float, int_digits: int, decimals: int, expected: str) -> None:
    (row,) = _fixed(np.array([value]), int_digits, decimals)
    assert bytes(row).decode() == expected
    assert len(row) == 1 + int_digits + 1 + decimals
    assert float(expected) == pytest.approx(value, abs=0.5 * 10**-decimals + 1e-12)


def test_fixed__matches_format() -> None:
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.uniform(-180.0, 180.0, 2_000), rng.uniform(-1.0, 1.0, 500)])
    rows = _fixed(values, 3, 6)
    for value, row in zip(values.tolist(), rows, strict=True):
        assert float(bytes(row)) == pytest.approx(value, abs=5e-7 + 1e-12)
        assert bytes(row).decode().strip() == f"{value:.6f}".replace("-0.000000", "0.000000")


# --- _iso_seconds --------------------------------------------------------------------------------

ISO_TIMES = [
    "1970-01-01T00:00:00",  # the epoch
    "2024-02-29T12:34:56",  # leap day
    "2000-02-29T23:59:59",  # leap day of a year divisible by 400
    "2000-03-01T00:00:00",
    "1900-03-01T00:00:00",  # 1900 was not a leap year
    "2026-12-31T23:59:59.999",  # end of year, milliseconds truncated
    "2027-01-01T00:00:00.001",
    "1969-12-31T23:59:59.500",  # before the epoch
    "0001-01-01T00:00:00",
    "9999-12-31T23:59:59",
]


@pytest.mark.parametrize("moment", ISO_TIMES)
def test_iso_seconds__golden(moment: str) -> None:
    times = np.array([moment], dtype="datetime64[ms]")
    (row,) = _iso_seconds(times)
    expected = np.datetime_as_string(times.astype("datetime64[s]"), timezone="UTC")[0]
    assert bytes(row).decode() == expected
    assert bytes(row).decode() == moment[:19] + "Z"


def test_iso_seconds__matches_numpy() -> None:
    rng = np.random.default_rng(11)
    millis = rng.integers(-2_208_988_800_000, 4_102_444_800_000, 5_000)  # 1900 to 2100
    times = millis.astype("datetime64[ms]")
    text = [bytes(row).decode() for row in _iso_seconds(times)]
    assert text == np.datetime_as_string(times.astype("datetime64[s]"), timezone="UTC").tolist()

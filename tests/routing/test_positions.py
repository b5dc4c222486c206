"""Tests of ``Positions``: records, the fixed-width JSON writer and its helpers, GeoJSON."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from functools import cache

import numpy as np
import pytest

import sealane
from sealane.routing.placement import Track
from sealane.routing.positions import Positions
from sealane.routing.positions_json import _fixed, _iso_seconds, positions_json
from sealane.routing.voyage import future_positions

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


@cache
def gulf_of_aden(step_s: float = 60.0) -> Positions:
    return future_positions(
        (60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18, start_time=T0, step_s=step_s
    )


@cache
def pacific() -> Positions:
    return future_positions((170.0, 40.0), "JPYOK", "USLGB", speed_kn=14, start_time=T0)


def made(
    lons: list[float], lats: list[float], headings: list[float], start: datetime = T0
) -> Positions:
    """Positions from explicit columns, one minute apart, on a dummy route."""
    track = Track(
        np.array(lons, dtype=np.float64),
        np.array(lats, dtype=np.float64),
        np.array(headings, dtype=np.float64),
        step_m=555.6,
        final_m=555.6,
    )
    return Positions.from_track(
        track, route=sealane.route("NLRTM", "BEANR"), speed_kn=18.0, step_s=60.0, start_time=start
    )


# --- columns -------------------------------------------------------------------------------------


def test_positions__columns_read_only() -> None:
    positions = gulf_of_aden()
    for column in (positions.lons, positions.lats, positions.headings_deg, positions.times):
        assert not column.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            column[0] = column[1]


def test_positions__start_time_and_eta() -> None:
    positions = gulf_of_aden()
    assert positions.start_time == T0
    assert positions.eta.tzinfo is not None and positions.eta.utcoffset().total_seconds() == 0
    assert positions.eta == positions.times[-1].astype("datetime64[ms]").item().replace(tzinfo=UTC)


def test_positions__timestamps_format() -> None:
    stamps = gulf_of_aden().timestamps()
    assert stamps[0] == "2026-11-21T12:00:00Z"
    assert stamps[1] == "2026-11-21T12:01:00Z"
    assert all(STAMP.match(stamp) for stamp in stamps)


# --- records and JSON ----------------------------------------------------------------------------


def test_positions__to_records_fields_and_types() -> None:
    records = gulf_of_aden().to_records()
    assert len(records) == len(gulf_of_aden())
    first = records[0]
    assert list(first) == ["latitude", "longitude", "heading", "timestamp", "estimated"]
    assert first["latitude"] == 12.3 and first["longitude"] == 60.1
    assert first["timestamp"] == "2026-11-21T12:00:00Z"
    for record in records[:: max(1, len(records) // 50)] + records[-1:]:
        assert type(record["latitude"]) is float
        assert type(record["longitude"]) is float
        assert type(record["heading"]) is float
        assert type(record["timestamp"]) is str
        assert record["estimated"] is True


@pytest.mark.parametrize("which", ["gulf-of-aden", "pacific", "hourly"])
def test_positions__to_json_matches_records(which: str) -> None:
    positions = (
        pacific() if which == "pacific" else gulf_of_aden(3600.0 if which == "hourly" else 60.0)
    )
    decoded = json.loads(positions.to_json())
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
    text = made([-179.5, 4.0, 0.0], [-45.25, 51.9, 0.0], [0.0, 359.5, 90.0]).to_json()
    assert text.startswith(b'[{"latitude":')
    assert text.endswith(b'"estimated":true}]')
    rows = text[1:-2].split(b"},")
    assert len({len(row) for row in rows}) == 1
    assert rows[0].startswith(b'{"latitude": -45.250000,"longitude":-179.500000,"heading":   0.00,')
    assert b'"latitude":  51.900000,"longitude":   4.000000,"heading": 359.50,' in rows[1]
    assert positions_json(made([1.0], [2.0], [3.0])) == (
        b'[{"latitude":   2.000000,"longitude":   1.000000,"heading":   3.00,'
        b'"timestamp":"2026-11-21T12:00:00Z","estimated":true}]'
    )


def test_positions__to_json_heading_below_360() -> None:
    (record,) = json.loads(made([0.0], [0.0], [359.999]).to_json())
    assert 0.0 <= record["heading"] < 360.0


def test_positions__to_json_longitude_below_180() -> None:
    # 179.9999999 rounds to 180.000000 at six decimals: written as -180, like the columns.
    decoded = json.loads(made([179.9999999, 179.9999994], [0.0, 0.0], [90.0, 90.0]).to_json())
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


# --- GeoJSON -------------------------------------------------------------------------------------


def test_positions__to_geojson_properties() -> None:
    positions = gulf_of_aden()
    feature = positions.to_geojson()
    json.dumps(feature)  # serialisable as it is
    assert feature["type"] == "Feature"
    assert feature["geometry"]["type"] == "LineString"
    properties = feature["properties"]
    assert properties["eta"] == positions.timestamps()[-1]
    assert properties["start_time"] == "2026-11-21T12:00:00Z"
    assert properties["speed_kn"] == 18.0
    assert properties["step_s"] == 60.0
    assert properties["positions"] == len(positions)
    assert properties["distance_remaining_nm"] == positions.distance_remaining_nm
    assert properties["passages"] == ["babalmandab", "suez", "gibraltar", "dover", "maas"]
    coordinates = feature["geometry"]["coordinates"]
    assert len(coordinates) == len(positions)
    assert coordinates[0] == [60.1, 12.3]


def test_positions__to_geojson_antimeridian() -> None:
    feature = pacific().to_geojson()
    geometry = feature["geometry"]
    assert geometry["type"] == "MultiLineString"
    west, east = geometry["coordinates"]
    assert west[-1][0] == 180.0 and east[0][0] == -180.0
    assert west[-1][1] == east[0][1]
    assert sum(len(part) for part in geometry["coordinates"]) == len(pacific()) + 2
    assert feature["properties"]["positions"] == len(pacific())


def test_timestamps__an_arrival_just_after_a_whole_step_reads_later() -> None:
    """Regression: an arrival 0.332 s after the last whole minute printed as that minute, so two
    positions shared a timestamp (the API's last interval was zero). 3.07 m at 18 kn is 0.332 s."""
    track = Track(
        np.array([4.0, 4.005, 4.01]),
        np.array([52.0, 52.0, 52.0]),
        np.array([90.0, 90.0, 90.0]),
        step_m=555.6,
        final_m=3.07,
    )
    positions = Positions.from_track(
        track, route=sealane.route("NLRTM", "BEANR"), speed_kn=18.0, step_s=60.0, start_time=T0
    )
    assert positions.times[-1] - positions.times[-2] == np.timedelta64(332, "ms")
    assert positions.timestamps()[1:] == ["2026-11-21T12:01:00Z", "2026-11-21T12:01:01Z"]

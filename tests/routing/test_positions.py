"""Tests of ``Positions``: columns, records, GeoJSON (its JSON wire format is the API's:
``tests/api/test_positions_json.py``)."""

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


# --- records ------------------------------------------------------------------------------------


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
    # A wait (Suez's convoy) holds positions on one point: the line has it once.
    moved = (np.diff(positions.lons) != 0) | (np.diff(positions.lats) != 0)
    assert len(coordinates) == 1 + int(moved.sum()) < len(positions)
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

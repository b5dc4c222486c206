"""A JSON batch of positions (POST /v2/vessel_positions): typed values, or errors by pointer."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.batch import MAX_POSITIONS, BatchInvalid, parse_batch
from sealane.feeds.ais.ingest import ingest_batch
from sealane.feeds.ais.reports import PositionReport, StaticReport
from sealane.feeds.ais.statics import POSITION_FEED, VesselStatic
from sealane.store.database import transaction
from sealane.store.models import Vessel

from .support import T0, T0_S

GOOD = {
    "mmsi": "636019825",
    "latitude": 51.9,
    "longitude": 4.1,
    "timestamp": "2026-11-21T11:59:00Z",
    "speed_knots": 12.5,
    "course_degrees": 87.5,
    "heading_degrees": 88,
    "navigational_status": 0,
}


def pointers(document: Any) -> list[str]:
    with pytest.raises(BatchInvalid) as caught:
        parse_batch(document, T0)
    return [e.pointer for e in caught.value.errors]


def test_parse_batch__typed_reports() -> None:
    batch = parse_batch({"data": [GOOD, {**GOOD, "mmsi": 244670316, "imo": "9074729"}]}, T0)
    assert batch.positions[0] == PositionReport(
        636019825, T0_S - 60, 4.1, 51.9, 12.5, 87.5, 88.0, 0
    )
    assert batch.statics == [StaticReport(244670316, T0_S - 60, imo="9074729")]


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"latitude": 91}, "/data/1/latitude"),
        ({"latitude": None}, "/data/1/latitude"),
        ({"longitude": -180.5}, "/data/1/longitude"),
        ({"longitude": "4.1"}, "/data/1/longitude"),
        ({"speed_knots": 102.3}, "/data/1/speed_knots"),
        ({"heading_degrees": 511}, "/data/1/heading_degrees"),
        ({"course_degrees": 360}, "/data/1/course_degrees"),
        ({"navigational_status": 16}, "/data/1/navigational_status"),
        ({"mmsi": "12345"}, "/data/1/mmsi"),
        ({"mmsi": True}, "/data/1/mmsi"),
        ({"timestamp": "2026-11-21 12:00"}, "/data/1/timestamp"),
        ({"timestamp": "2026-11-21T13:00:00Z"}, "/data/1/timestamp"),
        ({"imo": "9074720"}, "/data/1/imo"),
        ({"latitude": float("nan")}, "/data/1/latitude"),
        ({"navigational_status": 2.5}, "/data/1/navigational_status"),
        ({"timestamp": "20260301T000000+0000"}, "/data/1/timestamp"),
        ({"timestamp": "2026-03-01 00:00:00+00:00"}, "/data/1/timestamp"),
        ({"draught_meters": 0}, "/data/1/draught_meters"),
        ({"beam_meters": 80.5}, "/data/1/beam_meters"),
        ({"length_meters": "300"}, "/data/1/length_meters"),
        ({"length_meters": float("inf")}, "/data/1/length_meters"),
    ],
)
def test_parse_batch__each_bad_field_named(change: dict[str, Any], pointer: str) -> None:
    assert pointers({"data": [GOOD, {**GOOD, **change}]}) == [pointer]


@pytest.mark.parametrize(
    ("document", "pointer"),
    [
        ([GOOD], "/data"),
        ({"data": GOOD}, "/data"),
        ({"data": []}, "/data"),
        ({"data": [GOOD] * (MAX_POSITIONS + 1)}, "/data"),
        ({"data": [GOOD, "x"]}, "/data/1"),
    ],
)
def test_parse_batch__bad_shape(document: Any, pointer: str) -> None:
    assert pointers(document) == [pointer]


def resource(attributes: dict[str, Any]) -> dict[str, Any]:
    return {"type": "vessel_position", "attributes": attributes}


def test_parse_batch__optional_fields_may_be_null() -> None:
    nulls = {"speed_knots": None, "course_degrees": None, "navigational_status": None, "imo": None}
    batch = parse_batch({"data": [{**GOOD, **nulls}]}, T0)
    assert batch.positions[0].speed_kn is None and not batch.statics


def test_parse_batch__sizes_given_become_position_feed_statics() -> None:
    sized = {**GOOD, "mmsi": 244670316, "length_meters": 299.9, "draught_meters": 13}
    batch = parse_batch({"data": [{**GOOD, "beam_meters": None}, sized]}, T0)
    assert batch.sizes == [
        VesselStatic(
            244670316, T0_S - 60, POSITION_FEED, length_m=299.9, beam_m=None, draught_m=13.0
        )
    ]


def test_parse_batch__bad_size_named_after_the_item_other_errors() -> None:
    bad = {**GOOD, "latitude": 91, "beam_meters": -5}
    assert pointers({"data": [bad]}) == ["/data/0/latitude", "/data/0/beam_meters"]


def test_parse_batch__resource_objects_read_like_bare_items() -> None:
    mixed = parse_batch({"data": [resource(GOOD), {**GOOD, "mmsi": "244670316"}]}, T0)
    bare = parse_batch({"data": [GOOD, {**GOOD, "mmsi": "244670316"}]}, T0)
    assert mixed == bare


@pytest.mark.parametrize(
    ("item", "pointer"),
    [
        (resource({**GOOD, "latitude": 91}), "/data/0/attributes/latitude"),
        ({"type": "vessel", "attributes": GOOD}, "/data/0/type"),
        ({"attributes": GOOD}, "/data/0/type"),
        ({"type": "vessel_position", "attributes": [GOOD]}, "/data/0/attributes"),
        ({"type": "vessel_position"}, "/data/0/attributes"),
    ],
)
def test_parse_batch__bad_resource_object_named(item: dict[str, Any], pointer: str) -> None:
    assert pointers({"data": [item]}) == [pointer]


def test_parse_batch__every_error_listed() -> None:
    bad = {"data": [{**GOOD, "latitude": 95}, GOOD, {**GOOD, "mmsi": "x", "longitude": 200}]}
    assert pointers(bad) == ["/data/0/latitude", "/data/2/mmsi", "/data/2/longitude"]


def test_parse_batch__then_ingest(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        session.add(Vessel(name="Sealane Aurora", imo="9811000", mmsi="636019825"))
    batch = parse_batch({"data": [GOOD, {**GOOD, "timestamp": "2026-11-21T12:00:00Z"}]}, T0)
    report = ingest_batch(sessions, batch.positions, ManualClock(T0), batch.statics)
    assert (report.positions, report.stored, report.vessels_moved) == (2, 2, 1)


def test_ingest_document__validates_then_stores(sessions: sessionmaker[Session]) -> None:
    from sealane.feeds.ais.ingest import ingest_document

    with transaction(sessions) as session:
        session.add(Vessel(name="Sealane Aurora", imo="9811000", mmsi="636019825"))
    with pytest.raises(BatchInvalid):
        ingest_document(sessions, {"data": [GOOD, {**GOOD, "latitude": 99}]}, ManualClock(T0))
    report = ingest_document(sessions, {"data": [GOOD]}, ManualClock(T0))
    assert report.counts()["stored"] == 1
    assert "dropped_stale" not in report.counts()

"""AISStream's JSON messages to reports: the same values and the same rules as the NMEA decoder,
and every kind of bad message counted under its reason, never raised."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from sealane.feeds.ais.aisstream_messages import decode_messages, server_error
from sealane.feeds.ais.decoding import SentenceDecoder
from sealane.feeds.ais.reports import Blank, Drop, PositionReport, StaticReport, eta_time_s

from .aisstream_support import (
    class_b,
    envelope,
    extended_class_b,
    position,
    position_body,
    ship_static,
    static_report,
)
from .support import T0_S, line, sentence

MMSI = 244670316


def one(text: str, received_s: float = T0_S + 999.0) -> Any:
    return decode_messages([(text, received_s)])


def test_position__equals_the_nmea_decoders_report_of_the_same_fields() -> None:
    fields = {"lon": 4.5, "lat": 52.25, "speed": 12.3, "course": 45.6, "heading": 47}
    nmea = SentenceDecoder().decode(
        [line(sentence(type=1, mmsi=MMSI, status=5, second=30, **fields), T0_S + 30.25)]
    )
    text = position(
        MMSI, 4.5, 52.25, T0_S + 30.25, sog=12.3, cog=45.6, heading=47, status=5, second=30
    )
    decoded = one(text)
    assert decoded.positions == nmea.positions
    assert decoded.positions == [PositionReport(MMSI, T0_S + 30.0, 4.5, 52.25, 12.3, 45.6, 47, 5)]
    assert not decoded.drops and not decoded.blanks and decoded.sentences == 1


def test_position__class_b_has_no_status() -> None:
    decoded = one(class_b(MMSI, -9.0, 38.5, sog=5.0, cog=180.0, heading=511))
    assert decoded.positions == [PositionReport(MMSI, T0_S, -9.0, 38.5, 5.0, 180.0, None, None)]
    assert decoded.blanks == {Blank.HEADING: 1}


def test_position__not_available_values_are_blanked_as_in_nmea() -> None:
    decoded = one(position(MMSI, 4.0, 52.0, sog=102.3, cog=360.0, heading=511))
    (report,) = decoded.positions
    assert (report.speed_kn, report.course_deg, report.heading_deg) == (None, None, None)
    assert decoded.blanks == {Blank.SPEED: 1, Blank.COURSE: 1, Blank.HEADING: 1}


@pytest.mark.parametrize(
    ("lon", "lat", "reason"),
    [
        (181.0, 52.0, Drop.POSITION_UNAVAILABLE),
        (4.0, 91.0, Drop.POSITION_UNAVAILABLE),
        (4.0, -95.0, Drop.POSITION_OUT_OF_RANGE),
        (-200.0, 10.0, Drop.POSITION_OUT_OF_RANGE),
    ],
)
def test_position__unavailable_or_out_of_range_is_dropped(
    lon: float, lat: float, reason: Drop
) -> None:
    decoded = one(position(MMSI, lon, lat))
    assert decoded.positions == [] and decoded.drops == {reason: 1}


@pytest.mark.parametrize("mmsi", [0, 12345678, 1_000_000_000])
def test_position__bad_mmsi_is_dropped(mmsi: int) -> None:
    decoded = one(position(mmsi, 4.0, 52.0))
    assert decoded.positions == [] and decoded.drops == {Drop.BAD_MMSI: 1}


def test_extended_class_b__a_position_and_a_static_report() -> None:
    decoded = one(extended_class_b(MMSI, 4.0, 52.0, name="SMALL ONE"))
    assert decoded.positions == [PositionReport(MMSI, T0_S, 4.0, 52.0, 12.0, 0.0, 1, None)]
    assert decoded.statics == [
        StaticReport(
            MMSI,
            T0_S,
            name="SMALL ONE",
            ship_type=37,
            to_bow_m=8,
            to_stern_m=4,
            to_port_m=2,
            to_starboard_m=2,
        )
    ]


def test_ship_static_data__every_field_read_as_for_a_type_5() -> None:
    (report,) = one(ship_static(MMSI)).statics
    assert report == StaticReport(
        MMSI,
        T0_S,
        imo="9074729",
        name="SEALANE TEST",
        callsign="PDAB",
        destination="NLRTM",
        ship_type=71,
        to_bow_m=200,
        to_stern_m=50,
        to_port_m=16,
        to_starboard_m=16,
        draught_m=12.5,
        eta_s=eta_time_s(11, 23, 6, 30, T0_S),
    )
    assert report.eta_s == datetime(2026, 11, 23, 6, 30, tzinfo=UTC).timestamp()


def test_ship_static_data__bad_imo_and_no_eta_become_none() -> None:
    eta = {"Month": 0, "Day": 0, "Hour": 24, "Minute": 60}
    (report,) = one(ship_static(MMSI, ImoNumber=1234568, Eta=eta, Destination="")).statics
    assert (report.imo, report.eta_s, report.destination) == (None, None, None)


def test_static_data_report__part_a_names_part_b_sizes() -> None:
    decoded = decode_messages(
        [(static_report(MMSI, part_b=False), T0_S), (static_report(MMSI, part_b=True), T0_S)]
    )
    assert decoded.statics == [
        StaticReport(MMSI, T0_S, name="LITTLE WING"),
        StaticReport(
            MMSI,
            T0_S,
            callsign="PB1234",
            ship_type=36,
            to_bow_m=6,
            to_stern_m=3,
            to_port_m=1,
            to_starboard_m=2,
        ),
    ]


@pytest.mark.parametrize(
    ("text", "expected_s"),
    [
        ("2026-11-21 12:00:05.318353 +0000 UTC", T0_S + 5.318353),
        ("2026-11-21 12:00:05.819091968 +0000 UTC m=+293.995127367", T0_S + 5.819091968),
        ("2026-11-21 12:00:05 +0000 UTC", T0_S + 5.0),
        ("2026-11-21 13:00:05 +0100 CET", T0_S + 5.0),
        ("2026-11-21T12:00:05Z", T0_S + 999.0),  # not AISStream's format: the receive time
        ("2026-02-30 12:00:05 +0000 UTC", T0_S + 999.0),
        ("2026-11-21 12:21:39 +0000 UTC", T0_S + 1299.0),  # 300 s ahead of its receipt: kept
        ("2026-11-21 12:21:40 +0000 UTC", T0_S + 999.0),  # further ahead: the receipt
        ("2026-11-21 12:21:40 +0100 CET", T0_S + 1300.0 - 3600.0),
        (None, T0_S + 999.0),
    ],
)
def test_time_utc__read_or_the_receive_time(text: str | None, expected_s: float) -> None:
    document = json.loads(position(MMSI, 4.0, 52.0))
    document["MetaData"]["time_utc"] = text
    (report,) = one(json.dumps(document)).positions
    assert report.time_s == pytest.approx(expected_s, abs=1e-6)


def _without(path: tuple[str, ...]) -> str:
    document = json.loads(position(MMSI, 4.0, 52.0))
    *parents, last = path
    target = document
    for name in parents:
        target = target[name]
    del target[last]
    return json.dumps(document)


def _with(field: str, value: Any) -> str:
    body = position_body(MMSI, 4.0, 52.0)
    body[field] = value
    return envelope("PositionReport", body, T0_S)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"MessageType": "PositionReport", "Message": ',  # cut off mid-message
        b"\xff\xfe{}",
        "[1, 2, 3]",
        '"PositionReport"',
        "{}",
        '{"MessageType": 5, "Message": {}}',
        '{"MessageType": "PositionReport"}',
        '{"MessageType": "PositionReport", "Message": {"PositionReport": []}}',
        _without(("Message", "PositionReport", "Latitude")),
        _without(("Message", "PositionReport", "UserID")),
        _without(("Message", "PositionReport", "NavigationalStatus")),
        _with("Latitude", "52.0"),
        _with("Sog", True),
        _with("UserID", 244670316.5),
        _with("TrueHeading", -1),
        _with("NavigationalStatus", 99),
        _with("MessageID", 4),
        _with("Valid", False),
        position(MMSI, 4.0, 52.0).replace("12.0", "NaN"),
        position(MMSI, 4.0, 52.0).replace("12.0", "1e999"),
        ship_static(MMSI, Dimension={"A": 1, "B": 2, "C": 3}),
        ship_static(MMSI, MaximumStaticDraught=-1.0),
        ship_static(MMSI, Name=None),
    ],
)
def test_bad_message__counted_as_malformed_never_raised(text: str | bytes) -> None:
    decoded = decode_messages([(text, T0_S)])
    assert (decoded.positions, decoded.statics) == ([], [])
    assert decoded.drops == {Drop.MALFORMED: 1}


def test_unknown_type__counted_apart_from_types_not_used() -> None:
    base_station = envelope("BaseStationReport", {"UserID": 2442000}, T0_S)
    invented = envelope("TelepathicReport", {"UserID": MMSI}, T0_S)
    decoded = decode_messages([(base_station, T0_S), (invented, T0_S)])
    assert decoded.ignored == 1 and decoded.drops == {Drop.UNKNOWN_TYPE: 1}


def test_server_error__counted() -> None:
    text = '{"error": "Api Key Is Not Valid"}'
    assert server_error(json.loads(text)) == "Api Key Is Not Valid"
    assert one(text).drops == {Drop.SERVER_ERROR: 1}


def test_a_bad_message_leaves_the_others_in_its_batch() -> None:
    good = position(MMSI, 4.0, 52.0)
    decoded = decode_messages([(good, T0_S), ("{", T0_S), (good.encode(), T0_S)])
    assert len(decoded.positions) == 2 and decoded.drops == {Drop.MALFORMED: 1}
    assert decoded.sentences == 3

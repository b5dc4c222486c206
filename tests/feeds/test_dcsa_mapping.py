"""The DCSA -> sealane mapping table: one test per row, written out here (not read from it)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from sealane.feeds.dcsa.events import BadEvent, DcsaEvent, TransportCall, parse_event
from sealane.feeds.dcsa.mapping import TABLE, Role, cancels_booking, sealane_event, status_of

from .dcsa_fixtures import shipment_events

AT = datetime(2026, 11, 1, tzinfo=UTC)
POL, TS, POD, ELSE = Role.ORIGIN, Role.TRANSSHIPMENT, Role.DESTINATION, Role.ELSEWHERE


def event(
    kind: str, code: str, mode: str = "VESSEL", empty: bool | None = None, classifier: str = "ACT"
) -> DcsaEvent:
    return DcsaEvent(
        event_id="e1",
        event_type=kind,
        code=code,
        classifier=classifier,
        at=AT,
        created_at=AT,
        call=TransportCall("c1", "NLRTM", mode),
        equipment="MSKU1234565" if kind == "EQUIPMENT" else None,
        empty=empty,
    )


#: (event type, code, mode, empty, role) -> (sealane event, container status after it)
ROWS = [
    (("TRANSPORT", "DEPA", "VESSEL", None, POL), ("vessel_departed", "on_ship")),
    (("TRANSPORT", "ARRI", "VESSEL", None, TS), ("transshipment_arrived", "on_ship")),
    (("TRANSPORT", "DEPA", "BARGE", None, TS), ("transshipment_departed", "on_ship")),
    (("TRANSPORT", "ARRI", "VESSEL", None, POD), ("vessel_arrived", "on_ship")),
    (("TRANSPORT", "DEPA", "RAIL", None, ELSE), ("rail_departed", "on_rail")),
    (("TRANSPORT", "ARRI", "RAIL", None, ELSE), ("rail_arrived", "on_rail")),
    (("EQUIPMENT", "GTOT", "TRUCK", True, POL), ("empty_out", "new")),
    (("EQUIPMENT", "GTIN", "TRUCK", False, POL), ("full_in", "new")),
    (("EQUIPMENT", "LOAD", "VESSEL", False, POL), ("vessel_loaded", "on_ship")),
    (
        ("EQUIPMENT", "DISC", "VESSEL", False, TS),
        ("transshipment_discharged", "awaiting_inland_transfer"),
    ),
    (("EQUIPMENT", "LOAD", "VESSEL", False, TS), ("transshipment_loaded", "on_ship")),
    (("EQUIPMENT", "DISC", "VESSEL", False, POD), ("vessel_discharged", "grounded")),
    (("EQUIPMENT", "LOAD", "RAIL", False, ELSE), ("rail_loaded", "on_rail")),
    (("EQUIPMENT", "DISC", "RAIL", False, ELSE), ("rail_unloaded", "awaiting_inland_transfer")),
    (("EQUIPMENT", "GTOT", "TRUCK", False, POD), ("full_out", "picked_up")),
    (("EQUIPMENT", "GTIN", "TRUCK", True, POD), ("empty_in", "empty_returned")),
    (("EQUIPMENT", "PICK", "TRUCK", False, POD), ("full_out", "picked_up")),
    (("EQUIPMENT", "PICK", "TRUCK", True, POL), ("empty_out", "new")),
    (("EQUIPMENT", "DROP", "TRUCK", True, POD), ("empty_in", "empty_returned")),
    (("EQUIPMENT", "DROP", "TRUCK", False, POL), ("full_in", "new")),
]


def test_table__has_exactly_the_rows_tested_here() -> None:
    assert len(TABLE) == len(ROWS)


@pytest.mark.parametrize(("given", "expected"), ROWS, ids=[f"{g[1]}-{g[4]}" for g, _ in ROWS])
def test_row(given: tuple[str, str, str, bool | None, Role], expected: tuple[str, str]) -> None:
    kind, code, mode, empty, role = given
    name, status = expected
    found = sealane_event(event(kind, code, mode, empty), role)
    assert found == f"container.transport.{name}"
    assert status_of(found) == status


@pytest.mark.parametrize("classifier", ["EST", "PLN", "REQ"])
def test_not_actual__no_transport_event(classifier: str) -> None:
    assert sealane_event(event("TRANSPORT", "ARRI", classifier=classifier), POD) is None


@pytest.mark.parametrize(
    ("given", "role"),
    [
        (("EQUIPMENT", "STUF", "TRUCK", False), POL),
        (("EQUIPMENT", "STRP", "TRUCK", False), POD),
        (("TRANSPORT", "ARRI", "VESSEL", None), POL),  # the vessel reaching the loading port
        (("TRANSPORT", "DEPA", "VESSEL", None), POD),
        (("TRANSPORT", "ARRI", "TRUCK", None), ELSE),
        (("EQUIPMENT", "GTIN", "TRUCK", False), POD),  # laden box gated in at destination
        (("EQUIPMENT", "XRAY", "TRUCK", False), POL),
        (("SHIPMENT", "ISSU", "VESSEL", None), POL),
    ],
)
def test_no_row__no_event(given: tuple[str, str, str, bool | None], role: Role) -> None:
    assert sealane_event(event(*given), role) is None


def test_cancels_booking__void_and_rejected_bookings_only() -> None:
    def shipment(code: str, document: str) -> DcsaEvent:
        return DcsaEvent("s", "SHIPMENT", code, "ACT", AT, AT, document_type=document)

    assert cancels_booking(shipment("VOID", "BKG")) and cancels_booking(shipment("REJE", "BKG"))
    assert not cancels_booking(shipment("VOID", "TRD"))
    assert not cancels_booking(shipment("CONF", "BKG"))


def test_parse_event__fixture_events_read_whole() -> None:
    parsed = [parse_event(raw) for raw in shipment_events()]
    load = next(e for e in parsed if e.code == "LOAD")
    assert load.call is not None and load.call.vessel_imo == "9321483"
    assert load.refs == {"TRD:DCSABL0001", "BKG:DCSABK0001", "EQ:MSKU1234565"}
    assert load.empty is False and load.iso_code == "45G1"


@pytest.mark.parametrize(
    "change",
    [
        {"eventType": "OPERATIONS"},
        {"eventID": None},
        {"eventDateTime": "not a time"},
        {"eventDateTime": "2026-11-01T00:00:00"},
        {"transportCall": None},
        {"equipmentEventTypeCode": None},
    ],
)
def test_parse_event__rejects_what_tnt_does_not_allow(change: dict[str, object]) -> None:
    raw = next(e for e in shipment_events() if e["eventType"] == "EQUIPMENT")
    with pytest.raises(BadEvent):
        parse_event({**raw, **change})


def test_parse_event__bare_document_reference_codes_too() -> None:
    raw = {**shipment_events()[1]}
    raw["documentReferences"] = [{"documentReferenceType": "TRD", "documentReferenceValue": "X1"}]
    assert "TRD:X1" in parse_event(raw).refs

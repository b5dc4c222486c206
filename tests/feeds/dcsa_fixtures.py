"""The DCSA test server's fixture: one shipment's T&T 2.2 events, Shanghai -> Singapore ->
Rotterdam on two vessels, two containers, from booking confirmation to the empty's return.

Each event becomes visible at its ``eventCreatedDateTime`` (the server's clock decides), so a
test moves time forward and watches the shipment progress.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

T0 = datetime(2026, 11, 1, tzinfo=UTC)
BL, BOOKING = "DCSABL0001", "DCSABK0001"
CONTAINERS = ("MSKU1234565", "MSKU7654328")
VESSEL_A = {"vesselIMONumber": "9321483", "vesselName": "King of the Seas", "vesselFlag": "DK"}
VESSEL_B = {"vesselIMONumber": "9074729", "vesselName": "Queen of the Seas", "vesselFlag": "SG"}
#: The published enum values of documentReferenceType carry their descriptions.
REFS = [
    {"documentReferenceType": "BKG (Booking)", "documentReferenceValue": BOOKING},
    {"documentReferenceType": "TRD (Transport Document)", "documentReferenceValue": BL},
]
NAMESPACE = uuid.UUID("6f0c1f7e-2b1d-4c53-9a57-6d8f8b1f2a10")


def _stamp(at: datetime) -> str:
    return at.isoformat().replace("+00:00", "Z")


def _id(name: str) -> str:
    return str(uuid.uuid5(NAMESPACE, name))


def call(locode: str, vessel: dict[str, str] | None, voyage: str, seq: int) -> dict[str, Any]:
    """A transportCall at ``locode`` (a vessel call when ``vessel`` is given)."""
    found: dict[str, Any] = {
        "transportCallID": _id(f"call/{locode}/{voyage}/{'vessel' if vessel else 'gate'}"),
        "transportCallSequenceNumber": seq,
        "carrierVoyageNumber": voyage,
        "UNLocationCode": locode,
        "facilityTypeCode": "POTE",
        "modeOfTransport": "VESSEL" if vessel else "TRUCK",
    }
    if vessel:
        found["vessel"] = vessel
    return found


def transport(
    name: str, code: str, classifier: str, at: datetime, created: datetime, where: dict[str, Any]
) -> dict[str, Any]:
    return {
        "eventID": _id(name),
        "eventType": "TRANSPORT",
        "eventCreatedDateTime": _stamp(created),
        "eventClassifierCode": classifier,
        "eventDateTime": _stamp(at),
        "transportEventTypeCode": code,
        "transportCall": where,
        "documentReferences": REFS,
    }


def equipment(
    name: str,
    code: str,
    at: datetime,
    container: str,
    empty: bool,
    where: dict[str, Any],
    classifier: str = "ACT",
) -> dict[str, Any]:
    return {
        "eventID": _id(f"{name}/{container}"),
        "eventType": "EQUIPMENT",
        "eventCreatedDateTime": _stamp(at + timedelta(minutes=5)),
        "eventClassifierCode": classifier,
        "eventDateTime": _stamp(at),
        "equipmentEventTypeCode": code,
        "equipmentReference": container,
        "ISOEquipmentCode": "45G1" if container == CONTAINERS[0] else "22G1",
        "emptyIndicatorCode": "EMPTY" if empty else "LADEN",
        "transportCall": where,
        "documentReferences": REFS,
    }


def shipment_event(name: str, code: str, document: str, at: datetime) -> dict[str, Any]:
    return {
        "eventID": _id(name),
        "eventType": "SHIPMENT",
        "eventCreatedDateTime": _stamp(at),
        "eventClassifierCode": "ACT",
        "eventDateTime": _stamp(at),
        "shipmentEventTypeCode": code,
        "documentTypeCode": document,
        "documentID": BL if document == "TRD" else BOOKING,
    }


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def shipment_events() -> list[dict[str, Any]]:
    """Every event of the fixture shipment, in creation order."""
    sha, sin_a = call("CNSHA", VESSEL_A, "101W", 1), call("SGSIN", VESSEL_A, "101W", 2)
    sin_b, rtm = call("SGSIN", VESSEL_B, "202W", 1), call("NLRTM", VESSEL_B, "202W", 2)
    gate_sha, gate_rtm = call("CNSHA", None, "101W", 0), call("NLRTM", None, "202W", 3)
    events = [
        shipment_event("bkg-conf", "CONF", "BKG", day(-2)),
        transport("pln-depa-sha", "DEPA", "PLN", day(2), day(-2), sha),
        transport("pln-arri-sin", "ARRI", "PLN", day(9), day(-2), sin_a),
        transport("pln-depa-sin", "DEPA", "PLN", day(11), day(-2), sin_b),
        transport("pln-arri-rtm", "ARRI", "PLN", day(32), day(-2), rtm),
    ]
    for box in CONTAINERS:
        events += [
            equipment("gtot-empty", "GTOT", day(0), box, True, gate_sha),
            equipment("gtin-laden", "GTIN", day(1), box, False, gate_sha),
            equipment("load-sha", "LOAD", day(1.75), box, False, sha),
        ]
    events += [
        shipment_event("trd-issu", "ISSU", "TRD", day(1.5)),
        transport("act-depa-sha", "DEPA", "ACT", day(2.05), day(2.06), sha),
        transport("est-arri-rtm-1", "ARRI", "EST", day(33), day(5), rtm),
        transport("act-arri-sin", "ARRI", "ACT", day(9), day(9.01), sin_a),
    ]
    for box in CONTAINERS:
        events += [
            equipment("disc-sin", "DISC", day(9.5), box, False, sin_a),
            equipment("load-sin", "LOAD", day(10.8), box, False, sin_b),
        ]
    events += [
        transport("act-depa-sin", "DEPA", "ACT", day(11), day(11.01), sin_b),
        transport("est-arri-rtm-2", "ARRI", "EST", day(33.02), day(20), rtm),
        transport("act-arri-rtm", "ARRI", "ACT", day(33.1), day(33.11), rtm),
    ]
    for box in CONTAINERS:
        events.append(equipment("disc-rtm", "DISC", day(33.6), box, False, rtm))
    events += [
        equipment("gtot-laden", "GTOT", day(35), CONTAINERS[0], False, gate_rtm),
        equipment("gtin-empty", "GTIN", day(38), CONTAINERS[0], True, gate_rtm),
    ]
    return sorted(events, key=lambda e: e["eventCreatedDateTime"])


def unknown_code_event() -> dict[str, Any]:
    """An equipment event with a code T&T 2.2 does not define (a fault mode)."""
    event = equipment("weird", "XRAY", day(1.2), CONTAINERS[0], False, call("CNSHA", None, "x", 0))
    event["eventCreatedDateTime"] = _stamp(day(1.2))
    return event

"""DCSA T&T 2.2 events (JSON objects) read into typed values.

Only what the adapter uses is read; an object without the fields T&T 2.2 requires of its event
type raises :class:`BadEvent`, which the adapter counts and skips. Codes are kept as sent, known
or not: the mapping table decides what an unknown code means (nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

#: The longest ``eventID`` kept (T&T 2.2 publishes ``maxLength: 100``; the column holds 100).
MAX_EVENT_ID = 100
#: The longest reference an event is filed under (B/L, booking, container), so that
#: ``TRD:<value>`` fits its 64-character column; real ones are 11 to 35 characters.
MAX_REFERENCE = 60
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class BadEvent(ValueError):
    """An event object that does not have the shape T&T 2.2 requires."""


@dataclass(frozen=True, slots=True)
class TransportCall:
    """Where an event happens: a call of a vessel (or train, truck, barge) at a place."""

    id: str
    locode: str | None
    mode: str
    vessel_imo: str | None = None
    vessel_name: str | None = None
    voyage: str | None = None
    sequence: int | None = None


@dataclass(frozen=True, slots=True)
class DcsaEvent:
    """One TRANSPORT, EQUIPMENT or SHIPMENT event; ``code`` is its ``...EventTypeCode``."""

    event_id: str
    event_type: str
    code: str
    classifier: str
    at: datetime
    created_at: datetime
    call: TransportCall | None = None
    equipment: str | None = None
    iso_code: str | None = None
    empty: bool | None = None
    document_type: str | None = None
    document_id: str | None = None
    #: References it is filed under: ``TRD:<number>``, ``BKG:<number>``, ``EQ:<container>``.
    refs: frozenset[str] = frozenset()

    @property
    def actual(self) -> bool:
        """An actual event (ACT), as opposed to planned (PLN), estimated (EST) or requested."""
        return self.classifier == "ACT"


_CODE_FIELD = {
    "TRANSPORT": "transportEventTypeCode",
    "EQUIPMENT": "equipmentEventTypeCode",
    "SHIPMENT": "shipmentEventTypeCode",
}


def parse_event(raw: Any) -> DcsaEvent:
    """A :class:`DcsaEvent` from one JSON object of a ``GET /v2/events`` page or a push."""
    if not isinstance(raw, dict):
        raise BadEvent("an event must be an object")
    event_type = raw.get("eventType")
    if event_type not in _CODE_FIELD:
        raise BadEvent(f"eventType {event_type!r} is not TRANSPORT, EQUIPMENT or SHIPMENT")
    code = _string(raw, _CODE_FIELD[event_type])
    call = _call(raw.get("transportCall")) if event_type != "SHIPMENT" else None
    if event_type != "SHIPMENT" and call is None:
        raise BadEvent(f"a {event_type} event needs a transportCall")
    equipment = raw.get("equipmentReference") if event_type == "EQUIPMENT" else None
    if isinstance(equipment, str):
        _check_key(equipment, "equipmentReference", MAX_REFERENCE)
    refs = set(_document_refs(raw.get("documentReferences")))
    document_type: str | None = None
    document_id: str | None = None
    if event_type == "SHIPMENT":
        document_type = _string(raw, "documentTypeCode")
        document_id = _check_key(_string(raw, "documentID"), "documentID", MAX_REFERENCE)
        if document_type in ("TRD", "BKG"):
            refs.add(f"{document_type}:{document_id}")
    if isinstance(equipment, str) and equipment:
        refs.add(f"EQ:{equipment.upper()}")
    empty = raw.get("emptyIndicatorCode")
    return DcsaEvent(
        event_id=_check_key(_string(raw, "eventID"), "eventID", MAX_EVENT_ID),
        event_type=event_type,
        code=code,
        classifier=_string(raw, "eventClassifierCode"),
        at=_time(raw, "eventDateTime"),
        created_at=_time(raw, "eventCreatedDateTime"),
        call=call,
        equipment=equipment.upper() if isinstance(equipment, str) and equipment else None,
        iso_code=raw.get("ISOEquipmentCode") if event_type == "EQUIPMENT" else None,
        empty=None if empty not in ("EMPTY", "LADEN") else empty == "EMPTY",
        document_type=document_type,
        document_id=document_id,
        refs=frozenset(refs),
    )


def _call(raw: Any) -> TransportCall | None:
    if not isinstance(raw, dict):
        return None
    found = raw.get("vessel")
    vessel: dict[str, Any] = found if isinstance(found, dict) else {}
    locode = raw.get("UNLocationCode")
    sequence = raw.get("transportCallSequenceNumber")
    return TransportCall(
        id=_string(raw, "transportCallID"),
        locode=locode.upper() if isinstance(locode, str) and locode else None,
        mode=_string(raw, "modeOfTransport"),
        vessel_imo=_optional(vessel.get("vesselIMONumber")),
        vessel_name=_optional(vessel.get("vesselName")),
        voyage=_optional(raw.get("carrierVoyageNumber") or raw.get("exportVoyageNumber")),
        sequence=sequence if isinstance(sequence, int) else None,
    )


def _document_refs(raw: Any) -> list[str]:
    """``TRD:x`` / ``BKG:y`` from ``documentReferences`` (the type as a bare code or as the
    published enum value with its description, ``BKG (Booking)``)."""
    found = []
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict):
            continue
        kind, value = item.get("documentReferenceType"), item.get("documentReferenceValue")
        if isinstance(kind, str) and isinstance(value, str) and kind[:3] in ("TRD", "BKG"):
            _check_key(value, "documentReferenceValue", MAX_REFERENCE)
            found.append(f"{kind[:3]}:{value}")
    return found


def _string(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value:
        raise BadEvent(f"{key} is required")
    return value


def _check_key(value: str, key: str, limit: int) -> str:
    """``value`` if it can be stored as a key (at most ``limit`` characters, no control
    character such as NUL, which PostgreSQL text cannot hold), else :class:`BadEvent`."""
    if len(value) > limit:
        raise BadEvent(f"{key} is longer than {limit} characters")
    if _CONTROL.search(value):
        raise BadEvent(f"{key} contains a control character")
    return value


def _optional(value: Any) -> str | None:
    return str(value) if isinstance(value, str | int) and str(value) else None


def _time(raw: dict[str, Any], key: str) -> datetime:
    text = _string(raw, key)
    try:
        value = datetime.fromisoformat(text)
    except ValueError as error:
        raise BadEvent(f"{key} is not an ISO 8601 date-time: {text!r}") from error
    if value.tzinfo is None:
        raise BadEvent(f"{key} has no UTC offset: {text!r}")
    return value

"""Bodies of the tracking operations: a new tracking request, the reference numbers and tags of
requests, shipments and containers, parties, and the number to infer."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ...service.core.inputs import MAX_ENTRY_CHARS
from ...service.tracking import containers, numbers, parties, requests, shipments
from ...vocabulary.statuses import REQUEST_TYPES
from ..regexes import WHITESPACE, nullable, stripped, text
from .document import SCAC, STRING_LIST, ref, resource, to_one


def _container_number() -> str:
    """An ISO 6346 number as the service normalises it: spaces and dashes anywhere, any case."""
    gap = f"[{WHITESPACE}-]*"
    return f"^{gap}([A-Za-z]{gap}){{3}}[UJZujz]{gap}([0-9]{gap}){{7}}$"


_NUMBER = stripped(requests.MAX_NUMBER_CHARS)
_SLUG = {"type": "string", "pattern": "^[a-z][a-z0-9_]{0,63}$"}


def _initial_values(containers_: bool) -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": "object",
        "required": ["api_slug", "value"],
        "properties": {"api_slug": _SLUG, "value": {}},
    }
    if containers_:
        item["properties"]["number"] = nullable({"type": "string", "maxLength": 20})
    return nullable({"type": "array", "maxItems": 50, "items": item})


def new_tracking_request() -> dict[str, Any]:
    """``POST /tracking_requests``: a number of a type, with a carrier (or one to infer)."""
    number = {
        "type": "string",
        "description": "the number to track; a container number must be a valid ISO 6346 one",
        "pattern": _NUMBER,
    }
    attributes = {
        "request_type": {"type": "string", "enum": list(REQUEST_TYPES)},
        "request_number": number,
        "scac": nullable(ref(SCAC)),
        "auto_detect_vocc_scac": {"type": "boolean"},
        "ref_numbers": STRING_LIST,
        "tags": STRING_LIST,
        "shipment_tags": STRING_LIST,
        "initial_custom_fields": nullable(
            {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "shipment": _initial_values(False),
                    "containers": _initial_values(True),
                },
            }
        ),
    }
    container = {
        "required": ["request_type"],
        "properties": {"request_type": {"const": "container"}},
    }
    container_number = {"properties": {"request_number": {"pattern": _container_number()}}}
    rules = {
        "allOf": [
            # a scac, or none and auto_detect_vocc_scac: true
            {
                "anyOf": [
                    {"required": ["scac"], "properties": {"scac": ref(SCAC)}},
                    {
                        "required": ["auto_detect_vocc_scac"],
                        "properties": {"auto_detect_vocc_scac": {"const": True}},
                    },
                ]
            },
            {"if": container, "then": container_number},
        ]
    }
    return resource(
        "tracking_request",
        attributes,
        required=("request_type", "request_number"),
        relationships={"customer": to_one("party")},
        rules=rules,
        example={
            "request_type": "bill_of_lading",
            "request_number": "MAEU261234567",
            "scac": "MAEU",
            "ref_numbers": ["PO-1001"],
        },
    )


def list_changes(type_: str, editable: Collection[str]) -> dict[str, Any]:
    """``PATCH`` of a tracking request, shipment or container: its reference numbers and tags
    (``ref_number``, one reference number, is the reference API's form)."""
    schemas = {
        "ref_numbers": STRING_LIST,
        "tags": STRING_LIST,
        "ref_number": nullable({"type": "string", "pattern": stripped(MAX_ENTRY_CHARS)}),
    }
    example = {name: ["PO-1001", "PO-1002"] for name in ("ref_numbers",) if name in editable}
    return resource(
        type_, {name: schemas[name] for name in editable}, update=True, example=example or None
    )


NEW_TRACKING_REQUEST = new_tracking_request()
TRACKING_REQUEST_CHANGES = list_changes("tracking_request", requests.EDITABLE)
SHIPMENT_CHANGES = list_changes("shipment", shipments.EDITABLE)
CONTAINER_CHANGES = list_changes("container", containers.EDITABLE)


def party(*, update: bool = False) -> dict[str, Any]:
    """``POST`` and ``PATCH /parties``: the company name."""
    name = text(parties.MAX_NAME_CHARS, blank=False)
    return resource(
        "party",
        {"company_name": name},
        required=("company_name",),
        update=update,
        example={"company_name": "Acme Imports"},
    )


NEW_PARTY = party()
PARTY_CHANGES = party(update=True)

#: ``POST /tracking_requests/infer_number``: a plain object (as the reference API has it).
INFER_NUMBER: dict[str, Any] = {
    "type": "object",
    "required": ["number"],
    "properties": {"number": text(numbers.MAX_NUMBER_CHARS, blank=False)},
    "examples": [{"number": "MSCU1234566"}],
}

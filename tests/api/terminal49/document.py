"""Terminal49's published OpenAPI document as a validator of sealane's answers.

The tests read the document's facts kept in the repository, in
``tests/fixtures/reference/terminal49/openapi.json``: its paths, operations, parameters and
schemas without the prose, derived from ``../shared/reference/terminal49/openapi.json`` (whose
README names the source commit and the errata) by ``scripts/derive_reference_facts.py``. A
missing fixture fails the tests that need it. The schemas are OpenAPI 3.0: they are turned into
JSON Schema (``nullable`` becomes "or null"), the README's four errata are applied, and nothing
else, except where the interface document (``../shared/spec/``) says otherwise: those places are
listed in :data:`INTERFACE_OVERRIDES`, each with its reason.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

CHECKOUT = Path(__file__).resolve().parents[3]
#: The facts of Terminal49's reference documents kept in the repository (the coverage table too).
REFERENCE = CHECKOUT / "tests" / "fixtures" / "reference" / "terminal49"
DOCUMENT = REFERENCE / "openapi.json"
DERIVE = "scripts/derive_reference_facts.py"
if not DOCUMENT.is_file():
    # Checked on import: the tests parametrised by the document's operations would otherwise be
    # collected from an empty list (a skip) instead of failing.
    raise FileNotFoundError(f"Terminal49's document is missing: {DOCUMENT} (written by {DERIVE})")
METHODS = ("get", "post", "put", "patch", "delete")

#: Operations outside this work: document extraction (issue 15 leaves it out).
OUT_OF_SCOPE_PREFIXES = ("/documents", "/email_submissions", "/document_schemas")
NOT_SUPPORTED: set[tuple[str, str]] = set()
#: Erratum 4: the container PATCH is documented at ``/containers``; the operation is at
#: ``/containers/{id}``. Keys are sealane's (method, path); values the document's.
PATH_ERRATA = {("PATCH", "/containers/{id}"): ("PATCH", "/containers")}

#: Where the interface document wins over Terminal49's: notification documents also include the
#: shipment, container, port and terminal the reference object names ("the samples also include
#: shipment, container, port and terminal resources"), and any of the reference object types
#: the interface lists (``container_updated_event`` is missing from the lists' ``included``).
NOTIFICATION_INCLUDED = (
    "webhook",
    "tracking_request",
    "transport_event",
    "estimated_event",
    "container_updated_event",
    "shipment",
    "container",
    "port",
    "terminal",
)
INTERFACE_OVERRIDES = {
    ("GET", "/webhook_notifications"): NOTIFICATION_INCLUDED,
    ("GET", "/webhook_notifications/{id}"): NOTIFICATION_INCLUDED,
    ("GET", "/webhook_notifications/examples"): NOTIFICATION_INCLUDED,
}


def require_document() -> dict[str, Any]:
    """The document (its absence already failed this module's import)."""
    return load_document()


@cache
def load_document() -> dict[str, Any]:
    """The document as published (its prose left out), parsed once."""
    with DOCUMENT.open(encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


@cache
def corrected() -> dict[str, Any]:
    """The document with errata 1-3 applied to its schemas (erratum 4 is :data:`PATH_ERRATA`)."""
    doc = copy.deepcopy(load_document())
    schemas = doc["components"]["schemas"]
    # Erratum 1: a container's type is "container" (the schema says "account").
    schemas["container"]["properties"]["type"]["enum"] = ["container"]
    # Erratum 3: terminal string attributes may be null.
    for attribute in schemas["terminal"]["properties"]["attributes"]["properties"].values():
        if attribute.get("type") == "string":
            attribute["nullable"] = True
    # Erratum 2: a to-one relationship's data may be null (everywhere in the document).
    for relationships in _relationship_objects(doc):
        for relationship in relationships.get("properties", {}).values():
            data = relationship.get("properties", {}).get("data")
            if isinstance(data, dict) and data.get("type") == "object":
                data["nullable"] = True
    return doc


def _relationship_objects(node: Any) -> Iterator[dict[str, Any]]:
    """Every schema that describes a resource's ``relationships`` member."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict) and "relationships" in value:
                relationships = value["relationships"]
                if isinstance(relationships, dict):
                    yield relationships
            yield from _relationship_objects(value)
    elif isinstance(node, list):
        for item in node:
            yield from _relationship_objects(item)


def to_json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema 2020-12: ``nullable`` allows null; OpenAPI-only
    keywords (``example``, ``discriminator``, ``x-...``) go. Keywords are walked by kind, so a
    property that happens to be called ``nullable`` stays a property."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("nullable", "example", "examples", "discriminator", "xml") or key.startswith(
            "x-"
        ):
            continue
        if key in ("properties", "patternProperties"):
            out[key] = {name: to_json_schema(schema) for name, schema in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = to_json_schema(value)
        elif key in ("allOf", "anyOf", "oneOf"):
            out[key] = [to_json_schema(item) for item in value]
        else:
            out[key] = value
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def operations() -> list[tuple[str, str]]:
    """Every (METHOD, path) of the document that sealane shares with it."""
    found = []
    for path, item in load_document()["paths"].items():
        if path.startswith(OUT_OF_SCOPE_PREFIXES):
            continue
        for method in METHODS:
            if method in item and (method.upper(), path) not in NOT_SUPPORTED:
                found.append((method.upper(), path))
    return found


def sealane_path(method: str, path: str) -> str:
    """Where sealane serves the document's operation (the same path but for erratum 4)."""
    for ours, theirs in PATH_ERRATA.items():
        if theirs == (method, path):
            return ours[1]
    return path


def operation(method: str, path: str) -> dict[str, Any]:
    """The corrected document's operation for sealane's (method, path)."""
    method, path = PATH_ERRATA.get((method, path), (method, path))
    found: dict[str, Any] = corrected()["paths"][path][method.lower()]
    return found


def query_parameters(method: str, path: str) -> list[dict[str, Any]]:
    """The query parameters the document declares for an operation (its own and its path's)."""
    doc_method, doc_path = PATH_ERRATA.get((method, path), (method, path))
    item = corrected()["paths"][doc_path]
    declared = [*item.get("parameters", ()), *item[doc_method.lower()].get("parameters", ())]
    return [p for p in declared if p.get("in") == "query"]


def response_schema(method: str, path: str, status: int) -> dict[str, Any] | None:
    """The JSON Schema of the body of ``status`` (None when the document gives no body), with
    the interface document's overrides. ``KeyError`` when the status is not documented."""
    responses = operation(method, path)["responses"]
    key = str(status)
    if key not in responses:
        raise KeyError(f"{method} {path} does not document status {status}")
    content = responses[key].get("content", {})
    schema = content.get("application/json", {}).get("schema")
    if schema is None:
        return None
    schema = copy.deepcopy(schema)
    if (method, path) in INTERFACE_OVERRIDES:
        types = INTERFACE_OVERRIDES[method, path]
        refs = [{"$ref": f"#/components/schemas/{name}"} for name in types]
        schema["properties"]["included"] = {"type": "array", "items": {"anyOf": refs}}
    return {**to_json_schema(schema), "components": _components()}


def error_schema() -> dict[str, Any]:
    """An error document made of the document's ``error`` model (for statuses it leaves out)."""
    errors = {"type": "array", "items": {"$ref": "#/components/schemas/error"}}
    return {
        "type": "object",
        "required": ["errors"],
        "properties": {"errors": errors},
        "components": _components(),
    }


@cache
def _components() -> dict[str, Any]:
    schemas = corrected()["components"]["schemas"]
    return {"schemas": {name: to_json_schema(schema) for name, schema in schemas.items()}}


# -- formats, checked without optional packages ----------------------------------------------

FORMATS = FormatChecker()


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if "T" not in value.upper() or not (value.endswith(("Z", "z")) or value[-6] in "+-"):
        raise ValueError(f"{value!r} is not an RFC 3339 date-time")
    datetime.fromisoformat(value.replace("z", "Z"))
    return True


@FORMATS.checks("date", raises=ValueError)
def _date(value: object) -> bool:
    if isinstance(value, str):
        date.fromisoformat(value)
    return True


@FORMATS.checks("uri", raises=ValueError)
def _uri(value: object) -> bool:
    if isinstance(value, str):
        parts = urlsplit(value)
        if not parts.scheme or not (parts.netloc or parts.path):
            raise ValueError(f"{value!r} is not an absolute URI")
    return True


@FORMATS.checks("uuid", raises=ValueError)
def _uuid(value: object) -> bool:
    import uuid

    if isinstance(value, str) and str(uuid.UUID(value)) != value.lower():
        raise ValueError(f"{value!r} is not a uuid in its canonical form")
    return True


@FORMATS.checks("ipv4", raises=ValueError)
def _ipv4(value: object) -> bool:
    import ipaddress

    if isinstance(value, str):
        ipaddress.IPv4Address(value)
    return True


def problems(schema: dict[str, Any], body: Any) -> list[str]:
    """Every way ``body`` breaks ``schema`` (empty when it conforms), one line each."""
    validator = Draft202012Validator(schema, format_checker=FORMATS)
    return [_describe(error) for error in validator.iter_errors(body)]


def _describe(error: ValidationError) -> str:
    where = "/".join(str(part) for part in error.absolute_path) or "(body)"
    best = min(error.context or [error], key=lambda e: len(list(e.absolute_path)) * -1)
    detail = best.message if error.context else error.message
    return f"{where}: {detail[:300]}"

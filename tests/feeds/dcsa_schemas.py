"""Validation against the published T&T 2.2 documents, as kept in ``tests/fixtures/reference``.

The fixtures are the facts of ``../shared/reference/dcsa`` (schemas and paths, no prose), written
by ``scripts/derive_reference_facts.py`` with the reference's file layout and ``.json`` for
``.yaml``; a missing one fails the test. The ``$ref`` addresses of the OpenAPI document
(SwaggerHub domains) resolve to those files as the reference README says: EVENT_DOMAIN 1.0.4,
which is not kept, to 1.0.3 or to 1.1.0 (a test runs on both), DCSA_DOMAIN 1.0.2/1.0.3 to 1.0.3,
ERROR_DOMAIN 1.0.0 to 1.0.0. The DOCUMENTATION and LOCATION domains are not among the published
files: their schemas (vessel, references, seals, location) are left open. Nothing is fetched.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from jsonschema import Draft4Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "dcsa"
HUB = "https://api.swaggerhub.com/domains/dcsaorg/"
TNT = "urn:dcsa:tnt:2.2.0"
EVENT_DOMAINS = ("1.0.3", "1.1.0")
OPEN_DOMAINS = ("DOCUMENTATION_DOMAIN", "LOCATION_DOMAIN")

FORMATS = FormatChecker(formats=())


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return parsed.tzinfo is not None and "T" in value


@FORMATS.checks("uuid", raises=ValueError)
def _uuid(value: object) -> bool:
    return not isinstance(value, str) or bool(UUID(value))


@cache
def _load(relative: str) -> Any:
    """A kept document, by its path under ``REFERENCE``."""
    path = REFERENCE / relative
    if not path.is_file():
        pytest.fail(f"a DCSA fixture is missing: {path} (scripts/derive_reference_facts.py)")
    return json.loads(path.read_text(encoding="utf-8"))


def _file_of(uri: str, event_domain: str) -> str | None:
    """The local file of a SwaggerHub domain address (None: a domain not published here)."""
    domain, version = uri.removeprefix(HUB).split("#")[0].split("/")[:2]
    if domain in OPEN_DOMAINS:
        return None
    if domain == "EVENT_DOMAIN":
        return f"domain/event/event_domain_v{event_domain}.json"
    if domain == "DCSA_DOMAIN":
        return "domain/dcsa/dcsa_domain_v1.0.3.json"
    if domain == "ERROR_DOMAIN":
        return f"domain/error/error_domain_v{version}.json"
    raise LookupError(f"no published document for {uri}")


class _OpenSchemas(dict[str, Any]):
    """A domain document whose every schema is ``{}``."""

    def __missing__(self, key: str) -> Any:
        return {}


def _registry(event_domain: str) -> Registry:  # type: ignore[type-arg]
    def retrieve(uri: str) -> Resource:  # type: ignore[type-arg]
        if uri == TNT:
            return Resource.from_contents(_load("tnt/tnt_v2.2.0.json"), DRAFT4)
        relative = _file_of(uri, event_domain)
        if relative is None:
            names = {"schemas": _OpenSchemas(), "parameters": _OpenSchemas()}
            return Resource.from_contents({"components": names}, DRAFT4)
        return Resource.from_contents(_load(relative), DRAFT4)

    return Registry(retrieve=retrieve)  # type: ignore[call-arg]


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def events_response_schema(status: int) -> dict[str, Any]:
    """The T&T 2.2 schema of a ``GET /v2/events`` response body with ``status``."""
    kind = "200" if status == 200 else "default"
    path = _pointer("paths", "/v2/events", "get", "responses", kind, "content", "application/json")
    return {"$ref": f"{TNT}#/{path}/schema"}


def callback_schema() -> dict[str, Any]:
    """The T&T 2.2 schema of a push callback body (the subscription's ``callbacks``)."""
    path = _pointer(
        "paths",
        "/v2/event-subscriptions",
        "post",
        "callbacks",
        "event",
        "{$request.body.callbackUrl}",
        "post",
        "requestBody",
        "content",
        "application/json",
    )
    return {"$ref": f"{TNT}#/{path}/schema"}


def subscription_schema() -> dict[str, Any]:
    """The T&T 2.2 schema of a created subscription (201)."""
    return {"$ref": f"{TNT}#/components/schemas/subscription"}


def errors(schema: dict[str, Any], body: Any, event_domain: str) -> list[str]:
    """Every validation error of ``body`` (empty when it conforms)."""
    validator = Draft4Validator(schema, registry=_registry(event_domain), format_checker=FORMATS)
    return [f"{list(e.absolute_path)}: {e.message}"[:300] for e in validator.iter_errors(body)]

"""OpenAPI declarations shared by the routers: every error answers a JSON:API error document."""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["errors"],
    "properties": {
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["status", "title"],
                "properties": {
                    "status": {"type": "string"},
                    "title": {"type": "string"},
                    "detail": {"type": "string"},
                    "code": {"type": "string"},
                    "source": {
                        "type": "object",
                        "properties": {
                            "pointer": {"type": "string"},
                            "parameter": {"type": "string"},
                        },
                    },
                },
            },
        }
    },
}

_RESOURCE: dict[str, Any] = {
    "type": "object",
    "required": ["id", "type"],
    "properties": {
        "id": {"type": "string"},
        "type": {"type": "string"},
        "attributes": {"type": "object"},
        "relationships": {"type": "object"},
        "links": {"type": "object"},
    },
}

#: The body of every successful response: a JSON:API document with one resource or a list.
DOCUMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {"anyOf": [_RESOURCE, {"type": "array", "items": _RESOURCE}]},
        "included": {"type": "array", "items": _RESOURCE},
        "links": {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
        "meta": {"type": "object"},
    },
}

_DESCRIPTIONS = {
    400: "Malformed query parameter or body",
    401: "Missing or invalid API key",
    403: "Feature not enabled for the account",
    404: "No such resource in the caller's account",
    406: "Unsupported Accept media type parameters",
    415: "Write request without the JSON:API media type",
    422: "Well-formed but unprocessable",
    429: "Rate limit exceeded",
}

#: The ``responses=`` of every route.
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"description": text, "content": {"application/vnd.api+json": {"schema": ERROR_SCHEMA}}}
    for status, text in _DESCRIPTIONS.items()
}

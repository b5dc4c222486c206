"""OpenAPI declarations shared by the routers: every error answers a JSON:API error document."""

from __future__ import annotations

from typing import Any

from ..jsonapi import MEDIA_TYPE

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

_POSITION = {"type": "array", "items": {"type": "number"}, "minItems": 2}

#: The body of ``map_geojson``: an RFC 7946 FeatureCollection of Points and LineStrings whose
#: properties name their ``feature_type``.
FEATURE_COLLECTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type", "features"],
    "properties": {
        "type": {"type": "string", "enum": ["FeatureCollection"]},
        "features": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["type", "geometry", "properties"],
                "properties": {
                    "type": {"type": "string", "enum": ["Feature"]},
                    "geometry": {
                        "type": "object",
                        "required": ["type", "coordinates"],
                        "properties": {
                            "type": {"type": "string", "enum": ["Point", "LineString"]},
                            "coordinates": {
                                "anyOf": [_POSITION, {"type": "array", "items": _POSITION}]
                            },
                        },
                    },
                    "properties": {
                        "type": "object",
                        "required": ["feature_type"],
                        "properties": {
                            "feature_type": {
                                "type": "string",
                                "enum": [
                                    "port",
                                    "current_vessel",
                                    "past_vessel_locations",
                                    "estimated_full_legs",
                                    "estimated_partial_leg",
                                ],
                            }
                        },
                    },
                },
            },
        },
    },
}

_DESCRIPTIONS = {
    400: "Malformed query parameter or body",
    401: "Missing or invalid API key",
    403: "Feature not enabled for the account",
    404: "No such resource in the caller's account",
    406: "Unsupported Accept media type parameters",
    409: "data.type or data.id of the request document does not match the operation",
    413: "Request body larger than the configured limit",
    415: "Request body not sent as JSON:API (or JSON)",
    422: "Well-formed but unprocessable",
    429: "Rate limit exceeded",
}


def error_response(status: int) -> dict[str, Any]:
    """The declaration of an error answer: a JSON:API error document."""
    return {"description": _DESCRIPTIONS[status], "content": {MEDIA_TYPE: {"schema": ERROR_SCHEMA}}}


#: The ``responses=`` of every route: what any operation may answer (writes may also answer
#: 409, 413 and 415, which the document adds to them: see ``api.openapi``).
ERRORS: dict[int | str, dict[str, Any]] = {
    status: error_response(status) for status in (400, 401, 403, 404, 406, 422, 429)
}

#: A document with top-level ``meta`` only: the answer to a deletion.
META_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["meta"],
    "properties": {"meta": {"type": "object"}},
}
#: ``PATCH /containers/{id}/refresh``: a message.
MESSAGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["message"],
    "properties": {"message": {"type": "string"}},
}
#: ``GET /webhooks/ips``: the addresses deliveries leave from.
IPS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["webhook_notification_ips", "last_updated"],
    "properties": {
        "webhook_notification_ips": {"type": "array", "items": {"type": "string"}},
        "last_updated": {"type": "string", "format": "date-time"},
    },
}
#: ``POST /webhooks/trigger``: what was sent and what came back.
TRIAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["url", "succeeded", "request_headers", "request_body"],
    "properties": {
        "url": {"type": "string"},
        "succeeded": {"type": "boolean"},
        "error": {"type": ["string", "null"]},
        "status_code": {"type": ["integer", "null"]},
        "request_headers": {"type": "object"},
        "request_body": {"type": "string"},
        "response_headers": {"type": ["object", "null"]},
        "response_body": {"type": ["string", "null"]},
        "secret": {"type": "string"},
    },
}


def answering(schema: dict[str, Any], text: str) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of an operation whose 200 body is not a resource document."""
    return {
        **ERRORS,
        200: {"description": text, "content": {MEDIA_TYPE: {"schema": schema}}},
    }


def resource_answer(type_: str, attributes: dict[str, Any], text: str) -> dict[int | str, Any]:
    """``responses=`` entry of an operation whose 200 body is one resource of ``type_`` with
    these ``attributes`` (a schema), declared exactly rather than as any resource."""
    data = {
        "type": "object",
        "required": ["id", "type", "attributes"],
        "properties": {
            "id": {"type": "string"},
            "type": {"type": "string", "enum": [type_]},
            "attributes": attributes,
            "links": {"type": "object"},
        },
    }
    schema = {
        "type": "object",
        "required": ["data"],
        "properties": {"data": data, "links": {"type": "object"}},
    }
    return {200: {"description": text, "content": {MEDIA_TYPE: {"schema": schema}}}}


#: The ``responses=`` of a deletion answered 200 with ``meta``.
DELETED = answering(META_SCHEMA, "Deleted; a document with meta only")

"""The OpenAPI document of ``/v2``: FastAPI's, made to say exactly what the service accepts and
answers (JSON:API media types, the error answers of each kind of operation, query parameters as
clients send them, the carriers a tracking request may name)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from ..service.reference import lookups
from .bodies import COMPONENTS, SCAC
from .geojson import GEOJSON
from .jsonapi import MEDIA_TYPE
from .routers.responses import DOCUMENT_SCHEMA, error_response

PLAIN_JSON = "application/json"
_WRITES = frozenset({"post", "patch", "put"})


def document(app: FastAPI) -> dict[str, Any]:
    """The document (built once per app)."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    for path in schema.get("paths", {}).values():
        for method, operation in path.items():
            _responses(operation, write=method in _WRITES)
            for parameter in operation.get("parameters", []):
                _parameter(parameter)
            _request_body(operation)
            operation.setdefault("security", [{"Token": []}])
    components = schema.setdefault("components", {})
    components["securitySchemes"] = {
        "Token": {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Token <api key>",
        }
    }
    components.setdefault("schemas", {}).update(COMPONENTS)
    components["schemas"][SCAC] = scac_schema()
    app.openapi_schema = schema
    return schema


def scac_schema() -> dict[str, Any]:
    """The SCACs a tracking request may name: each shipped carrier's and its alternatives."""
    return {
        "type": "string",
        "enum": list(lookups.carrier_codes()),
        "description": "a carrier's SCAC (any case); GET /v2/shipping_lines lists the carriers",
    }


def _responses(operation: dict[str, Any], *, write: bool) -> None:
    """JSON:API media types; a success is a JSON:API document; a write may also be refused for
    its media type (415), its size (413) or a ``data.type``/``data.id`` that does not match
    (409)."""
    responses = operation.setdefault("responses", {})
    for status, response in responses.items():
        content = response.get("content", {})
        if PLAIN_JSON in content and GEOJSON not in content:  # a map answers plain JSON too
            content[MEDIA_TYPE] = content.pop(PLAIN_JSON)
            content[MEDIA_TYPE].setdefault("schema", {"type": "object"})
        # FastAPI declares the body of a response class other than JSONResponse as a plain
        # string; a success here is always a JSON:API document.
        media = content.get(MEDIA_TYPE) if str(status).startswith("2") else None
        if media is not None and media.get("schema") in (None, {"type": "string"}):
            media["schema"] = DOCUMENT_SCHEMA
    if write:
        statuses = (409, 413, 415) if "requestBody" in operation else (413, 415)
        for status in statuses:
            responses.setdefault(str(status), error_response(status))


def _parameter(parameter: dict[str, Any]) -> None:
    """A query parameter's schema as a client sends it: never null (leaving it out is how to
    say nothing), a list comma-separated, an enumeration by its values."""
    schema = parameter.get("schema", {})
    branches = schema.pop("anyOf", None)
    if branches is not None:
        kept = [branch for branch in branches if branch != {"type": "null"}]
        schema = kept[0] | schema if len(kept) == 1 else {"anyOf": kept, **schema}
    schema.pop("title", None)
    if "enum" in schema:
        schema.pop("pattern", None)  # the pattern FastAPI checks spells the same values
    if schema.get("type") == "array":
        parameter["style"], parameter["explode"] = "form", False
    parameter["schema"] = schema


def _request_body(operation: dict[str, Any]) -> None:
    """The body's schema without FastAPI's title, accepted as JSON:API or as plain JSON."""
    content = operation.get("requestBody", {}).get("content", {})
    media = content.get(MEDIA_TYPE)
    if media is None:
        return
    media.get("schema", {}).pop("title", None)
    content[PLAIN_JSON] = dict(media)

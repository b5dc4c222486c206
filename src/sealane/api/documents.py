"""Reading JSON:API request documents: the ``data`` object, its type, id and attributes."""

from __future__ import annotations

from typing import Any

from .errors import Conflict, Unprocessable


def attributes_of(payload: Any, type_: str, *, id_: str | None = None) -> dict[str, Any]:
    """The ``data.attributes`` of a write request for ``type_`` (and ``id_`` for updates).

    A wrong ``data.type`` or ``data.id`` is a 409 (JSON:API); a malformed document a 422.
    """
    if not isinstance(payload, dict) or not isinstance(payload.get("data"), dict):
        raise Unprocessable("the document must have a data object", pointer="/data", code="invalid")
    data = payload["data"]
    if data.get("type") != type_:
        raise Conflict(
            f"data.type must be {type_!r}, got {data.get('type')!r}",
            pointer="/data/type",
            code="type_mismatch",
        )
    if id_ is not None and "id" in data and data["id"] != id_:
        raise Conflict(
            f"data.id {data['id']!r} does not match the URL", pointer="/data/id", code="id_mismatch"
        )
    attributes = data.get("attributes", {})
    if not isinstance(attributes, dict):
        raise Unprocessable(
            "data.attributes must be an object", pointer="/data/attributes", code="invalid"
        )
    return attributes

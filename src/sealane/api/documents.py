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


def relationship(payload: Any, name: str) -> tuple[str, str] | None:
    """The (type, id) in ``data.relationships.<name>`` of a write request (None when absent or
    null); a malformed relationship is a 422."""
    data = payload.get("data") if isinstance(payload, dict) else None
    relationships = data.get("relationships") if isinstance(data, dict) else None
    if relationships is None:
        return None
    if not isinstance(relationships, dict):
        raise Unprocessable(
            "data.relationships must be an object", pointer="/data/relationships", code="invalid"
        )
    given = relationships.get(name)
    linkage = given.get("data", 0) if isinstance(given, dict) else (None if given is None else 0)
    if linkage is None:
        return None
    if (
        not isinstance(linkage, dict)
        or not isinstance(linkage.get("id"), str)
        or not isinstance(linkage.get("type"), str)
    ):
        raise Unprocessable(
            f"{name} must be {{data: {{type, id}}}}",
            pointer=f"/data/relationships/{name}",
            code="invalid",
        )
    return linkage["type"], linkage["id"]


def relationship_id(payload: Any, name: str, type_: str) -> str | None:
    """The id in ``data.relationships.<name>``, which must name a ``type_`` (409 otherwise)."""
    found = relationship(payload, name)
    if found is None:
        return None
    if found[0] != type_:
        raise Conflict(
            f"{name} must be a {type_}, got {found[0][:40]!r}",
            pointer=f"/data/relationships/{name}/data/type",
            code="type_mismatch",
        )
    return found[1]

"""The building blocks of a JSON:API document: resource objects, relationships, timestamps."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def resource(
    type_: str,
    id_: str,
    attributes: Mapping[str, Any],
    *,
    relationships: Mapping[str, Any] | None = None,
    links: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A resource object."""
    obj: dict[str, Any] = {"id": id_, "type": type_, "attributes": dict(attributes)}
    if relationships:
        obj["relationships"] = dict(relationships)
    if links:
        obj["links"] = dict(links)
    return obj


def to_one(type_: str, id_: str | None) -> dict[str, Any]:
    """A to-one relationship object (``data`` null when there is none)."""
    return {"data": {"type": type_, "id": id_} if id_ else None}


def to_many(type_: str, ids: Iterable[str]) -> dict[str, Any]:
    """A to-many relationship object."""
    return {"data": [{"type": type_, "id": id_} for id_ in ids]}

"""The frame of a JSON:API request document's schema, and the components the bodies share."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from fastapi import Body

from ...service.core.inputs import MAX_ENTRY_CHARS, MAX_LIST_ENTRIES
from ...vocabulary.events import EVENT_NAMES
from ..jsonapi import MEDIA_TYPE
from ..regexes import nullable, stripped

#: Where the components named here live in the document.
REF = "#/components/schemas/"
#: A carrier's SCAC: filled in from the shipping lines table when the document is built.
SCAC = "Scac"


def ref(name: str) -> dict[str, Any]:
    """A reference to the component ``name``."""
    return {"$ref": REF + name}


#: Components every document has (``Scac`` is added by ``openapi.document``).
COMPONENTS: dict[str, dict[str, Any]] = {
    "StringList": nullable(
        {
            "type": "array",
            "maxItems": MAX_LIST_ENTRIES,
            "items": {"type": "string", "pattern": stripped(MAX_ENTRY_CHARS)},
            "description": f"1 to {MAX_ENTRY_CHARS} characters each (surrounding whitespace "
            "is removed, repeats are dropped); null is an empty list",
        }
    ),
    "EventName": {"type": "string", "enum": list(EVENT_NAMES)},
}
STRING_LIST = ref("StringList")


def resource(
    type_: str,
    attributes: Mapping[str, Any],
    *,
    required: Collection[str] = (),
    update: bool = False,
    relationships: Mapping[str, Any] | None = None,
    required_relationships: Collection[str] = (),
    rules: Mapping[str, Any] | None = None,
    example: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A JSON:API document of one ``type_`` resource whose ``attributes`` have these schemas and
    no others (``required`` among them; ``rules`` adds keywords to the attributes object), and
    these ``relationships`` (others are not read); ``example`` is a valid set of attributes
    (shown in the document, and sent by schemathesis' examples phase).

    An ``update`` may name the resource's ``id``, which must then be the one in the path (409).
    """
    members: dict[str, Any] = {
        "type": "object",
        "properties": dict(attributes),
        "additionalProperties": False,
        **(rules or {}),
    }
    if required:
        members["required"] = list(required)
    properties: dict[str, Any] = {"type": {"type": "string", "enum": [type_]}}
    if update:
        properties["id"] = {"type": "string", "description": "the id in the path, if given"}
    properties["attributes"] = members
    needed = ["type", "attributes"] if required else ["type"]
    if relationships:
        linked: dict[str, Any] = {"type": "object", "properties": dict(relationships)}
        if required_relationships:
            linked["required"] = list(required_relationships)
            needed.append("relationships")
        properties["relationships"] = linked if required_relationships else nullable(linked)
    data = {"type": "object", "required": needed}
    document: dict[str, Any] = {
        "type": "object",
        "required": ["data"],
        "properties": {"data": {**data, "properties": properties}},
    }
    if example is not None:
        document["examples"] = [{"data": {"type": type_, "attributes": dict(example)}}]
    return document


def to_one(*types: str, required: bool = False) -> dict[str, Any]:
    """A to-one relationship naming a resource of one of ``types`` (null: none, unless
    ``required``)."""
    linkage = {
        "type": "object",
        "required": ["type", "id"],
        "properties": {"type": {"type": "string", "enum": list(types)}, "id": {"type": "string"}},
    }
    relationship = {
        "type": "object",
        "required": ["data"],
        "properties": {"data": linkage if required else nullable(linkage)},
    }
    return relationship if required else nullable(relationship)


def body(schema: dict[str, Any]) -> Any:
    """The declaration of a request body with ``schema`` (documented only: the application
    layer checks the body, with error codes of its own)."""
    return Body(media_type=MEDIA_TYPE, json_schema_extra=schema)

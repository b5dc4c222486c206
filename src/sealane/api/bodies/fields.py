"""Bodies of the custom field operations: definitions, their options, and values on objects."""

from __future__ import annotations

from typing import Any

from ...service.fields import definitions, options
from ...service.fields.types import DATA_TYPES, ENTITY_TYPES, MAX_TEXT_CHARS
from ..regexes import RFC3339, nullable, text
from .document import resource, to_one

SLUG = {
    "type": "string",
    "pattern": "^[a-z][a-z0-9_]{0,63}$",
    "description": "lower-case letters, digits and underscores, starting with a letter",
}
#: A stored value of each data type (null clears it), as a definition's default takes it; an
#: enumeration's default is any option value or values (the options usually come later).
_DEFAULTS: dict[str, dict[str, Any]] = {
    "short_text": text(MAX_TEXT_CHARS),
    "number": {"type": "number"},
    "date": {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
    "datetime": {"type": "string", "format": "date-time", "maxLength": 40, "pattern": RFC3339},
    "boolean": {"type": "boolean"},
    "enum": {"type": ["string", "array"], "items": {"type": "string"}},
    "enum_multi": {"type": ["string", "array"], "items": {"type": "string"}},
    "reference": text(64, blank=False),
}
VALIDATION = nullable(
    {
        "type": "object",
        "description": "bounds of numbers; longest text and a Python regular expression for "
        "short texts (other members are kept, not applied)",
        "properties": {
            "min": {"type": "number"},
            "max": {"type": "number"},
            "max_length": {"type": "integer", "minimum": 1},
            "pattern": {"type": "string", "format": "regex"},
        },
    }
)
_EDITABLE: dict[str, Any] = {
    "display_name": text(definitions.MAX_NAME_CHARS, blank=False),
    "description": nullable(text(2000)),
    "validation": VALIDATION,
    "default_format": nullable(text(64)),
    "default_value": {"description": "a value of the definition's data type"},
}
NEW_DEFINITION = resource(
    "custom_field_definition",
    {
        "entity_type": {"type": "string", "enum": list(ENTITY_TYPES)},
        "api_slug": SLUG,
        "data_type": {"type": "string", "enum": list(DATA_TYPES)},
        "reference_type": nullable(text(64)),
        **_EDITABLE,
    },
    required=("entity_type", "api_slug", "data_type", "display_name"),
    example={
        "entity_type": "Shipment",
        "api_slug": "po_number",
        "data_type": "short_text",
        "display_name": "PO number",
    },
    rules={
        "anyOf": [
            {
                "properties": {
                    "data_type": {"const": data_type},
                    "default_value": nullable(_DEFAULTS[data_type]),
                }
            }
            for data_type in DATA_TYPES
        ]
    },
)
DEFINITION_CHANGES = resource("custom_field_definition", _EDITABLE, update=True)

_LABEL = text(options.MAX_CHARS, blank=False)
_POSITION = nullable({"type": "integer"})
NEW_OPTION = resource(
    "custom_field_option",
    {"label": _LABEL, "value": _LABEL, "position": _POSITION},
    required=("label", "value"),
    example={"label": "High", "value": "high", "position": 1},
)
OPTION_CHANGES = resource(
    "custom_field_option", {"label": _LABEL, "position": _POSITION}, update=True
)

_VALUE = {"description": "a value of the field's data type (null clears it)"}
#: ``POST /custom_fields``: a value on the object ``relationships.entity`` names.
NEW_FIELD = resource(
    "custom_field",
    {"api_slug": SLUG, "value": _VALUE},
    required=("api_slug", "value"),
    relationships={"entity": to_one(*ENTITY_TYPES.values(), required=True)},
    required_relationships=("entity",),
)
#: ``POST /<collection>/{id}/custom_fields``: a value on that object.
NEW_OBJECT_FIELD = resource(
    "custom_field", {"api_slug": SLUG, "value": _VALUE}, required=("api_slug", "value")
)
FIELD_CHANGE = resource("custom_field", {"value": _VALUE}, required=("value",), update=True)
#: ``PATCH /<collection>/{id}/custom_fields/{api_slug}``: the path names the field.
OBJECT_FIELD_CHANGE = resource("custom_field", {"value": _VALUE}, required=("value",))

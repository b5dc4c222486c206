"""Resource objects of an account's own data: parties and custom fields."""

from __future__ import annotations

from typing import Any

from ..clock import utc_iso
from ..service.fields.records import CustomFieldRecord, DefinitionRecord, OptionRecord
from ..service.tracking.records import PartyRecord
from .objects import resource, to_one


def party_resource(party: PartyRecord, base_url: str) -> dict[str, Any]:
    """A ``party`` resource."""
    return resource(
        "party",
        party.id,
        {
            "company_name": party.company_name,
            "created_at": utc_iso(party.created_at),
            "updated_at": utc_iso(party.updated_at),
        },
        links={"self": f"{base_url}/parties/{party.id}"},
    )


def definition_resource(definition: DefinitionRecord, base_url: str) -> dict[str, Any]:
    """A ``custom_field_definition`` resource."""
    return resource(
        "custom_field_definition",
        definition.id,
        {
            "entity_type": definition.entity_type,
            "api_slug": definition.api_slug,
            "display_name": definition.display_name,
            "description": definition.description,
            "data_type": definition.data_type,
            "reference_type": definition.reference_type,
            "validation": definition.validation,
            "default_format": definition.default_format,
            "default_value": definition.default_value,
            "created_at": utc_iso(definition.created_at),
            "updated_at": utc_iso(definition.updated_at),
        },
        links={"self": f"{base_url}/custom_field_definitions/{definition.id}"},
    )


def option_resource(option: OptionRecord, base_url: str) -> dict[str, Any]:
    """A ``custom_field_option`` resource."""
    return resource(
        "custom_field_option",
        option.id,
        {
            "label": option.label,
            "value": option.value,
            "position": option.position,
            "created_at": utc_iso(option.created_at),
        },
        relationships={"definition": to_one("custom_field_definition", option.definition_id)},
        links={
            "self": f"{base_url}/custom_field_definitions/{option.definition_id}"
            f"/options/{option.id}"
        },
    )


def custom_field_resource(field: CustomFieldRecord, base_url: str) -> dict[str, Any]:
    """A ``custom_field`` resource: a value on a shipment, container or tracking request."""
    return resource(
        "custom_field",
        field.id,
        {
            "api_slug": field.api_slug,
            "value": field.value,
            "display_value": field.display_value,
            "created_at": utc_iso(field.created_at),
            "updated_at": utc_iso(field.updated_at),
        },
        relationships={
            "entity": to_one(field.entity_type, field.entity_id),
            "definition": to_one("custom_field_definition", field.definition_id),
        },
        links={"self": f"{base_url}/custom_fields/{field.id}"},
    )

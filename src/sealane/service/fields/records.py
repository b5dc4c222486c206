"""Read models of custom fields: definitions, their options, and values on objects."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class DefinitionRecord:
    """A custom field an account defined for one kind of object (``entity_type``)."""

    id: str
    entity_type: str
    api_slug: str
    display_name: str
    description: str | None
    data_type: str
    reference_type: str | None
    validation: dict[str, Any] | None
    default_format: str | None
    default_value: Any
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class OptionRecord:
    """One allowed value (and its label) of an ``enum`` or ``enum_multi`` definition."""

    id: str
    definition_id: str
    label: str
    value: str
    position: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class CustomFieldRecord:
    """A custom field's value on one object, with its value for display."""

    id: str
    definition_id: str
    api_slug: str
    entity_type: str
    entity_id: str
    value: Any
    display_value: str | None
    created_at: datetime
    updated_at: datetime

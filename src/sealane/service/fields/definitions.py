"""Custom field definitions: list, read, create, change and delete (values and options go too)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from ...store.models import CustomFieldDefinition
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput
from ..core.inputs import check_text, editable_only
from ..core.paging import Page, PageRequest
from ..core.queries import fetch_page, like_pattern, owned
from .conflicts import unique
from .records import DefinitionRecord
from .types import (
    DATA_TYPES,
    ENTITY_TYPES,
    ENUMERATIONS,
    check_slug,
    check_validation,
    check_value,
)

EDITABLE = ("display_name", "description", "validation", "default_format", "default_value")
CREATABLE = ("entity_type", "api_slug", "data_type", "reference_type", *EDITABLE)
MAX_NAME_CHARS = 200
#: The unique constraint on a slug per account and kind of object.
SLUG_CONSTRAINT = "uq_custom_field_slug"


@dataclass(frozen=True, slots=True)
class DefinitionFilter:
    """Filters of the definition list; None means any (``display_name`` is a prefix)."""

    entity_type: str | None = None
    data_type: str | None = None
    display_name: str | None = None


@dataclass(frozen=True, slots=True)
class DefinitionChanges:
    """Checked attributes of a definition to create or change (only those given)."""

    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, attributes: Mapping[str, Any], *, new: bool = False) -> DefinitionChanges:
        """Checked from untyped attributes; a ``new`` definition needs its type, slug and name."""
        editable_only(attributes, CREATABLE if new else EDITABLE)
        values: dict[str, Any] = {}
        if new:
            values["entity_type"] = _choice(
                attributes.get("entity_type"), ENTITY_TYPES, "entity_type"
            )
            values["data_type"] = _choice(attributes.get("data_type"), DATA_TYPES, "data_type")
            values["api_slug"] = check_slug(attributes.get("api_slug"))
            values["reference_type"] = _optional_text(
                attributes.get("reference_type"), "reference_type", 64
            )
            if "display_name" not in attributes:
                raise InvalidInput("display_name is required", field="display_name")
        if "display_name" in attributes:
            name = _optional_text(attributes["display_name"], "display_name", MAX_NAME_CHARS)
            if name is None or not name.strip():
                raise InvalidInput("display_name must be a non-blank text", field="display_name")
            values["display_name"] = name.strip()
        if "description" in attributes:
            values["description"] = _optional_text(attributes["description"], "description", 2000)
        if "default_format" in attributes:
            values["default_format"] = _optional_text(
                attributes["default_format"], "default_format", 64
            )
        if "validation" in attributes:
            values["validation"] = check_validation(attributes["validation"])
        if "default_value" in attributes:
            values["default_value"] = attributes["default_value"]
        return cls(values)


def list_definitions(
    ctx: ServiceContext, caller: Caller, filters: DefinitionFilter, page: PageRequest
) -> Page[DefinitionRecord]:
    """The account's definitions, oldest first."""
    query = select(CustomFieldDefinition).where(
        CustomFieldDefinition.account_id == caller.account_id
    )
    if filters.entity_type is not None:
        query = query.where(CustomFieldDefinition.entity_type == filters.entity_type)
    if filters.data_type is not None:
        query = query.where(CustomFieldDefinition.data_type == filters.data_type)
    if filters.display_name is not None:
        pattern = like_pattern(filters.display_name, prefix=True)
        name = func.lower(CustomFieldDefinition.display_name)
        query = query.where(name.like(pattern, escape="\\"))
    query = query.order_by(CustomFieldDefinition.created_at, CustomFieldDefinition.id)
    with ctx.reading() as session:
        total, rows = fetch_page(session, query, page)
        return Page(tuple(definition_record(row) for row in rows), total, page)


def get_definition(ctx: ServiceContext, caller: Caller, definition_id: str) -> DefinitionRecord:
    """One of the account's definitions."""
    with ctx.reading() as session:
        return definition_record(_owned(session, caller, definition_id))


def create_definition(
    ctx: ServiceContext, caller: Caller, changes: DefinitionChanges
) -> DefinitionRecord:
    """A new definition; its ``api_slug`` is unique among the account's fields of that type."""
    values = dict(changes.values)
    _check_default(values["data_type"], values.get("default_value"))
    now = ctx.clock.now()

    def duplicate() -> InvalidInput:
        return InvalidInput(
            f"{values['entity_type']} already has a field {values['api_slug']!r}",
            field="api_slug",
            code="duplicate",
        )

    with unique(CustomFieldDefinition, SLUG_CONSTRAINT, duplicate), ctx.writing() as session:
        taken = session.scalar(
            select(CustomFieldDefinition.id).where(
                CustomFieldDefinition.account_id == caller.account_id,
                CustomFieldDefinition.entity_type == values["entity_type"],
                CustomFieldDefinition.api_slug == values["api_slug"],
            )
        )
        if taken is not None:
            raise duplicate()
        row = CustomFieldDefinition(
            account_id=caller.account_id, created_at=now, updated_at=now, **values
        )
        session.add(row)
        session.flush()
        return definition_record(row)


def update_definition(
    ctx: ServiceContext, caller: Caller, definition_id: str, changes: DefinitionChanges
) -> DefinitionRecord:
    """Change a definition's name, description, validation, format or default value."""
    with ctx.writing() as session:
        row = _owned(session, caller, definition_id)
        if "default_value" in changes.values:
            _check_default(row.data_type, changes.values["default_value"])
        for name, value in changes.values.items():
            setattr(row, name, value)
        row.updated_at = ctx.clock.now()
        session.flush()
        return definition_record(row)


def delete_definition(ctx: ServiceContext, caller: Caller, definition_id: str) -> None:
    """Remove a definition with its options and every value of it."""
    with ctx.writing() as session:
        session.delete(_owned(session, caller, definition_id))


def definition_record(row: CustomFieldDefinition) -> DefinitionRecord:
    """The record of a definition row."""
    return DefinitionRecord(
        id=row.id,
        entity_type=row.entity_type,
        api_slug=row.api_slug,
        display_name=row.display_name,
        description=row.description,
        data_type=row.data_type,
        reference_type=row.reference_type,
        validation=dict(row.validation) if row.validation is not None else None,
        default_format=row.default_format,
        default_value=row.default_value,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _owned(session: Any, caller: Caller, definition_id: str) -> CustomFieldDefinition:
    return owned(
        session, CustomFieldDefinition, definition_id, caller.account_id, "custom field definition"
    )


def _check_default(data_type: str, value: Any) -> None:
    """A default of the definition's type (an enumeration's default is not checked against its
    options, which are usually added after the definition)."""
    if data_type in ENUMERATIONS:
        shape_ok = (
            value is None
            or isinstance(value, str)
            or (isinstance(value, list) and all(isinstance(item, str) for item in value))
        )
        if not shape_ok:
            raise InvalidInput("default_value must be an option value", field="default_value")
        return
    check_value(data_type, value, field="default_value")


def _choice(value: Any, allowed: Any, field: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInput(f"{field} must be one of {', '.join(allowed)}", field=field)
    return value


def _optional_text(value: Any, field: str, max_chars: int) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > max_chars:
        raise InvalidInput(f"{field} must be a text of at most {max_chars} characters", field=field)
    return check_text(value, field)

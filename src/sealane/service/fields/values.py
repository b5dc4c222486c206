"""Custom field values on shipments, containers and tracking requests: by id, or by an object
and a field's ``api_slug``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...store.models import (
    Container,
    CustomField,
    CustomFieldDefinition,
    CustomFieldOption,
    Shipment,
    TrackingRequest,
)
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput, ObjectNotFound
from ..core.paging import Page, PageRequest
from ..core.queries import fetch_page, owned
from .conflicts import unique
from .records import CustomFieldRecord
from .types import ENTITY_TYPES, ENUMERATIONS, check_value, display_value

#: Resource type of each kind of object that carries custom fields, and its table.
ENTITY_MODELS: dict[str, type[Shipment | Container | TrackingRequest]] = {
    "shipment": Shipment,
    "container": Container,
    "tracking_request": TrackingRequest,
}
#: A definition's ``entity_type`` by the resource type of its objects.
DEFINITION_TYPES = {resource: name for name, resource in ENTITY_TYPES.items()}
#: The unique constraint on one value of a field per object.
PER_ENTITY_CONSTRAINT = "uq_custom_field_per_entity"


@dataclass(frozen=True, slots=True)
class Entity:
    """An object custom fields are set on: its resource ``type`` and ``id``."""

    type: str
    id: str

    def __post_init__(self) -> None:
        if self.type not in ENTITY_MODELS:
            raise InvalidInput(
                f"custom fields are set on {', '.join(ENTITY_MODELS)}, not {self.type!r}",
                field="entity",
            )


@dataclass(frozen=True, slots=True)
class FieldFilter:
    """Filters of the value list; ``entity_type`` is a definition's (``Shipment``) or a
    resource type (``shipment``); None means any."""

    entity_type: str | None = None
    entity_id: str | None = None
    definition_id: str | None = None


def list_fields(
    ctx: ServiceContext, caller: Caller, filters: FieldFilter, page: PageRequest
) -> Page[CustomFieldRecord]:
    """The account's custom field values, oldest first."""
    query = select(CustomField).where(CustomField.account_id == caller.account_id)
    if filters.entity_type is not None:
        kind = ENTITY_TYPES.get(filters.entity_type, filters.entity_type)
        query = query.where(CustomField.entity_type == kind)
    if filters.entity_id is not None:
        query = query.where(CustomField.entity_id == filters.entity_id)
    if filters.definition_id is not None:
        query = query.where(CustomField.definition_id == filters.definition_id)
    with ctx.reading() as session:
        total, rows = fetch_page(session, _ordered(query), page)
        return Page(tuple(field_records(session, rows)), total, page)


def entity_fields(
    ctx: ServiceContext, caller: Caller, entity: Entity, page: PageRequest
) -> Page[CustomFieldRecord]:
    """The custom field values of one of the account's objects."""
    query = select(CustomField).where(CustomField.entity_id == entity.id)
    with ctx.reading() as session:
        _entity(session, caller, entity)
        total, rows = fetch_page(session, _ordered(query), page)
        return Page(tuple(field_records(session, rows)), total, page)


def get_field(ctx: ServiceContext, caller: Caller, field_id: str) -> CustomFieldRecord:
    """One of the account's custom field values."""
    with ctx.reading() as session:
        row = owned(session, CustomField, field_id, caller.account_id, "custom field")
        return field_records(session, [row])[0]


def create_field(
    ctx: ServiceContext, caller: Caller, entity: Entity, api_slug: str, value: Any
) -> CustomFieldRecord:
    """Set the field ``api_slug`` on an object that has none yet (422 ``duplicate`` if it has)."""
    now = ctx.clock.now()

    def duplicate() -> InvalidInput:
        return InvalidInput(
            f"the {entity.type} has a {api_slug} field already; change it instead",
            field="api_slug",
            code="duplicate",
        )

    with unique(CustomField, PER_ENTITY_CONSTRAINT, duplicate), ctx.writing() as session:
        _entity(session, caller, entity)
        definition = find_definition(session, caller.account_id, entity.type, api_slug)
        stored = checked_value(session, definition, value)
        exists = session.scalar(
            select(CustomField.id).where(
                CustomField.definition_id == definition.id, CustomField.entity_id == entity.id
            )
        )
        if exists is not None:
            raise duplicate()
        row = CustomField(
            account_id=caller.account_id,
            definition_id=definition.id,
            entity_type=entity.type,
            entity_id=entity.id,
            value=stored,
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        session.flush()
        return field_records(session, [row])[0]


def update_field(
    ctx: ServiceContext, caller: Caller, field_id: str, value: Any
) -> CustomFieldRecord:
    """Change the value of one of the account's custom fields."""
    with ctx.writing() as session:
        row = owned(session, CustomField, field_id, caller.account_id, "custom field")
        return _set(ctx, session, row, value)


def update_entity_field(
    ctx: ServiceContext, caller: Caller, entity: Entity, api_slug: str, value: Any
) -> CustomFieldRecord:
    """Change the value of the field ``api_slug`` on an object."""
    with ctx.writing() as session:
        return _set(ctx, session, _by_slug(session, caller, entity, api_slug), value)


def delete_field(ctx: ServiceContext, caller: Caller, field_id: str) -> None:
    """Remove one of the account's custom field values."""
    with ctx.writing() as session:
        session.delete(owned(session, CustomField, field_id, caller.account_id, "custom field"))


def delete_entity_field(ctx: ServiceContext, caller: Caller, entity: Entity, api_slug: str) -> None:
    """Remove the field ``api_slug`` from an object."""
    with ctx.writing() as session:
        session.delete(_by_slug(session, caller, entity, api_slug))


def find_definition(
    session: Session, account_id: str, entity_type: str, api_slug: Any
) -> CustomFieldDefinition:
    """The account's definition ``api_slug`` for objects of ``entity_type`` (a resource type)."""
    definition = (
        session.scalar(
            select(CustomFieldDefinition).where(
                CustomFieldDefinition.account_id == account_id,
                CustomFieldDefinition.entity_type == DEFINITION_TYPES[entity_type],
                CustomFieldDefinition.api_slug == api_slug,
            )
        )
        if isinstance(api_slug, str)
        else None
    )
    if definition is None:
        raise InvalidInput(
            f"no {entity_type} custom field is defined with api_slug {str(api_slug)[:64]!r}",
            field="api_slug",
            code="unknown_custom_field",
        )
    return definition


def checked_value(session: Session, definition: CustomFieldDefinition, value: Any) -> Any:
    """``value`` checked against ``definition`` (its options, for an enumeration)."""
    options: list[str] = []
    if definition.data_type in ENUMERATIONS:
        options = list(
            session.scalars(
                select(CustomFieldOption.value).where(
                    CustomFieldOption.definition_id == definition.id
                )
            )
        )
    return check_value(
        definition.data_type, value, options=options, validation=definition.validation
    )


def field_records(session: Session, rows: Sequence[CustomField]) -> list[CustomFieldRecord]:
    """Records of value rows, their definitions and option labels read once for all."""
    ids = sorted({row.definition_id for row in rows})
    definitions = (
        {
            d.id: d
            for d in session.scalars(
                select(CustomFieldDefinition).where(CustomFieldDefinition.id.in_(ids))
            )
        }
        if ids
        else {}
    )
    labels: dict[str, dict[str, str]] = defaultdict(dict)
    if ids:
        query = select(CustomFieldOption).where(CustomFieldOption.definition_id.in_(ids))
        for option in session.scalars(query):
            labels[option.definition_id][option.value] = option.label
    return [
        CustomFieldRecord(
            id=row.id,
            definition_id=row.definition_id,
            api_slug=definitions[row.definition_id].api_slug,
            entity_type=row.entity_type,
            entity_id=row.entity_id,
            value=row.value,
            display_value=display_value(
                definitions[row.definition_id].data_type, row.value, labels[row.definition_id]
            ),
            created_at=row.created_at,
            updated_at=row.updated_at,
        )
        for row in rows
    ]


def _set(ctx: ServiceContext, session: Session, row: CustomField, value: Any) -> CustomFieldRecord:
    definition = session.get(CustomFieldDefinition, row.definition_id)
    assert definition is not None  # the value goes with its definition (cascade)
    row.value = checked_value(session, definition, value)
    row.updated_at = ctx.clock.now()
    session.flush()
    return field_records(session, [row])[0]


def _by_slug(session: Session, caller: Caller, entity: Entity, api_slug: str) -> CustomField:
    _entity(session, caller, entity)
    row = session.scalar(
        select(CustomField)
        .join(CustomFieldDefinition, CustomFieldDefinition.id == CustomField.definition_id)
        .where(CustomField.entity_id == entity.id, CustomFieldDefinition.api_slug == api_slug)
    )
    if row is None or row.account_id != caller.account_id:
        raise ObjectNotFound("custom field", api_slug, by="api_slug")
    return row


def _entity(session: Session, caller: Caller, entity: Entity) -> None:
    owned(
        session,
        ENTITY_MODELS[entity.type],
        entity.id,
        caller.account_id,
        entity.type.replace("_", " "),
    )


def _ordered(query: Any) -> Any:
    return query.order_by(CustomField.created_at, CustomField.id)

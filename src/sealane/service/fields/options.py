"""Options of ``enum`` and ``enum_multi`` custom fields: list, read, add, relabel, remove."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...store.models import CustomFieldDefinition, CustomFieldOption
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput, ObjectNotFound
from ..core.inputs import check_text, editable_only
from ..core.paging import Page, PageRequest
from ..core.queries import fetch_page, owned
from .conflicts import unique
from .records import OptionRecord
from .types import ENUMERATIONS

EDITABLE = ("label", "position")
MAX_CHARS = 200
#: The unique constraint on an option's value within its definition.
VALUE_CONSTRAINT = "uq_custom_field_option_value"


@dataclass(frozen=True, slots=True)
class OptionChanges:
    """Checked attributes of an option to add or change (only those given)."""

    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, attributes: Mapping[str, Any], *, new: bool = False) -> OptionChanges:
        """Checked from untyped attributes; a ``new`` option needs a label and a value (the value
        cannot be changed later: stored fields refer to it)."""
        editable_only(attributes, ("value", *EDITABLE) if new else EDITABLE)
        values: dict[str, Any] = {}
        names = ("label", "value") if new else ("label",)
        for name in names:
            if new or name in attributes:
                values[name] = _text(attributes.get(name), name)
        if "position" in attributes:
            position = attributes["position"]
            if position is not None and (
                isinstance(position, bool) or not isinstance(position, int)
            ):
                raise InvalidInput("position must be an integer or null", field="position")
            values["position"] = position
        return cls(values)


def list_options(
    ctx: ServiceContext, caller: Caller, definition_id: str, page: PageRequest
) -> Page[OptionRecord]:
    """A definition's options by position (unpositioned last), then age."""
    query = (
        select(CustomFieldOption)
        .where(CustomFieldOption.definition_id == definition_id)
        .order_by(
            CustomFieldOption.position.is_(None),
            CustomFieldOption.position,
            CustomFieldOption.created_at,
            CustomFieldOption.id,
        )
    )
    with ctx.reading() as session:
        _definition(session, caller, definition_id)
        total, rows = fetch_page(session, query, page)
        return Page(tuple(option_record(row) for row in rows), total, page)


def get_option(
    ctx: ServiceContext, caller: Caller, definition_id: str, option_id: str
) -> OptionRecord:
    """One option of one of the account's definitions."""
    with ctx.reading() as session:
        return option_record(_option(session, caller, definition_id, option_id))


def create_option(
    ctx: ServiceContext, caller: Caller, definition_id: str, changes: OptionChanges
) -> OptionRecord:
    """Add an option to an enumeration; its value is unique within the definition."""
    value = changes.values["value"]

    def duplicate() -> InvalidInput:
        return InvalidInput(f"the option {value!r} exists already", field="value", code="duplicate")

    with unique(CustomFieldOption, VALUE_CONSTRAINT, duplicate), ctx.writing() as session:
        definition = _definition(session, caller, definition_id)
        if definition.data_type not in ENUMERATIONS:
            raise InvalidInput(
                f"a {definition.data_type} field has no options (only enum and enum_multi)",
                field="value",
                code="not_an_enumeration",
            )
        taken = session.scalar(
            select(CustomFieldOption.id).where(
                CustomFieldOption.definition_id == definition_id, CustomFieldOption.value == value
            )
        )
        if taken is not None:
            raise duplicate()
        row = CustomFieldOption(
            definition_id=definition_id, created_at=ctx.clock.now(), **changes.values
        )
        session.add(row)
        session.flush()
        return option_record(row)


def update_option(
    ctx: ServiceContext, caller: Caller, definition_id: str, option_id: str, changes: OptionChanges
) -> OptionRecord:
    """Change an option's label or position."""
    with ctx.writing() as session:
        row = _option(session, caller, definition_id, option_id)
        for name, value in changes.values.items():
            setattr(row, name, value)
        session.flush()
        return option_record(row)


def delete_option(ctx: ServiceContext, caller: Caller, definition_id: str, option_id: str) -> None:
    """Remove an option (stored values that chose it keep the value, shown without a label)."""
    with ctx.writing() as session:
        session.delete(_option(session, caller, definition_id, option_id))


def option_record(row: CustomFieldOption) -> OptionRecord:
    """The record of an option row."""
    return OptionRecord(
        row.id, row.definition_id, row.label, row.value, row.position, row.created_at
    )


def _definition(session: Session, caller: Caller, definition_id: str) -> CustomFieldDefinition:
    return owned(
        session, CustomFieldDefinition, definition_id, caller.account_id, "custom field definition"
    )


def _option(
    session: Session, caller: Caller, definition_id: str, option_id: str
) -> CustomFieldOption:
    _definition(session, caller, definition_id)
    plausible = 0 < len(option_id) <= 64 and "\x00" not in option_id
    row = session.get(CustomFieldOption, option_id) if plausible else None
    if row is None or row.definition_id != definition_id:
        raise ObjectNotFound("custom field option", option_id)
    return row


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_CHARS:
        raise InvalidInput(
            f"{field} must be a non-blank text of at most {MAX_CHARS} characters", field=field
        )
    return check_text(value.strip(), field)

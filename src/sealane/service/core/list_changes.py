"""New values of an object's reference numbers and tags, as tracking requests, shipments and
containers take them: checked from a client's attributes, then set on the stored row."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .errors import InvalidInput
from .inputs import editable_only, string_list


@dataclass(frozen=True, slots=True)
class ListChanges:
    """New values of an object's string lists; None leaves a list as it is."""

    ref_numbers: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None

    @classmethod
    def of(cls, attributes: Mapping[str, Any], editable: Collection[str]) -> ListChanges:
        """Checked from untyped attributes, refusing any outside ``editable``."""
        editable_only(attributes, editable)
        refs = attributes.get("ref_numbers")
        if "ref_number" in attributes:
            single = attributes["ref_number"]
            if single is not None and not isinstance(single, str):
                raise InvalidInput("ref_number must be a string or null", field="ref_number")
            refs = [single] if single is not None else []
        return cls(
            ref_numbers=string_list(refs, "ref_numbers")
            if {"ref_numbers", "ref_number"} & set(attributes)
            else None,
            tags=string_list(attributes["tags"], "tags") if "tags" in attributes else None,
        )


def apply_list_changes(row: Any, changes: ListChanges, now: datetime) -> None:
    """Set the lists ``changes`` gives on ``row`` and stamp it updated."""
    if changes.ref_numbers is not None:
        row.ref_numbers = list(changes.ref_numbers)
    if changes.tags is not None:
        row.tags = list(changes.tags)
    row.updated_at = now

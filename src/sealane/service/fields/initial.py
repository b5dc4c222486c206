"""Custom field values given with a tracking request, set on its shipment and containers once
the carrier has found them (``initial_custom_fields``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..core.errors import InvalidInput
from .values import checked_value, find_definition

FIELD = "initial_custom_fields"
#: Most values one request may give.
MAX_VALUES = 50


@dataclass(frozen=True, slots=True)
class InitialValue:
    """One value: the field's ``api_slug``, the value, and (for containers) which container
    by number (None: every container of the shipment)."""

    api_slug: str
    value: Any
    number: str | None = None


@dataclass(frozen=True, slots=True)
class InitialFields:
    """Values for the shipment and for its containers."""

    shipment: tuple[InitialValue, ...] = ()
    containers: tuple[InitialValue, ...] = ()

    @classmethod
    def of(cls, given: Any) -> InitialFields:
        """Checked in shape from the untyped attribute (values are checked by
        :meth:`resolved`, against the account's definitions)."""
        if given is None:
            return cls()
        if not isinstance(given, dict) or set(given) - {"shipment", "containers"}:
            raise InvalidInput(
                f"{FIELD} must be an object with shipment and containers", field=FIELD
            )
        parts = [_values(given.get(name), name) for name in ("shipment", "containers")]
        if sum(len(part) for part in parts) > MAX_VALUES:
            raise InvalidInput(f"{FIELD} may hold at most {MAX_VALUES} values", field=FIELD)
        return cls(*parts)

    def resolved(self, session: Session, account_id: str) -> dict[str, Any] | None:
        """The values checked against the account's definitions, as stored on the request."""
        if not self.shipment and not self.containers:
            return None
        try:
            return {
                "shipment": [_stored(session, account_id, "shipment", v) for v in self.shipment],
                "containers": [
                    _stored(session, account_id, "container", v) for v in self.containers
                ],
            }
        except InvalidInput as error:
            raise InvalidInput(f"{FIELD}: {error.detail}", field=FIELD, code=error.code) from None


def _values(items: Any, part: str) -> tuple[InitialValue, ...]:
    if items is None:
        return ()
    if not isinstance(items, list):
        raise InvalidInput(f"{FIELD}.{part} must be an array", field=FIELD)
    found = []
    for item in items:
        if not isinstance(item, dict) or "api_slug" not in item or "value" not in item:
            raise InvalidInput(f"each of {FIELD}.{part} needs api_slug and value", field=FIELD)
        number = item.get("number") if part == "containers" else None
        if number is not None and (not isinstance(number, str) or len(number) > 20):
            raise InvalidInput(f"{FIELD}.{part}: number must be a container number", field=FIELD)
        found.append(InitialValue(item["api_slug"], item["value"], number))
    return tuple(found)


def _stored(session: Session, account_id: str, kind: str, given: InitialValue) -> dict[str, Any]:
    definition = find_definition(session, account_id, kind, given.api_slug)
    stored: dict[str, Any] = {
        "definition_id": definition.id,
        "value": checked_value(session, definition, given.value),
    }
    if given.number is not None:
        stored["number"] = given.number
    return stored

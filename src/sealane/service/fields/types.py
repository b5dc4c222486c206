"""Data types of custom fields: checking a value against its definition, and displaying it."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from ...clock import utc_iso
from ..core.errors import InvalidInput
from ..core.inputs import check_text

DATA_TYPES = (
    "short_text",
    "number",
    "date",
    "datetime",
    "boolean",
    "enum",
    "enum_multi",
    "reference",
)
#: A definition's ``entity_type`` and the resource type of the objects it applies to.
ENTITY_TYPES = {
    "Shipment": "shipment",
    "Container": "container",
    "TrackingRequest": "tracking_request",
}
#: The data types whose values are chosen among the definition's options.
ENUMERATIONS = ("enum", "enum_multi")
#: Longest short text and reference; most values an ``enum_multi`` may hold.
MAX_TEXT_CHARS = 255
MAX_CHOICES = 50
#: ``validation`` keys sealane applies: bounds of numbers, longest text, a text pattern.
VALIDATION_KEYS = ("min", "max", "max_length", "pattern")
_SLUG = re.compile(r"[a-z][a-z0-9_]{0,63}")


def check_slug(value: Any, field: str = "api_slug") -> str:
    """An ``api_slug``: lower-case letters, digits and underscores, starting with a letter."""
    if not isinstance(value, str) or not _SLUG.fullmatch(value):
        raise InvalidInput(
            f"{field} must be 1 to 64 lower-case letters, digits or underscores, "
            "starting with a letter",
            field=field,
        )
    return value


def check_value(
    data_type: str,
    value: Any,
    *,
    options: Sequence[str] = (),
    validation: Mapping[str, Any] | None = None,
    field: str = "value",
) -> Any:
    """``value`` as stored for ``data_type`` (null clears a field); :class:`InvalidInput` names
    ``field`` when it is not one. ``options`` are the allowed values of the enumerations."""
    if value is None:
        return None
    checked = _CHECKS[data_type](value, field, options)
    _apply_validation(data_type, checked, validation or {}, field)
    return checked


def display_value(data_type: str, value: Any, labels: Mapping[str, str]) -> str | None:
    """``value`` for people: option labels for the enumerations, Yes/No, plain numbers."""
    if value is None:
        return None
    if data_type == "boolean":
        return "Yes" if value else "No"
    if data_type == "enum":
        return labels.get(value, str(value))
    if data_type == "enum_multi":
        return ", ".join(labels.get(item, item) for item in value)
    if data_type == "number":
        return f"{value:g}" if isinstance(value, float) else str(value)
    return str(value)


def _text(value: Any, field: str, _options: Sequence[str]) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT_CHARS:
        raise InvalidInput(
            f"{field} must be a text of at most {MAX_TEXT_CHARS} characters", field=field
        )
    return check_text(value, field)


def _number(value: Any, field: str, _options: Sequence[str]) -> int | float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{field} must be a number", field=field)
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidInput(f"{field} must be a finite number", field=field)
    return value


def _date(value: Any, field: str, _options: Sequence[str]) -> str:
    if isinstance(value, str) and len(value) == 10:
        try:
            return date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise InvalidInput(f"{field} must be a date, YYYY-MM-DD", field=field)


def _datetime(value: Any, field: str, _options: Sequence[str]) -> str:
    """An ISO 8601 date-time with a zone, stored in UTC to the second (``...Z``)."""
    if isinstance(value, str) and len(value) <= 40:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            moment = None
        if moment is not None and moment.tzinfo is not None:
            return utc_iso(moment)
    raise InvalidInput(f"{field} must be an ISO 8601 date-time with a time zone", field=field)


def _boolean(value: Any, field: str, _options: Sequence[str]) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{field} must be true or false", field=field)
    return value


def _enum(value: Any, field: str, options: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in options:
        raise InvalidInput(f"{field} must be one of the field's option values", field=field)
    return value


def _enum_multi(value: Any, field: str, options: Sequence[str]) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_CHOICES:
        raise InvalidInput(f"{field} must be an array of option values", field=field)
    for item in value:
        _enum(item, field, options)
    return list(dict.fromkeys(value))


def _reference(value: Any, field: str, _options: Sequence[str]) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 64:
        raise InvalidInput(f"{field} must be the id of the referenced object", field=field)
    return check_text(value, field)


_CHECKS = {
    "short_text": _text,
    "number": _number,
    "date": _date,
    "datetime": _datetime,
    "boolean": _boolean,
    "enum": _enum,
    "enum_multi": _enum_multi,
    "reference": _reference,
}


def check_validation(value: Any, field: str = "validation") -> dict[str, Any] | None:
    """A definition's ``validation`` object: the keys sealane applies, each of the right type."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidInput(f"{field} must be an object", field=field)
    for key, item in value.items():
        if key in ("min", "max") and (isinstance(item, bool) or not isinstance(item, int | float)):
            raise InvalidInput(f"{field}.{key} must be a number", field=field)
        if key == "max_length" and (
            isinstance(item, bool) or not isinstance(item, int) or item < 1
        ):
            raise InvalidInput(f"{field}.max_length must be a positive integer", field=field)
        if key == "pattern":
            try:
                re.compile(item)
            except (re.error, TypeError):
                raise InvalidInput(
                    f"{field}.pattern must be a regular expression", field=field
                ) from None
    return dict(value)


def _apply_validation(
    data_type: str, value: Any, validation: Mapping[str, Any], field: str
) -> None:
    """Bounds of numbers; longest text and a pattern for short texts."""
    if data_type == "number":
        if "min" in validation and value < validation["min"]:
            raise InvalidInput(f"{field} must be at least {validation['min']}", field=field)
        if "max" in validation and value > validation["max"]:
            raise InvalidInput(f"{field} must be at most {validation['max']}", field=field)
    if data_type == "short_text":
        if "max_length" in validation and len(value) > validation["max_length"]:
            raise InvalidInput(
                f"{field} must be at most {validation['max_length']} characters", field=field
            )
        if "pattern" in validation and re.fullmatch(validation["pattern"], value) is None:
            raise InvalidInput(f"{field} does not match the field's pattern", field=field)

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
from .patterns import UnsupportedPattern, full_match

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
#: Largest magnitude of a number (values and bounds): the integers every JSON client and both
#: databases keep exactly; beyond it PostgreSQL returned integers the API could not render.
MAX_NUMBER = 2**53 - 1
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
    if not _in_range(value):
        raise InvalidInput(
            f"{field} must be a finite number between -{MAX_NUMBER} and {MAX_NUMBER}", field=field
        )
    return value


def _in_range(number: int | float) -> bool:
    """Finite and at most :data:`MAX_NUMBER` in magnitude (compared without converting a huge
    integer to a float, which would overflow)."""
    if isinstance(number, float) and not math.isfinite(number):
        return False
    return -MAX_NUMBER <= number <= MAX_NUMBER


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
            if moment.tzinfo is not None:
                return utc_iso(moment)
        except (ValueError, OverflowError):  # OverflowError: before year 1 or after 9999 in UTC
            pass
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
        where = f"{field}/{key}"
        if key in ("min", "max") and (
            isinstance(item, bool) or not isinstance(item, int | float) or not _in_range(item)
        ):
            raise InvalidInput(
                f"{field}.{key} must be a finite number between -{MAX_NUMBER} and {MAX_NUMBER}",
                field=where,
            )
        if key == "max_length" and (
            isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= MAX_NUMBER
        ):
            raise InvalidInput(
                f"{field}.max_length must be an integer from 1 to {MAX_NUMBER}", field=where
            )
        if key == "pattern":
            _check_pattern(item, field, where)
    return dict(value)


def _check_pattern(pattern: Any, field: str, where: str) -> None:
    """A pattern RE2 can run (no back-references or look-around; see :mod:`.patterns`)."""
    if not isinstance(pattern, str):
        raise InvalidInput(f"{field}.pattern must be a regular expression", field=where)
    try:
        full_match(pattern, "")
    except UnsupportedPattern as error:
        raise InvalidInput(
            f"{field}.pattern must be a regular expression RE2 can run "
            f"(no back-references or look-around): {error}",
            field=where,
        ) from None


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
        if "pattern" in validation and not _matches(validation["pattern"], value, field):
            raise InvalidInput(f"{field} does not match the field's pattern", field=field)


def _matches(pattern: str, text: str, field: str) -> bool:
    """Whether ``text`` matches a stored pattern; one stored before patterns were run by RE2
    and that RE2 cannot run refuses the value (the definition must be changed), never falling
    back to a backtracking match."""
    try:
        return full_match(pattern, text)
    except UnsupportedPattern:
        raise InvalidInput(
            f"the field's pattern cannot be applied ({field}); change the definition's "
            "validation.pattern",
            field=field,
            code="unsupported_pattern",
        ) from None

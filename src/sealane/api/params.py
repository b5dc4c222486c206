"""Query parameters to typed values, with errors that name the parameter (400)."""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from datetime import datetime
from enum import StrEnum
from typing import TypeVar

from starlette.datastructures import QueryParams

from ..service.paging import DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE, PageRequest
from .errors import BadRequest

E = TypeVar("E", bound=StrEnum)

#: A plain decimal number (no underscores, no inf/nan words, optional exponent).
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def _invalid(name: str, detail: str) -> BadRequest:
    return BadRequest(detail, parameter=name, code="invalid_parameter")


def required(params: QueryParams, name: str) -> str:
    """A required, non-blank parameter."""
    value = params.get(name)
    if value is None or not value.strip():
        raise BadRequest(
            f"the query parameter {name} is required", parameter=name, code="missing_parameter"
        )
    _no_nul(value, name)
    return value.strip()


def number(params: QueryParams, name: str, low: float, high: float) -> float:
    """A required finite number within [low, high]."""
    raw = required(params, name)
    if not _DECIMAL.fullmatch(raw):
        raise _invalid(name, f"{name} must be a number, got {raw!r}")
    value = float(raw)
    if not math.isfinite(value) or not low <= value <= high:
        raise _invalid(name, f"{name} must be between {low:g} and {high:g}, got {raw!r}")
    return value


def optional_text(params: QueryParams, name: str, *, max_length: int = 200) -> str | None:
    """An optional text parameter (stripped; blank is None)."""
    value = params.get(name)
    if value is None or not value.strip():
        return None
    if len(value) > max_length:
        raise _invalid(name, f"{name} is longer than {max_length} characters")
    _no_nul(value, name)
    return value.strip()


def optional_choice(params: QueryParams, name: str, allowed: Collection[str]) -> str | None:
    """An optional parameter that must be one of ``allowed``."""
    value = optional_text(params, name)
    if value is not None and value not in allowed:
        raise _invalid(name, f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def optional_enum(params: QueryParams, name: str, enum: type[E]) -> E | None:
    """An optional parameter naming a member of ``enum`` by its value."""
    value = optional_choice(params, name, [member.value for member in enum])
    return None if value is None else enum(value)


def optional_time(params: QueryParams, name: str) -> datetime | None:
    """An optional ISO 8601 date-time with a time zone."""
    raw = optional_text(params, name, max_length=40)
    if raw is None:
        return None
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise _invalid(name, f"{name} must be an ISO 8601 date-time, got {raw!r}") from None
    if moment.tzinfo is None:
        raise _invalid(name, f"{name} must carry a time zone (e.g. Z), got {raw!r}")
    return moment


def parse_page(params: QueryParams) -> PageRequest:
    """``page[number]`` and ``page[size]``; a bad value is a 400 naming it."""
    values = {}
    for name, default, upper in (
        ("number", 1, MAX_PAGE_NUMBER),
        ("size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    ):
        key = f"page[{name}]"
        raw = params.get(key)
        if raw is None:
            values[name] = default
            continue
        text = raw.strip()
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= upper:
            raise _invalid(key, f"{key} must be an integer between 1 and {upper}, got {raw!r}")
        values[name] = int(text)
    return PageRequest(values["number"], values["size"])


def parse_include(params: QueryParams, allowed: Collection[str]) -> list[str]:
    """The ``include`` paths asked for; one outside ``allowed`` is a 400."""
    raw = params.get("include")
    if raw is None or raw.strip() == "":
        return []
    paths = [part.strip() for part in raw.split(",") if part.strip()]
    for path in paths:
        if path not in allowed:
            choices = ", ".join(sorted(allowed)) or "none"
            raise BadRequest(
                f"cannot include {path[:80]!r} here; allowed: {choices}",
                parameter="include",
                code="unknown_include",
            )
    return paths


def _no_nul(value: str, name: str) -> None:
    if "\x00" in value:
        raise _invalid(name, f"{name} must not contain a NUL character")

"""Query parameter parsing with JSON:API errors that name the parameter (400)."""

from __future__ import annotations

import math
import re

from starlette.datastructures import QueryParams

from .errors import BadRequest

#: A plain decimal number (no underscores, no inf/nan words, optional exponent).
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def required(params: QueryParams, name: str) -> str:
    """A required, non-blank parameter."""
    value = params.get(name)
    if value is None or not value.strip():
        raise BadRequest(
            f"the query parameter {name} is required", parameter=name, code="missing_parameter"
        )
    return value.strip()


def number(params: QueryParams, name: str, low: float, high: float) -> float:
    """A required finite number within [low, high]."""
    raw = required(params, name)
    try:
        if not _DECIMAL.fullmatch(raw):
            raise ValueError(raw)
        value = float(raw)
    except ValueError:
        raise BadRequest(
            f"{name} must be a number, got {raw!r}", parameter=name, code="invalid_parameter"
        ) from None
    if not math.isfinite(value) or not low <= value <= high:
        raise BadRequest(
            f"{name} must be between {low:g} and {high:g}, got {raw!r}",
            parameter=name,
            code="invalid_parameter",
        )
    return value


def optional_text(params: QueryParams, name: str, *, max_length: int = 200) -> str | None:
    """An optional text parameter (stripped; blank is None)."""
    value = params.get(name)
    if value is None or not value.strip():
        return None
    if len(value) > max_length:
        raise BadRequest(
            f"{name} is longer than {max_length} characters",
            parameter=name,
            code="invalid_parameter",
        )
    return value.strip()


def like_pattern(text: str) -> str:
    """A case-insensitive substring pattern for SQL LIKE with ``\\`` escaping ``%`` and ``_``."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"

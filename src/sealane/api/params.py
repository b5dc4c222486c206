"""Query parameters to typed values, with errors that name the parameter (400)."""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from fastapi import Request
from fastapi.routing import APIRoute
from starlette.datastructures import QueryParams

from ..service.access import Caller
from ..service.paging import DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE, PageRequest
from .auth import authenticate, authenticate_routing
from .errors import BadRequest, Unprocessable

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


def optional_bool(params: QueryParams, name: str) -> bool | None:
    """An optional ``true``/``false`` parameter (also ``1``/``0``)."""
    value = optional_text(params, name, max_length=5)
    if value is None:
        return None
    if value.lower() in ("true", "1"):
        return True
    if value.lower() in ("false", "0"):
        return False
    raise _invalid(name, f"{name} must be true or false, got {value!r}")


def parse_include(
    params: QueryParams, allowed: Collection[str], default: Collection[str] = ()
) -> list[str]:
    """The ``include`` paths asked for (``default`` when the parameter is absent); one outside
    ``allowed`` is a 400."""
    raw = params.get("include")
    if raw is None:
        return list(default)
    if raw.strip() == "":
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


def plain_object(request: Request, payload: Any) -> dict[str, Any]:
    """The members of a request body that is a plain JSON object (not a JSON:API document, as
    the reference API documents a few operations); errors then point at ``/<member>``."""
    if not isinstance(payload, dict):
        raise Unprocessable("the request body must be a JSON object", pointer="", code="invalid")
    request.state.body_pointer_prefix = ""
    return payload


async def authenticated(request: Request) -> Caller:
    """The calling account (see :func:`authenticate`), then every query parameter checked to
    be one the operation declares."""
    caller = await authenticate(request)
    reject_unknown_parameters(request)
    return caller


async def authenticated_routing(request: Request) -> Caller:
    """Like :func:`authenticated`, for the paid routing operations (403 comes first)."""
    caller = await authenticate_routing(request)
    reject_unknown_parameters(request)
    return caller


def reject_unknown_parameters(request: Request) -> None:
    """400 for a query parameter the operation does not declare: none is silently ignored.

    The declared names are the route's own (with its dependencies'); ``include`` on an operation
    without includes gets the same 400 as an include it does not know.
    """
    route = request.scope.get("route")
    known = _declared(route) if isinstance(route, APIRoute) else frozenset()
    for name in request.query_params:
        if name in known:
            continue
        if name == "include":
            raise BadRequest(
                "nothing can be included here", parameter="include", code="unknown_include"
            )
        raise BadRequest(
            f"unknown query parameter {name[:80]!r}", parameter=name[:200], code="unknown_parameter"
        )


def _declared(route: APIRoute) -> frozenset[str]:
    """The query parameter names of ``route`` and its dependencies (kept on the route)."""
    found: frozenset[str] | None = getattr(route, "_sealane_query_names", None)
    if found is None:
        names: set[str] = set()
        pending = [route.dependant]
        while pending:
            dependant = pending.pop()
            names.update(field.alias for field in dependant.query_params)
            pending.extend(dependant.dependencies)
        found = frozenset(names)
        route._sealane_query_names = found  # type: ignore[attr-defined]
    return found

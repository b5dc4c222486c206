"""What the routers share beyond declarations: the caller, ``include`` paths, plain-object
bodies, and the refusal of query parameters an operation does not declare (400)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from fastapi import Request
from fastapi.routing import APIRoute

from ..service.access.gatekeeper import Caller
from .auth import authenticate, authenticate_routing
from .errors import BadRequest, Unprocessable


def blank_none(value: str | None) -> str | None:
    """A text parameter's value, stripped; blank is the same as absent."""
    if value is None or not value.strip():
        return None
    return value.strip()


def parse_include(
    raw: str | None, allowed: Collection[str], default: Collection[str] = ()
) -> list[str]:
    """The paths an ``include`` value names (``default`` when it is absent, none when it is
    blank, as JSON:API lets a client turn default includes off); a path outside ``allowed``, or
    an empty path in a list (``include=,`` or ``include=shipment,``), is a 400."""
    if raw is None:
        return list(default)
    if not raw.strip():
        return []
    paths = [part.strip() for part in raw.split(",")]
    for path in paths:
        if not path:
            raise BadRequest(
                f"include {raw[:80]!r} names an empty relationship path",
                parameter="include",
                code="unknown_include",
            )
        if path not in allowed:
            choices = ", ".join(sorted(allowed)) or "none"
            raise BadRequest(
                f"cannot include {path[:80]!r} here; allowed: {choices}",
                parameter="include",
                code="unknown_include",
            )
    return paths


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
    known = declared_parameters(route) if isinstance(route, APIRoute) else frozenset()
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


def declared_parameters(route: APIRoute) -> frozenset[str]:
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

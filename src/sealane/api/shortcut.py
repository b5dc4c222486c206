"""A few operations answered without the router: the vessels' future positions (issue 29).

A future-positions answer is megabytes made on a worker thread; what the event loop spends on
the request before that thread starts (Starlette's routing through every router, FastAPI's
dependency solving and its wrappers) is CPU the answer's own work and the client need on a busy
machine. :class:`Shortcut` sits just inside the API's content negotiation, so every layer that
shapes an answer (``HEAD``, metrics, gzip, caching headers, ``406``) still does; for a ``GET``
of one of its operations whose parameters all read cleanly, it calls the operation's own
functions: each dependency (authentication with the rate limit, the vessel dimensions) and then
the operation, with the parameters validated by the very fields FastAPI validates them with.

Every other request (another path or method, a parameter missing, unreadable, out of range,
undeclared or given twice, or any request while the app's ``dependency_overrides`` replace a
dependency, as tests do) goes on to the router untouched, before anything was counted or
looked up, and is answered there as before: its error document is the one it always was. A
failure once the operation runs is answered by the handler the router's exception layer would
call; one only the last-resort handler (``Exception``, 500) takes, or one after the answer
started, is raised on, through every layer, as it is from the router.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.convertors import Convertor
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .params import declared_parameters

Handlers = Mapping[Any, Callable[[Request, Exception], Any]]
#: The parameter types read here: one value each, as the query string or the path gives it.
_SCALARS = (str, int, float, bool)


class _Unread(Exception):
    """A parameter the shortcut does not take: the router answers the request."""


@dataclass(frozen=True)
class _Operation:
    """One operation: its path pattern, route, declared query parameter names, and the fields
    of its parameters and its dependencies' (each with ``path`` or ``query``)."""

    route: APIRoute
    pattern: re.Pattern[str]
    convertors: dict[str, Convertor[Any]]
    names: frozenset[str]
    fields: tuple[tuple[Any, str], ...]


class Shortcut:
    """Answer ``GET`` of ``routes`` (paths under ``prefix``) by calling their functions; pass
    every other request on to ``app``. ``handlers`` are the application's exception handlers
    (by exception class or status code), which answer what the operation raises."""

    def __init__(
        self, app: ASGIApp, *, routes: Sequence[APIRoute], prefix: str, handlers: Handlers
    ) -> None:
        self.app = app
        # Starlette gives these to its outermost layer, not to the router's exception layer.
        self.handlers = {k: v for k, v in handlers.items() if k not in (500, Exception)}
        self.operations = [_operation(route, prefix) for route in routes]
        #: Where the routes' own ``dependency_overrides`` are (the app, when it made them).
        self.providers = [r.dependency_overrides_provider for r in routes]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        plain = scope["type"] == "http" and scope["method"] == "GET" and not scope.get("root_path")
        if plain and not self._overridden(scope):
            for operation in self.operations:
                found = operation.pattern.match(scope["path"])
                if found is None:
                    continue
                convertors = operation.convertors
                path = {k: convertors[k].convert(v) for k, v in found.groupdict().items()}
                request = Request(scope, receive)
                try:
                    values = _read(operation, request, path)
                except _Unread:
                    break
                scope["route"], scope["endpoint"] = operation.route, operation.route.endpoint
                scope["path_params"] = path
                await self._answer(operation.route.dependant, request, values, send)
                return
        await self.app(scope, receive, send)

    def _overridden(self, scope: Scope) -> bool:
        """Whether dependencies are replaced now (FastAPI's ``dependency_overrides``, which only
        the router applies): by the app answering (``scope["app"]``; a router's own routes, as
        the app is given them, have no provider) or by the provider of an operation's route."""
        providers = (scope.get("app"), *self.providers)
        return any(getattr(provider, "dependency_overrides", None) for provider in providers)

    async def _answer(
        self, dependant: Dependant, request: Request, values: dict[str, Any], send: Send
    ) -> None:
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = True
            await send(message)

        try:
            response = await _call(dependant, request, values, {})
            if not isinstance(response, Response):
                raise TypeError(f"{dependant.call!r} returned {type(response).__name__}")
            await response(request.scope, request.receive, watched)
        except Exception as error:
            handler = _handler_for(self.handlers, error)
            if started or handler is None:
                raise
            answer: Response = await handler(request, error)
            await answer(request.scope, request.receive, send)


def _operation(route: APIRoute, prefix: str) -> _Operation:
    """What the shortcut needs of ``route``; ValueError for one it cannot answer faithfully
    (a body, headers or cookies, a parameter that is not one plain value or is read by another
    name, a name used twice, a dependency or operation that is not ``async`` or takes more than
    parameters and the request)."""
    fields: list[tuple[Any, str]] = []
    for dependant in _dependants(route.dependant):
        if dependant.body_params or dependant.header_params or dependant.cookie_params:
            raise ValueError(f"{route.path}: only path and query parameters are read here")
        if not inspect.iscoroutinefunction(dependant.call):
            raise ValueError(f"{route.path}: {dependant.call!r} is not async")
        if _needs_more(dependant):
            raise ValueError(f"{route.path}: {dependant.call!r} needs what only FastAPI gives")
        for field in (*dependant.path_params, *dependant.query_params):
            if not _scalar(field.field_info.annotation):
                raise ValueError(f"{route.path}: {field.alias} is not one plain value")
            if field.field_info.validation_alias not in (None, field.alias):
                raise ValueError(f"{route.path}: {field.alias} is read by another name")
        fields += [(field, "path") for field in dependant.path_params]
        fields += [(field, "query") for field in dependant.query_params]
    if len({field.name for field, _ in fields}) != len(fields):
        raise ValueError(f"{route.path}: a parameter name is used twice")
    pattern, _, convertors = compile_path(prefix + route.path)
    names = declared_parameters(route)
    return _Operation(route, pattern, convertors, names, tuple(fields))


def _needs_more(dependant: Dependant) -> bool:
    """Whether ``dependant`` takes anything :func:`_call` does not give it (the response, the
    background tasks, security scopes, a concurrency limit)."""
    return bool(
        dependant.response_param_name
        or dependant.background_tasks_param_name
        or dependant.websocket_param_name
        or dependant.http_connection_param_name
        or dependant.security_scopes_param_name
        # Newer than the oldest FastAPI the service takes (0.115): absent there.
        or getattr(dependant, "own_oauth_scopes", None)
        or getattr(dependant, "concurrency", None)
    )


def _scalar(annotation: Any) -> bool:
    """Whether ``annotation`` is one of :data:`_SCALARS`, or one of them or None."""
    union = get_origin(annotation) in (Union, UnionType)
    kinds = get_args(annotation) if union else (annotation,)
    return all(kind is NoneType or kind in _SCALARS for kind in kinds)


def _dependants(dependant: Dependant) -> list[Dependant]:
    """``dependant`` and its dependencies, all levels, each function once."""
    found: dict[Any, Dependant] = {}
    pending = [dependant]
    while pending:
        current = pending.pop(0)
        found.setdefault(current.call, current)
        pending.extend(current.dependencies)
    return list(found.values())


def _read(operation: _Operation, request: Request, path: dict[str, str]) -> dict[str, Any]:
    """Every parameter's value by field name, validated by its own field; :class:`_Unread`
    for anything the router must answer (its error, or its reading of the request)."""
    query = request.query_params
    names = [name for name, _ in query.multi_items()]
    if len(set(names)) != len(names) or not operation.names.issuperset(names):
        raise _Unread
    values: dict[str, Any] = {}
    for field, where in operation.fields:
        raw = path[field.name] if where == "path" else query.get(field.alias)
        values[field.name] = _valid(field, raw, where)
    return values


def _valid(field: Any, raw: Any, where: str) -> Any:
    """``raw`` (None: absent) as ``field`` reads it."""
    if raw is None:
        if field.field_info.is_required() or field.field_info.validate_default:
            raise _Unread
        return deepcopy(field.default)
    value, errors = field.validate(raw, {}, loc=(where, field.alias))
    if errors:
        raise _Unread
    return value


async def _call(
    dependant: Dependant, request: Request, values: dict[str, Any], solved: dict[Any, Any]
) -> Any:
    """``dependant``'s function, called with its dependencies' results and its parameters; a
    dependency met again is not called again (unless it says ``use_cache=False``), as FastAPI
    keeps its result for the request in ``solved``."""
    arguments: dict[str, Any] = {}
    for sub in dependant.dependencies:
        if sub.use_cache and sub.call in solved:
            result = solved[sub.call]
        else:
            result = await _call(sub, request, values, solved)
            solved.setdefault(sub.call, result)
        if sub.name is not None:
            arguments[sub.name] = result
    for field in (*dependant.path_params, *dependant.query_params):
        arguments[field.name] = values[field.name]
    if dependant.request_param_name is not None:
        arguments[dependant.request_param_name] = request
    assert dependant.call is not None
    return await dependant.call(**arguments)


def _handler_for(handlers: Handlers, error: Exception) -> Callable[..., Any] | None:
    """The handler for ``error``'s status code (an HTTP exception), else for its nearest class,
    as Starlette's exception layer finds it."""
    if isinstance(error, HTTPException) and error.status_code in handlers:
        return handlers[error.status_code]
    for kind in type(error).__mro__:
        if kind in handlers:
            return handlers[kind]
    return None

"""The API's side of errors (the application layer's are :mod:`sealane.service.core.errors`):
typed HTTP errors, and the one place where every failure becomes a JSON:API error document."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import BaseRoute, Match

from ..service.core import errors as domain
from ..service.core.ratelimit import retry_after_header
from .jsonapi import JsonApiResponse
from .regexes import NON_BLANK, PATTERN_MEANINGS

log = logging.getLogger("sealane.api")


class ApiError(Exception):
    """A failure with an HTTP status; ``detail`` is for humans, ``code`` for programs."""

    status = 500
    title = "Internal Server Error"

    def __init__(
        self,
        detail: str,
        *,
        code: str | None = None,
        parameter: str | None = None,
        pointer: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.code = code
        self.source: dict[str, str] | None = None
        if parameter is not None:
            self.source = {"parameter": parameter}
        elif pointer is not None:
            self.source = {"pointer": pointer}
        self.headers = headers or {}

    def to_error(self) -> dict[str, Any]:
        """The error object of a JSON:API error document."""
        error: dict[str, Any] = {
            "status": str(self.status),
            "title": self.title,
            "detail": self.detail,
        }
        if self.code:
            error["code"] = self.code
        if self.source:
            error["source"] = self.source
        return error


class BadRequest(ApiError):
    status, title = 400, "Bad Request"


class Unauthorized(ApiError):
    status, title = 401, "Unauthorized"


class Forbidden(ApiError):
    status, title = 403, "Forbidden"


class HttpNotFound(ApiError):
    status, title = 404, "Not Found"


class MethodNotAllowed(ApiError):
    status, title = 405, "Method Not Allowed"


class NotAcceptable(ApiError):
    status, title = 406, "Not Acceptable"


class Conflict(ApiError):
    status, title = 409, "Conflict"


class PayloadTooLarge(ApiError):
    status, title = 413, "Content Too Large"


class UnsupportedMediaType(ApiError):
    status, title = 415, "Unsupported Media Type"


class Unprocessable(ApiError):
    status, title = 422, "Unprocessable Entity"


class TooManyRequests(ApiError):
    status, title = 429, "Too Many Requests"


class ServiceUnavailable(ApiError):
    status, title = 503, "Service Unavailable"


def error_response(*errors: ApiError) -> JsonApiResponse:
    """One response for one or more errors (the status is the first error's)."""
    headers: dict[str, str] = {}
    for error in errors:
        headers.update(error.headers)
    return JsonApiResponse(
        {"errors": [error.to_error() for error in errors]},
        status_code=errors[0].status,
        headers=headers,
    )


#: API names of the application layer's fields that are query parameters.
_PARAMETERS = {
    "page_number": "page[number]",
    "page_size": "page[size]",
    "page_after": "page[after]",
    "positions_from": "show_positions[from_timestamp]",
    "positions_to": "show_positions[to_timestamp]",
}
#: Fields of the application layer that are relationships of a request document.
_RELATIONSHIPS = frozenset({"customer", "entity"})
#: Methods whose inputs are query parameters (a 400 names the parameter); the others have a body.
_QUERY_METHODS = frozenset({"GET", "HEAD", "DELETE", "OPTIONS"})


def from_service(error: domain.ServiceError, request: Request) -> ApiError:
    """The API error for an application-layer error: where the input came from decides whether
    the field is a query parameter (400) or a body attribute (422, JSON pointer)."""
    if isinstance(error, domain.ObjectNotFound):
        return HttpNotFound(error.detail, code=error.code)
    if isinstance(error, domain.FeatureDisabled):
        return Forbidden(error.detail, code=error.code)
    if isinstance(error, domain.BadSignature):  # no API key would help: no challenge
        return Unauthorized(error.detail, code=error.code)
    if isinstance(error, domain.Unauthenticated):
        return Unauthorized(error.detail, code=error.code, headers={"WWW-Authenticate": "Token"})
    if isinstance(error, domain.Malformed):
        return BadRequest(error.detail, code=error.code)
    if isinstance(error, domain.RateLimited):
        wait = retry_after_header(error.retry_after_s)
        return TooManyRequests(error.detail, code=error.code, headers={"Retry-After": wait})
    if isinstance(error, domain.Unavailable):
        wait = retry_after_header(error.retry_after_s)
        return ServiceUnavailable(error.detail, code=error.code, headers={"Retry-After": wait})
    in_query = request.method in _QUERY_METHODS
    field = error.field
    parameter = _parameter(field, request) if field is not None and in_query else None
    pointer = _pointer(field, request) if field is not None and not in_query else None
    kind = BadRequest if isinstance(error, domain.InvalidInput) and in_query else Unprocessable
    return kind(error.detail, code=error.code, parameter=parameter, pointer=pointer)


def field_errors(error: domain.InvalidFields) -> list[ApiError]:
    """One 422 error object per bad value of a document, each with its JSON pointer."""
    return [
        Unprocessable(f"{pointer}: {detail}", code=code, pointer=pointer)
        for pointer, detail, code in error.problems
    ] or [Unprocessable(error.detail, code=error.code)]


def _pointer(field: str, request: Request) -> str:
    """The JSON pointer of a field of the request body: an attribute or relationship of a
    JSON:API document, or a member of a plain object (see ``params.plain_object``)."""
    if field in _RELATIONSHIPS:
        return f"/data/relationships/{field}"
    prefix = getattr(request.state, "body_pointer_prefix", "/data/attributes")
    return f"{prefix}/{field}"


def _parameter(field: str, request: Request) -> str:
    """The query parameter a field of the application layer came from."""
    if field in _PARAMETERS:
        return _PARAMETERS[field]
    filtered = f"filter[{field}]"
    return filtered if filtered in request.query_params else field


def validation_errors(exc: RequestValidationError) -> list[ApiError]:
    """FastAPI's validation failures as typed errors: bad JSON 400, bad query 400, bad body 422."""
    found: list[ApiError] = []
    for item in exc.errors():
        location = [str(part) for part in item.get("loc", ())]
        message = _message(item)
        if item.get("type") == "json_invalid":
            found.append(
                BadRequest(f"the request body is not valid JSON: {message}", code="invalid_json")
            )
        elif location and location[0] in ("query", "path", "header"):
            name = location[1] if len(location) > 1 else location[0]
            if _missing(item):
                detail, code = f"the query parameter {name} is required", "missing_parameter"
            else:
                detail, code = f"{name}: {message}", "invalid_parameter"
            found.append(BadRequest(detail, parameter=name, code=code))
        else:
            pointer = "/" + "/".join(location[1:]) if len(location) > 1 else ""
            found.append(
                Unprocessable(f"{pointer or 'body'}: {message}", pointer=pointer, code="invalid")
            )
    return found or [BadRequest("invalid request")]


def _missing(item: Any) -> bool:
    """A parameter left out, or given blank where text is required."""
    blank = isinstance(item.get("input"), str) and not item["input"].strip()
    pattern = (item.get("ctx") or {}).get("pattern")
    return bool(item.get("type") == "missing" or (blank and pattern == NON_BLANK))


def _message(item: Any) -> str:
    """Pydantic's message, with the meaning of the patterns of ``shapes`` instead of their
    spelling."""
    pattern = (item.get("ctx") or {}).get("pattern")
    if item.get("type") == "string_pattern_mismatch" and pattern in PATTERN_MEANINGS:
        return PATTERN_MEANINGS[pattern]
    return str(item.get("msg", "invalid value"))


_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
#: Codes of the failures Starlette raises on its own (a body that cannot be read, say).
_CODES = {400: "invalid_body", 413: "payload_too_large", 415: "unsupported_media_type"}


def _path(request: Request) -> str:
    """The request path for a message, cut so a huge path is not echoed whole."""
    path = request.url.path
    return path if len(path) <= 200 else path[:200] + "..."


def allowed_methods(request: Request) -> list[str]:
    """Every method some route answers at the request's path (HEAD with GET, and OPTIONS), for
    ``Allow``: several routes may share one path, one method each, so each method is tried."""
    routes = [route for route in request.app.routes if isinstance(route, BaseRoute)]
    methods = {
        method
        for method in _METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes
        )
    }
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods | {"OPTIONS"})


def install_error_handlers(app: FastAPI) -> None:
    """Route every failure through :func:`error_response`; no default body or traceback escapes."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> Response:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> Response:
        return error_response(*validation_errors(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return error_response(HttpNotFound(f"no route for {request.method} {_path(request)}"))
        if exc.status_code == 405:
            allowed = ", ".join(allowed_methods(request))
            if request.method == "OPTIONS":
                return Response(status_code=204, headers={"Allow": allowed})
            detail = f"{request.method} is not allowed on {_path(request)}"
            return error_response(MethodNotAllowed(detail, headers={"Allow": allowed}))
        error = ApiError(str(exc.detail), code=_CODES.get(exc.status_code, "http_error"))
        error.status = exc.status_code
        error.title = HTTPStatus(exc.status_code).phrase
        return error_response(error)

    @app.exception_handler(domain.ServiceError)
    async def _service(request: Request, exc: domain.ServiceError) -> Response:
        if isinstance(exc, domain.InvalidFields):
            return error_response(*field_errors(exc))
        return error_response(from_service(exc, request))

    async def _translated(request: Request, exc: Exception) -> Response:
        known = domain.translated(exc)
        assert known is not None  # registered for domain.TRANSLATED only
        log.warning("%s: %s", request.url.path, known.detail)
        return error_response(from_service(known, request))

    for kind in domain.TRANSLATED:
        app.add_exception_handler(kind, _translated)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        if isinstance(exc, domain.TRANSLATED):  # raised in a middleware, outside the above
            return await _translated(request, exc)
        log.exception("unhandled error", exc_info=exc)
        return error_response(ApiError("an unexpected error occurred; it has been logged"))

"""Every ``/v2`` operation's route: for a write, the checks run in the order a client expects.

1. routing (404 unknown path, 405 method not allowed: Starlette, before this);
2. authentication and the rate limit (401, 429);
3. the request's media type (415), when it has a body: ``application/vnd.api+json`` (no
   parameters but ``ext`` and ``profile``) or ``application/json``, which clients of the
   Terminal49 API send (a write without a body, ``stop_tracking`` say, needs none);
4. the body's size (413), from ``Content-Length`` and while it streams, before any parsing;
5. the JSON itself (400), then the document (409, 422), by the operation.

A path that names a fixed resource (``/webhooks/events``) is never also taken as an id by its
sibling (``/webhooks/{webhook_id:id}``, see :data:`FIXED_NAMES`): other methods there are 405,
as ``Allow`` says.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.convertors import Convertor, register_url_convertor

from .auth import authenticate
from .errors import PayloadTooLarge, UnsupportedMediaType
from .jsonapi import MEDIA_TYPE
from .negotiation import ALLOWED_PARAMETERS, media_types
from .state import state_of

WRITE_METHODS = frozenset({"POST", "PATCH", "PUT"})
#: Media types a request body may be sent as.
BODY_TYPES = (MEDIA_TYPE, "application/json")

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


#: Fixed path segments beside an ``{...:id}`` parameter (``/webhooks/events`` beside
#: ``/webhooks/{webhook_id:id}``): never read as an id.
FIXED_NAMES = ("events", "examples", "infer_number", "ips", "trigger")


class IdConvertor(Convertor[str]):
    """A path segment that is an id: anything but one of :data:`FIXED_NAMES`."""

    regex = "(?!(?:" + "|".join(FIXED_NAMES) + ")$)[^/]+"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("id", IdConvertor())


class ApiRoute(APIRoute):
    """An operation whose write requests are authenticated, typed and measured before parsing."""

    def get_route_handler(self) -> Handler:
        handle = super().get_route_handler()

        async def handler(request: Request) -> Response:
            if request.method in WRITE_METHODS:
                await authenticate(request)
                if has_body(request):
                    check_media_type(request)
                await read_body(request, state_of(request).settings.max_body_bytes)
            return await handle(request)

        return handler


def has_body(request: Request) -> bool:
    """Whether the request says it carries a body (a length above zero, or chunks)."""
    length = request.headers.get("content-length")
    if length is not None:
        return not length.strip().isdigit() or int(length) > 0
    return "transfer-encoding" in request.headers


def check_media_type(request: Request) -> None:
    """415 unless the body is declared as JSON:API or JSON."""
    declared = request.headers.get("content-type", "")
    kinds = media_types(declared)
    if not kinds or kinds[0][0] not in BODY_TYPES:
        raise UnsupportedMediaType(
            f"write requests must send Content-Type: {MEDIA_TYPE} (or application/json), "
            f"got {declared[:100] or 'none'!r}",
            code="unsupported_media_type",
        )
    kind, parameters = kinds[0]
    if kind == MEDIA_TYPE and parameters - ALLOWED_PARAMETERS:
        raise UnsupportedMediaType(
            f"{MEDIA_TYPE} takes no parameters other than ext and profile",
            code="unsupported_media_type",
        )


async def read_body(request: Request, limit: int) -> bytes:
    """The whole body, refused with 413 as soon as it is known to exceed ``limit`` bytes; kept
    on the request, so the operation parses what was read here."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    received = bytearray()
    async for chunk in request.stream():
        received += chunk
        if len(received) > limit:
            raise _too_large(limit)
    request._body = bytes(received)  # what Request.body() returns from now on
    return request._body


def _too_large(limit: int) -> PayloadTooLarge:
    return PayloadTooLarge(
        f"the request body is larger than {limit} bytes", code="payload_too_large"
    )

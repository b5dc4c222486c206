"""Content negotiation per JSON:API 1.1, as a small ASGI middleware in front of the app."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import NotAcceptable, UnsupportedMediaType, error_response
from .jsonapi import MEDIA_TYPE

WRITE_METHODS = frozenset({"POST", "PATCH", "PUT"})
#: Scope key set (True) on a ``HEAD`` request that :class:`HeadAsGet` passes on as ``GET``, so
#: inner layers can skip work whose result is dropped (the gzip middleware does).
HEAD_REQUEST = "sealane.head"
ALLOWED_PARAMETERS = frozenset({"ext", "profile"})


def _media_types(header: str) -> list[tuple[str, set[str]]]:
    """(type, parameter names) of each media range in a header."""
    found = []
    for part in header.split(","):
        pieces = [p.strip() for p in part.split(";")]
        if not pieces[0]:
            continue
        names = {p.split("=", 1)[0].strip().lower() for p in pieces[1:] if p}
        names.discard("q")
        found.append((pieces[0].lower(), names))
    return found


class JsonApiNegotiation:
    """415 for writes without the JSON:API media type (or with foreign parameters); 406 when every
    JSON:API entry in ``Accept`` carries parameters other than ``ext``/``profile``."""

    def __init__(self, app: ASGIApp, *, prefix: str = "/v2") -> None:
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        problem = self._problem(scope["method"], headers)
        if problem is not None:
            await error_response(problem)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _problem(
        self, method: str, headers: Headers
    ) -> NotAcceptable | UnsupportedMediaType | None:
        accept = headers.get("accept")
        if accept:
            ours = [names for kind, names in _media_types(accept) if kind == MEDIA_TYPE]
            if ours and all(names - ALLOWED_PARAMETERS for names in ours):
                return NotAcceptable(
                    f"{MEDIA_TYPE} is served only without media type parameters other than "
                    "ext and profile",
                    code="not_acceptable",
                )
        if method in WRITE_METHODS:
            content_type = headers.get("content-type", "")
            kinds = _media_types(content_type)
            if not kinds or kinds[0][0] != MEDIA_TYPE:
                return UnsupportedMediaType(
                    f"write requests must send Content-Type: {MEDIA_TYPE}, "
                    f"got {content_type or 'none'!r}",
                    code="unsupported_media_type",
                )
            if kinds[0][1] - ALLOWED_PARAMETERS:
                return UnsupportedMediaType(
                    f"{MEDIA_TYPE} takes no parameters other than ext and profile",
                    code="unsupported_media_type",
                )
        return None


class HeadAsGet:
    """Answer ``HEAD`` like ``GET`` without the body (RFC 9110 section 9.3.2)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {"type": "http.response.body", "body": b"", "more_body": False}
                if sent_final[0]:
                    return
                sent_final[0] = True
            await send(message)

        sent_final = [False]
        as_get = dict(scope, method="GET")
        as_get[HEAD_REQUEST] = True
        await self.app(as_get, receive, send_without_body)

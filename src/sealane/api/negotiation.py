"""Content negotiation per JSON:API 1.1 (and plain JSON for clients that want it), as small ASGI
middlewares in front of the app."""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import NotAcceptable, error_response
from .jsonapi import MEDIA_TYPE

#: Scope key set (True) on a ``HEAD`` request that :class:`HeadAsGet` passes on as ``GET``, so
#: inner layers can skip work whose result is dropped (the gzip middleware does).
HEAD_REQUEST = "sealane.head"
ALLOWED_PARAMETERS = frozenset({"ext", "profile"})
PLAIN_JSON = "application/json"


def media_types(header: str) -> list[tuple[str, set[str]]]:
    """(type, parameter names other than q) of each media range in a header, in order."""
    found = []
    for part in header.split(","):
        pieces = [p.strip() for p in part.split(";")]
        if not pieces[0]:
            continue
        names = {p.split("=", 1)[0].strip().lower() for p in pieces[1:] if p}
        names.discard("q")
        found.append((pieces[0].lower(), names))
    return found


def _quality(header: str) -> dict[str, float]:
    """The quality an ``Accept`` header gives each media range it lists (JSON:API entries with
    foreign parameters left out: they are not acceptable)."""
    found: dict[str, float] = {}
    for part in header.split(","):
        pieces = [p.strip() for p in part.split(";")]
        kind, quality, names = pieces[0].lower(), 1.0, set()
        for parameter in pieces[1:]:
            name, _, value = parameter.partition("=")
            name = name.strip().lower()
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
            elif name:
                names.add(name)
        if kind and not (kind == MEDIA_TYPE and names - ALLOWED_PARAMETERS):
            found[kind] = max(found.get(kind, 0.0), quality)
    return found


def response_type(accept: str | None) -> str:
    """The media type to answer in: JSON:API unless the client accepts only plain JSON (or
    prefers it), as clients written for the Terminal49 API do."""
    if not accept:
        return MEDIA_TYPE
    quality = _quality(accept)
    ours = max(quality.get(MEDIA_TYPE, 0.0), quality.get("application/*", 0.0) * 0.99)
    ours = max(ours, quality.get("*/*", 0.0) * 0.98)
    plain = quality.get(PLAIN_JSON, 0.0)
    return PLAIN_JSON if plain > ours else MEDIA_TYPE


class JsonApiNegotiation:
    """406 when every JSON:API entry in ``Accept`` carries parameters other than
    ``ext``/``profile``; answers as ``application/json`` to clients that ask for that instead.

    What a write request sends (415) is checked by each operation after authentication
    (:mod:`sealane.api.operations`), so an unknown path is 404 and a wrong method 405 first.
    """

    def __init__(self, app: ASGIApp, *, prefix: str = "/v2") -> None:
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        accept = Headers(scope=scope).get("accept")
        if accept:
            ours = [names for kind, names in media_types(accept) if kind == MEDIA_TYPE]
            if ours and all(names - ALLOWED_PARAMETERS for names in ours):
                problem = NotAcceptable(
                    f"{MEDIA_TYPE} is served only without media type parameters other than "
                    "ext and profile",
                    code="not_acceptable",
                )
                await error_response(problem)(scope, receive, send)
                return
        if response_type(accept) == MEDIA_TYPE:
            await self.app(scope, receive, send)
            return

        async def send_as_json(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message["headers"]))
                if headers.get("content-type", "").startswith(MEDIA_TYPE):
                    headers["content-type"] = PLAIN_JSON
                message = {**message, "headers": headers.raw}
            await send(message)

        await self.app(scope, receive, send_as_json)


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

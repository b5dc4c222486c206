"""Headers added to every response of a static mount (``X-Content-Type-Options: nosniff``), so a
browser never guesses a script or a page out of a file served as something else."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: What every static file carries.
STATIC_HEADERS = {"X-Content-Type-Options": "nosniff"}


class WithHeaders:
    """``app`` with ``headers`` set on each of its responses."""

    def __init__(self, app: ASGIApp, headers: Mapping[str, str] = STATIC_HEADERS) -> None:
        self.app = app
        self.headers = dict(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).update(self.headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)

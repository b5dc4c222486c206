"""The outermost middleware: an unexpected exception is answered here and goes no further.

Starlette's own last resort sends the registered 500 response and then raises the exception
again, so that the server logs it; uvicorn then closes the kept-alive connection without having
said ``Connection: close``, and a client's next request on it fails. Here the exception is logged
once and answered with the API's JSON:API 500 document, and the connection stays usable. Only a
response already half sent cannot be mended: that one is raised on for the server to cut short.
"""

from __future__ import annotations

import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ApiError, error_response

log = logging.getLogger("sealane.api")


class ContainFailures:
    """Answer an exception escaping ``app`` with a 500 document (or, when the response was
    already sent in full, as the web app's error page is, just keep the connection)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = finished = False

        async def watched(message: Message) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as error:
            if finished:  # answered and logged by the handler that raised it on
                return
            if started:
                raise
            log.error("unhandled error on %s %s", scope["method"], scope["path"], exc_info=error)
            answer = error_response(ApiError("an unexpected error occurred; it has been logged"))
            await answer(scope, receive, send)

"""Requests outside the API's prefix go to the web app: one ASGI middleware in the API's stack.

The web app is its own Starlette application with its own error pages, so a failure of a page
never meets the API's JSON:API error handling, and an unknown path under ``/v2`` stays the
API's JSON:API 404.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class WebShell:
    """Send HTTP requests whose path is not under ``api_prefix`` to ``web``."""

    def __init__(self, app: ASGIApp, *, web: ASGIApp, api_prefix: str) -> None:
        self.app = app
        self.web = web
        self.api_prefix = api_prefix.rstrip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self._is_api(scope["path"]):
            await self.web(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _is_api(self, path: str) -> bool:
        return path == self.api_prefix or path.startswith(self.api_prefix + "/")

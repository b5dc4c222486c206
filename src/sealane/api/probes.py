"""What an operator's probes and scraper read: ``/healthz``, ``/readyz`` and ``/metrics``.

Outside ``/v2`` and without a key, answered by a small ASGI middleware before the web app (which
takes every other path outside the API) sees the request:

- ``GET /healthz``: 200 ``{"status":"ok"}`` whenever the process answers at all (liveness);
- ``GET /readyz``: 200 when the database answers and its schema is at this install's migration
  head, else 503 with a JSON body saying why (readiness: take the process out of rotation);
- ``GET /metrics``: the Prometheus text format (:mod:`sealane.service.core.metrics`), unless
  the settings turn it off (``SEALANE_METRICS=0``: 404); only with ``Authorization: Bearer
  <token>`` when ``SEALANE_METRICS_TOKEN`` is set (401 otherwise). The text is made at most
  once every :data:`METRICS_KEPT_S` seconds, by one scrape while the others wait for it, so
  scraping cannot load the database (its backlog counts) or the process (hundreds of series).

:class:`RequestMetrics` counts every request by its route template (``/v2/shipments/{id}``, never
the raw path, so the label's values stay few) and status, with its latency.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Collection
from typing import Any, Final

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..service.core.context import ServiceContext
from ..service.core.health import backlog, readiness
from ..service.core.metrics import CONTENT_TYPE, Metrics
from .errors import HttpNotFound, MethodNotAllowed, Unauthorized, error_response
from .negotiation import HEAD_REQUEST

HEALTH_PATH: Final = "/healthz"
READY_PATH: Final = "/readyz"
METRICS_PATH: Final = "/metrics"
PATHS: Final = frozenset({HEALTH_PATH, READY_PATH, METRICS_PATH})
#: The route label of a request no route matched (an unknown path).
UNMATCHED: Final = "unmatched"
#: Seconds a rendered ``/metrics`` text is served again before it is made anew.
METRICS_KEPT_S: Final = 2.0
#: Methods counted by name; any other is counted as ``other``.
METHODS: Final = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _json(status: int, document: dict[str, Any]) -> Response:
    return Response(orjson.dumps(document), status, media_type="application/json")


class Operations:
    """Answer :data:`PATHS` (GET; HEAD through :class:`~.negotiation.HeadAsGet`); pass on the
    rest."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        context: ServiceContext,
        metrics_enabled: bool,
        metrics_token: str | None = None,
    ) -> None:
        self.app = app
        self.context = context
        self.metrics_enabled = metrics_enabled
        self._token = metrics_token.encode() if metrics_token else None
        #: The last ``/metrics`` text and when it was made (the clock's monotonic seconds).
        self._kept: tuple[float, bytes] | None = None
        self._making = asyncio.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in PATHS:
            await self.app(scope, receive, send)
            return
        response = await self._answer(scope["path"], scope["method"], scope)
        await response(scope, receive, send)

    async def _answer(self, path: str, method: str, scope: Scope) -> Response:
        if path == METRICS_PATH and not self.metrics_enabled:
            return error_response(HttpNotFound("metrics are turned off (SEALANE_METRICS=0)"))
        if path == METRICS_PATH and not self._admitted(scope):
            challenge = {"WWW-Authenticate": "Bearer"}
            return error_response(
                Unauthorized(
                    "/metrics needs its bearer token", code="unauthorized", headers=challenge
                )
            )
        if method != "GET":
            allowed = {"Allow": "GET, HEAD"}
            return error_response(MethodNotAllowed(f"{path} answers GET", headers=allowed))
        if path == HEALTH_PATH:
            return _json(200, {"status": "ok"})
        if path == READY_PATH:
            found = await run_in_threadpool(readiness, self.context)
            if found.ready:
                return _json(200, {"status": "ready", "schema": list(found.revisions)})
            document = {
                "status": "unavailable",
                "reason": found.reason,
                "schema": list(found.revisions),
                "head": list(found.head),
            }
            return _json(503, document)
        return Response(await self._metrics_text(), media_type=CONTENT_TYPE)

    def _admitted(self, scope: Scope) -> bool:
        """Whether the request may read ``/metrics``: always without a token, else only with
        ``Authorization: Bearer <token>`` (compared in constant time)."""
        if self._token is None:
            return True
        for name, value in scope["headers"]:
            if name == b"authorization":
                kind, _, given = value.partition(b" ")
                return kind.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._token)
        return False

    async def _metrics_text(self) -> bytes:
        """The exposition, made again when the kept one is older than :data:`METRICS_KEPT_S`
        (one scrape makes it; those arriving meanwhile wait and take it)."""
        context = self.context
        async with self._making:
            kept = self._kept
            if kept is not None and context.clock.monotonic() - kept[0] < METRICS_KEPT_S:
                return kept[1]
            body = await run_in_threadpool(lambda: context.metrics.exposition(backlog(context)))
            self._kept = (context.clock.monotonic(), body)
            return body


class RequestMetrics:
    """Count each HTTP request in ``metrics`` with its route template, method and status, and
    time it from arrival to its last byte.

    The template is that of the route the request matched (read from the scope after the
    app ran, with ``api_prefix`` in front where the route's own path lacks it), one of
    ``fixed_paths`` (endpoints answered by a middleware, such as ``/metrics``), or
    :data:`UNMATCHED`. An exception escaping the app counts as a 500 unless the response had
    already started.
    """

    def __init__(
        self, app: ASGIApp, *, metrics: Metrics, fixed_paths: Collection[str], api_prefix: str
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.fixed_paths = frozenset(fixed_paths)
        self.api_prefix = api_prefix.rstrip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            seconds = time.perf_counter() - started
            self.metrics.request(self.route_of(scope), _method(scope), status, seconds)

    def route_of(self, scope: Scope) -> str:
        """The template of the route that answered (bounded: never the raw path)."""
        route = scope.get("route")
        template = getattr(route, "path_format", None) or getattr(route, "path", None)
        if isinstance(template, str) and template:
            # A router included under the API's prefix may keep its routes' own paths (FastAPI
            # 0.16x does): the label is the whole template as a client sees it.
            prefix = self.api_prefix
            if scope["path"].startswith(prefix + "/") and not template.startswith(prefix + "/"):
                return prefix + template
            return template
        if scope["path"] in self.fixed_paths:
            return str(scope["path"])
        return UNMATCHED


def _method(scope: Scope) -> str:
    if scope.get(HEAD_REQUEST):
        return "HEAD"
    method = str(scope["method"])
    return method if method in METHODS else "other"

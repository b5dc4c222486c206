"""Streamable HTTP: ``POST /mcp`` and ``POST /api/mcp``, stateless, answered with JSON.

Every request is checked before the MCP layer sees it, in this order: ``Host`` and ``Origin``
against the allowlists (DNS-rebinding protection: 421 and 403), the method (only ``POST``: a
stateless server offers no event stream to ``GET`` and no session to ``DELETE``, so these are
405 with ``Allow: POST`` as the MCP transport asks, not a stream left open), then the key from
``Authorization: Bearer <key>`` or ``Token <key>`` (or ``SERVICE_API_TOKEN`` when no header is
sent; 401 with ``WWW-Authenticate`` when missing or invalid), counted by the shared rate limiter
(429 with ``Retry-After``). The checked account is left in the request for the tools.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..config import Settings
from ..service.core.errors import (
    TRANSLATED,
    RateLimited,
    ServiceError,
    Unauthenticated,
    Unavailable,
    translated,
)
from .calls import ACCOUNT_KEY, McpState
from .server import build_server
from .tool_errors import http_error, problem

PATHS = ("/mcp", "/api/mcp")
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
#: The only method the stateless endpoint serves.
ALLOW = {"Allow": "POST"}


@dataclass(frozen=True, slots=True)
class HostPolicy:
    """Allowed ``Host`` and ``Origin`` values: exact, or ``name:*`` for any port. A request
    without ``Origin`` (not from a browser) passes the origin check."""

    hosts: tuple[str, ...]
    origins: tuple[str, ...]

    @classmethod
    def of(cls, settings: Settings) -> HostPolicy:
        """The settings' allowlists; each empty one defaults to the loopback names (any port)
        and the host of ``base_url``."""
        base = urlsplit(settings.base_url)
        name = base.hostname or "127.0.0.1"
        shown = f"[{name}]" if ":" in name else name
        hosts = settings.mcp_allowed_hosts or (
            *(h for loop in LOOPBACK for h in (loop, f"{loop}:*")),
            base.netloc,
            f"{shown}:*",
        )
        origins = settings.mcp_allowed_origins or (
            *(f"http://{loop}:*" for loop in LOOPBACK),
            *(f"http://{loop}" for loop in LOOPBACK),
            f"{base.scheme}://{base.netloc}",
        )
        return cls(tuple(h.lower() for h in hosts), tuple(o.lower().rstrip("/") for o in origins))

    def refusal(self, headers: Headers) -> ServiceError | None:
        """Why the request is refused (421 host, 403 origin), or None."""
        host = headers.get("host", "").lower()
        if not _allowed(host, self.hosts):
            return ServiceError(f"Host {host[:100]!r} is not allowed", code="host_not_allowed")
        origin = headers.get("origin")
        if origin is not None and not _allowed(origin.lower().rstrip("/"), self.origins):
            return ServiceError(
                f"Origin {origin[:100]!r} is not allowed", code="origin_not_allowed"
            )
        return None


def _allowed(value: str, patterns: tuple[str, ...]) -> bool:
    if not value:
        return False
    return any(
        value == pattern or (pattern.endswith(":*") and value.startswith(pattern[:-1]))
        for pattern in patterns
    )


def credential(header: str | None, fallback: str | None) -> str:
    """The key of ``Authorization: Bearer|Token <key>``; with no header, ``fallback``."""
    if header is None:
        if not fallback:
            raise Unauthenticated(
                "send Authorization: Bearer <api key> (or Token <api key>); "
                "this server has no SERVICE_API_TOKEN to fall back on"
            )
        return fallback
    scheme, _, secret = header.strip().partition(" ")
    if scheme.lower() not in ("bearer", "token") or not secret.strip():
        raise Unauthenticated("malformed Authorization header: use Bearer <key> or Token <key>")
    return secret.strip()


class McpEndpoint:
    """The ASGI endpoint: the checks above, then the SDK's stateless streamable HTTP."""

    def __init__(self, state: McpState, policy: HostPolicy) -> None:
        self.state = state
        self.policy = policy
        self.server = build_server(state)
        self.manager: StreamableHTTPSessionManager | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Serve requests while open; each run has a session manager of its own (the SDK's
        runs once, and an app's lifespan may be entered again, as tests do)."""
        # Host and Origin are checked here (with the allowlists); the SDK checks the rest.
        self.server.streamable_http_app(
            json_response=True,
            stateless_http=True,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        manager = self.server.session_manager
        async with manager.run():
            self.manager = manager
            try:
                yield
            finally:
                self.manager = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        refused = self.policy.refusal(headers)
        if refused is not None:
            status, title = (
                (421, "Misdirected Request")
                if refused.code == "host_not_allowed"
                else (403, "Forbidden")
            )
            await problem(status, title, refused.detail, refused.code)(scope, receive, send)
            return
        if scope["method"] != "POST":
            detail = "this MCP endpoint is stateless: POST JSON-RPC messages; it has no stream"
            refusal = problem(405, "Method Not Allowed", detail, "method_not_allowed", ALLOW)
            await refusal(scope, receive, send)
            return
        client = scope.get("client")
        try:
            secret = credential(headers.get("authorization"), self.state.env_token)
            account = await self.state.backend.authorize(
                secret, address=client[0] if client else ""
            )
        except (Unauthenticated, RateLimited, Unavailable) as error:
            await http_error(error)(scope, receive, send)
            return
        except TRANSLATED as error:  # the database out of reach (a local backend)
            known = translated(error)
            assert known is not None
            await http_error(known)(scope, receive, send)
            return
        except ServiceError as error:  # the remote API could not be asked
            await problem(502, "Bad Gateway", error.detail, error.code)(scope, receive, send)
            return
        if self.manager is None:
            detail = "the MCP endpoint is not running"
            await problem(503, "Service Unavailable", detail, "not_running")(scope, receive, send)
            return
        scope.setdefault("state", {})[ACCOUNT_KEY] = account
        await self.manager.handle_request(scope, receive, send)


class McpMount:
    """Middleware sending requests for :data:`PATHS` to the MCP endpoint before the app (and the
    web app behind it, which takes every other path outside the API) sees them."""

    def __init__(self, app: ASGIApp, *, endpoint: McpEndpoint) -> None:
        self.app = app
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in PATHS:
            await self.endpoint(scope, receive, send)
            return
        await self.app(scope, receive, send)


def routes(endpoint: McpEndpoint) -> list[Route]:
    """The two addresses of the endpoint (every method: it answers 405 to all but POST)."""
    return [Route(path, endpoint=endpoint) for path in PATHS]

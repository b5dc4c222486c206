"""How a tool call runs: whose account it acts for, and the one wrapper that turns its output or
its failure into the tool result.

Over HTTP the endpoint (:mod:`.http`) has checked the key and counted the request before the MCP
layer sees it, and leaves the account on the request; over stdio each call is checked with the
key from ``SERVICE_API_TOKEN``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, TextContent

from ..service.core.errors import TRANSLATED, ServiceError, Unauthenticated, translated
from .backend import Account, Backend
from .outputs import Output
from .tool_errors import tool_error

#: What a tool answers as a tool error: the application layer's errors, and the failures below it
#: that it translates (the database out of reach).
_SHOWN: tuple[type[Exception], ...] = (ServiceError, *TRANSLATED)
#: Where the HTTP endpoint leaves the checked account, in the ASGI scope's ``state``.
ACCOUNT_KEY = "sealane.mcp.account"


@dataclass(frozen=True, slots=True)
class McpState:
    """What every handler shares (the server's lifespan object): the backend and the key used
    when a request brings none."""

    backend: Backend
    env_token: str | None


Ctx = Context[McpState, Any]


async def account_of(ctx: Ctx) -> Account:
    """The account the current request acts for."""
    request = ctx.request_context.request
    if request is not None:
        account: Account | None = request.scope.get("state", {}).get(ACCOUNT_KEY)
        if account is None:
            raise Unauthenticated("this request was not authenticated")
        return account
    state = ctx.request_context.lifespan_context
    if not state.env_token:
        raise Unauthenticated("no API key: set SERVICE_API_TOKEN for the stdio server")
    return await state.backend.authorize(state.env_token, address="stdio")


async def answer(ctx: Ctx, work: Callable[[Account], Awaitable[Output]]) -> CallToolResult:
    """Run ``work`` for the caller's account: its output as ``structuredContent`` with its
    summary as text, or any domain error as a tool error."""
    try:
        output = await work(await account_of(ctx))
    except _SHOWN as error:
        known = translated(error)
        assert known is not None
        return tool_error(known)
    return CallToolResult(
        content=[TextContent(type="text", text=output.summary())],
        structured_content=output.model_dump(mode="json"),
    )

"""The HTTP side of authentication: ``Authorization: Token <key>``, checked by the gatekeeper.

The key check, its cache and the rate limit are the application layer's
(:class:`sealane.service.access.gatekeeper.Gatekeeper`), shared with the MCP server and the web app.
"""

from __future__ import annotations

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from ..service.access.gatekeeper import Caller
from ..service.core.errors import Unauthenticated
from .state import state_of


def bearer_secret(header: str | None, *, schemes: tuple[str, ...] = ("token",)) -> str | None:
    """The key from an ``Authorization`` header using one of ``schemes``, or None."""
    if not header:
        return None
    scheme, _, secret = header.strip().partition(" ")
    if scheme.lower() not in schemes or not secret.strip():
        return None
    return secret.strip()


async def authenticate(request: Request) -> Caller:
    """The calling account, after the rate limit; 401 without a valid key, 429 over the limit.

    A key checked in the last ``auth_cache_seconds`` is answered from memory, and so is the rate
    limit while this process holds a lease of the key's shared counter; otherwise the key look-up
    (when needed) and the counter are one trip to the thread pool.
    """
    known: Caller | None = getattr(request.state, "caller", None)
    if known is not None:  # already checked (and counted) for this request
        return known
    header = request.headers.get("authorization")
    secret = bearer_secret(header)
    if secret is None:
        raise Unauthenticated(
            "send Authorization: Token <api key>"
            if not header
            else "malformed Authorization header"
        )
    gate = state_of(request).gate
    caller = gate.cached(secret)
    if caller is not None:
        if not gate.admit_now(caller):  # most requests of a busy key are admitted from memory
            await run_in_threadpool(gate.admit, caller)
    else:
        address = request.client.host if request.client else ""
        caller = await run_in_threadpool(lambda: gate.authorize(secret, address=address))
    request.state.caller = caller
    return caller


async def authenticate_routing(request: Request) -> Caller:
    """The calling account, which must have the routing feature (403 before anything else)."""
    caller = await authenticate(request)
    caller.require_routing()
    return caller

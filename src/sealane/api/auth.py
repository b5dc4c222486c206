"""Authentication (``Authorization: Token <key>``), rate limiting and feature checks."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from ..store.accounts import account_for_key
from .errors import Forbidden, TooManyRequests, Unauthorized
from .ratelimit import retry_after_header
from .state import state_of


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated account behind a request."""

    account_id: str
    routing_enabled: bool


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

    A key checked in the last ``auth_cache_seconds`` is answered from memory, on the event loop;
    otherwise the database is asked from the thread pool.
    """
    header = request.headers.get("authorization")
    secret = bearer_secret(header)
    if secret is None:
        detail = (
            "send Authorization: Token <api key>"
            if not header
            else "malformed Authorization header"
        )
        raise Unauthorized(detail, code="unauthorized", headers={"WWW-Authenticate": "Token"})
    state = state_of(request)
    caller = state.keys.get(secret)
    if caller is None:
        caller = await run_in_threadpool(_caller_for_key, request, secret)
        if caller is None:
            raise Unauthorized(
                "the API key is not valid",
                code="unauthorized",
                headers={"WWW-Authenticate": "Token"},
            )
        state.keys.put(secret, caller)
    wait = state.limiter.hit(caller.account_id)
    if wait is not None:
        raise TooManyRequests(
            f"rate limit of {state.limiter.limit} requests per minute exceeded",
            code="rate_limited",
            headers={"Retry-After": retry_after_header(wait)},
        )
    return caller


def _caller_for_key(request: Request, secret: str) -> Caller | None:
    """The account behind ``secret`` from the database, or None."""
    with state_of(request).sessions() as session:
        account = account_for_key(session, secret)
        return None if account is None else Caller(account.id, account.routing_enabled)


def require_routing(caller: Caller) -> None:
    """403 unless the account has the paid routing feature."""
    if not caller.routing_enabled:
        raise Forbidden(
            "Routing data feature is not enabled for this account", code="routing_disabled"
        )


async def authenticate_routing(request: Request) -> Caller:
    """The calling account, which must have the routing feature (403 before anything else)."""
    caller = await authenticate(request)
    require_routing(caller)
    return caller

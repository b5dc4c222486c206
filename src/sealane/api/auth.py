"""Authentication (``Authorization: Token <key>``), rate limiting and feature checks."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

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


def authenticate(request: Request) -> Caller:
    """The calling account, after the rate limit; 401 without a valid key, 429 over the limit."""
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
    with state.sessions() as session:
        account = account_for_key(session, secret)
        if account is None:
            raise Unauthorized(
                "the API key is not valid",
                code="unauthorized",
                headers={"WWW-Authenticate": "Token"},
            )
        caller = Caller(account.id, account.routing_enabled)
    wait = state.limiter.hit(caller.account_id)
    if wait is not None:
        raise TooManyRequests(
            f"rate limit of {state.limiter.limit} requests per minute exceeded",
            code="rate_limited",
            headers={"Retry-After": retry_after_header(wait)},
        )
    return caller


def require_routing(caller: Caller) -> None:
    """403 unless the account has the paid routing feature."""
    if not caller.routing_enabled:
        raise Forbidden(
            "Routing data feature is not enabled for this account", code="routing_disabled"
        )


def authenticate_routing(request: Request) -> Caller:
    """The calling account, which must have the routing feature (403 before anything else)."""
    caller = authenticate(request)
    require_routing(caller)
    return caller

"""Who is calling: API keys checked to an account, the rate limit, and paid features.

Every shell authenticates the same way: it takes the key from its own protocol (an HTTP header,
an MCP header or environment variable, a web session) and asks :class:`Gatekeeper`. A key checked
in the last few seconds is answered from memory without blocking, so an event loop may call
:meth:`Gatekeeper.cached`; :meth:`Gatekeeper.caller_for` may ask the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session, sessionmaker

from ..store.accounts import account_for_key
from .errors import ROUTING_DISABLED, FeatureDisabled, RateLimited, Unauthenticated
from .keycache import KeyCache
from .ratelimit import RateLimiter


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated account behind a request."""

    account_id: str
    routing_enabled: bool

    def require_routing(self) -> None:
        """Raise :class:`FeatureDisabled` unless the account has the paid routing feature."""
        if not self.routing_enabled:
            raise FeatureDisabled(ROUTING_DISABLED)


class Gatekeeper:
    """Checks API keys (with a short-lived cache) and admits callers under the rate limit."""

    def __init__(
        self, sessions: sessionmaker[Session], keys: KeyCache[Caller], limiter: RateLimiter
    ) -> None:
        self.sessions = sessions
        self.keys = keys
        self.limiter = limiter

    def cached(self, secret: str) -> Caller | None:
        """The caller for ``secret`` if it was checked recently (never blocks), else None."""
        return self.keys.get(secret)

    def caller_for(self, secret: str) -> Caller:
        """The caller owning ``secret`` (from memory or the database); raises
        :class:`Unauthenticated` when the key is unknown or revoked."""
        caller = self.keys.get(secret)
        if caller is None:
            caller = self._lookup(secret)
            if caller is None:
                raise Unauthenticated("the API key is not valid")
            self.keys.put(secret, caller)
        return caller

    def admit(self, caller: Caller) -> None:
        """Count one request of ``caller``; raises :class:`RateLimited` over the limit."""
        wait = self.limiter.hit(caller.account_id)
        if wait is not None:
            raise RateLimited(
                f"rate limit of {self.limiter.limit} requests per minute exceeded",
                retry_after_s=wait,
            )

    def _lookup(self, secret: str) -> Caller | None:
        if not secret or len(secret) > 256 or "\x00" in secret:
            return None
        with self.sessions() as session:
            account = account_for_key(session, secret)
            return None if account is None else Caller(account.id, account.routing_enabled)

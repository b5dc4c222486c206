"""Who is calling: API keys checked to an account, the rate limit, and paid features.

Every shell authenticates the same way: it takes the key from its own protocol (an HTTP header,
an MCP header or environment variable, a web session) and asks :class:`Gatekeeper`. A key checked
in the last few seconds is answered from memory without blocking, so an event loop may call
:meth:`Gatekeeper.cached`; the other methods may ask the database. The counters of the rate
limits live in the database, so they hold across processes and across shells.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session, sessionmaker

from ...store.accounts import account_for_key
from ..core.errors import (
    INGEST_DISABLED,
    ROUTING_DISABLED,
    FeatureDisabled,
    RateLimited,
    Unauthenticated,
)
from ..core.ratelimit import RateLimiter
from .keycache import KeyCache


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated account behind a request."""

    account_id: str
    routing_enabled: bool
    #: May write vessel positions, which every account sees (granted on its own).
    ingest_enabled: bool = False

    def require_routing(self) -> None:
        """Raise :class:`FeatureDisabled` unless the account has the paid routing feature."""
        if not self.routing_enabled:
            raise FeatureDisabled(ROUTING_DISABLED)

    def require_ingest(self) -> None:
        """Raise :class:`FeatureDisabled` unless the account may write vessel positions."""
        if not self.ingest_enabled:
            raise FeatureDisabled(INGEST_DISABLED, code="ingest_disabled")


class Gatekeeper:
    """Checks API keys (with a short-lived cache) and admits callers under the rate limit."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        keys: KeyCache[Caller],
        limiter: RateLimiter,
        failures: RateLimiter,
    ) -> None:
        self.sessions = sessions
        self.keys = keys
        self.limiter = limiter
        #: Failed key checks per client address.
        self.failures = failures

    def cached(self, secret: str) -> Caller | None:
        """The caller for ``secret`` if it was checked recently (never blocks), else None."""
        return self.keys.get(secret)

    def caller_for(self, secret: str, *, address: str = "") -> Caller:
        """The caller owning ``secret`` (from memory or the database); raises
        :class:`Unauthenticated` when the key is unknown or revoked. ``address`` is where the
        request came from: an address with too many failed keys in the last minute is answered
        :class:`RateLimited` without looking its keys up."""
        caller = self.keys.get(secret)
        if caller is not None:
            return caller
        failures = f"auth-failures:{address}"
        blocked = self.failures.exceeded(failures)
        if blocked is not None:
            raise RateLimited(
                "too many requests with invalid API keys from this address", retry_after_s=blocked
            )
        caller = self._lookup(secret)
        if caller is None:
            self.failures.hit(failures)
            raise Unauthenticated("the API key is not valid")
        self.keys.put(secret, caller)
        return caller

    def admit_now(self, caller: Caller) -> bool:
        """Count one request of ``caller`` from this process's lease of its rate limit, without
        blocking (an event loop may call it): False when :meth:`admit` must ask the database."""
        return self.limiter.spend(caller.account_id)

    def admit(self, caller: Caller) -> None:
        """Count one request of ``caller``; raises :class:`RateLimited` over the limit."""
        wait = self.limiter.hit(caller.account_id)
        if wait is not None:
            raise RateLimited(
                f"rate limit of {self.limiter.limit} requests per minute exceeded",
                retry_after_s=wait,
            )

    def authorize(self, secret: str, *, address: str = "") -> Caller:
        """:meth:`caller_for` then :meth:`admit`: what every shell does for a request."""
        caller = self.caller_for(secret, address=address)
        self.admit(caller)
        return caller

    def _lookup(self, secret: str) -> Caller | None:
        if not secret or len(secret) > 256 or "\x00" in secret:
            return None
        with self.sessions() as session:
            account = account_for_key(session, secret)
            if account is None:
                return None
            return Caller(account.id, account.routing_enabled, account.ingest_enabled)

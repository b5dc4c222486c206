"""Browser sessions of the web app, kept in the database so every server process shares them.

A session starts when a person signs in with an API key: the key is checked by the same
gatekeeper as API requests, and the session row points at that key, so revoking the key ends
the session at once. The browser holds a random id (signed, in a cookie); the database holds only
its SHA-256, a CSRF token and the expiry. Finding a session is one indexed query per page.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from ...store.accounts import hash_key
from ...store.models import Account, ApiKey, BrowserSession
from ..core.context import ServiceContext
from .gatekeeper import Caller, Gatekeeper

#: Longest session id accepted from a cookie (ids made here are 43 characters).
MAX_ID_CHARS = 128


@dataclass(frozen=True, slots=True)
class WebSession:
    """One signed-in browser: its id (the browser's secret), whose account it is, whether the
    account has the routing feature, its CSRF token and when it ends."""

    id: str
    account_id: str
    routing_enabled: bool
    csrf_token: str
    expires_at: datetime

    @property
    def caller(self) -> Caller:
        """The caller every use case is asked as."""
        return Caller(self.account_id, self.routing_enabled)


class BrowserSessions:
    """Start, find and end web sessions of ``lifetime_s`` seconds."""

    def __init__(self, ctx: ServiceContext, gate: Gatekeeper, lifetime_s: int) -> None:
        self.ctx = ctx
        self.gate = gate
        self.lifetime = timedelta(seconds=lifetime_s)

    def start(self, secret: str, *, address: str = "") -> WebSession:
        """A new session for the holder of API key ``secret`` (checked and counted like an API
        request: :class:`Unauthenticated` or :class:`RateLimited` otherwise). Each sign-in gets
        a fresh id, so an id seen before signing in is never a signed-in one."""
        caller = self.gate.authorize(secret, address=address)
        now = self.ctx.clock.now()
        session_id = secrets.token_urlsafe(32)
        csrf_token = secrets.token_urlsafe(32)
        with self.ctx.writing() as db:
            key_id = db.scalar(select(ApiKey.id).where(ApiKey.key_hash == hash_key(secret)))
            db.execute(delete(BrowserSession).where(BrowserSession.expires_at <= now))
            db.add(
                BrowserSession(
                    id_hash=_digest(session_id),
                    api_key_id=key_id,
                    csrf_token=csrf_token,
                    created_at=now,
                    expires_at=now + self.lifetime,
                )
            )
        return WebSession(
            session_id, caller.account_id, caller.routing_enabled, csrf_token, now + self.lifetime
        )

    def find(self, session_id: str) -> WebSession | None:
        """The live session ``session_id``: None when unknown, ended, expired or when its key
        has been revoked since."""
        if not session_id or len(session_id) > MAX_ID_CHARS:
            return None
        query = (
            select(BrowserSession, Account.id, Account.routing_enabled)
            .join(ApiKey, ApiKey.id == BrowserSession.api_key_id)
            .join(Account, Account.id == ApiKey.account_id)
            .where(
                BrowserSession.id_hash == _digest(session_id),
                BrowserSession.expires_at > self.ctx.clock.now(),
                ApiKey.revoked_at.is_(None),
            )
        )
        with self.ctx.reading() as db:
            row = db.execute(query).one_or_none()
        if row is None:
            return None
        found, account_id, routing = row
        return WebSession(session_id, account_id, routing, found.csrf_token, found.expires_at)

    def admit(self, session: WebSession) -> Caller:
        """Count a page against the account's rate limit, like an API request."""
        caller = session.caller
        self.gate.admit(caller)
        return caller

    def end(self, session_id: str) -> None:
        """Sign out: the session is gone for every server process."""
        with self.ctx.writing() as db:
            db.execute(delete(BrowserSession).where(BrowserSession.id_hash == _digest(session_id)))


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()

"""Server-side web sessions: the cookie holds only a signed random id; the session lives here.

A session is made at sign-in with the API key the person gave (kept in this process's memory,
never in the cookie), a CSRF token and an expiry; each page asks the application layer's
gatekeeper with that key, so a revoked key ends the session and pages count against the
account's rate limit like API requests. Sessions are kept in memory: a restart signs everyone
out, and several server processes do not share them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..clock import Clock

#: Most sessions kept at once; the oldest go first beyond it.
MAX_SESSIONS = 100_000


@dataclass(frozen=True, slots=True)
class WebSession:
    """One signed-in browser: its id, the API key it signed in with, CSRF token and expiry."""

    id: str
    api_key: str
    account_id: str
    csrf_token: str
    expires_at: datetime


class Signer:
    """HMAC-SHA256 signatures of short texts under the web secret key, per purpose."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def signature(self, purpose: str, value: str) -> str:
        """The signature of ``value`` for ``purpose`` (URL-safe base64, 43 characters)."""
        digest = hmac.new(self._key, f"{purpose}\x00{value}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def sign(self, purpose: str, value: str) -> str:
        """``value.signature``."""
        return f"{value}.{self.signature(purpose, value)}"

    def unsign(self, purpose: str, signed: str) -> str | None:
        """The value of ``signed`` if its signature is right, else None."""
        value, _, signature = signed.rpartition(".")
        if not value or len(signed) > 512:
            return None
        expected = self.signature(purpose, value)
        return value if hmac.compare_digest(expected, signature) else None


class SessionStore:
    """Sessions by id, in memory, each ending at its expiry or at sign-out."""

    def __init__(self, clock: Clock, lifetime_s: int) -> None:
        self.clock = clock
        self.lifetime = timedelta(seconds=lifetime_s)
        self._sessions: dict[str, WebSession] = {}
        self._lock = threading.Lock()

    def create(self, api_key: str, account_id: str) -> WebSession:
        """A new session (a fresh id at every sign-in, so an old id is never reused)."""
        session = WebSession(
            id=secrets.token_urlsafe(32),
            api_key=api_key,
            account_id=account_id,
            csrf_token=secrets.token_urlsafe(32),
            expires_at=self.clock.now() + self.lifetime,
        )
        with self._lock:
            self._drop_expired()
            if len(self._sessions) >= MAX_SESSIONS:
                oldest = min(self._sessions.values(), key=lambda s: s.expires_at)
                del self._sessions[oldest.id]
            self._sessions[session.id] = session
        return session

    def get(self, session_id: str) -> WebSession | None:
        """The live session ``session_id``, or None (unknown, signed out or expired)."""
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None and session.expires_at <= self.clock.now():
                del self._sessions[session_id]
                return None
            return session

    def end(self, session_id: str) -> None:
        """Forget the session (sign-out)."""
        with self._lock:
            self._sessions.pop(session_id, None)

    def _drop_expired(self) -> None:
        now = self.clock.now()
        for key in [k for k, s in self._sessions.items() if s.expires_at <= now]:
            del self._sessions[key]

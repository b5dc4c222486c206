"""Who is signed in, and whether a form may change anything: the session cookie, the caller
behind it (the application layer's key check and rate limit), CSRF tokens and safe returns."""

from __future__ import annotations

import hmac
from datetime import datetime
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from ..service.access.browser_sessions import WebSession
from ..service.access.gatekeeper import Caller
from .error_pages import CsrfRejected, SignInRequired
from .state import web_of

SESSION_COOKIE = "sealane_session"
SIGNIN_COOKIE = "sealane_signin"
#: Longest path a sign-in returns to; a longer one returns to the shipment list.
MAX_BACK_CHARS = 2048


def current_session(request: Request) -> WebSession | None:
    """The live session whose signed id the request's cookie carries, or None (blocking: it
    asks the database, so run it off the event loop)."""
    cookie = request.cookies.get(SESSION_COOKIE)
    web = web_of(request)
    session_id = web.signer.unsign("session", cookie) if cookie else None
    return web.sessions.find(session_id) if session_id else None


def signed_in(request: Request) -> Caller:
    """The caller of a signed-in request, counted against its rate limit (blocking: run it off
    the event loop); otherwise :class:`SignInRequired` naming this page to come back to. A
    session whose key was revoked is no longer found, and reads as ended."""
    session = current_session(request)
    if session is None:
        back = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        ended = SESSION_COOKIE in request.cookies
        raise SignInRequired(back if request.method == "GET" else None, ended=ended)
    caller = web_of(request).sessions.admit(session)
    request.state.web_session = session
    return caller


def check_csrf(request: Request, form: dict[str, str], session: WebSession) -> None:
    """Refuse a form without the session's token, or sent from another origin."""
    check_origin(request)
    given = form.get("csrf_token", "")
    if not hmac.compare_digest(given.encode(), session.csrf_token.encode()):
        raise CsrfRejected()


def check_origin(request: Request) -> None:
    """Refuse a request whose ``Origin`` header names another site."""
    origin = request.headers.get("origin")
    if origin is None:
        return
    own = f"{request.url.scheme}://{request.url.netloc}"
    if origin != own:
        raise CsrfRejected()


def safe_back(path: str | None) -> str | None:
    """``path`` if it is a path of this site to return to after sign-in, else None: no
    scheme, host, ``//`` or backslash (each could lead to another site), no control
    characters, not the sign-in pages themselves."""
    if not path or len(path) > MAX_BACK_CHARS or not path.startswith("/"):
        return None
    if path.startswith("//") or "\\" in path or any(ord(c) < 32 or ord(c) == 127 for c in path):
        return None
    parts = urlsplit(path)
    if parts.scheme or parts.netloc or parts.path.startswith(("/sign-in", "/sign-out")):
        return None
    return path


def set_session_cookie(
    request: Request, response: Response, session: WebSession, now: datetime
) -> None:
    """Put the signed session id on ``response``: HttpOnly, SameSite=Lax, Secure over https,
    expiring with the session."""
    signed = web_of(request).signer.sign("session", session.id)
    response.set_cookie(
        SESSION_COOKIE,
        signed,
        max_age=max(1, int((session.expires_at - now).total_seconds())),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    """Remove the session cookie from the browser."""
    response.delete_cookie(
        SESSION_COOKIE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )

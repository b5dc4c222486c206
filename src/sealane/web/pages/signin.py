"""Sign-in with an API key, and sign-out: a server-side session for the browser."""

from __future__ import annotations

import secrets

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ...service.core.errors import Unauthenticated
from ..error_pages import CsrfRejected
from ..forms import read_form
from ..guard import (
    SIGNIN_COOKIE,
    check_csrf,
    check_origin,
    clear_session_cookie,
    current_session,
    safe_back,
    set_session_cookie,
)
from ..state import web_of

HOME = "/shipments"
#: How long a sign-in form stays usable, in seconds.
FORM_LIFETIME_S = 3600


def sign_in_page(request: Request) -> Response:
    """The sign-in form (already signed in: straight on to where the person was going)."""
    back = safe_back(request.query_params.get("next"))
    if current_session(request) is not None:
        return RedirectResponse(back or HOME, status_code=303)
    notice = (
        "Your session has ended. Please sign in again." if "ended" in request.query_params else ""
    )
    return _form(request, back, notice=notice)


async def sign_in(request: Request) -> Response:
    """Check the key with the application layer's gatekeeper, then start a session."""
    form = await read_form(request)
    check_origin(request)
    web = web_of(request)
    nonce = request.cookies.get(SIGNIN_COOKIE, "")
    if not nonce or web.signer.unsign("signin", form.get("csrf_token", "")) != nonce:
        raise CsrfRejected()
    back = safe_back(form.get("next"))
    key = form.get("api_key", "").strip()
    if not key:
        return _form(request, back, error="Enter your API key.", status=400)
    address = request.client.host if request.client else ""
    try:
        session = await run_in_threadpool(web.sessions.start, key, address=address)
    except Unauthenticated:
        return _form(request, back, error="That API key is not valid.", status=401)
    previous = await run_in_threadpool(current_session, request)
    if previous is not None:
        await run_in_threadpool(web.sessions.end, previous.id)
    response = RedirectResponse(back or HOME, status_code=303)
    set_session_cookie(request, response, session, web.context.clock.now())
    response.delete_cookie(SIGNIN_COOKIE, path="/sign-in")
    return response


async def sign_out(request: Request) -> Response:
    """End the session (the form carries its CSRF token) and forget the cookie."""
    form = await read_form(request)
    session = await run_in_threadpool(current_session, request)
    if session is not None:
        check_csrf(request, form, session)
        await run_in_threadpool(web_of(request).sessions.end, session.id)
    response = RedirectResponse("/sign-in?signed_out=1", status_code=303)
    clear_session_cookie(request, response)
    return response


def _form(
    request: Request, back: str | None, *, error: str = "", notice: str = "", status: int = 200
) -> Response:
    web = web_of(request)
    nonce = request.cookies.get(SIGNIN_COOKIE) or secrets.token_urlsafe(24)
    if "signed_out" in request.query_params:
        notice = "You are signed out."
    response = web.pages.render(
        request,
        "sign_in.html",
        status=status,
        title="Sign in",
        back=back or "",
        signin_token=web.signer.sign("signin", nonce),
        error=error,
        notice=notice,
    )
    response.set_cookie(
        SIGNIN_COOKIE,
        nonce,
        max_age=FORM_LIFETIME_S,
        path="/sign-in",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response

"""The one place where every failure of a page becomes an HTML error page (or a redirect).

Application-layer errors keep their meaning: not found is a 404 page, invalid input 400, a
missing feature 403, the rate limit 429 with ``Retry-After``; a missing or ended session sends
the browser to sign-in and back. No JSON document, traceback or framework default reaches a
person.
"""

from __future__ import annotations

import logging
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..service.core import errors as domain
from ..service.core.ratelimit import retry_after_header
from .state import web_of

log = logging.getLogger("sealane.web")


class SignInRequired(Exception):
    """The page needs a signed-in person; ``ended`` when a session existed but is over."""

    def __init__(self, back_to: str | None, *, ended: bool = False) -> None:
        super().__init__("sign in required")
        self.back_to = back_to
        self.ended = ended


class CsrfRejected(Exception):
    """A form that changes something came without this session's token, or from elsewhere."""


class BadForm(Exception):
    """A posted form that cannot be read (wrong type, too large, not UTF-8)."""

    def __init__(self, detail: str, *, status: int = 400) -> None:
        super().__init__(detail)
        self.detail = detail
        self.status = status


_TITLES = {
    400: "Bad request",
    403: "Not allowed",
    404: "Not found",
    405: "Method not allowed",
    413: "Too large",
    415: "Unsupported form",
    422: "Cannot be done",
    429: "Too many requests",
    500: "Something went wrong",
}


def error_page(
    request: Request, status: int, detail: str, *, headers: dict[str, str] | None = None
) -> Response:
    """The HTML error page for ``status`` saying ``detail``."""
    return web_of(request).pages.render(
        request,
        "error.html",
        status=status,
        headers=headers,
        title=_TITLES.get(status, "Error"),
        status_code=status,
        detail=detail,
    )


def _service_error(request: Request, exc: domain.ServiceError) -> Response:
    if isinstance(exc, domain.Unauthenticated):
        return _to_sign_in(request, SignInRequired(None, ended=True))
    if isinstance(exc, domain.RateLimited):
        wait = retry_after_header(exc.retry_after_s)
        return error_page(request, 429, exc.detail, headers={"Retry-After": wait})
    status = {domain.ObjectNotFound: 404, domain.FeatureDisabled: 403, domain.InvalidInput: 400}
    return error_page(request, status.get(type(exc), 422), exc.detail)


def _to_sign_in(request: Request, exc: SignInRequired) -> Response:
    query = {"next": exc.back_to} if exc.back_to else {}
    if exc.ended:
        query["ended"] = "1"
    target = "/sign-in" + ("?" + urlencode(query) if query else "")
    return RedirectResponse(target, status_code=303, headers={"Cache-Control": "no-store"})


async def _sign_in(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SignInRequired)
    return _to_sign_in(request, exc)


async def _csrf(request: Request, exc: Exception) -> Response:
    detail = "the form has expired or did not come from this site: reload the page and try again"
    return error_page(request, 403, detail)


async def _bad_form(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadForm)
    return error_page(request, exc.status, exc.detail)


async def _service(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, domain.ServiceError)
    return _service_error(request, exc)


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return error_page(request, 404, "There is no page at this address.")
    if exc.status_code == 405:
        return error_page(request, 405, f"{request.method} is not allowed here.")
    return error_page(request, exc.status_code, str(exc.detail))


async def _unexpected(request: Request, exc: Exception) -> Response:
    log.exception("unhandled error on a page", exc_info=exc)
    return error_page(request, 500, "An unexpected error occurred; it has been logged.")


def install_error_pages(app: Starlette) -> None:
    """Register every handler above on ``app``."""
    app.add_exception_handler(SignInRequired, _sign_in)
    app.add_exception_handler(CsrfRejected, _csrf)
    app.add_exception_handler(BadForm, _bad_form)
    app.add_exception_handler(domain.ServiceError, _service)
    app.add_exception_handler(HTTPException, _http)
    app.add_exception_handler(Exception, _unexpected)

"""Jinja2 templates rendered to HTML responses with the headers every page carries.

Autoescaping is on for every template, so text from a request or the database is always
escaped; the Content-Security-Policy allows scripts, styles and images from this site only (no
inline script), so injected markup could not run even if it got through.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from . import present

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class Pages:
    """The templates of :mod:`sealane.web`, loaded once."""

    def __init__(self) -> None:
        self.env = Environment(
            loader=PackageLoader("sealane.web", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals.update(
            when=present.when,
            label=present.event_label,
            status_label=present.status_label,
            port_name=present.port_name,
        )

    def html(self, name: str, **context: Any) -> str:
        """Template ``name`` rendered with ``context``."""
        return self.env.get_template(name).render(**context)

    def render(
        self,
        request: Request,
        name: str,
        *,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        **context: Any,
    ) -> HTMLResponse:
        """An HTML response of template ``name``; ``signed_in`` and ``csrf_token`` come from
        the request's session when a page handler put one on ``request.state``."""
        session = getattr(request.state, "web_session", None)
        body = self.html(
            name,
            path=request.url.path,
            signed_in=session is not None,
            csrf_token=session.csrf_token if session is not None else "",
            **context,
        )
        return HTMLResponse(
            body, status_code=status, headers={**SECURITY_HEADERS, **(headers or {})}
        )

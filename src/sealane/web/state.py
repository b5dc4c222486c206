"""What every page handler reaches for: the running service, sessions, signer and templates."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request

from ..service.access.browser_sessions import BrowserSessions
from ..service.access.gatekeeper import Gatekeeper
from ..service.core.context import ServiceContext
from .render import Pages
from .signer import Signer


@dataclass(frozen=True, slots=True)
class WebState:
    """The web app's parts, built once by :func:`sealane.web.app.create_web_app`."""

    context: ServiceContext
    gate: Gatekeeper
    sessions: BrowserSessions
    signer: Signer
    pages: Pages


def web_of(request: Request) -> WebState:
    """The :class:`WebState` of the app serving ``request``."""
    state: WebState = request.app.state.web
    return state

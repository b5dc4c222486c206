"""The web application: ``create_web_app(runtime)`` wires sessions, templates, pages and static
files over the same running service as the API."""

from __future__ import annotations

from functools import partial
from importlib.resources import files
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..runtime import Runtime
from ..service.access.browser_sessions import BrowserSessions
from .error_pages import install_error_pages
from .headers import STATIC_HEADERS, WithHeaders
from .land import land_svg
from .pages.reliability import reliability_page
from .pages.shipment import shipment_page
from .pages.shipments import find, shipments_page
from .pages.signin import sign_in, sign_in_page, sign_out
from .pages.track import request_page, track, track_page
from .render import Pages
from .secret import secret_key
from .signer import Signer
from .state import WebState

#: Browsers may keep static files this long (seconds); they are revalidated after.
STATIC_MAX_AGE_S = 3600


def home(_request: Request) -> Response:
    """``/``: the shipment list (sign-in first when needed)."""
    return RedirectResponse("/shipments", status_code=303)


def land(_request: Request) -> Response:
    """The land of the map, one SVG document cached by the browser."""
    return Response(
        land_svg(),
        media_type="image/svg+xml",
        headers={"Cache-Control": f"public, max-age={STATIC_MAX_AGE_S}", **STATIC_HEADERS},
    )


def static_dir() -> Path:
    """The web app's own CSS and scripts."""
    return Path(str(files("sealane.web") / "static"))


def create_web_app(runtime: Runtime) -> Starlette:
    """The pages of ``runtime``'s service (mounted by :func:`sealane.api.app.create_app`)."""
    settings = runtime.settings
    routes = [
        Route("/", home),
        Route("/sign-in", sign_in_page, methods=["GET"]),
        Route("/sign-in", sign_in, methods=["POST"]),
        Route("/sign-out", sign_out, methods=["POST"]),
        Route("/shipments", shipments_page),
        Route("/shipments/find", find),
        Route("/shipments/{shipment_id}", shipment_page),
        Route("/reliability", reliability_page),
        Route("/track", track_page, methods=["GET"]),
        Route("/track", track, methods=["POST"]),
        Route("/tracking_requests/{request_id}", request_page),
        Route("/static/land.svg", land),
        Mount("/static", WithHeaders(StaticFiles(directory=static_dir())), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.web = WebState(
        context=runtime.context,
        gate=runtime.gate,
        sessions=BrowserSessions(runtime.context, runtime.gate, settings.web_session_seconds),
        signer=Signer(partial(secret_key, settings, runtime.context)),
        pages=Pages(),
    )
    install_error_pages(app)
    return app

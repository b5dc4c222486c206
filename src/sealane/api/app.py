"""The FastAPI application: ``create_app(settings)`` wires storage, clock, limiter and routers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from .. import __version__
from ..clock import Clock
from ..config import Settings
from ..jsonapi.reuse import RenderedResources
from ..mcp.apps import endpoint_for
from ..mcp.http import PATHS as MCP_PATHS
from ..mcp.http import McpMount
from ..runtime import build_runtime
from ..web.apidocs import install_api_docs
from ..web.app import create_web_app
from ..web.mount import WebShell
from .caching import ConditionalGet
from .collector import service_collector
from .compression import GzipMiddleware
from .containment import ContainFailures
from .errors import install_error_handlers
from .kept_pages import KeptPages
from .negotiation import HeadAsGet, JsonApiNegotiation
from .openapi import document
from .probes import PATHS as OPS_PATHS
from .probes import Operations, RequestMetrics
from .routers import (
    account,
    carrier_push,
    container_routes,
    containers,
    custom_fields,
    parties,
    reference,
    reliability,
    sea_routes,
    search,
    shipments,
    tracking_requests,
    vessel_positions,
    vessels,
    webhooks,
)

API_PREFIX = "/v2"
#: The router modules, in the order their routes are matched.
ROUTERS = (
    account,
    reference,
    vessels,
    vessel_positions,
    sea_routes,
    tracking_requests,
    shipments,
    containers,
    container_routes,
    webhooks,
    parties,
    custom_fields,
    search,
    reliability,
    carrier_push,
)


def create_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    migrate: bool = True,
    poll_interval_s: float | None = None,
) -> FastAPI:
    """The service for ``settings``; the database schema is brought up to date first.

    With ``poll_interval_s`` a background poller advances tracking while the app runs (the
    server does this); without it, tests call ``app.state.sealane.tracking.tick()`` themselves.
    """
    runtime = build_runtime(settings, clock=clock, migrate=migrate, poll_interval_s=poll_interval_s)
    mcp = endpoint_for(settings, runtime)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        runtime.start()
        try:
            async with mcp.running():
                with service_collector():
                    yield
        finally:
            await mcp.state.backend.aclose()
            runtime.stop()

    app = FastAPI(
        lifespan=lifespan,
        title="sealane",
        version=__version__,
        description="Container tracking with vessel routing: JSON:API documents under /v2.",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=None,  # served with local assets by install_api_docs
        redoc_url=None,
    )
    app.state.sealane = runtime
    app.state.rendered = RenderedResources()  # list resources kept while unchanged
    app.state.pages = KeptPages()  # list pages kept while their rows are unchanged
    install_error_handlers(app)
    for module in ROUTERS:
        app.include_router(module.router, prefix=API_PREFIX)
    install_api_docs(app, API_PREFIX)
    # Innermost: paths outside /v2 go to the web app and never meet the API's error handlers.
    app.add_middleware(WebShell, web=create_web_app(runtime), api_prefix=API_PREFIX)
    app.add_middleware(McpMount, endpoint=mcp)  # before the web app: POST /mcp and /api/mcp
    app.add_middleware(JsonApiNegotiation, prefix=API_PREFIX)
    # /healthz, /readyz, /metrics: outside /v2, before the web app takes them.
    app.add_middleware(
        Operations,
        context=runtime.context,
        metrics_enabled=settings.metrics_enabled,
        metrics_token=settings.metrics_token,
    )
    app.add_middleware(ConditionalGet, prefix=API_PREFIX)  # tags the body before gzip
    app.add_middleware(GzipMiddleware, minimum_size=1024, level=1)
    if settings.metrics_enabled:  # inside HeadAsGet, whose copy of the scope hides the route
        metrics, fixed = runtime.context.metrics, (*OPS_PATHS, *MCP_PATHS)
        app.add_middleware(
            RequestMetrics, metrics=metrics, fixed_paths=fixed, api_prefix=API_PREFIX
        )
    app.add_middleware(HeadAsGet)
    app.add_middleware(ContainFailures)  # outermost: a failure is answered, the connection kept
    app.openapi = lambda: document(app)  # type: ignore[method-assign]
    return app

"""The FastAPI application: ``create_app(settings)`` wires storage, clock, limiter and routers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from sqlalchemy.orm import Session, sessionmaker

from ..clock import Clock, SystemClock
from ..config import Settings
from ..store.database import make_engine, session_factory, transaction
from ..store.migrate import upgrade
from ..store.seed import load_reference_data
from ..tracking.carriers import SimulatedCarrier
from ..tracking.poller import Poller
from ..tracking.service import TrackingService
from ..webhooks.delivery import DeliveryWorker
from .compression import GzipMiddleware
from .errors import install_error_handlers
from .jsonapi import MEDIA_TYPE
from .keycache import KeyCache
from .negotiation import HeadAsGet, JsonApiNegotiation
from .ratelimit import RateLimiter
from .routers import reference, vessels
from .routers import tracking as tracking_routes
from .routers import webhooks as webhook_routes
from .routers.responses import DOCUMENT_SCHEMA
from .state import AppState

API_PREFIX = "/v2"


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
    engine = make_engine(settings.database_url)
    if migrate:
        upgrade(engine)
        with transaction(session_factory(engine)) as session:
            load_reference_data(session)
    the_clock = clock or SystemClock()
    sessions = session_factory(engine)
    tracking = TrackingService(sessions, the_clock, {"TEST": SimulatedCarrier()})
    webhooks = make_delivery_worker(settings, sessions, the_clock)
    pollers = (
        [Poller(tracking, poll_interval_s), Poller(webhooks, poll_interval_s)]
        if poll_interval_s
        else []
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for poller in pollers:
            poller.start()
        try:
            yield
        finally:
            for poller in pollers:
                poller.stop()
            webhooks.close()

    app = FastAPI(
        lifespan=lifespan,
        title="sealane",
        version="2",
        description="Container tracking with vessel routing: JSON:API documents under /v2.",
        openapi_url=f"{API_PREFIX}/openapi.json",
        docs_url=f"{API_PREFIX}/docs",
        redoc_url=None,
    )
    app.state.sealane = AppState(
        settings=settings,
        engine=engine,
        sessions=sessions,
        clock=the_clock,
        limiter=RateLimiter(settings.rate_limit_per_minute, the_clock),
        keys=KeyCache(settings.auth_cache_seconds, the_clock),
        tracking=tracking,
        webhooks=webhooks,
    )
    install_error_handlers(app)
    for router in (reference.router, vessels.router, tracking_routes.router, webhook_routes.router):
        app.include_router(router, prefix=API_PREFIX)
    app.add_middleware(JsonApiNegotiation, prefix=API_PREFIX)
    app.add_middleware(GzipMiddleware, minimum_size=1024, level=1)
    app.add_middleware(HeadAsGet)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def make_delivery_worker(
    settings: Settings, sessions: sessionmaker[Session], clock: Clock, *, lease_s: float = 120.0
) -> DeliveryWorker:
    """The webhook delivery worker configured by ``settings``.

    ``lease_s`` is how long a claimed notification stays with this worker; after a crash it is
    sent again once the lease runs out (keep it above the 10 s delivery timeout).
    """
    return DeliveryWorker(
        sessions,
        clock,
        render=webhook_routes.render_notification(settings.base_url),
        schedule=settings.webhook_retry_schedule,
        allow_private=settings.webhook_allow_private,
        lease_s=lease_s,
    )


def _openapi(app: FastAPI) -> dict[str, Any]:
    """OpenAPI with the JSON:API media type in place of application/json everywhere."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            for status, response in operation.get("responses", {}).items():
                content = response.get("content", {})
                if "application/json" in content:
                    content[MEDIA_TYPE] = content.pop("application/json")
                    content[MEDIA_TYPE].setdefault("schema", {"type": "object"})
                # FastAPI declares the body of a response class other than JSONResponse as a
                # plain string; a success here is always a JSON:API document.
                media = content.get(MEDIA_TYPE) if str(status).startswith("2") else None
                if media is not None and media.get("schema") in (None, {"type": "string"}):
                    media["schema"] = DOCUMENT_SCHEMA
            operation.setdefault("security", [{"Token": []}])
    schema.setdefault("components", {})["securitySchemes"] = {
        "Token": {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Token <api key>",
        }
    }
    app.openapi_schema = schema
    return schema

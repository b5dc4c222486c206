"""The API's documentation pages, Swagger UI at ``/v2/docs`` and ReDoc at ``/v2/redoc``, with
their scripts and styles served from this server: the ``fastapi-offline`` package ships them,
so the pages work on a machine without internet access."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

ASSETS = "/docs/assets"


def assets_dir() -> Path:
    """Where the installed ``fastapi_offline`` package keeps Swagger UI and ReDoc."""
    return Path(str(files("fastapi_offline") / "static"))


def install_api_docs(app: FastAPI, prefix: str) -> None:
    """Add ``{prefix}/docs``, ``{prefix}/redoc`` and their assets to the API ``app``."""
    assets = prefix + ASSETS
    openapi_url = app.openapi_url or f"{prefix}/openapi.json"

    async def swagger(_request: Request) -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} API - Swagger UI",
            swagger_js_url=f"{assets}/swagger-ui-bundle.js",
            swagger_css_url=f"{assets}/swagger-ui.css",
            swagger_favicon_url=f"{assets}/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},
        )

    async def redoc(_request: Request) -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} API - ReDoc",
            redoc_js_url=f"{assets}/redoc.standalone.js",
            redoc_favicon_url=f"{assets}/favicon.png",
            with_google_fonts=False,
        )

    app.add_route(f"{prefix}/docs", swagger, include_in_schema=False)
    app.add_route(f"{prefix}/redoc", redoc, include_in_schema=False)
    app.mount(assets, StaticFiles(directory=assets_dir()), name="api-docs-assets")

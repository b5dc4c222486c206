"""The API's documentation pages, Swagger UI at ``/v2/docs`` and ReDoc at ``/v2/redoc``, with
their scripts and styles served from this server: the ``fastapi-offline`` package ships them,
so the pages work on a machine without internet access.

Both pages carry a Content-Security-Policy that admits this server only: Swagger UI's one inline
script by its hash, ReDoc's injected styles and search worker (``blob:``) by what they need;
neither page may be framed, and no file is sniffed into another type. ReDoc's bundle names one
remote file, Redocly's logo in its side menu; it is served with that address replaced by an
empty image, so the page asks nothing of another host (the policy would refuse it anyway).
"""

from __future__ import annotations

import base64
import hashlib
import re
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles

from .headers import STATIC_HEADERS, WithHeaders

ASSETS = "/docs/assets"
#: The policy of both pages but for ``script-src`` and ``style-src``, which each page adds.
_POLICY = (
    "default-src 'self'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
#: The remote logo ReDoc's side menu shows, and the empty image it becomes.
REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
EMPTY_IMAGE = b"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"


def docs_headers(page: HTMLResponse, *, inline_styles: bool) -> dict[str, str]:
    """The security headers of a docs ``page``: its inline scripts allowed by their SHA-256
    hashes, inline styles only when the page's script injects them (ReDoc)."""
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(code.encode()).digest()).decode() + "'"
        for code in _INLINE_SCRIPT.findall(bytes(page.body).decode())
    ]
    styles = "'self' 'unsafe-inline'" if inline_styles else "'self'"
    policy = f"{_POLICY}; script-src 'self' {' '.join(hashes)}; style-src {styles}"
    return {
        **STATIC_HEADERS,
        "Content-Security-Policy": policy,
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    }


def assets_dir() -> Path:
    """Where the installed ``fastapi_offline`` package keeps Swagger UI and ReDoc."""
    return Path(str(files("fastapi_offline") / "static"))


def local_redoc() -> tuple[bytes, str]:
    """ReDoc's bundle with its one remote address replaced by :data:`EMPTY_IMAGE`, and the
    bundle's ETag."""
    bundle = (assets_dir() / "redoc.standalone.js").read_bytes().replace(REDOC_LOGO, EMPTY_IMAGE)
    return bundle, '"' + hashlib.sha256(bundle).hexdigest()[:32] + '"'


def install_api_docs(app: FastAPI, prefix: str) -> None:
    """Add ``{prefix}/docs``, ``{prefix}/redoc`` and their assets to the API ``app``."""
    assets = prefix + ASSETS
    openapi_url = app.openapi_url or f"{prefix}/openapi.json"

    swagger_page = get_swagger_ui_html(
        openapi_url=openapi_url,
        title=f"{app.title} API - Swagger UI",
        swagger_js_url=f"{assets}/swagger-ui-bundle.js",
        swagger_css_url=f"{assets}/swagger-ui.css",
        swagger_favicon_url=f"{assets}/favicon.png",
        swagger_ui_parameters={"validatorUrl": None},
    )
    redoc_page = get_redoc_html(
        openapi_url=openapi_url,
        title=f"{app.title} API - ReDoc",
        redoc_js_url=f"{assets}/redoc.standalone.js",
        redoc_favicon_url=f"{assets}/favicon.png",
        with_google_fonts=False,
    )
    swagger_headers = docs_headers(swagger_page, inline_styles=False)
    redoc_headers = docs_headers(redoc_page, inline_styles=True)

    async def swagger(_request: Request) -> HTMLResponse:
        return HTMLResponse(bytes(swagger_page.body), headers=swagger_headers)

    async def redoc(_request: Request) -> HTMLResponse:
        return HTMLResponse(bytes(redoc_page.body), headers=redoc_headers)

    redoc_js, redoc_etag = local_redoc()

    async def redoc_bundle(request: Request) -> Response:
        headers = {**STATIC_HEADERS, "ETag": redoc_etag}
        if request.headers.get("if-none-match") == redoc_etag:
            return Response(status_code=304, headers=headers)
        return Response(redoc_js, media_type="text/javascript", headers=headers)

    app.add_route(f"{prefix}/docs", swagger, include_in_schema=False)
    app.add_route(f"{assets}/redoc.standalone.js", redoc_bundle, include_in_schema=False)
    app.add_route(f"{prefix}/redoc", redoc, include_in_schema=False)
    static = WithHeaders(StaticFiles(directory=assets_dir()))
    app.mount(assets, static, name="api-docs-assets")

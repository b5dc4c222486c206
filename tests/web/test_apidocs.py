"""The API docs pages load their scripts from this server, never from a CDN."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def test_docs__assets_are_local(client: TestClient) -> None:
    for path in ("/v2/docs", "/v2/redoc"):
        page = client.get(path)
        assert page.status_code == 200
        sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
        assert sources, path
        assert all(source.startswith("/v2/") for source in sources), sources
        assert "fonts.googleapis.com" not in page.text
        for source in sources:
            if "openapi" not in source:
                assert client.get(source).status_code == 200, source
    assert "validatorUrl" in client.get("/v2/docs").text


def test_docs__redoc_bundle_names_no_other_host(client: TestClient) -> None:
    bundle = client.get("/v2/docs/assets/redoc.standalone.js")
    assert bundle.status_code == 200
    assert bundle.headers["content-type"].startswith("text/javascript")
    assert "cdn.redoc.ly" not in bundle.text
    assert "data:image/svg+xml," in bundle.text  # the logo, empty
    again = client.get(
        "/v2/docs/assets/redoc.standalone.js", headers={"If-None-Match": bundle.headers["etag"]}
    )
    assert again.status_code == 304 and again.content == b""


def test_docs__openapi_has_no_web_pages(client: TestClient) -> None:
    paths = client.get("/v2/openapi.json").json()["paths"]
    assert all(path.startswith("/v2/") for path in paths)
    assert "/v2/docs" not in paths


def test_docs__security_headers(client: TestClient) -> None:
    for path in ("/v2/docs", "/v2/redoc"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "'unsafe-eval'" not in policy, path
        assert headers["x-frame-options"] == "DENY", path
        assert headers["x-content-type-options"] == "nosniff", path
    swagger = client.get("/v2/docs").headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in swagger  # its one inline script, by hash only
    assert "'unsafe-inline'" not in swagger.split("script-src")[1].split(";")[0]


def test_static_files__nosniff(client: TestClient) -> None:
    sources = re.findall(r'(?:src|href)="(/[^"]+)"', client.get("/sign-in").text)
    paths = [s for s in sources if s.startswith("/static/")] + [
        "/static/land.svg",
        "/v2/docs/assets/swagger-ui-bundle.js",
        "/v2/docs/assets/redoc.standalone.js",
    ]
    assert len(paths) > 3
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["x-content-type-options"] == "nosniff", path

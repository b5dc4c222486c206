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


def test_docs__openapi_has_no_web_pages(client: TestClient) -> None:
    paths = client.get("/v2/openapi.json").json()["paths"]
    assert all(path.startswith("/v2/") for path in paths)
    assert "/v2/docs" not in paths

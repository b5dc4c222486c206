"""The MCP endpoint's checks, one test per case, each changing one thing of a good request: a
real server on 127.0.0.1 (uvicorn in a thread), raw JSON-RPC over HTTP."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from sealane.api.app import create_app
from sealane.config import Settings
from sealane.service.access.accounts import create_account
from tests.mcp.conftest import World
from tests.servers import free_port

LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


@contextmanager
def running(settings: Settings, made: list[FastAPI] | None = None) -> Iterator[tuple[str, str]]:
    """The API app (with its MCP endpoint) served on a port of its own; yields its root URL and
    a key of a new account (the app is appended to ``made`` when given)."""
    port = free_port()
    settings = replace(settings, base_url=f"http://127.0.0.1:{port}/v2")
    app = create_app(settings)
    if made is not None:
        made.append(app)
    key = create_account(app.state.sealane.context, "Security Co", routing=True).secret
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", key
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite:///{tmp_path / 'sealane.db'}", rate_limit_per_minute=1000)


def post(root: str, headers: dict[str, str], path: str = "/mcp") -> httpx.Response:
    return httpx.post(root + path, json=LIST_TOOLS, headers={**HEADERS, **headers}, timeout=30)


def tool_names(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [tool["name"] for tool in response.json()["result"]["tools"]]


@pytest.mark.parametrize("scheme", ["Bearer", "Token", "bearer"])
@pytest.mark.parametrize("path", ["/mcp", "/api/mcp"])
def test_key__bearer_and_token_accepted(settings: Settings, scheme: str, path: str) -> None:
    with running(settings) as (root, key):
        assert "get_container" in tool_names(post(root, {"Authorization": f"{scheme} {key}"}, path))


def test_no_header__env_token_used(settings: Settings) -> None:
    with running(settings) as (root, key):
        pass
    with running(replace(settings, mcp_api_token=key)) as (root, _):
        assert "get_container" in tool_names(post(root, {}))


def test_no_header__no_env_token__401(settings: Settings) -> None:
    with running(settings) as (root, _):
        response = post(root, {})
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer realm=")
    assert response.json()["errors"][0]["status"] == "401"
    assert response.json()["errors"][0]["title"] == "Unauthorized"


@pytest.mark.parametrize("header", ["Bearer not-a-key", "Token", "Basic dXNlcjpwYXNz"])
def test_bad_key__401_even_with_env_token(settings: Settings, header: str) -> None:
    with running(replace(settings, mcp_api_token="sl_whatever")) as (root, _):
        response = post(root, {"Authorization": header})
    assert response.status_code == 401
    assert "WWW-Authenticate" in response.headers


def test_host_not_allowed__421(settings: Settings) -> None:
    with running(settings) as (root, key):
        response = post(root, {"Authorization": f"Bearer {key}", "Host": "evil.example:80"})
    assert response.status_code == 421
    assert response.json()["errors"][0]["code"] == "host_not_allowed"


def test_host_in_allowlist__accepted(settings: Settings) -> None:
    allowed = replace(settings, mcp_allowed_hosts=("mcp.example.com",))
    with running(allowed) as (root, key):
        good = post(root, {"Authorization": f"Bearer {key}", "Host": "mcp.example.com"})
        loopback = post(root, {"Authorization": f"Bearer {key}"})  # no longer in the list
    assert "get_container" in tool_names(good)
    assert loopback.status_code == 421


def test_origin_not_allowed__403(settings: Settings) -> None:
    with running(settings) as (root, key):
        response = post(root, {"Authorization": f"Bearer {key}", "Origin": "http://evil.example"})
        same = post(root, {"Authorization": f"Bearer {key}", "Origin": root})
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "origin_not_allowed"
    assert same.status_code == 200


def test_origin_in_allowlist__accepted(settings: Settings) -> None:
    allowed = replace(settings, mcp_allowed_origins=("https://app.example.com",))
    with running(allowed) as (root, key):
        response = post(
            root, {"Authorization": f"Bearer {key}", "Origin": "https://app.example.com"}
        )
    assert response.status_code == 200


def test_over_the_rate_limit__429_shared_with_the_api(settings: Settings) -> None:
    with running(replace(settings, rate_limit_per_minute=3)) as (root, key):
        api = [
            httpx.get(f"{root}/v2/ports/NLRTM", headers={"Authorization": f"Token {key}"})
            for _ in range(2)
        ]
        first = post(root, {"Authorization": f"Bearer {key}"})
        over = post(root, {"Authorization": f"Bearer {key}"})
    assert [r.status_code for r in api] == [200, 200] and first.status_code == 200
    assert over.status_code == 429
    assert int(over.headers["retry-after"]) >= 1
    assert over.json()["errors"][0]["title"] == "Too Many Requests"


def test_remote_backend__bad_key_401(remote_mcp: str, world: World) -> None:
    bad = httpx.post(remote_mcp, json=LIST_TOOLS, headers={**HEADERS, "Authorization": "Bearer x"})
    good = httpx.post(
        remote_mcp, json=LIST_TOOLS, headers={**HEADERS, "Authorization": f"Bearer {world.key_a}"}
    )
    assert bad.status_code == 401 and "WWW-Authenticate" in bad.headers
    assert "get_container" in tool_names(good)


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
@pytest.mark.parametrize("path", ["/mcp", "/api/mcp"])
def test_not_post__405_with_allow_at_once(settings: Settings, method: str, path: str) -> None:
    """GET asks for an event stream the stateless endpoint does not have: 405, not a stream
    that never ends (each one held a connection and a descriptor)."""
    with running(settings) as (root, key):
        headers = {**HEADERS, "Accept": "text/event-stream", "Authorization": f"Bearer {key}"}
        response = httpx.request(method, root + path, headers=headers, timeout=10)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json()["errors"][0]["code"] == "method_not_allowed"


def test_database_out_of_reach__503_with_retry_after(tmp_path: Path) -> None:
    """The MCP endpoint, like the API, answers 503 with ``Retry-After`` while its database
    (SQLite here: the pool emptied and the database's directory moved away) is out of reach,
    and serves again once it is back."""
    home = tmp_path / "db"
    home.mkdir()
    settings = Settings(database_url=f"sqlite:///{home / 'sealane.db'}", rate_limit_per_minute=1000)
    made: list[FastAPI] = []
    with running(settings, made) as (root, key):
        assert "get_container" in tool_names(post(root, {"Authorization": f"Bearer {key}"}))
        made[0].state.sealane.engine.dispose()
        home.rename(tmp_path / "away")
        try:
            over = post(root, {"Authorization": f"Bearer {key}"})
        finally:
            (tmp_path / "away").rename(home)
        assert over.status_code == 503, over.text
        assert over.headers["retry-after"] == "5"
        assert over.json()["errors"][0]["code"] == "unavailable"
        assert "get_container" in tool_names(post(root, {"Authorization": f"Bearer {key}"}))

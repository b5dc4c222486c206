"""Fixtures for the web app: a real app on SQLite with the demo data, signed-in clients, and
(for the browser tests) the app served by uvicorn on a 127.0.0.1 port of its own."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from sealane.demo import seed_demo
from sealane.service.access.gatekeeper import Caller
from tests.servers import free_port
from tests.toolkit import Scenario, make_app
from tests.web import chromium

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
#: A number tracked only by the second (plain) account.
OTHER_NUMBER = "TESTOTHER0099"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    line = chromium.summary()
    if line:
        terminalreporter.write_line(line)


@dataclass(frozen=True)
class Demo:
    """The demo app: its clock and the keys of the routing and the plain account."""

    app: FastAPI
    clock: ManualClock
    routing_key: str
    plain_key: str
    routing: Caller
    plain: Caller


def make_demo(path: Path) -> Demo:
    """An app with the demo's shipments (routing account) and one shipment of the plain one."""
    clock = ManualClock(START)
    app = make_app(path / "sealane.db", clock=clock, rate_limit_per_minute=100_000)
    runtime = app.state.sealane
    keys = seed_demo(runtime)
    routing, plain = keys[0][1], keys[1][1]
    scenario = Scenario.on(app).known("Routing", routing, routing=True)
    scenario.known("Plain", plain, routing=False).track("Plain", OTHER_NUMBER)
    scenario.tick()
    return Demo(
        app,
        clock,
        routing.secret,
        plain.secret,
        scenario.caller("Routing"),
        scenario.caller("Plain"),
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """One demo app per test module (tests that change it say so)."""
    return make_demo(tmp_path_factory.mktemp("web"))


def csrf_of(html: str) -> str:
    """The CSRF token of the first form of a page."""
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


def sign_in(client: TestClient, key: str, back: str = "") -> None:
    """Sign ``client`` in with ``key`` through the sign-in form."""
    page = client.get("/sign-in")
    response = client.post(
        "/sign-in",
        data={"csrf_token": csrf_of(page.text), "api_key": key, "next": back},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text


@pytest.fixture
def client(demo: Demo) -> Iterator[TestClient]:
    """A browser-like client of the demo app, not signed in."""
    with TestClient(demo.app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def routing_client(client: TestClient, demo: Demo) -> TestClient:
    """The client signed in to the routing account."""
    sign_in(client, demo.routing_key)
    return client


@pytest.fixture
def plain_client(client: TestClient, demo: Demo) -> TestClient:
    """The client signed in to the account without the routing feature."""
    sign_in(client, demo.plain_key)
    return client


@dataclass(frozen=True)
class LiveServer:
    """The demo app served on 127.0.0.1."""

    url: str
    demo: Demo


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """uvicorn serving a demo app in a thread, on a free 127.0.0.1 port."""
    demo = make_demo(tmp_path_factory.mktemp("live"))
    port = free_port()
    config = uvicorn.Config(demo.app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", demo)
    finally:
        server.should_exit = True
        thread.join(timeout=10)

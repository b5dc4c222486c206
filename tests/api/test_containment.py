"""After an unexpected error the kept-alive connection still serves (a real server, a raw
socket), the error is answered by the API's document, and building the app leaves the process's
logging as it was (the MCP SDK's rich tracebacks took seconds per logged error)."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from sealane.api.app import create_app
from sealane.api.containment import ContainFailures
from sealane.config import Settings
from tests.servers import free_port

SECRET_MESSAGE = "database password is hunter2"


def boom(*args: object, **kwargs: object) -> None:
    raise RuntimeError(SECRET_MESSAGE)


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    """A port serving the API app on 127.0.0.1 (uvicorn in a thread)."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'sealane.db'}"))
    number = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=number, log_level="critical")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield number
    server.should_exit = True
    thread.join(timeout=15)


def exchange(sock: socket.socket, path: str) -> tuple[bytes, bytes]:
    """Send ``GET path`` on ``sock`` and read one response: (head, body); (b"", b"") when the
    server has closed the connection."""
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token k\r\n\r\n"
    sock.sendall(request.encode())
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return b"", b""
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    fields = dict(line.split(b": ", 1) for line in head.split(b"\r\n")[1:])
    length = int({k.lower(): v for k, v in fields.items()}[b"content-length"])
    while len(body) < length:
        body += sock.recv(65536)
    return head, body


def test_unexpected_error__the_connection_serves_the_next_request(
    port: int, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("sealane.service.access.gatekeeper.account_for_key", boom)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        head, body = exchange(sock, "/v2/ports/NLRTM")
        assert head.startswith(b"HTTP/1.1 500 ")
        document: dict[str, Any] = json.loads(body)
        assert document["errors"][0]["status"] == "500"
        assert SECRET_MESSAGE.encode() not in body
        # the same connection: the server must either have said Connection: close or serve on
        if b"connection: close" not in head.lower():
            again, _ = exchange(sock, "/v2/openapi.json")
            assert again.startswith(b"HTTP/1.1 200 ")
    logged = [r for r in caplog.records if r.name == "sealane.api" and r.exc_info]
    assert len(logged) == 1


def test_create_app__leaves_the_root_logger_as_it_was(tmp_path: Path) -> None:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    root.handlers.clear()  # as in a fresh process (pytest has a capture handler here)
    try:
        create_app(Settings(database_url=f"sqlite:///{tmp_path / 'sealane.db'}"))
        after = (list(root.handlers), root.level)
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    assert after == ([], saved[1])


def _fails(_request: Request) -> Response:
    raise RuntimeError(SECRET_MESSAGE)


async def _page(_request: Request, _exc: Exception) -> Response:
    return PlainTextResponse("error page", status_code=500)


def _drive(app: Any) -> list[dict[str, Any]]:
    """The messages ``app`` sends for one ``GET /``; fails if an exception escapes it."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "raw_path": b"/",
        "root_path": "",
        "scheme": "http",
        "query_string": b"",
        "headers": [(b"host", b"t")],
        "client": ("127.0.0.1", 1),
        "server": ("t", 80),
        "http_version": "1.1",
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    anyio.run(app, scope, receive, send)
    return sent


def test_contain_failures__an_error_page_already_sent_is_not_raised_on() -> None:
    """A Starlette app (the web app) answers with its error page, then raises the exception
    again for the server, which would close the connection; it stops here."""
    web = Starlette(routes=[Route("/", _fails)], exception_handlers={Exception: _page})
    sent = _drive(ContainFailures(web))
    assert sent[0]["status"] == 500
    assert b"".join(m.get("body", b"") for m in sent[1:]) == b"error page"


def test_contain_failures__an_unanswered_error_gets_the_api_document() -> None:
    async def raw(_scope: Any, _receive: Any, _send: Any) -> None:
        raise RuntimeError(SECRET_MESSAGE)

    sent = _drive(ContainFailures(raw))
    assert sent[0]["status"] == 500
    body = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert body["errors"][0]["title"] == "Internal Server Error"

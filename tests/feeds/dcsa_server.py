"""A DCSA Track & Trace 2.2 server for the tests: ``http.server`` in a thread on 127.0.0.1.

It serves ``GET /v2/events`` from the fixture (filtered by reference and event type, only events
created by the server's clock time, ``limit`` + opaque ``cursor`` paging with ``Next-Page`` links,
``API-Version`` and ``Current-Page`` headers, DCSA error bodies), ``POST /v2/event-subscriptions``
and an OAuth2 token endpoint. Every response it sends is recorded so a test can validate them
against the published schemas. Faults are switched on per test for the next N requests.
"""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from sealane.feeds.dcsa.push import signature_of

API_VERSION = "2.2.0"
TOKEN = "test-access-token"
CLIENT = ("sealane", "client-secret")


class Fault(StrEnum):
    """What the server does wrong, on purpose."""

    SERVER_ERROR = "server_error"
    TIMEOUT = "timeout"
    MALFORMED_JSON = "malformed_json"
    EMPTY_PAGE = "empty_page"
    CURSOR_LOOP = "cursor_loop"
    UNKNOWN_CODE = "unknown_code"
    RATE_LIMITED = "rate_limited"


@dataclass
class Sent:
    """One response as sent: status, headers, the parsed JSON body (None if not JSON)."""

    path: str
    status: int
    headers: dict[str, str]
    body: Any


@dataclass
class DcsaState:
    """What the server serves and how; tests change it between requests."""

    events: list[dict[str, Any]]
    now: datetime
    require_token: bool = False
    faults: dict[Fault, int] = field(default_factory=dict)
    slow_s: float = 1.0
    sent: list[Sent] = field(default_factory=list)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    subscriptions: dict[str, dict[str, Any]] = field(default_factory=dict)
    cursors: dict[str, tuple[dict[str, list[str]], int]] = field(default_factory=dict)
    extra: list[dict[str, Any]] = field(default_factory=list)
    #: How Next-Page names the next page: a link here, a bare cursor, or a link elsewhere.
    next_page: str = "link"
    #: Tokens the token endpoint has handed out.
    tokens_issued: int = 0

    def fail(self, fault: Fault, times: int = 1_000_000) -> None:
        """Misbehave with ``fault`` for the next ``times`` event requests."""
        self.faults[fault] = times

    def take(self, fault: Fault) -> bool:
        left = self.faults.get(fault, 0)
        if left <= 0:
            return False
        self.faults[fault] = left - 1
        return True

    def visible(self, query: dict[str, list[str]]) -> list[dict[str, Any]]:
        """Events created by now that match the query's filters."""
        events = [*self.events, *(self.extra)]
        created = [e for e in events if _time(e["eventCreatedDateTime"]) <= self.now]
        return [e for e in created if _matches(e, query)]

    def signed_push(self, subscription_id: str, events: list[dict[str, Any]]) -> tuple[bytes, str]:
        """A callback body for a subscription and its Notification-Signature."""
        secret = base64.b64decode(self.subscriptions[subscription_id]["secret"])
        body = json.dumps(events, indent=1).encode()
        return body, signature_of(body, secret)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def _matches(event: dict[str, Any], query: dict[str, list[str]]) -> bool:
    refs = {
        (r["documentReferenceType"][:3], r["documentReferenceValue"])
        for r in event.get("documentReferences", [])
    }
    if event["eventType"] == "SHIPMENT":
        refs.add((event["documentTypeCode"], event["documentID"]))
    wanted = [
        ("TRD", query.get("transportDocumentReference")),
        ("BKG", query.get("carrierBookingReference")),
    ]
    for kind, values in wanted:
        if values and (kind, values[0]) not in refs:
            return False
    equipment = query.get("equipmentReference")
    other_box = equipment and event.get("equipmentReference") != equipment[0]
    if other_box and (event["eventType"] == "EQUIPMENT" or not _carries(event, equipment[0])):
        return False
    types = query.get("eventType")
    return not types or event["eventType"] in types[0].split(",")


def _carries(event: dict[str, Any], equipment: str) -> bool:
    """Transport and shipment events of a container's documents go with the container."""
    from .dcsa_fixtures import CONTAINERS

    return equipment in CONTAINERS


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_GET(self) -> None:
        state = self.server.state
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        state.requests.append((self.path, dict(self.headers.items())))
        if not self._authorised():
            return self._error(401, "Unauthorized", "unauthorized", "a valid token is required")
        if url.path != "/v2/events":
            return self._error(404, "Not Found", "notFound", f"no resource {url.path}")
        self._events(query)

    def do_POST(self) -> None:
        state = self.server.state
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        state.requests.append((self.path, dict(self.headers.items())))
        if url.path == "/oauth/token":
            return self._token(body)
        if not self._authorised():
            return self._error(401, "Unauthorized", "unauthorized", "a valid token is required")
        if url.path != "/v2/event-subscriptions":
            return self._error(404, "Not Found", "notFound", f"no resource {url.path}")
        request = json.loads(body)
        subscription = {"subscriptionID": str(uuid.uuid4()), **request}
        state.subscriptions[subscription["subscriptionID"]] = subscription
        shown = {k: v for k, v in subscription.items() if k != "secret"}
        self._send(201, shown)

    def _authorised(self) -> bool:
        state = self.server.state
        return not state.require_token or self.headers.get("Authorization") == f"Bearer {TOKEN}"

    def _token(self, body: bytes) -> None:
        expected = "Basic " + base64.b64encode(":".join(CLIENT).encode()).decode()
        form = parse_qs(body.decode())
        if self.headers.get("Authorization") != expected or form.get("grant_type") != [
            "client_credentials"
        ]:
            self._send(401, {"error": "invalid_client"}, record=False)
            return
        self.server.state.tokens_issued += 1
        self._send(200, {"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600}, False)

    def _events(self, query: dict[str, list[str]]) -> None:
        state = self.server.state
        if state.take(Fault.TIMEOUT):
            time.sleep(state.slow_s)
        if state.take(Fault.SERVER_ERROR):
            return self._error(500, "Internal Server Error", "internalError", "try again later")
        if state.take(Fault.RATE_LIMITED):
            return self._error(429, "Too Many Requests", "tooManyRequests", "slow down", 1)
        if state.take(Fault.MALFORMED_JSON):
            return self._raw(200, b'[{"eventID": "1", "eventType": ', "application/json")
        if state.take(Fault.UNKNOWN_CODE):
            from .dcsa_fixtures import unknown_code_event

            state.extra = [unknown_code_event()]
        cursor = query.get("cursor", [None])[0]
        if cursor is not None:
            if cursor not in state.cursors:
                return self._error(400, "Bad Request", "invalidCursor", "unknown cursor")
            query, offset = state.cursors[cursor]
        else:
            offset = 0
        limit = int(query.get("limit", ["100"])[0])
        events = state.visible(query)
        if state.take(Fault.EMPTY_PAGE) and offset == 0:
            page, following = [], 0  # an empty first page that still points to the rest
        else:
            page, following = events[offset : offset + limit], offset + limit
        headers = {"Current-Page": self._cursor(query, offset)}
        if following < len(events) or (not page and events):
            next_cursor = self._cursor(query, following)
            if state.take(Fault.CURSOR_LOOP):
                next_cursor = cursor or self._cursor(query, offset)
            host, port = self.server.server_address[:2]
            if state.next_page == "cursor":
                headers["Next-Page"] = next_cursor
            elif state.next_page == "foreign":
                headers["Next-Page"] = f"http://198.51.100.7/v2/events?cursor={next_cursor}"
            else:
                headers["Next-Page"] = f"http://{host}:{port}/v2/events?cursor={next_cursor}"
        self._send(200, page, headers=headers)

    def _cursor(self, query: dict[str, list[str]], offset: int) -> str:
        key = base64.urlsafe_b64encode(json.dumps([sorted(query.items()), offset]).encode())
        text = key.decode().rstrip("=")
        self.server.state.cursors[text] = (query, offset)
        return text

    def _error(
        self, status: int, text: str, reason: str, message: str, retry_after: int | None = None
    ) -> None:
        host, port = self.server.server_address[:2]
        body = {
            "httpMethod": self.command,
            "requestUri": f"http://{host}:{port}{self.path}",
            "errors": [{"reason": reason, "message": message}],
            "statusCode": status,
            "statusCodeText": text,
            "errorDateTime": self.server.state.now.isoformat().replace("+00:00", "Z"),
        }
        headers = {"Retry-After": str(retry_after)} if retry_after else {}
        self._send(status, body, headers=headers)

    def _send(
        self, status: int, body: Any, record: bool = True, headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(body).encode()
        sent_headers = {"API-Version": API_VERSION, **(headers or {})}
        if record:
            self.server.state.sent.append(Sent(self.path, status, sent_headers, body))
        self._raw(status, data, "application/json", sent_headers)

    def _raw(
        self, status: int, data: bytes, kind: str, headers: dict[str, str] | None = None
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {"API-Version": API_VERSION}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: DcsaState) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state


@contextmanager
def dcsa_server(
    events: list[dict[str, Any]], now: datetime
) -> Iterator[tuple[str, DcsaState, Callable[[], None]]]:
    """A running server: its base URL, its state, and a function stopping it."""
    state = DcsaState(events=events, now=now)
    server = _Server(state)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}", state, server.shutdown
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)

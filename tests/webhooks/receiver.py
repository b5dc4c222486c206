"""A real HTTP receiver on 127.0.0.1 for the delivery tests: it records every request it gets and
answers from a script of replies (then a default reply), optionally after a delay."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """What the receiver answers to one request."""

    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b"ok"
    delay_s: float = 0.0


@dataclass(frozen=True)
class Received:
    """One request as the receiver saw it (header names lower-cased)."""

    method: str
    path: str
    headers: dict[str, str]
    header_items: tuple[tuple[str, str], ...]
    body: bytes
    at_monotonic_s: float


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (yet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # several workers send in parallel (http.server's default is 5)


class Receiver:
    """``ThreadingHTTPServer`` in a thread; ``replies`` are used in order, then ``default``."""

    def __init__(self, *replies: Reply, default: Reply | None = None, port: int = 0) -> None:
        self._script = list(replies)
        self._default = default or Reply()
        self._lock = threading.Condition()
        self._received: list[Received] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = port

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                receiver._handle(self)

            do_GET = do_PUT = do_PATCH = do_DELETE = do_POST

            def log_message(self, format: str, *args: Any) -> None:
                pass  # quiet test output

        self._server = _Server(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Receiver:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # -- what arrived ---------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks"

    @property
    def received(self) -> list[Received]:
        with self._lock:
            return list(self._received)

    def wait_for(self, count: int, timeout_s: float) -> list[Received]:
        """The requests received once there are at least ``count`` (or at the timeout)."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while len(self._received) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return list(self._received)

    # -- serving --------------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        items = tuple((name, value) for name, value in handler.headers.items())
        with self._lock:
            self._received.append(
                Received(
                    method=handler.command,
                    path=handler.path,
                    headers={name.lower(): value for name, value in items},
                    header_items=items,
                    body=body,
                    at_monotonic_s=time.monotonic(),
                )
            )
            reply = self._script.pop(0) if self._script else self._default
            self._lock.notify_all()
        if reply.delay_s:
            time.sleep(reply.delay_s)
        try:
            handler.send_response(reply.status)
            for name, value in reply.headers:
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(reply.body)))
            handler.end_headers()
            handler.wfile.write(reply.body)
        except OSError:
            pass  # the client went away (timed out or was killed): nothing to answer


@contextmanager
def receiving(*replies: Reply, default: Reply | None = None, port: int = 0) -> Iterator[Receiver]:
    """A started :class:`Receiver`, stopped on exit."""
    receiver = Receiver(*replies, default=default, port=port)
    with receiver:
        yield receiver

"""Gzip responses: negotiated by ``Accept-Encoding``, marked with ``Vary``, standard on the wire."""

from __future__ import annotations

import gzip
import time
import zlib
from concurrent.futures import Future
from typing import Any

import anyio
import httpx
import orjson
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from isal import isal_zlib
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sealane.api import codec, compression
from sealane.api._records import deflate_records
from sealane.api.compression import GzipMiddleware, accepts_gzip
from sealane.api.negotiation import HeadAsGet
from sealane.store.models import Vessel
from tests.toolkit import Keys, auth

from .jsonapi_asserts import assert_error

#: About 100 ports: a 32 kB document, compressed whole.
MEDIUM = "/v2/ports?page[size]=100"
#: One port: a 400-byte document, under the 1 kB minimum.
SMALL = "/v2/ports/NLRTM"
VOYAGE = {"port_id": "NLRTM", "previous_port_id": "CNSHA", "latitude": "12.3", "longitude": "60.1"}
GZIP_MAGIC = b"\x1f\x8b"


def raw_get(
    client: TestClient, url: str, headers: dict[str, str], **kw: Any
) -> tuple[httpx.Response, bytes]:
    """A GET and its body as it came over the wire (not decoded)."""
    with client.stream("GET", url, headers=headers, **kw) as response:
        return response, b"".join(response.iter_raw())


def varies(response: httpx.Response) -> set[str]:
    """The header names ``Vary`` lists (the ETag layer adds ``Authorization`` to /v2 answers)."""
    return {name.strip() for name in response.headers.get("vary", "").split(",") if name.strip()}


def voyage_url(vessel: Vessel) -> str:
    return f"/v2/vessels/{vessel.id}/future_positions_with_coordinates"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip", True),
        ("GZip", True),
        ("x-gzip", True),
        ("gzip, deflate, br, zstd", True),
        ("deflate;q=1, gzip;q=0.001", True),
        ("identity, gzip;q=0.5", True),
        ("*", True),
        ("br, *;q=0.1", True),
        ("", False),
        ("identity", False),
        ("deflate, br", False),
        ("gzip;q=0", False),
        ("gzip; q=0.000", False),
        ("gzip;q=0, *", False),
        ("*;q=0", False),
        ("gzip;q=abc", False),
        ("gzip;q=2", False),
    ],
)
def test_accepts_gzip__table(header: str, expected: bool) -> None:
    assert accepts_gzip(header) is expected


def test_medium_document__gzip_whole_with_content_length(client: TestClient, keys: Keys) -> None:
    plain = client.get(MEDIUM, headers={**auth(keys.plain), "Accept-Encoding": "identity"})
    response, wire = raw_get(client, MEDIUM, {**auth(keys.plain), "Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in varies(response)
    assert wire[:2] == GZIP_MAGIC
    assert int(response.headers["content-length"]) == len(wire) < len(plain.content) / 3
    assert gzip.decompress(wire) == plain.content


def test_large_document__gzip_streamed_in_pieces(
    client: TestClient, keys: Keys, vessel: Vessel
) -> None:
    headers = auth(keys.routing)
    plain = client.get(voyage_url(vessel), params=VOYAGE, headers=headers)
    assert len(plain.content) > 1024 * 1024  # over the streaming threshold
    response, wire = raw_get(
        client, voyage_url(vessel), {**headers, "Accept-Encoding": "gzip"}, params=VOYAGE
    )
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in varies(response)
    assert "content-length" not in response.headers  # sent chunked, piece by piece
    assert wire[:2] == GZIP_MAGIC
    assert gzip.decompress(wire) == plain.content


@pytest.mark.parametrize("accept_encoding", ["identity", "gzip;q=0", "gzip;q=0, *", "br"])
def test_refused_gzip__identity_with_vary(
    client: TestClient, keys: Keys, accept_encoding: str
) -> None:
    headers = {**auth(keys.plain), "Accept-Encoding": accept_encoding}
    response, wire = raw_get(client, MEDIUM, headers)
    assert response.status_code == 200
    assert "content-encoding" not in response.headers
    assert "Accept-Encoding" in varies(response)
    assert int(response.headers["content-length"]) == len(wire)
    assert orjson.loads(wire)["meta"]["total"] > 100


def test_small_document__never_compressed(client: TestClient, keys: Keys) -> None:
    response, wire = raw_get(client, SMALL, {**auth(keys.plain), "Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert len(wire) < 1024
    assert "content-encoding" not in response.headers
    assert "Accept-Encoding" not in varies(response)
    assert orjson.loads(wire)["data"]["id"]


def test_head__same_headers_as_get_without_body(client: TestClient, keys: Keys) -> None:
    headers = {**auth(keys.plain), "Accept-Encoding": "gzip"}
    got, _ = raw_get(client, MEDIUM, headers)
    head = client.head(MEDIUM, headers=headers)
    assert head.status_code == 200
    assert head.content == b""
    for name in ("content-encoding", "content-length", "content-type", "vary"):
        assert head.headers[name] == got.headers[name], name


def test_head__large_document_without_body(client: TestClient, keys: Keys, vessel: Vessel) -> None:
    headers = {**auth(keys.routing), "Accept-Encoding": "gzip"}
    head = client.head(voyage_url(vessel), params=VOYAGE, headers=headers)
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in varies(head)


def test_head__large_document_not_deflated(
    client: TestClient, keys: Keys, vessel: Vessel, monkeypatch: pytest.MonkeyPatch
) -> None:
    deflated: list[int] = []  # deflate streams started, by the middleware or the endpoint
    real, real_stream = compression.deflate_piece, isal_zlib.compressobj

    def counting(piece: memoryview, level: int, final: bool) -> bytes:
        deflated.append(len(piece))
        return real(piece, level, final)

    def counting_stream(*args: Any, **kwargs: Any) -> Any:
        deflated.append(0)
        return real_stream(*args, **kwargs)

    def counting_records(piece: memoryview, history: memoryview, width: int) -> bytes:
        deflated.append(len(piece))
        return deflate_records(piece, history, width)

    monkeypatch.setattr(codec, "_deflate_records", counting_records)
    monkeypatch.setattr(compression, "deflate_piece", counting)
    monkeypatch.setattr(isal_zlib, "compressobj", counting_stream)
    headers = {**auth(keys.routing), "Accept-Encoding": "gzip"}
    head = client.head(voyage_url(vessel), params=VOYAGE, headers=headers)
    assert head.status_code == 200 and head.content == b""
    assert deflated == []  # the whole body would be thrown away
    got, wire = raw_get(client, voyage_url(vessel), headers, params=VOYAGE)
    assert deflated  # a GET does deflate it, with the same headers
    assert gzip.decompress(wire)
    for name in ("content-encoding", "content-type", "vary"):
        assert head.headers[name] == got.headers[name], name
    assert "content-length" not in head.headers and "content-length" not in got.headers


def test_head__streamed_body_neither_deflated_nor_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    streams: list[int] = []
    real = isal_zlib.compressobj

    def counting(*args: Any, **kwargs: Any) -> Any:
        streams.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(isal_zlib, "compressobj", counting)
    chunks = [bytes(range(256)) * 64] * 8  # 16 KiB pieces, streamed
    inner = GzipMiddleware(bare_app([], chunks), stream_minimum_size=4096)
    sent = sent_messages(HeadAsGet(inner), method="HEAD")
    start, bodies = sent[0], sent[1:]
    assert (b"content-encoding", b"gzip") in start["headers"]
    assert bodies == [{"type": "http.response.body", "body": b"", "more_body": False}]
    assert streams == []
    fresh = GzipMiddleware(bare_app([], chunks), stream_minimum_size=4096)
    assert len(sent_messages(fresh)) == 1 + len(chunks) and streams == [1]  # a GET deflates


def test_error_document__small_one_uncompressed(client: TestClient) -> None:
    response = client.get(SMALL, headers={"Accept-Encoding": "gzip"})
    assert_error(response, 401, code="unauthorized")
    assert "content-encoding" not in response.headers


def test_error_document__compressed_over_the_minimum(app: FastAPI) -> None:
    wrapped = GzipMiddleware(app, minimum_size=16)
    with TestClient(wrapped, raise_server_exceptions=False) as client:
        response = client.get(SMALL, headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["www-authenticate"] == "Token"
    assert_error(response, 401, code="unauthorized")


# --- responses the API does not make: a bare ASGI app behind the middleware --------------------


def bare_app(headers: list[tuple[bytes, bytes]], chunks: list[bytes], status: int = 200) -> ASGIApp:
    """An ASGI app answering ``chunks`` as one streamed body with ``headers``."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": status, "headers": headers})
        for number, chunk in enumerate(chunks, 1):
            more = number < len(chunks)
            await send({"type": "http.response.body", "body": chunk, "more_body": more})

    return app


def server_receive(disconnect: anyio.Event | None = None) -> Receive:
    """An ASGI ``receive`` as a server gives it: the (empty) request body once, then nothing
    until ``disconnect`` is set (never, without one), then ``http.disconnect``."""
    requested = False

    async def receive() -> Message:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await (disconnect or anyio.Event()).wait()
        return {"type": "http.disconnect"}

    return receive


def sent_messages(
    app: ASGIApp, accept_encoding: bytes | None = b"gzip", *, method: str = "GET"
) -> list[Message]:
    """The messages ``app`` sends for one request with ``accept_encoding`` (None: no such
    header)."""
    sent: list[Message] = []

    receive = server_receive()

    async def send(message: Message) -> None:
        sent.append(message)

    headers = [] if accept_encoding is None else [(b"accept-encoding", accept_encoding)]
    scope = {"type": "http", "method": method, "path": "/", "headers": headers}
    anyio.run(app, scope, receive, send)
    return sent


def test_already_encoded__passes_untouched() -> None:
    body = bytes(range(256)) * 20
    headers = [(b"content-encoding", b"br"), (b"content-length", str(len(body)).encode())]
    sent = sent_messages(GzipMiddleware(bare_app(headers, [body])))
    assert sent[0]["headers"] == headers
    assert sent[1]["body"] == body


@pytest.mark.parametrize("status", [204, 206, 304])
def test_bodyless_or_partial_status__passes_untouched(status: int) -> None:
    body = b"x" * 4096 if status == 206 else b""
    headers = [(b"content-type", b"text/plain")]
    sent = sent_messages(GzipMiddleware(bare_app(headers, [body], status)))
    assert sent[0]["headers"] == headers
    assert sent[1]["body"] == body


def test_streamed_body__each_piece_decodes_on_arrival() -> None:
    chunks = [b'{"a": "' + b"a" * 5000, b"b" * 5000, b"c" * 5000 + b'"}']
    headers = [(b"content-type", b"application/json")]
    middleware = GzipMiddleware(bare_app(headers, chunks), piece_size=4096)
    sent = sent_messages(middleware)
    start, bodies = sent[0], sent[1:]
    assert (b"content-encoding", b"gzip") in start["headers"]
    piece_sizes = [min(4096, len(c) - at) for c in chunks for at in range(0, len(c), 4096)]
    assert [message["more_body"] for message in bodies] == [True] * (len(piece_sizes) - 1) + [False]
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    received = b""
    for number, message in enumerate(bodies, 1):
        received += inflate.decompress(message["body"])
        assert len(received) == sum(piece_sizes[:number])  # nothing held back
    assert received == b"".join(chunks) and inflate.eof


@pytest.mark.parametrize("accept_encoding", [None, b"", b"identity", b"gzip;q=0"])
def test_streamed_body__identity_gets_vary_and_no_change(accept_encoding: bytes | None) -> None:
    chunks = [b"x" * 10, b"y" * 10]
    sent = sent_messages(GzipMiddleware(bare_app([], chunks)), accept_encoding)
    assert sent[0]["headers"] == [(b"vary", b"Accept-Encoding")]
    assert [message["body"] for message in sent[1:]] == chunks


def test_whole_large_body__pieces_deflated_side_by_side_make_one_member() -> None:
    body = b"".join(b'{"n":%08d,"text":"%s"},' % (i, b"abc" * (i % 7)) for i in range(4000))
    headers = [(b"content-type", b"application/json")]
    middleware = GzipMiddleware(
        bare_app(headers, [body]), stream_minimum_size=4096, piece_size=8192
    )
    sent = sent_messages(middleware)
    start, bodies = sent[0], sent[1:]
    assert (b"content-encoding", b"gzip") in start["headers"]
    assert not any(name == b"content-length" for name, _ in start["headers"])
    assert bodies[0]["body"][:2] == b"\x1f\x8b"
    assert [message["more_body"] for message in bodies] == [True] * (len(bodies) - 1) + [False]
    pieces = (len(body) + 8191) // 8192
    assert len(bodies) == pieces + 2  # the gzip header, one message per piece, the trailer
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    received = b""
    for number, message in enumerate(bodies[:-1]):
        received += inflate.decompress(message["body"])
        assert len(received) == min(number * 8192, len(body))  # each piece decodes on arrival
    received += inflate.decompress(bodies[-1]["body"])
    assert received == body
    assert inflate.eof and not inflate.unused_data  # one member, CRC and length checked


def test_whole_large_body__at_most_a_few_pieces_queued_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = bytes(range(256)) * 4096  # 1 MiB in 128 pieces of 8 KiB
    sent_pieces = [0]
    outstanding: list[int] = []  # pieces queued but not yet sent, at each submit
    real = compression.DEFLATERS

    class Recording:
        submitted = 0

        def submit(self, *args: Any) -> Any:
            self.submitted += 1
            outstanding.append(self.submitted - sent_pieces[0])
            return real.submit(*args)

    monkeypatch.setattr(compression, "DEFLATERS", Recording())
    app = GzipMiddleware(bare_app([], [body]), stream_minimum_size=4096, piece_size=8192)
    received: list[bytes] = []

    receive = server_receive()

    async def send(message: Message) -> None:
        if message["type"] == "http.response.body":
            received.append(message["body"])
            sent_pieces[0] = max(len(received) - 1, 0)  # after the gzip header

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "headers": [(b"accept-encoding", b"gzip")],
    }
    anyio.run(app, scope, receive, send)
    assert len(outstanding) == 128
    assert max(outstanding) == compression.IN_FLIGHT + 1  # queued, and the one being sent
    assert gzip.decompress(b"".join(received)) == body


class RecordingPool:
    """Stands in for the deflate pool: the real one, keeping every future it hands out."""

    def __init__(self) -> None:
        self.futures: list[Future[bytes]] = []

    def submit(self, *args: Any) -> Future[bytes]:
        future: Future[bytes] = REAL_POOL.submit(*args)
        self.futures.append(future)
        return future


REAL_POOL = compression.DEFLATERS


def slow_pieces(monkeypatch: pytest.MonkeyPatch) -> RecordingPool:
    """Deflate pieces slowly (2 ms each, so they outlast the connection) on a recording pool."""
    real = compression.deflate_piece

    def slow(piece: memoryview, level: int, final: bool) -> bytes:
        time.sleep(0.002)
        return real(piece, level, final)

    pool = RecordingPool()
    monkeypatch.setattr(compression, "deflate_piece", slow)
    monkeypatch.setattr(compression, "DEFLATERS", pool)
    return pool


GZIP_SCOPE = {
    "type": "http",
    "method": "GET",
    "path": "/",
    "headers": [(b"accept-encoding", b"gzip")],
}


def test_whole_large_body__failed_send_cancels_the_pieces_not_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pool = slow_pieces(monkeypatch)
    body = bytes(range(256)) * 4096  # 1 MiB in 128 pieces of 8 KiB
    app = GzipMiddleware(bare_app([], [body]), stream_minimum_size=4096, piece_size=8192)
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)
        if len(sent) == 4:  # start, gzip header, one piece: then the connection drops
            raise OSError("connection reset")

    with pytest.raises(OSError):
        anyio.run(app, GZIP_SCOPE, server_receive(), send)
    assert len(pool.futures) < 128
    assert any(future.cancelled() for future in pool.futures)
    assert all(future.cancelled() or future.result() for future in pool.futures)


def test_whole_large_body__client_gone_stops_deflating(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = slow_pieces(monkeypatch)
    body = bytes(range(256)) * 4096  # 1 MiB in 128 pieces of 8 KiB
    app = GzipMiddleware(bare_app([], [body]), stream_minimum_size=4096, piece_size=8192)
    sent: list[Message] = []

    async def run() -> None:
        gone = anyio.Event()

        async def send(message: Message) -> None:  # like uvicorn: quiet once the client left
            sent.append(message)
            if len(sent) == 4:
                gone.set()

        await app(GZIP_SCOPE, server_receive(gone), send)

    anyio.run(run)
    assert len(pool.futures) < 128
    assert any(future.cancelled() for future in pool.futures)
    assert sent[-1]["more_body"]  # no trailer for nobody

"""The future-positions answer's fast path (sealane.api.offloaded and the vessels router): the
engine's own JSON bytes, made and gzipped in one trip to a worker thread, sent piece by piece
as they are deflated."""

from __future__ import annotations

import asyncio
import gzip
import itertools
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Message

from sealane import future_positions, get_port
from sealane.api.compression import GzipMiddleware
from sealane.api.negotiation import HeadAsGet
from sealane.api.offloaded import FIRST_PIECE, PIECE, Handover, Item, OffloadedResponse, Pieces
from sealane.api.positions_json import positions_json
from sealane.store.models import Vessel
from tests.toolkit import START, Keys, auth

VOYAGE = {"port_id": "NLRTM", "previous_port_id": "CNSHA", "latitude": "12.3", "longitude": "60.1"}
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}
#: Bytes of one position in the engine's array.
RECORD_BYTES = 119
#: A gzip-accepting GET of ``/``, for an app called directly.
SCOPE = {
    "type": "http",
    "method": "GET",
    "path": "/",
    "raw_path": b"/",
    "query_string": b"",
    "headers": [(b"accept-encoding", b"gzip"), (b"host", b"test")],
    "http_version": "1.1",
    "scheme": "http",
    "server": ("test", 80),
    "client": ("127.0.0.1", 1),
    "root_path": "",
}


def voyage_url(vessel: Vessel) -> str:
    return f"/v2/vessels/{vessel.id}/future_positions_with_coordinates"


def wire_pieces(client: TestClient, url: str, headers: dict[str, str], **kw: Any) -> list[bytes]:
    """The body's pieces as they came over the wire (not decoded)."""
    with client.stream("GET", url, headers=headers, **kw) as response:
        assert response.status_code == 200, response.read()[:300]
        return [piece for piece in response.iter_raw() if piece]


# -- through the API -------------------------------------------------------------------------------


def test_voyage__positions_are_the_engine_bytes(
    client: TestClient, keys: Keys, vessel: Vessel
) -> None:
    """The positions array is the library's ``to_json()`` byte for byte: no parse, no model."""
    response = client.get(
        voyage_url(vessel), params=VOYAGE, headers={**auth(keys.routing), **PLAIN}
    )
    assert response.status_code == 200
    expected = positions_json(
        future_positions(
            (60.1, 12.3), get_port("CNSHA"), get_port("NLRTM"), speed_kn=18.0, start_time=START
        )
    )
    assert expected in response.content
    assert response.headers["content-length"] == str(len(response.content))


def test_voyage__gzip_pieces_decode_as_they_arrive(
    client: TestClient, keys: Keys, vessel: Vessel
) -> None:
    headers = {**auth(keys.routing), **GZIP}
    plain = client.get(voyage_url(vessel), params=VOYAGE, headers={**auth(keys.routing), **PLAIN})
    pieces = wire_pieces(client, voyage_url(vessel), headers, params=VOYAGE)
    assert len(pieces) >= 2  # the first alone; later ones made while one was sent go together
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    first = inflate.decompress(pieces[0])
    # the first piece is whole on arrival: the envelope's head and the records that fit
    assert plain.content.startswith(first)
    assert FIRST_PIECE - RECORD_BYTES < len(first) <= FIRST_PIECE
    assert first.endswith(b"},")
    assert gzip.decompress(b"".join(pieces)) == plain.content


def test_voyage__gzip_headers(client: TestClient, keys: Keys, vessel: Vessel) -> None:
    with client.stream(
        "GET", voyage_url(vessel), params=VOYAGE, headers={**auth(keys.routing), **GZIP}
    ) as response:
        response.read()
    assert response.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in response.headers["vary"]
    assert "content-length" not in response.headers
    assert "etag" not in response.headers  # made from the clock: never the same twice


def test_voyage__from_last_position_gzip(client: TestClient, keys: Keys, vessel: Vessel) -> None:
    url = f"/v2/vessels/{vessel.id}/future_positions"
    params = {"port_id": "NLRTM", "previous_port_id": "CNSHA"}
    pieces = wire_pieces(client, url, {**auth(keys.routing), **GZIP}, params=params)
    document = httpx.Response(200, content=gzip.decompress(b"".join(pieces))).json()
    assert document["data"]["attributes"]["positions"][0]["latitude"] == pytest.approx(12.3)


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"port_id": "XXNOP"}, 422),
        ({"latitude": "91"}, 400),
    ],
)
def test_voyage__errors_are_documents_with_gzip_accepted(
    client: TestClient, keys: Keys, vessel: Vessel, params: dict[str, str], status: int
) -> None:
    response = client.get(
        voyage_url(vessel), params=VOYAGE | params, headers={**auth(keys.routing), **GZIP}
    )
    assert response.status_code == status
    assert response.json()["errors"][0]["status"] == str(status)


def test_voyage__unknown_vessel_404(client: TestClient, keys: Keys) -> None:
    url = "/v2/vessels/no-such-vessel/future_positions_with_coordinates"
    response = client.get(url, params=VOYAGE, headers={**auth(keys.routing), **GZIP})
    assert response.status_code == 404
    assert response.json()["errors"][0]["status"] == "404"


# -- the response alone ----------------------------------------------------------------------------


def app_of(produce: Callable[[], bytes | Pieces], *, minimum_size: int = 64 * 1024) -> Starlette:
    """An app answering ``/`` with ``produce()`` as the API stacks it (HEAD, gzip)."""

    async def endpoint(_request: Request) -> Response:
        return OffloadedResponse(produce, media_type="text/plain", minimum_size=minimum_size)

    async def refused(_request: Request, error: Exception) -> Response:
        return JSONResponse({"refused": str(error)}, status_code=422)

    app = Starlette(routes=[Route("/", endpoint)], exception_handlers={ValueError: refused})
    app.add_middleware(GzipMiddleware)
    app.add_middleware(HeadAsGet)
    return app


BODY = bytes(range(256)) * 4096  # 1 MiB


def test_offloaded__failure_before_anything_is_sent_goes_to_the_handlers() -> None:
    def produce() -> bytes:
        raise ValueError("no such port")

    with TestClient(app_of(produce)) as client:
        response = client.get("/", headers=GZIP)
    assert response.status_code == 422
    assert response.json() == {"refused": "no such port"}


def test_offloaded__small_body_whole_with_length() -> None:
    """Under ``minimum_size`` the body goes out whole, for the gzip middleware to deal with."""
    with TestClient(app_of(lambda: b"short" * 1000)) as client:
        short, plain = client.get("/", headers=GZIP), client.get("/", headers=PLAIN)
    assert short.content == plain.content == b"short" * 1000
    assert short.headers["content-encoding"] == "gzip"
    assert int(short.headers["content-length"]) < 1000  # compressed whole by the middleware
    assert plain.headers["content-length"] == "5000"


def test_offloaded__gzip_refused_sends_it_plain() -> None:
    with TestClient(app_of(lambda: BODY)) as client:
        response = client.get("/", headers=PLAIN)
    assert response.content == BODY
    assert "content-encoding" not in response.headers
    assert response.headers["content-length"] == str(len(BODY))


def test_offloaded__gzip_in_pieces() -> None:
    with TestClient(app_of(lambda: BODY)) as client:
        pieces = wire_pieces(client, "/", GZIP)
    assert len(pieces) >= 2  # the first piece alone, then the others as they are made
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    assert inflate.decompress(pieces[0]) == BODY[:FIRST_PIECE]  # whole on arrival
    assert gzip.decompress(b"".join(pieces)) == BODY


def test_offloaded__head_has_the_headers_of_get_and_no_body(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    streams: list[int] = []
    real = OffloadedResponse._work

    def watched(self: OffloadedResponse, put: Any, stop: Any, deflate: bool) -> None:
        streams.append(deflate)
        real(self, put, stop, deflate)

    monkeypatch.setattr(OffloadedResponse, "_work", watched)
    with TestClient(app_of(lambda: BODY)) as client:
        head = client.head("/", headers=GZIP)
        with client.stream("GET", "/", headers=GZIP) as got:
            got.read()
    assert head.status_code == 200 and head.content == b""
    for name in ("content-encoding", "content-type", "vary"):
        assert head.headers[name] == got.headers[name], name
    assert "content-length" not in head.headers
    assert streams == [False, True]  # HEAD's body is never deflated


def test_offloaded__deflate_failing_midway_cuts_the_answer_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A failure after the first piece reaches the event loop (no wait for a piece that will
    never come): the half-sent answer is cut short."""
    from isal import isal_zlib

    real = isal_zlib.compressobj
    made: list[int] = []

    class Failing:
        """A deflate stream; the second one made (the second piece's) breaks."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.inner = real(*args, **kwargs)
            made.append(1)
            self.broken = len(made) == 2

        def compress(self, data: Any) -> bytes:
            if self.broken:
                raise RuntimeError("deflate broke")
            return bytes(self.inner.compress(data))

        def flush(self, mode: int) -> bytes:
            return bytes(self.inner.flush(mode))

    monkeypatch.setattr(isal_zlib, "compressobj", Failing)
    with TestClient(app_of(lambda: BODY)) as client, pytest.raises(RuntimeError, match="broke"):
        client.get("/", headers=GZIP)


def test_offloaded__pieces_deflated_on_the_producing_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every piece is deflated on the worker that produced the body: no other thread (and no
    hand-over to one) takes part."""
    from sealane.api import compression, offloaded

    threads: list[str] = []
    real = compression.deflate_piece

    def recording(piece: Any, level: int, final: bool) -> bytes:
        threads.append(threading.current_thread().name)
        return real(piece, level, final)

    monkeypatch.setattr(offloaded, "deflate_piece", recording)
    body = BODY * 4  # 4 MiB: the first piece, then 8
    with TestClient(app_of(lambda: body)) as client:
        pieces = wire_pieces(client, "/", GZIP)
    assert gzip.decompress(b"".join(pieces)) == body
    assert len(threads) == 1 + -(-(len(body) - FIRST_PIECE) // PIECE)
    assert len(set(threads)) == 1
    assert threads[0].startswith("sealane-offload")


def count_deflated(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the pieces the offloaded response deflates from now on, as it deflates them."""
    from sealane.api import offloaded

    deflated: list[int] = []
    real = offloaded.deflate_piece

    def counting(piece: Any, level: int, final: bool) -> bytes:
        deflated.append(len(piece))
        return real(piece, level, final)

    monkeypatch.setattr(offloaded, "deflate_piece", counting)
    return deflated


def test_handover__wakes_the_loop_only_while_it_waits() -> None:
    """Items handed over while the event loop is busy cost no wake-up and are taken together;
    one handed over while it waits wakes it once."""

    async def scenario() -> tuple[list[list[Item]], int]:
        loop = asyncio.get_running_loop()
        wakes = 0
        real = loop.call_soon_threadsafe

        def counting(*args: Any) -> Any:
            nonlocal wakes
            wakes += 1
            return real(*args)

        setattr(loop, "call_soon_threadsafe", counting)  # noqa: B010 (a method, replaced)
        handover = Handover(loop)

        def both() -> None:
            handover.put(b"a")
            handover.put(b"b")

        worker = threading.Thread(target=both)
        worker.start()
        worker.join()  # both handed over while the loop was not waiting
        taken = [await handover.take()]

        def later() -> None:
            time.sleep(0.05)  # the loop is most likely waiting by then: if not, no wake at all
            handover.put(None)

        worker = threading.Thread(target=later)
        worker.start()
        taken.append(await handover.take())  # waits: woken once
        worker.join()
        return taken, wakes

    taken, wakes = asyncio.run(scenario())
    assert taken == [[b"a", b"b"], [None]]
    assert wakes <= 1


class Written:
    """A body written a piece at a time (what the engine's ``PositionsJson`` is), which logs
    each piece it writes and can fail at one."""

    record_width = 0  # records of no one width: the general deflate

    def __init__(self, body: bytes, *, failing_piece: int | None = None) -> None:
        self.body = body
        self.failing_piece = failing_piece
        self.written: list[int] = []

    def __len__(self) -> int:
        return len(self.body)

    def whole(self) -> bytes:
        self.written.append(-1)
        return self.body

    def pieces(self, *, first_bytes: int, piece_bytes: int) -> Iterator[bytes]:
        edges = [0, *range(first_bytes, len(self.body), piece_bytes), len(self.body)]
        for number, (start, stop) in enumerate(itertools.pairwise(edges)):
            if number == self.failing_piece:  # the first before anything is sent
                raise (RuntimeError if number else ValueError)(f"piece {number} broke")
            self.written.append(number)
            yield self.body[start:stop]


def test_offloaded__pieces_written_one_at_a_time_make_one_member() -> None:
    body = Written(BODY * 2)
    with TestClient(app_of(lambda: body)) as client:
        pieces = wire_pieces(client, "/", GZIP)
    assert gzip.decompress(b"".join(pieces)) == BODY * 2
    assert body.written == list(range(1 + -(-(len(BODY) * 2 - FIRST_PIECE) // PIECE)))
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    assert inflate.decompress(pieces[0]) == BODY[:FIRST_PIECE]  # whole on arrival


def test_offloaded__pieces_sent_whole_when_gzip_is_refused() -> None:
    body = Written(BODY)
    with TestClient(app_of(lambda: body)) as client:
        response = client.get("/", headers=PLAIN)
    assert response.content == BODY
    assert response.headers["content-length"] == str(len(BODY))
    assert body.written == [-1]


def test_offloaded__first_piece_failing_goes_to_the_handlers() -> None:
    with TestClient(app_of(lambda: Written(BODY, failing_piece=0))) as client:
        response = client.get("/", headers=GZIP)
    assert response.status_code == 422
    assert response.json() == {"refused": "piece 0 broke"}


def test_offloaded__later_piece_failing_cuts_the_answer_short() -> None:
    with (
        TestClient(app_of(lambda: Written(BODY, failing_piece=2))) as client,
        pytest.raises(RuntimeError, match="piece 2 broke"),
    ):
        client.get("/", headers=GZIP)


def test_offloaded__later_piece_failing_never_ends_the_body() -> None:
    """After a piece has gone out, a failure raises out of the app without the body's end
    message, so the server drops the connection mid-chunk and the client never takes the half
    gzip member for a whole answer."""
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    app = app_of(lambda: Written(BODY, failing_piece=2))
    with pytest.raises(RuntimeError, match="piece 2 broke"):
        asyncio.run(app(dict(SCOPE), receive, send))
    assert sent[0]["type"] == "http.response.start"
    bodies = [m for m in sent if m["type"] == "http.response.body"]
    assert bodies  # the first pieces went out
    assert all(m.get("more_body") for m in bodies)


class Held(Written):
    """A body whose second piece is written only once :attr:`release` is set."""

    def __init__(self, body: bytes) -> None:
        super().__init__(body)
        self.release = threading.Event()

    def pieces(self, *, first_bytes: int, piece_bytes: int) -> Iterator[bytes]:
        for number, piece in enumerate(
            super().pieces(first_bytes=first_bytes, piece_bytes=piece_bytes)
        ):
            if number == 1:
                assert self.release.wait(30), "never released"
            yield piece


def test_offloaded__cancelled_mid_answer_deflates_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request cancelled while it waits for a piece (the client gone) stops the worker before
    the next piece is deflated, and returns only once the worker has."""
    deflated = count_deflated(monkeypatch)
    body = Held(BODY * 4)

    async def scenario() -> None:
        sent = asyncio.Event()

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.body":
                sent.set()

        response = OffloadedResponse(lambda: body, media_type="text/plain", minimum_size=1024)
        task = asyncio.ensure_future(response(dict(SCOPE), receive, send))
        await sent.wait()  # the first piece went out; the loop now waits for the second
        task.cancel()
        await asyncio.sleep(0)  # the task runs its ``finally`` (``stop``) before this resumes
        body.release.set()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert deflated == [FIRST_PIECE]
    assert body.written == [0, 1]  # the second piece was written, never deflated


def test_offloaded__client_gone_mid_answer_deflates_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server takes the pieces of a client gone as any others (uvicorn does): the response
    listens for ``http.disconnect`` and stops the worker before the next piece is deflated,
    then returns without the body's end, once the worker has."""
    deflated = count_deflated(monkeypatch)
    body = Held(BODY * 4)
    sent: list[Message] = []

    async def scenario() -> None:
        first_piece, gone = asyncio.Event(), asyncio.Event()
        asked: list[str] = []

        async def receive() -> Message:
            if not asked:
                asked.append("body")
                return {"type": "http.request", "body": b"", "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:  # a server that never raises
            sent.append(message)
            if message["type"] == "http.response.body":
                first_piece.set()

        response = OffloadedResponse(lambda: body, media_type="text/plain", minimum_size=1024)
        task = asyncio.ensure_future(response(dict(SCOPE), receive, send))
        await first_piece.wait()
        gone.set()
        await asyncio.sleep(0)  # the response hears of it before this resumes
        body.release.set()
        await task

    asyncio.run(scenario())
    assert deflated == [FIRST_PIECE]
    assert body.written == [0, 1]  # the second piece was written, never deflated
    assert [m.get("more_body") for m in sent if m["type"] == "http.response.body"] == [True]

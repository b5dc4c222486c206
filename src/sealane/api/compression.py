"""Gzip response compression as a small ASGI middleware, with ISA-L doing the deflate.

ISA-L (``isal``) writes standard gzip about four times faster than zlib at level 1, and smaller:
a 4.2 MB future-positions document takes about 5.5 ms and shrinks to 11.8 % of its size, where
zlib (Starlette's ``GZipMiddleware``) takes about 23 ms for 13.3 %; without ISA-L installed,
zlib writes the answers (:mod:`.codec`). Large bodies go out in flushed pieces, so the client
inflates one piece while the server deflates the next; a large body that is complete at once
has its pieces deflated side by side on two threads (both libraries let go of the GIL), each
piece a raw deflate stream ending on a byte boundary, as pigz does.
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Final

import anyio.lowlevel
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import codec
from .codec import GZIP_HEADER, Compressor
from .negotiation import HEAD_REQUEST

#: Threads deflating the pieces of a large body side by side; created on first use.
DEFLATERS: Final = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sealane-gzip")
#: Pieces of one body queued on those threads at a time: enough to keep both busy while the
#: event loop sends the previous piece.
IN_FLIGHT: Final = 4
#: Statuses whose body is absent or must not be re-encoded (RFC 9110 sections 14.2, 15.3.5, 15.4.5).
_UNTOUCHED_STATUSES: Final = frozenset({204, 206, 304})


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip (RFC 9110 section 12.5.3).

    ``gzip`` (or its alias ``x-gzip``) with a quality above 0 allows it; when neither is named,
    ``*`` with a quality above 0 does. An unreadable quality counts as 0.

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("gzip;q=0, *"), accepts_gzip("*;q=0.5")
    (True, False, True)
    """
    gzip_q: float | None = None
    star_q: float | None = None
    for item in accept_encoding.split(","):
        coding, _, parameters = item.partition(";")
        name = coding.strip().lower()
        if name in ("gzip", "x-gzip"):
            gzip_q = max(gzip_q or 0.0, _quality(parameters))
        elif name == "*":
            star_q = _quality(parameters)
    if gzip_q is not None:
        return gzip_q > 0
    return star_q is not None and star_q > 0


def _quality(parameters: str) -> float:
    """The ``q`` weight among ``;``-separated parameters: 1 when absent, 0 when unreadable."""
    for parameter in parameters.split(";"):
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value.strip())
            except ValueError:
                return 0.0
            return q if 0.0 <= q <= 1.0 else 0.0
    return 1.0


class GzipMiddleware:
    """Gzip response bodies of at least ``minimum_size`` bytes for clients that accept it.

    Every response that could have been compressed gets ``Vary: Accept-Encoding``, compressed or
    not; bodies that already carry a ``Content-Encoding`` (or a 204, 206 or 304 status) pass
    untouched. A whole body under ``stream_minimum_size`` bytes is compressed in one go and keeps
    a ``Content-Length``; a larger or streamed one goes out in flushed pieces of ``piece_size``
    input bytes (chunked), with a pause for the event loop between pieces. A ``HEAD`` that
    :class:`~sealane.api.negotiation.HeadAsGet` passes on as ``GET`` gets the same headers, but a
    body that would go out in pieces is not deflated at all. ``level`` is ISA-L's: 0 (fastest)
    to 3 (:mod:`.codec` gives zlib about the same when ISA-L is not installed).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        minimum_size: int = 1024,
        level: int = 1,
        stream_minimum_size: int = 1024 * 1024,
        piece_size: int = 256 * 1024,
    ) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.level = level
        self.stream_minimum_size = stream_minimum_size
        self.piece_size = piece_size

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accept = b",".join(v for k, v in scope["headers"] if k == b"accept-encoding")
        gzip = accepts_gzip(accept.decode("latin-1"))
        head = scope["method"] == "HEAD" or bool(scope.get(HEAD_REQUEST, False))
        responder = _Responder(self, gzip, send, receive, head=head)
        await self.app(scope, receive, responder.send)


class _Responder:
    """The ``send`` of one response: holds the start message until the first body decides."""

    def __init__(
        self,
        middleware: GzipMiddleware,
        gzip: bool,
        send: Send,
        receive: Receive,
        *,
        head: bool = False,
    ) -> None:
        self.middleware = middleware
        self.gzip = gzip
        #: Where the server says the client has gone (``http.disconnect``); uvicorn's ``send``
        #: then returns quietly instead of failing, so deflating would go on for nobody.
        self.receive = receive
        #: A HEAD answered as GET: its body is dropped, so a streamed one is not deflated.
        self.head = head
        self.downstream = send
        self.start: Message | None = None
        self.passthrough = False
        self.stream: Compressor | None = None

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            headers = MutableHeaders(raw=message.setdefault("headers", []))
            self.passthrough = (
                "content-encoding" in headers
                or message["status"] in _UNTOUCHED_STATUSES
                or bool(message.get("trailers", False))
            )
            if self.passthrough:
                await self.downstream(message)
            else:
                self.start = message
        elif self.passthrough or kind != "http.response.body":
            await self._release()
            await self.downstream(message)
        elif self.start is not None:
            await self._first_body(self.start, message)
        elif self.stream is not None:
            more = bool(message.get("more_body", False))
            await self._deflate(self.stream, message.get("body", b""), more=more)
        else:
            await self.downstream(message)

    async def _release(self) -> None:
        """Send a held start message unchanged (a message other than a body came first)."""
        if self.start is not None:
            start, self.start = self.start, None
            await self.downstream(start)

    async def _first_body(self, start: Message, message: Message) -> None:
        self.start = None
        body: bytes = message.get("body", b"")
        more = bool(message.get("more_body", False))
        if not more and len(body) < self.middleware.minimum_size:
            await self.downstream(start)
            await self.downstream(message)
            return
        headers = MutableHeaders(raw=start["headers"])
        headers.add_vary_header("Accept-Encoding")
        if not self.gzip:
            await self.downstream(start)
            await self.downstream(message)
            return
        headers["Content-Encoding"] = "gzip"
        level = self.middleware.level
        if not more and len(body) < self.middleware.stream_minimum_size:
            compressed = codec.CODEC.gzip(body, level)
            headers["Content-Length"] = str(len(compressed))
            await self.downstream(start)
            await self.downstream({**message, "body": compressed})
            return
        del headers["Content-Length"]
        await self.downstream(start)
        if self.head:  # GET's headers, and no body worth deflating
            self.passthrough = True
            await self.downstream({"type": "http.response.body", "body": b"", "more_body": False})
            return
        if not more:
            await self._deflate_side_by_side(body)
            return
        self.stream = codec.CODEC.gzip_stream(level)
        await self._deflate(self.stream, body, more=more)

    async def _deflate_side_by_side(self, body: bytes) -> None:
        """Send a whole ``body`` as one gzip member whose pieces are deflated on two threads,
        each as its own raw deflate stream (flushed to a byte boundary, the last one final),
        and sent in order as soon as it is ready; the CRC is worked out meanwhile. Pieces not
        yet started are dropped when the client goes away or the request is cancelled."""
        pieces = list(_slices(body, self.middleware.piece_size))
        level = self.middleware.level
        last = len(pieces)
        # At most IN_FLIGHT pieces queued at a time, so that another response's pieces wait
        # for a few of this one's, not for all of them.
        jobs: deque[Future[bytes]] = deque()
        queued = 0

        def top_up() -> None:
            nonlocal queued
            while queued < last and len(jobs) < IN_FLIGHT:
                jobs.append(
                    DEFLATERS.submit(deflate_piece, pieces[queued], level, queued + 1 == last)
                )
                queued += 1

        gone = asyncio.ensure_future(self._client_gone())
        try:
            top_up()
            await self.downstream(
                {"type": "http.response.body", "body": GZIP_HEADER, "more_body": True}
            )
            crc = codec.CODEC.crc32(body)
            while jobs and not gone.done():
                out = await asyncio.wrap_future(jobs[0])
                jobs.popleft()
                top_up()
                message = {"type": "http.response.body", "body": out, "more_body": True}
                await self.downstream(message)
        finally:
            gone.cancel()
            for job in jobs:
                job.cancel()
        if jobs:  # the client went away
            return
        trailer = struct.pack("<II", crc, len(body) & 0xFFFFFFFF)
        await self.downstream({"type": "http.response.body", "body": trailer, "more_body": False})

    async def _client_gone(self) -> None:
        """Return once the server reports the client gone (any other message is ignored: the
        request body, if any, is no longer wanted once the response is being sent)."""
        while (await self.receive())["type"] != "http.disconnect":
            await anyio.lowlevel.checkpoint()  # a server that answers at once must not spin

    async def _deflate(self, stream: Compressor, body: bytes, *, more: bool) -> None:
        """Send ``body`` through ``stream`` one flushed piece at a time, each decodable on arrival;
        the last piece ends the gzip member unless ``more`` body follows."""
        pieces = list(_slices(body, self.middleware.piece_size))
        for number, piece in enumerate(pieces, 1):
            final = number == len(pieces) and not more
            flush = codec.CODEC.finish if final else codec.CODEC.sync_flush
            out = stream.compress(piece) + stream.flush(flush)
            await self.downstream(
                {"type": "http.response.body", "body": out, "more_body": not final}
            )
            if not final:
                await anyio.lowlevel.checkpoint()


def deflate_piece(piece: bytes | memoryview, level: int, final: bool) -> bytes:
    """One piece as a raw deflate stream: flushed to a byte boundary so the next piece's stream
    can follow it, or finished when it is the last."""
    return codec.CODEC.raw_piece(piece, level, final)


def _slices(data: bytes, size: int) -> Iterator[memoryview]:
    """``data`` in views of ``size`` bytes (one empty view for empty data)."""
    view = memoryview(data)
    yield view[:size]
    for offset in range(size, len(view), size):
        yield view[offset : offset + size]

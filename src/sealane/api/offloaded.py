"""A response whose body is computed, and gzipped, in one trip to a worker thread.

For a large document that costs CPU to make (a vessel's future positions: a route, a position
a minute, megabytes of JSON), every hand-over between the event loop and the thread pool costs a
wake-up, and on a busy machine a wake-up waits for a CPU. So the body is produced on one worker
thread, which deflates its first (small) piece at once and hands it to the event loop, so that
the client starts inflating while the rest is made: the other pieces are deflated side by side
on the gzip middleware's two threads, and each is handed over, in order, as soon as it is ready.
No thread ever waits for the event loop. A body that can be written in pieces (:class:`Pieces`,
the engine's positions document) is written a piece at a time: the first leaves before the
rest is written.

A failure while producing the body (or its first piece) is raised before anything is sent, so
the application's error handlers answer it as usual (a 404, a 422); one in a later piece can
only cut the answer short.
"""

from __future__ import annotations

import asyncio
import struct
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Final, Protocol

from isal import isal_zlib
from starlette.datastructures import MutableHeaders
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from .compression import DEFLATERS, GZIP_HEADER, IN_FLIGHT, accepts_gzip, deflate_piece
from .negotiation import HEAD_REQUEST

#: Input bytes of the first deflated piece (about 0.03 ms of ISA-L), then of each later one.
FIRST_PIECE: Final = 32 * 1024
PIECE: Final = 256 * 1024
#: Threads producing these bodies: handing a job to one costs the event loop less than AnyIO's
#: thread pool does (a C queue, no capacity limiter); created on first use.
PRODUCERS: Final = ThreadPoolExecutor(max_workers=8, thread_name_prefix="sealane-offload")
#: The end of a raw deflate stream: an empty final block (fixed codes), after flushed pieces.
_FINAL_BLOCK: Final = b"\x03\x00"


class Pieces(Protocol):
    """A body that can be written whole or a piece at a time (the pieces join to the whole)."""

    def __len__(self) -> int: ...
    def whole(self) -> bytes: ...
    def pieces(self, *, first_bytes: int, piece_bytes: int) -> Iterator[bytes]: ...


class _Failed:
    """The exception the producer raised, carried to the event loop."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Whole:
    """The body, uncompressed and complete."""

    def __init__(self, body: bytes) -> None:
        self.body = body


#: What the worker hands over: a deflated piece, or one being deflated on a gzip thread.
Item = bytes | Future[bytes] | _Failed | _Whole | None


class OffloadedResponse(Response):
    """The body ``produce()`` returns, made on a worker thread; for a client that accepts gzip
    (and a body of at least ``minimum_size`` bytes), deflated there too with ISA-L at ``level``
    and sent in flushed pieces (chunked) as they are made. A ``HEAD`` gets the headers a ``GET``
    would, and nothing is deflated for it. A body under ``minimum_size`` goes out whole, for
    the gzip middleware to compress as any other."""

    def __init__(
        self,
        produce: Callable[[], bytes | Pieces],
        *,
        media_type: str,
        level: int = 1,
        minimum_size: int = 1024 * 1024,
    ) -> None:
        super().__init__(None, media_type=media_type)
        self.produce = produce
        self.level = level
        self.minimum_size = minimum_size

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        accept = b",".join(v for k, v in scope["headers"] if k == b"accept-encoding")
        gzip = accepts_gzip(accept.decode("latin-1"))
        head = bool(scope.get(HEAD_REQUEST))
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[Item] = asyncio.Queue()
        stop = threading.Event()

        def put(item: Item) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, item)

        work = loop.run_in_executor(PRODUCERS, self._work, put, stop, gzip and not head)
        try:
            first = await queue.get()
            if isinstance(first, _Failed):
                raise first.error
            if isinstance(first, _Whole) and len(first.body) < self.minimum_size:
                await send(self._start(first.body, False))  # the gzip middleware's to compress
                await send({"type": "http.response.body", "body": first.body})
            elif isinstance(first, _Whole):  # refused gzip, or a HEAD: headers as GET's
                await send(self._start(first.body, gzip))
                await _send_stream([] if head else [first.body], send)
            elif first is not None:
                await send(self._start(b"", True))
                await _send_stream(_deflated(first, queue), send)
        finally:
            stop.set()  # the client went away, or the request was cancelled: deflate no more
            await asyncio.shield(work)

    def _work(self, put: Callable[[Item], None], stop: threading.Event, deflate: bool) -> None:
        """On the worker thread: produce the body, then hand it over whole or deflated; a
        failure is handed over too, so the event loop never waits for a piece that won't come."""
        try:
            body = self.produce()
            if not deflate or len(body) < self.minimum_size:
                put(_Whole(body if isinstance(body, bytes) else body.whole()))
                return
            if isinstance(body, bytes):
                self._deflate(_slices(body), put, stop)
            else:
                self._deflate(body.pieces(first_bytes=FIRST_PIECE, piece_bytes=PIECE), put, stop)
        except Exception as error:
            put(_Failed(error))

    def _deflate(
        self,
        pieces: Iterator[bytes | memoryview],
        put: Callable[[Item], None],
        stop: threading.Event,
    ) -> None:
        """One gzip member: the first piece deflated here at once, the others (each made when
        the previous one is on its way) side by side on the gzip threads, as raw deflate streams
        flushed to a byte boundary (as pigz does) and ended by an empty final block; the CRC is
        worked out here meanwhile. Each piece's job is handed over as it is queued, and the
        event loop sends its result when it is done, in order, whatever this thread is doing. At
        most :data:`~.compression.IN_FLIGHT` pieces wait on those threads at a time, so that
        another answer's pieces wait for a few of this one's, not for all of them."""
        first = next(pieces)
        crc, size = isal_zlib.crc32(first), len(first)
        put(GZIP_HEADER + deflate_piece(first, self.level, False))
        jobs: deque[Future[bytes]] = deque()
        try:
            for piece in pieces:
                while jobs and (jobs[0].done() or len(jobs) >= IN_FLIGHT):
                    jobs.popleft().exception()  # waits for the oldest while IN_FLIGHT are queued
                if stop.is_set():
                    return
                jobs.append(DEFLATERS.submit(deflate_piece, piece, self.level, False))
                put(jobs[-1])
                crc, size = isal_zlib.crc32(piece, crc), size + len(piece)
            put(_FINAL_BLOCK + struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF))
            put(None)
        finally:
            if stop.is_set():  # the answer was cut short: the pieces not started are not wanted
                for job in jobs:
                    job.cancel()

    def _start(self, body: bytes, gzip: bool) -> Message:
        """The start message: the body's length, or gzip (chunked) and ``Vary``."""
        self.body = body
        self.init_headers()
        headers = MutableHeaders(raw=self.raw_headers)
        if gzip:
            del headers["content-length"]
            headers["content-encoding"] = "gzip"
            headers.add_vary_header("Accept-Encoding")
        return {"type": "http.response.start", "status": self.status_code, "headers": headers.raw}


async def _deflated(
    first: bytes | Future[bytes], queue: asyncio.Queue[Item]
) -> AsyncIterator[bytes]:
    """The deflated pieces in the order the worker hands them over, ``first`` first; a piece
    still being deflated is waited for."""
    piece: Item = first
    while isinstance(piece, bytes | Future):
        yield piece if isinstance(piece, bytes) else await asyncio.wrap_future(piece)
        piece = await queue.get()
    if isinstance(piece, _Failed):  # half sent: the server can only cut the answer short
        raise piece.error


async def _send_stream(pieces: Iterable[bytes] | AsyncIterator[bytes], send: Send) -> None:
    """Send ``pieces`` as body messages, then the end: always as a stream, which the ETag layer
    (:mod:`.caching`) passes untagged. That is right here: an answer made from the clock (future
    positions start now) is never the same twice, so a tag could never match, and hashing
    megabytes for it would cost about as much as making them."""
    if isinstance(pieces, AsyncIterator):
        async for piece in pieces:
            await send({"type": "http.response.body", "body": piece, "more_body": True})
    else:
        for piece in pieces:
            await send({"type": "http.response.body", "body": piece, "more_body": True})
    await send({"type": "http.response.body", "body": b"", "more_body": False})


def _slices(body: bytes) -> Iterator[memoryview]:
    """``body`` in views: :data:`FIRST_PIECE` bytes, then :data:`PIECE` bytes each."""
    view = memoryview(body)
    yield view[:FIRST_PIECE]
    for offset in range(FIRST_PIECE, len(view), PIECE):
        yield view[offset : offset + PIECE]

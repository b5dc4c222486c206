"""A response whose body is computed, and gzipped, in one trip to a worker thread.

For a large document that costs CPU to make (a vessel's future positions: a route, a position
a minute, megabytes of JSON), every hand-over between threads costs a wake-up, and on a busy
machine a wake-up waits for a CPU; so the body is produced, written and deflated on one worker
thread, a piece at a time, and each deflated piece is handed to the event loop as soon as it is
made, so that the client inflates one piece while the next is made. The event loop is woken only
when it waits for a piece (:class:`Handover`): pieces made while it was sending go out together,
in one body message. No thread ever waits for the event loop. A body that can be written in
pieces (:class:`Pieces`, the engine's positions document) is written a piece at a time: the first
(small) one leaves before the rest is written.

A failure while producing the body (or its first piece) is raised before anything is sent, so
the application's error handlers answer it as usual (a 404, a 422); one in a later piece can
only cut the answer short. A client that goes away mid-answer stops the worker at its next piece.
"""

from __future__ import annotations

import asyncio
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Final, Protocol

from starlette.datastructures import MutableHeaders
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from . import codec
from .compression import accepts_gzip, deflate_piece
from .negotiation import HEAD_REQUEST

#: Input bytes of the first deflated piece (about 0.03 ms of ISA-L), then of each later one
#: (about 0.4 ms each to write and deflate: the client inflates one while the next is made).
FIRST_PIECE: Final = 32 * 1024
PIECE: Final = 512 * 1024
#: Threads producing these bodies: handing a job to one costs the event loop less than AnyIO's
#: thread pool does (a C queue, no capacity limiter); created on first use.
PRODUCERS: Final = ThreadPoolExecutor(max_workers=8, thread_name_prefix="sealane-offload")
#: The end of a raw deflate stream: an empty final block (fixed codes), after flushed pieces.
_FINAL_BLOCK: Final = b"\x03\x00"


class Pieces(Protocol):
    """A body that can be written whole or a piece at a time (the pieces join to the whole)."""

    @property
    def record_width(self) -> int:
        """Bytes in each of its records when they are all alike (0 if not): each is deflated
        against the record before it (:func:`.codec.records_piece`)."""

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


class _Gone:
    """The client went away (handed over by the event loop itself): nothing more is sent."""


#: What the worker hands over: a deflated piece, the whole body, a failure, or None (the end);
#: or, from the event loop, :class:`_Gone`.
Item = bytes | _Failed | _Whole | _Gone | None


class Handover:
    """Items a worker thread hands to the event loop, in order. The loop is woken (one
    ``call_soon_threadsafe``) only when it waits for an item; what is handed over while it is
    busy is taken in one go at its next :meth:`take`."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: list[Item] = []
        self._waiter: asyncio.Future[None] | None = None
        self._lock = threading.Lock()

    def put(self, item: Item) -> None:
        """On the worker thread: hand ``item`` over, waking the loop if it waits."""
        with self._lock:
            self._items.append(item)
            waiter, self._waiter = self._waiter, None
        if waiter is not None:
            self._loop.call_soon_threadsafe(_wake, waiter)

    async def take(self) -> list[Item]:
        """On the event loop: every item handed over since the last take (at least one)."""
        with self._lock:
            items, self._items = self._items, []
            if not items:
                self._waiter = waiter = self._loop.create_future()
        if items:
            return items
        await waiter
        with self._lock:
            items, self._items = self._items, []
        return items


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():  # not cancelled meanwhile
        waiter.set_result(None)


class OffloadedResponse(Response):
    """The body ``produce()`` returns, made on a worker thread; for a client that accepts gzip
    (and a body of at least ``minimum_size`` bytes), deflated there too (:mod:`.codec`, ISA-L's
    ``level``) and sent in flushed pieces (chunked) as they are made. A ``HEAD`` gets the
    headers a ``GET`` would, and nothing is deflated for it. A body under ``minimum_size`` goes
    out whole, for the gzip middleware to compress as any other."""

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
        handover = Handover(asyncio.get_running_loop())
        stop = threading.Event()
        # Not run_in_executor: its asyncio future would wake the loop once more at the end.
        job = PRODUCERS.submit(self._work, handover.put, stop, gzip and not head)
        ended = False
        try:
            items = await handover.take()
            first = items[0]
            if isinstance(first, _Failed):
                raise first.error
            if isinstance(first, _Whole) and len(first.body) < self.minimum_size:
                await send(self._start(first.body, False))  # the gzip middleware's to compress
                await send({"type": "http.response.body", "body": first.body})
            elif isinstance(first, _Whole):  # refused gzip, or a HEAD: headers as GET's
                await send(self._start(first.body, gzip))
                await _send_stream([] if head else [first.body], send)
            else:
                await send(self._start(b"", True))
                # A server takes the pieces of a client gone as any others (ASGI 2.3): ask it.
                watcher = asyncio.ensure_future(_watch(receive, handover, stop))
                try:
                    if not await _send_pieces(items, handover, send):
                        return  # the client went away
                finally:
                    watcher.cancel()
            ended = True
        finally:
            stop.set()  # the client went away, or the request was cancelled: deflate no more
            if not ended:  # the worker may still be busy: let it see ``stop`` and finish
                await asyncio.shield(asyncio.wrap_future(job))

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
                pieces = body.pieces(first_bytes=FIRST_PIECE, piece_bytes=PIECE)
                self._deflate(pieces, put, stop, body.record_width)
        except Exception as error:
            put(_Failed(error))

    def _deflate(
        self,
        pieces: Iterator[bytes | memoryview],
        put: Callable[[Item], None],
        stop: threading.Event,
        record_width: int = 0,
    ) -> None:
        """One gzip member, on this thread: each piece a raw deflate stream flushed to a byte
        boundary (as pigz does), handed over as soon as it is deflated, the CRC worked out
        alongside, and an empty final block with the trailer at the end. (Deflating the pieces
        side by side on other threads made the answer no sooner on two shared CPUs, and cost
        about a millisecond of CPU more in hand-overs.) Records of one width are deflated each
        against the one before it, across pieces too. After the first piece this thread yields
        the GIL once: without that, the event loop woken for the piece waited for it while this
        thread wrote the next ones (0.3-1.4 ms at p50, timed in the server)."""
        prefix, crc, size = codec.GZIP_HEADER, 0, 0
        history: bytes | memoryview = b""
        for piece in pieces:
            if stop.is_set():
                return
            if record_width:
                out = codec.records_piece(piece, history, record_width, self.level)
            else:
                out = deflate_piece(piece, self.level, False)
            put(prefix + out)
            if prefix:  # the first piece: let the event loop, woken for it, take the GIL now
                time.sleep(0)
            prefix, crc, size = b"", codec.CODEC.crc32(piece, crc), size + len(piece)
            history = piece
        put(_FINAL_BLOCK + struct.pack("<II", crc, size & 0xFFFFFFFF))
        put(None)

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


async def _send_pieces(items: list[Item], handover: Handover, send: Send) -> bool:
    """Send the deflated pieces as the worker hands them over, starting with ``items``: the
    first piece alone (it is small, and the client can start on it), then what was handed over
    together as one body message, the last of them ending the body. A failure handed over cuts
    the answer short: it is raised, and the end is never sent. False when the client went away
    (nothing more is sent), True once the end is."""
    batches = [items[:1], items[1:]]
    while True:
        batch = batches.pop(0) if batches else await handover.take()
        if any(isinstance(item, _Gone) for item in batch):
            return False
        pieces = [item for item in batch if isinstance(item, bytes)]
        last = batch[-1] if batch else b""
        ended = last is None
        if pieces or ended:
            body = b"".join(pieces)
            await send({"type": "http.response.body", "body": body, "more_body": not ended})
        if isinstance(last, _Failed):
            raise last.error
        if ended:
            return True


async def _watch(receive: Receive, handover: Handover, stop: threading.Event) -> None:
    """Until the client goes away: then ``stop`` the worker, and wake the event loop if it
    waits for a piece (cancelled once the answer has ended)."""
    while (await receive())["type"] != "http.disconnect":
        await asyncio.sleep(0)  # a receive that answers at once must not hold the loop
    stop.set()
    handover.put(_Gone())


async def _send_stream(pieces: Iterable[bytes], send: Send) -> None:
    """Send ``pieces`` as body messages, then the end: always as a stream, which the ETag layer
    (:mod:`.caching`) passes untagged. That is right here: an answer made from the clock
    (future positions start now) is never the same twice, so a tag could never match, and
    hashing megabytes for it would cost about as much as making them."""
    for piece in pieces:
        await send({"type": "http.response.body", "body": piece, "more_body": True})
    await send({"type": "http.response.body", "body": b"", "more_body": False})


def _slices(body: bytes) -> Iterator[memoryview]:
    """``body`` in views: :data:`FIRST_PIECE` bytes, then :data:`PIECE` bytes each."""
    view = memoryview(body)
    yield view[:FIRST_PIECE]
    for offset in range(FIRST_PIECE, len(view), PIECE):
        yield view[offset : offset + PIECE]

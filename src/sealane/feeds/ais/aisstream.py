"""AISStream (aisstream.io), the free global AIS feed, over WebSocket into the ingest path.

The protocol relied on (AISStream's documentation, its published OpenAPI models
``aisstream/ais-message-models`` and its example clients ``aisstream/example``): the client
opens ``wss://stream.aisstream.io/v0/stream`` and, within 3 s, sends one JSON subscription
(:mod:`.aisstream_subscription`); the server then pushes JSON messages
(:mod:`.aisstream_messages`) until it closes. A refused subscription comes back as
``{"error": "..."}``, and the server closes.

Messages are decoded and ingested in batches through the same :class:`~.ingest.Ingestor` as the
NMEA feeds (known vessels only unless every MMSI is asked for, thinning, port calls and events,
static data). A live stream cannot be read again, so its checkpoint (source ``aisstream:<url>``)
only records the newest report committed, in UNIX milliseconds, for the operator: what was
received but not yet committed when the process dies is lost (at most one batch). A dropped
connection is retried with exponential backoff and jitter, capped, the count reset after a
connection that stayed up for a healthy period. The API key appears in the subscription only:
never in a log line, an exception, a repr or a report; what the server says is logged with the
key masked.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from .aisstream_messages import decode_messages, server_error
from .aisstream_subscription import Subscription, check_url
from .ingest import Ingestor
from .pipeline import RunReport
from .reports import Drop

log = logging.getLogger("sealane.feeds")


class _NoFrameLog(logging.LoggerAdapter[logging.Logger]):
    """The connection's own logger with its debug lines off: at debug level ``websockets``
    logs every frame sent, the subscription and its key among them."""

    def isEnabledFor(self, level: int) -> bool:
        return level > logging.DEBUG and self.logger.isEnabledFor(level)


_CONNECTION_LOG = _NoFrameLog(logging.getLogger("sealane.feeds.websocket"))

#: The largest message accepted (AISStream's are about a kB; a larger one ends the connection),
#: which bounds a full batch's memory too.
MAX_MESSAGE_BYTES = 1 << 16


@dataclass(frozen=True)
class Backoff:
    """Reconnection delays: ``first_s`` doubled on each failure up to ``cap_s``, each drawn at
    random between half and all of that (so many clients do not return in step); a connection
    that lasted ``healthy_s`` starts the count again."""

    first_s: float = 1.0
    cap_s: float = 60.0
    healthy_s: float = 60.0

    def delay_s(self, failures: int, draw: float) -> float:
        """The wait before attempt ``failures + 1``; ``draw`` is uniform in [0, 1).

        >>> [Backoff().delay_s(n, 1.0) for n in (1, 2, 3, 7, 8)]
        [1.0, 2.0, 4.0, 60.0, 60.0]
        """
        ceiling = min(self.cap_s, self.first_s * 2.0 ** min(failures - 1, 62))
        return ceiling * (0.5 + 0.5 * draw)


@dataclass
class StreamReport:
    """Totals of a stream: connections subscribed, connections (or attempts) that ended,
    messages received, and the ingest run's counts."""

    connections: int = 0
    disconnects: int = 0
    received: int = 0
    run: RunReport = field(default_factory=RunReport)

    def summary(self) -> str:
        """One line for the command line: the NMEA feeds' counts, of messages."""
        counts = self.run.summary(unit="messages")
        return (
            f"AISStream: {self.connections} connections, {self.disconnects} dropped or refused;"
            f" {counts}"
        )


class AISStreamClient:
    """Follows an AISStream URL until cancelled (Ctrl-C), committing every ``batch_size``
    messages or ``max_delay_s`` seconds; what was received is committed when it stops."""

    def __init__(
        self,
        url: str,
        subscription: Subscription,
        ingestor: Ingestor,
        *,
        batch_size: int = 5000,
        max_delay_s: float = 1.0,
        backoff: Backoff | None = None,
        open_timeout_s: float = 10.0,
        draw: Callable[[], float] = random.random,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.url = check_url(url)
        self.subscription = subscription
        self.ingestor = ingestor
        self.batch_size = max(1, batch_size)
        self.max_delay_s = max_delay_s
        self.backoff = backoff or Backoff()
        self.open_timeout_s = open_timeout_s
        self.draw, self.sleep = draw, sleep
        self.report = StreamReport()
        self._batch: list[tuple[str | bytes, float]] = []
        self._opened = 0.0
        #: The checkpoint's source, and the newest report's time committed (milliseconds).
        self.source = f"aisstream:{self.url}"[:512]
        self._newest_ms = 0

    def __repr__(self) -> str:
        return f"AISStreamClient({self.url!r}, {self.subscription!r})"

    async def run(self) -> StreamReport:
        """Connect, subscribe, ingest; reconnect after any failure. Runs until cancelled."""
        clock, failures = self.ingestor.clock, 0
        try:
            while True:
                started = clock.monotonic()
                reason = await self._connection()
                self.commit()
                self.report.disconnects += 1
                if clock.monotonic() - started >= self.backoff.healthy_s:
                    failures = 0
                failures += 1
                delay = self.backoff.delay_s(failures, self.draw())
                log.warning("AISStream %s: %s; reconnecting in %.1f s", self.url, reason, delay)
                await self.sleep(delay)
        finally:  # cancelled (Ctrl-C): keep what was received
            self.commit()

    async def _connection(self) -> str:
        """One connection, until it ends; why it ended (the key masked)."""
        try:
            async with connect(
                self.url,
                open_timeout=self.open_timeout_s,
                max_size=MAX_MESSAGE_BYTES,
                logger=_CONNECTION_LOG,
            ) as socket:
                await socket.send(self.subscription.message())
                self.report.connections += 1
                log.info("AISStream %s: connected and subscribed", self.url)
                return await self._receive(socket)
        except (WebSocketException, OSError, TimeoutError) as error:
            return self._masked(f"{type(error).__name__}: {error}")

    async def _receive(self, socket: ClientConnection) -> str:
        """Messages into the batch until the connection ends (ConnectionClosed); a batch is
        committed when full or ``max_delay_s`` after its first message, even if none follows."""
        clock = self.ingestor.clock
        while True:
            wait_s = None
            if self._batch:
                wait_s = max(0.0, self._opened + self.max_delay_s - clock.monotonic())
            try:
                message = await asyncio.wait_for(socket.recv(), wait_s)
            except TimeoutError:
                message = None
            if message is not None:
                self._received(message)
            due = self._batch and clock.monotonic() - self._opened >= self.max_delay_s
            if len(self._batch) >= self.batch_size or due:
                self.commit()

    def _received(self, message: str | bytes) -> None:
        self.report.received += 1
        error = _error_text(message)
        if error is not None:  # the server closes the connection next
            self.report.run.ingest.drops[Drop.SERVER_ERROR] += 1
            log.error("AISStream %s: the server says %s", self.url, self._masked(error))
            return
        clock = self.ingestor.clock
        if not self._batch:
            self._opened = clock.monotonic()
        self._batch.append((message, clock.now().timestamp()))

    def commit(self) -> None:
        """Decode and ingest the messages received since the last commit (one transaction)."""
        batch, self._batch = self._batch, []
        if not batch:
            return
        decoded = decode_messages(batch)
        times = [p.time_s for p in decoded.positions] + [s.time_s for s in decoded.statics]
        if times:
            self._newest_ms = max(self._newest_ms, round(max(times) * 1000))
        checkpoint = (self.source, self._newest_ms) if self._newest_ms else None
        result = self.ingestor.ingest(decoded.positions, decoded.statics, checkpoint=checkpoint)
        self.report.run.add(decoded, result)

    def _masked(self, text: str) -> str:
        key = self.subscription.api_key
        return text.replace(key, "[API key]") if key else text


def _error_text(message: str | bytes) -> str | None:
    """The server's error if ``message`` is one (a cheap test first: nearly all are data)."""
    if isinstance(message, bytes):
        if b'"error"' not in message[:64]:
            return None
    elif '"error"' not in message[:64]:
        return None
    try:
        return server_error(json.loads(message))
    except ValueError:
        return None

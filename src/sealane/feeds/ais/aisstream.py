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
key masked. The key is sent only where the URL says: a redirect at the handshake is refused
(naming its target), and a ``ws://`` URL, which would send it in the clear, needs ``insecure``.

Nothing the upstream sends ends the client: a bad message is counted and dropped
(:mod:`.aisstream_messages`); a connection that delivers no whole message for
``idle_timeout_s`` (one that trickles a message in fragments, answering pings) is dropped and
made again; a batch is committed at ``batch_size`` messages or ``batch_bytes`` bytes, whichever
comes first; a batch whose commit fails is kept and tried again at the next commit, and dropped
(logged and counted) after :data:`COMMIT_ATTEMPTS` tries. It stops when cancelled.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus, SecurityError

from .aisstream_messages import decode_messages, parse_message, server_error
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

#: The largest message accepted (AISStream's are about a kB; a larger one ends the connection).
MAX_MESSAGE_BYTES = 1 << 16
#: The bytes of messages a batch holds at most before it is committed (with ``batch_size``, the
#: bound of the memory a batch takes).
BATCH_BYTES = 4 << 20
#: Seconds a connection may deliver no whole message before it is dropped and made again
#: (AISStream's world feed delivers hundreds a second).
IDLE_TIMEOUT_S = 60.0
#: Commits a batch is tried in before it is dropped.
COMMIT_ATTEMPTS = 3


class _NoRedirects(connect):
    """``connect`` refusing every redirect at the handshake: following one would send the
    subscription, key and all, to a host the operator did not name."""

    def process_redirect(self, exc: Exception) -> Exception | str:
        if isinstance(exc, InvalidStatus) and 300 <= exc.response.status_code < 400:
            target = exc.response.headers.get("Location", "nowhere")
            return SecurityError(
                f"refused a redirect (HTTP {exc.response.status_code}) to {target[:200]}"
            )
        return exc


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
        batch_bytes: int = BATCH_BYTES,
        max_delay_s: float = 1.0,
        idle_timeout_s: float = IDLE_TIMEOUT_S,
        backoff: Backoff | None = None,
        open_timeout_s: float = 10.0,
        insecure: bool = False,
        draw: Callable[[], float] = random.random,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.url = check_url(url)
        if self.url.lower().startswith("ws://") and subscription.api_key and not insecure:
            raise ValueError(
                "a ws:// URL would send the API key unencrypted: use wss://, or allow it "
                "explicitly (--insecure)"
            )
        self.subscription = subscription
        self.ingestor = ingestor
        self.batch_size = max(1, batch_size)
        self.batch_bytes = max(1, batch_bytes)
        self.max_delay_s = max_delay_s
        self.idle_timeout_s = idle_timeout_s
        self.backoff = backoff or Backoff()
        self.open_timeout_s = open_timeout_s
        self.draw, self.sleep = draw, sleep
        self.report = StreamReport()
        self._batch: list[tuple[str | bytes, float]] = []
        self._batch_size_bytes = 0
        #: Commits the batch at hand has failed in.
        self._failed_commits = 0
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
            async with _NoRedirects(
                self.url,
                open_timeout=self.open_timeout_s,
                max_size=MAX_MESSAGE_BYTES,
                logger=_CONNECTION_LOG,
            ) as socket:
                await socket.send(self.subscription.message())
                self.report.connections += 1
                log.info("AISStream %s: connected and subscribed", self.url)
                return await self._receive(socket)
        except Exception as error:  # nothing the upstream does ends the client
            return self._masked(f"{type(error).__name__}: {error}")

    async def _receive(self, socket: ClientConnection) -> str:
        """Messages into the batch until the connection ends (ConnectionClosed) or stays idle
        for ``idle_timeout_s``; a batch is committed when full or ``max_delay_s`` after its
        first message, even if none follows."""
        clock, loop = self.ingestor.clock, asyncio.get_running_loop()
        heard = loop.time()  # the idle timeout is the network's, in real time like open_timeout
        while True:
            idle_ends = heard + self.idle_timeout_s
            if loop.time() >= idle_ends:
                return f"no message for {self.idle_timeout_s:g} s"
            wait_s = idle_ends - loop.time()
            if self._batch:
                batch_due = self._opened + self.max_delay_s - clock.monotonic()
                wait_s = min(wait_s, max(0.0, batch_due))
            try:  # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation
                async with asyncio.timeout(wait_s):  # that meets a message, and run() never ends
                    message = await socket.recv()
            except TimeoutError:
                message = None
            if message is not None:
                heard = loop.time()
                self._received(message)
            due = self._batch and clock.monotonic() - self._opened >= self.max_delay_s
            full = len(self._batch) >= self.batch_size
            if full or self._batch_size_bytes >= self.batch_bytes or due:
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
        self._batch_size_bytes += len(message)

    def commit(self) -> None:
        """Decode and ingest the messages received since the last commit (one transaction). A
        commit that fails keeps the batch for the next one, up to :data:`COMMIT_ATTEMPTS`
        tries; then the batch is dropped, logged and counted (``write_failed``)."""
        batch = self._batch
        if not batch:
            return
        decoded = decode_messages(batch)
        times = [p.time_s for p in decoded.positions] + [s.time_s for s in decoded.statics]
        newest_ms = max(self._newest_ms, round(max(times) * 1000)) if times else self._newest_ms
        checkpoint = (self.source, newest_ms) if newest_ms else None
        try:
            result = self.ingestor.ingest(decoded.positions, decoded.statics, checkpoint=checkpoint)
        except Exception as error:  # a failed write is retried, never fatal
            self._failed_commits += 1
            text = self._masked(f"{type(error).__name__}: {error}")[:500]
            if self._failed_commits < COMMIT_ATTEMPTS:
                log.warning("AISStream %s: commit failed (%s); kept to try again", self.url, text)
                return
            log.error(
                "AISStream %s: commit failed %d times (%s); %d messages dropped",
                self.url,
                self._failed_commits,
                text,
                len(batch),
            )
            self.report.run.ingest.drops[Drop.WRITE_FAILED] += len(batch)
        else:
            self._newest_ms = newest_ms
            self.report.run.add(decoded, result)
        self._batch, self._batch_size_bytes, self._failed_commits = [], 0, 0

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
    return server_error(parse_message(message))

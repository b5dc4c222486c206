"""Where NMEA lines come from: a TCP feed, UDP datagrams (AIS-catcher and the like), a file.

Network sources yield ``None`` when nothing arrived for ``idle_s`` seconds, so the pipeline can
commit a partial batch instead of holding it until the next line.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

log = logging.getLogger("sealane.feeds")
#: Longest accepted line; anything longer is not NMEA and is skipped.
MAX_LINE = 1024


def parse_address(text: str, default_port: int = 10110) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``) as a pair; IPv6 hosts in brackets (``[::1]:10110``).

    >>> parse_address("127.0.0.1:5631")
    ('127.0.0.1', 5631)
    """
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":") or str(default_port)
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, str(default_port)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not a HOST:PORT address: {text!r}")
    return host, int(port)


def file_lines(path: Path, start: int = 0) -> Iterator[tuple[bytes, int, int]]:
    """Lines of ``path`` from byte ``start``, without their line ends (LF or CR LF, which the
    decoder's one-sentence fast path does not take): ``(line, start_offset, end_offset)``, the
    offsets those of the whole line."""
    with path.open("rb") as handle:
        handle.seek(start)
        offset = start
        for line in handle:
            end = offset + len(line)
            if line.endswith(b"\n"):  # a last line still being written is left for later
                yield line[:-2] if line.endswith(b"\r\n") else line[:-1], offset, end
            offset = end


def tcp_lines(
    host: str,
    port: int,
    *,
    idle_s: float = 1.0,
    stop: threading.Event | None = None,
    backoff_s: Callable[[int], float] = lambda n: min(60.0, 2.0**n),
) -> Iterator[bytes | None]:
    """Lines from a TCP NMEA server, reconnecting with backoff when the connection drops."""
    failures = 0
    while stop is None or not stop.is_set():
        try:
            with socket.create_connection((host, port), timeout=10.0) as connection:
                connection.settimeout(idle_s)
                failures = 0
                yield from _stream_lines(connection, stop)
        except OSError as error:
            failures += 1
            delay = backoff_s(failures)
            log.warning("AIS feed %s:%s: %s; reconnecting in %.0f s", host, port, error, delay)
            if stop is not None and stop.wait(delay):
                return
            if stop is None:
                time.sleep(delay)


def _stream_lines(
    connection: socket.socket, stop: threading.Event | None
) -> Iterator[bytes | None]:
    buffer = b""
    while stop is None or not stop.is_set():
        try:
            chunk = connection.recv(65536)
        except TimeoutError:
            yield None
            continue
        if not chunk:
            raise ConnectionResetError("the feed closed the connection")
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        if len(buffer) > MAX_LINE:
            buffer = b""
        for line in lines:
            if len(line) <= MAX_LINE:
                yield line[:-1] if line.endswith(b"\r") else line  # NMEA's lines end in CR LF


def udp_lines(
    host: str, port: int, *, idle_s: float = 1.0, stop: threading.Event | None = None
) -> Iterator[bytes | None]:
    """Lines of the UDP datagrams sent to ``host:port`` (one or more sentences each)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_DGRAM) as listener:
        listener.bind((host, port))
        listener.settimeout(idle_s)
        while stop is None or not stop.is_set():
            try:
                datagram = listener.recv(65536)
            except TimeoutError:
                yield None
                continue
            for line in datagram.splitlines():
                if line and len(line) <= MAX_LINE:
                    yield line

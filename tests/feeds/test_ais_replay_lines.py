"""Lines reach the decoder without their line ends, so a file replay and a TCP feed (NMEA's CR
LF) take the one-sentence fast path, which takes a sentence only when it ends at its checksum.
Before, every replayed line kept its LF and went the slow way, through pyais."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

from sealane.feeds.ais.framing import RunningXor, read_tag_block, sentence_xor
from sealane.feeds.ais.positionbits import single_position
from sealane.feeds.ais.sources import file_lines, tcp_lines

from .support import T0_S, at, sentence

MMSI = 244670316
LINES = [
    at(sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0 + k / 600, second=k), T0_S + 60 * k)
    for k in range(3)
]


def fast(line: bytes) -> bool:
    """Whether the decoder reads ``line`` without pyais."""
    running = RunningXor([line])
    head, _stamp = read_tag_block(line, 0, running)
    return single_position(line[head:], sentence_xor(line, head, 0, running)) is not None


def test_file_lines__without_their_line_ends_and_with_the_whole_lines_offsets(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.nmea"
    raw = LINES[0] + b"\n" + LINES[1] + b"\r\n" + LINES[2] + b"\n" + b"\\c:17672"  # last unfinished
    path.write_bytes(raw)
    found = list(file_lines(path))
    assert [line for line, _start, _end in found] == LINES
    ends = [end for _line, _start, end in found]
    assert ends == [len(LINES[0]) + 1, len(LINES[0]) + len(LINES[1]) + 3, raw.rindex(b"\n") + 1]
    assert next(file_lines(path, ends[0]))[0] == LINES[1]


def test_file_lines__every_position_line_takes_the_fast_path(tmp_path: Path) -> None:
    path = tmp_path / "crlf.nmea"
    path.write_bytes(b"".join(line + b"\r\n" for line in LINES))
    assert all(fast(line) for line, _start, _end in file_lines(path))
    assert not any(fast(line + b"\r\n") for line in LINES)  # as they were handed over before


def test_tcp_lines__without_the_carriage_return() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    stop = threading.Event()

    def feed() -> None:
        connection, _address = server.accept()
        with connection:
            connection.sendall(b"".join(line + b"\r\n" for line in LINES))
            stop.wait(30)

    sender = threading.Thread(target=feed, daemon=True)
    sender.start()
    received: list[bytes] = []
    try:
        for line in tcp_lines("127.0.0.1", port, idle_s=0.2, stop=stop):
            if line is not None:
                received.append(line)
            if len(received) == len(LINES):
                break
    finally:
        stop.set()
        sender.join(timeout=30)
        server.close()
    assert received == LINES
    assert all(fast(line) for line in received)

"""``sealane ais connect`` (TCP) and ``sealane ais listen --udp`` as real processes on loopback.

A local NMEA server (TCP) or sender (UDP) on 127.0.0.1 feeds generated sentences; the process is
stopped with SIGINT, commits what it received, and prints its summary.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from sealane.feeds.ais.sources import parse_address
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.migrate import upgrade
from sealane.store.models import Vessel, VesselPosition
from tests.feeds.support import T0_S, sentence

MMSI = 244670316
#: Ten minutes of reports, one a minute, moving north at 6 kn (stored every minute).
LINES = [
    sentence(type=1, mmsi=MMSI, lon=4.0, lat=52.0 + k * 0.1 / 60.0, speed=6.0, course=0.0)
    for k in range(10)
]


def database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'ais.db'}"
    engine = make_engine(url)
    upgrade(engine)
    with transaction(session_factory(engine)) as session:
        session.add(Vessel(name="Sealane Test", imo="9074729", mmsi=str(MMSI)))
    engine.dispose()
    return url


def stored_points(url: str) -> int:
    engine = make_engine(url)
    with engine.connect() as connection:
        count = connection.scalar(select(func.count()).select_from(VesselPosition)) or 0
    engine.dispose()
    return count


def interruptible() -> None:
    """In the child before it starts: SIGINT back to its default, so Python turns it into
    KeyboardInterrupt. A child inherits an ignored SIGINT, and in the full suite some earlier
    test leaves the worker's ignored (the command then never hears the test's Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stop(process: subprocess.Popen[str]) -> str:
    """SIGINT, then the process's output; killed if it does not end (never left running)."""
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    return out


def free_port(kind: int) -> int:
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def tagged_lines() -> list[bytes]:
    from sealane.feeds.ais.sample import tagged

    return [tagged(text, T0_S + 60.0 * k).encode() + b"\r\n" for k, text in enumerate(LINES)]


def wait_for(url: str, count: int) -> None:
    deadline = time.monotonic() + 60
    while stored_points(url) < count and time.monotonic() < deadline:
        time.sleep(0.1)


def test_connect__reads_a_tcp_feed_and_commits_on_sigint(tmp_path: Path) -> None:
    url = database(tmp_path)
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve() -> None:
        connection, _ = server.accept()
        with connection:
            for data in tagged_lines():
                connection.sendall(data)
            time.sleep(20)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    command = [sys.executable, "-m", "sealane.cli", "ais", "connect", f"127.0.0.1:{port}"]
    process = subprocess.Popen(
        [*command, "--database", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    try:
        wait_for(url, 10)
        out = stop(process)
    finally:
        server.close()
        if process.poll() is None:
            process.kill()
    assert stored_points(url) == 10
    assert "10 positions" in out and "stored 10" in out


def test_listen__receives_udp_datagrams(tmp_path: Path) -> None:
    url = database(tmp_path)
    port = free_port(socket.SOCK_DGRAM)
    command = [sys.executable, "-m", "sealane.cli", "ais", "listen", "--udp", f"127.0.0.1:{port}"]
    process = subprocess.Popen(
        [*command, "--database", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    lines = tagged_lines()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            deadline = time.monotonic() + 60
            while stored_points(url) < 10 and time.monotonic() < deadline:
                sender.sendto(b"".join(lines[:5]), ("127.0.0.1", port))  # several per datagram
                sender.sendto(b"".join(lines[5:]), ("127.0.0.1", port))
                time.sleep(0.5)
        out = stop(process)
    finally:
        if process.poll() is None:
            process.kill()
    assert stored_points(url) == 10
    assert "stored 10" in out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:10110", ("127.0.0.1", 10110)),
        ("localhost", ("localhost", 10110)),
        ("[::1]:5631", ("::1", 5631)),
        ("[::1]", ("::1", 10110)),
    ],
)
def test_parse_address(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["127.0.0.1:", "127.0.0.1:99999", ":80", "host:port"])
def test_parse_address__rejects(text: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_address(text)


def test_replay__missing_file_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sealane.cli", "ais", "replay", str(tmp_path / "none.nmea")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("sealane: error: no such file")

"""``sealane ais connect ws://...`` (AISStream): a real process against a local WebSocket server
on 127.0.0.1, stopped with SIGINT; and each bad argument a one-line error, the key never shown."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.server import Server, ServerConnection, serve

from sealane.cli.commands import main
from tests.feeds.aisstream_support import position
from tests.feeds.support import T0_S

from .test_ais import database, interruptible, stored_points, wait_for

MMSI = 244670316
KEY = "cli-k3y-never-printed-5e2b"
TRACK = [position(MMSI, 4.0, 52.0 + k * 0.1 / 60.0, T0_S + 60.0 * k, sog=6.0) for k in range(10)]


class LocalStream:
    """A local AISStream: the first connection gets half the track and is closed, the next
    ones the rest and stay open; every subscription is kept."""

    def __init__(self) -> None:
        self.subscriptions: list[dict[str, Any]] = []
        self.server: Server = serve(self.handle, "127.0.0.1", 0)
        self.port = self.server.socket.getsockname()[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def handle(self, connection: ServerConnection) -> None:
        self.subscriptions.append(json.loads(connection.recv(timeout=3)))
        first = len(self.subscriptions) == 1
        for message in TRACK[:5] if first else TRACK[5:]:
            connection.send(message)
        if first:
            connection.close()
            return
        for _ in connection:  # open until the client leaves
            pass


@pytest.fixture
def stream() -> Iterator[LocalStream]:
    local = LocalStream()
    local.thread.start()
    yield local
    local.server.shutdown()
    local.thread.join(timeout=30)


def test_connect__follows_aisstream_reconnects_and_commits_on_sigint(
    tmp_path: Path, stream: LocalStream
) -> None:
    url = database(tmp_path)
    command = [
        *(sys.executable, "-m", "sealane.cli", "ais", "connect"),
        f"ws://127.0.0.1:{stream.port}/v0/stream",
        "--insecure",
        *("--api-key-env", "SEALANE_TEST_AISSTREAM_KEY"),
        "--box=3.5,51,5,53",
        *("--mmsi", str(MMSI), "--database", url),
    ]
    environment = {**os.environ, "SEALANE_TEST_AISSTREAM_KEY": KEY}
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        preexec_fn=interruptible,
    )
    try:
        wait_for(url, 10)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert stored_points(url) == 10
    assert "stored 10" in out and "2 connections" in out
    assert "reconnecting" in err  # the warning when the first connection closed
    assert KEY not in out and KEY not in err
    first = stream.subscriptions[0]
    assert first["APIKey"] == KEY
    assert first["BoundingBoxes"] == [[[51.0, 3.5], [53.0, 5.0]]]
    assert first["FiltersShipMMSI"] == [str(MMSI)]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "needs --api-key-env NAME"),
        (
            ["--api-key-env", "SEALANE_TEST_UNSET"],
            r"SEALANE_TEST_UNSET \(--api-key-env\) is not set",
        ),
        (["--api-key-env", "SEALANE_TEST_KEY", "--box=200,0,10,10"], r"longitudes .*\[-180"),
        (["--api-key-env", "SEALANE_TEST_KEY", "--box=0,-91,10,10"], r"latitudes .*\[-90"),
        (["--api-key-env", "SEALANE_TEST_KEY", "--box", "1,2,3"], "LON1,LAT1,LON2,LAT2"),
        (["--api-key-env", "SEALANE_TEST_KEY", "--mmsi", "24467031"], "9 digits"),
        (["--api-key-env", "SEALANE_TEST_KEY", "--mmsi", "MMSI"], "9 digits"),
    ],
)
def test_connect__bad_aisstream_arguments(
    arguments: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SEALANE_TEST_KEY", KEY)
    monkeypatch.delenv("SEALANE_TEST_UNSET", raising=False)
    database_url = f"sqlite:///{tmp_path / 'ais.db'}"
    url = "wss://stream.aisstream.io/v0/stream"
    code = main(["ais", "connect", url, *arguments, "--database", database_url])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.startswith("sealane: error: ")
    assert len(captured.err.splitlines()) == 1
    assert re.search(message, captured.err)
    assert KEY not in captured.err


@pytest.mark.parametrize(
    ("address", "arguments", "message"),
    [
        ("127.0.0.1:10110", ["--api-key-env", "SEALANE_TEST_KEY"], "for ws:// or wss:// URLs"),
        ("127.0.0.1:10110", ["--box=0,0,1,1"], "for ws:// or wss:// URLs"),
        ("127.0.0.1:10110", ["--mmsi", str(MMSI)], "for ws:// or wss:// URLs"),
        ("ws://", ["--api-key-env", "SEALANE_TEST_KEY"], "not a ws:// or wss:// URL"),
        ("wss://a:b@host/", ["--api-key-env", "SEALANE_TEST_KEY"], "user or password"),
        ("ws://127.0.0.1:1/v0/stream", ["--api-key-env", "SEALANE_TEST_KEY"], "unencrypted"),
    ],
)
def test_connect__aisstream_options_need_a_websocket_url(
    address: str,
    arguments: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SEALANE_TEST_KEY", KEY)
    database_url = f"sqlite:///{tmp_path / 'ais.db'}"
    code = main(["ais", "connect", address, *arguments, "--database", database_url])
    captured = capsys.readouterr()
    assert code == 2 and message in captured.err and KEY not in captured.err


def test_connect__help_names_the_options_never_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AISSTREAM_API_KEY", KEY)
    with pytest.raises(SystemExit) as exited:
        main(["ais", "connect", "--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    assert "--api-key-env NAME" in shown and "LON1,LAT1,LON2,LAT2" in shown and "--mmsi" in shown
    assert KEY not in shown

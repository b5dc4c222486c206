"""Real ``sealane`` server processes for the tests, on 127.0.0.1 ports of their own."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def sealane_command(*arguments: str) -> list[str]:
    """The ``sealane`` command of this virtual environment with ``arguments``."""
    script = shutil.which("sealane", path=str(Path(sys.executable).parent))
    program = [script] if script else [sys.executable, "-m", "sealane.cli"]
    return [*program, *arguments]


def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without ``SEALANE_*``/``SERVICE_*`` settings, plus ``extra``."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(("SEALANE_", "SERVICE_"))}
    return {**inherited, **dict(extra or {})}


def run_sealane(*arguments: str, env: Mapping[str, str] | None = None) -> str:
    """Run a ``sealane`` command to completion; its standard output."""
    done = subprocess.run(
        sealane_command(*arguments),
        capture_output=True,
        text=True,
        timeout=120,
        env=environment(env),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@contextmanager
def serving(
    database_url: str,
    log: Path,
    *,
    env: Mapping[str, str] | None = None,
    arguments: tuple[str, ...] = (),
) -> Iterator[str]:
    """A ``sealane serve`` process on its own port; yields its base URL (``.../v2``) once it
    answers, and stops it (SIGINT, then SIGKILL) on exit."""
    port = free_port()
    command = sealane_command(
        "serve",
        "--port",
        str(port),
        "--database",
        database_url,
        "--poll-interval",
        "0",
        "--log-level",
        "warning",
        *arguments,
    )
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, env=environment(env)
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_listening(base + "/v2/openapi.json", process, log)
            yield base + "/v2"
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


def wait_until_listening(
    url: str, process: subprocess.Popen[bytes], log: Path, timeout_s: float = 180.0
) -> None:
    """Poll ``url`` until it answers (any status); fail with the log if the process dies."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not answer in time:\n{log.read_text(errors='replace')}")

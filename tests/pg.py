"""A real, throwaway PostgreSQL server for the tests (no mocks, no shared cluster).

``postgres_server()`` yields the SQLAlchemy URL of a PostgreSQL database:

* ``SEALANE_TEST_POSTGRES_URL`` if set (the storage tests create and drop one schema per test
  in that database, so its role needs ``CREATE`` on it);
* otherwise a private server: Debian's server binaries are found under
  ``/usr/lib/postgresql/*/bin`` (``apt-get install postgresql`` first if they are missing and we
  are root), a cluster is made in a temporary directory with ``initdb`` (as the ``postgres``
  user when running as root, since initdb refuses root), started on a unix socket only (no TCP,
  no port to collide on), and stopped and deleted when the session ends (``atexit`` as a
  fallback). Debian's own ``main`` cluster on port 5432, if any, is never used.

The URL has the form ``postgresql+psycopg://postgres@/<db>?host=<socket dir>``.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ENV_URL = "SEALANE_TEST_POSTGRES_URL"
SERVER_GLOB = "/usr/lib/postgresql/*/bin"
APT_ENV = {"DEBIAN_FRONTEND": "noninteractive", "NEEDRESTART_MODE": "a"}
APT_INSTALL = (
    "apt-get",
    "-o",
    "DPkg::Lock::Timeout=300",
    "install",
    "-y",
    "--no-install-recommends",
    "postgresql",
)
#: Seconds spent on the steps of the last setup (shown in the pytest summary).
timings: dict[str, float] = {}


def _version_key(bindir: str) -> tuple[int, ...]:
    version = Path(bindir).parent.name
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def find_bindir() -> Path | None:
    """The newest Debian PostgreSQL server ``bin`` directory with initdb and pg_ctl, or None."""
    candidates = [
        d
        for d in glob.glob(SERVER_GLOB)
        if all(os.access(Path(d) / tool, os.X_OK) for tool in ("initdb", "pg_ctl", "postgres"))
    ]
    return Path(max(candidates, key=_version_key)) if candidates else None


def _run(argv: list[str] | tuple[str, ...], *, timeout: float, **kwargs: Any) -> str | None:
    """Run ``argv``; None on success, else a description of the failure with its output."""
    try:
        done = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **kwargs,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{shlex.join(argv)}: {error}"
    if done.returncode == 0:
        return None
    output = (done.stdout + done.stderr).strip()[-3000:]
    return f"{shlex.join(argv)} exited with {done.returncode}:\n{output}"


def install_postgresql() -> None:
    """``apt-get install postgresql`` (after ``apt-get update`` if the first attempt fails)."""
    if shutil.which("apt-get") is None:
        pytest.fail(
            "PostgreSQL server binaries are missing and there is no apt-get to install them: "
            f"install PostgreSQL (so that {SERVER_GLOB}/initdb exists) or set {ENV_URL}",
            pytrace=False,
        )
    env = {**os.environ, **APT_ENV}
    started = time.perf_counter()
    failure = _run(APT_INSTALL, timeout=900, env=env)
    if failure is not None:  # stale or missing package lists: update once, then retry
        failure = _run(("apt-get", "-o", "DPkg::Lock::Timeout=300", "update"), timeout=600, env=env)
        if failure is None:
            failure = _run(APT_INSTALL, timeout=900, env=env)
    timings["apt-get install postgresql"] = time.perf_counter() - started
    if failure is not None:
        pytest.fail(
            f"could not install PostgreSQL for the storage tests:\n{failure}\n"
            f"(install Debian's postgresql package by hand, or set {ENV_URL})",
            pytrace=False,
        )


def ensure_bindir() -> Path:
    """The server binaries, installed with apt when missing (root only; else a loud skip)."""
    bindir = find_bindir()
    if bindir is not None:
        return bindir
    if os.geteuid() != 0:
        pytest.skip(
            "!!! PostgreSQL tests NOT RUN: no server binaries under "
            f"{SERVER_GLOB} and not root, so they cannot be installed. Run as root, "
            f"`apt-get install postgresql`, or set {ENV_URL} !!!"
        )
    install_postgresql()
    bindir = find_bindir()
    if bindir is None:
        pytest.fail(
            f"apt-get installed postgresql but no initdb/pg_ctl/postgres under {SERVER_GLOB}",
            pytrace=False,
        )
    return bindir


@dataclass
class LocalServer:
    """A private PostgreSQL cluster in a temporary directory, reachable by unix socket only."""

    bindir: Path
    root: Path = field(init=False)
    running: bool = field(default=False, init=False)
    owner: pwd.struct_passwd | None = field(default=None, init=False)

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root / "sock"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def _as_owner(self, *argv: str) -> list[str]:
        """``argv`` run as the cluster's owner (``postgres`` when we are root)."""
        return ["runuser", "-u", "postgres", "--", *argv] if self.owner is not None else list(argv)

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return "(no server log)"

    def start(self) -> None:
        """initdb, then start the server and wait until it accepts connections."""
        # Short path under /tmp: a unix socket path must fit in 107 bytes.
        self.root = Path(tempfile.mkdtemp(prefix="sealane-pg-", dir="/tmp"))
        atexit.register(self.stop)
        self.socket_dir.mkdir()
        if os.geteuid() == 0:
            try:
                self.owner = pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail(
                    "running as root but there is no 'postgres' user to run initdb as "
                    "(Debian's postgresql package creates it)",
                    pytrace=False,
                )
            for path in (self.root, self.socket_dir):
                os.chown(path, self.owner.pw_uid, self.owner.pw_gid)
        cwd = str(self.root)  # the owner may not be allowed into the current directory
        started = time.perf_counter()
        failure = _run(
            self._as_owner(
                str(self.bindir / "initdb"),
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            ),
            timeout=120,
            cwd=cwd,
        )
        timings["initdb"] = time.perf_counter() - started
        if failure is not None:
            pytest.fail(f"initdb of the test cluster failed:\n{failure}", pytrace=False)
        options = " ".join(
            [
                "-k",
                shlex.quote(str(self.socket_dir)),
                "-c",
                "listen_addresses=''",
                "-F",  # fsync off: the cluster is thrown away
                "-c",
                "full_page_writes=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "max_connections=100",
            ]
        )
        started = time.perf_counter()
        self.running = True  # from here on, stop() must try pg_ctl stop
        failure = _run(
            self._as_owner(
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ),
            timeout=90,
            cwd=cwd,
        )
        if failure is None:
            failure = self._wait_ready()
        timings["server start"] = time.perf_counter() - started
        if failure is not None:
            log = self._log_tail()
            self.stop()
            pytest.fail(
                f"the test PostgreSQL server did not start:\n{failure}\nserver log:\n{log}",
                pytrace=False,
            )

    def _wait_ready(self) -> str | None:
        isready = self.bindir / "pg_isready"
        if not isready.exists():
            return None  # pg_ctl -w already waited for the server
        deadline = time.monotonic() + 30
        while True:
            argv = (str(isready), "-q", "-h", str(self.socket_dir), "-U", "postgres")
            failure = _run(argv, timeout=10)
            if failure is None or time.monotonic() > deadline:
                return failure
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server (immediately: its data is discarded) and delete its directory."""
        if self.running:
            self.running = False
            _run(
                self._as_owner(
                    str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"
                ),
                timeout=60,
                cwd=str(self.root),
            )
        if hasattr(self, "root"):
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@/{database}?host={self.socket_dir}"


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL database: ``$SEALANE_TEST_POSTGRES_URL`` or a private server."""
    external = os.environ.get(ENV_URL)
    if external:
        yield external
        return
    server = LocalServer(ensure_bindir())
    try:
        server.start()
        yield server.url("postgres")
    finally:
        server.stop()


def summary() -> str | None:
    """One line on how the test server was set up, or None if none was."""
    if not timings:
        return None
    return "PostgreSQL test server: " + ", ".join(f"{k} {v:.2f} s" for k, v in timings.items())

"""The HTTP service against the library call: a 25-day voyage over loopback, and port throughput.

Run ``.venv/bin/python benchmarks/api.py`` (``--quick`` for a short run, ``--repeat N`` for the
timed calls per measurement, ``--duration S`` for each throughput run). It starts ``sealane serve``
as a subprocess on 127.0.0.1 with a fresh SQLite file, prints plain-text tables and stops the
server at the end; it asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import orjson
from isal import isal_zlib

from _util import fmt, fmt_ms, machine_lines, render_table, timed_s
from sealane import get_port
from sealane.api.positions_json import positions_json
from sealane.routing.positions import Positions
from sealane.routing.voyage import future_positions
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.migrate import upgrade
from sealane.store.models import Vessel

HOST = "127.0.0.1"
SEALANE = Path(sys.executable).parent / "sealane"
#: Shanghai approaches -> Rotterdam at 18 kn: about 24.4 days, about 35,000 positions.
START = (122.5, 31.0)
PREVIOUS = "CNSHA"
DESTINATION = "NLRTM"
SPEED_KN = 18.0
#: High enough that no benchmark request is rate limited.
RATE_LIMIT_PER_MINUTE = "10000000"
CLIENTS = 32
#: Connections of the port look-ups that run beside the voyage loop (Table 4).
MIXED_CLIENTS = 8
#: Upper bound on the requests of one throughput run, whatever its duration.
MAX_REQUESTS = 200_000
READY_TIMEOUT_S = 60.0
TARGET_RATIO = 2.0
#: Table 5 (issue 29): Hong Kong -> Jebel Ali at 18 kn, about 16,400 positions (1.95 MB of JSON),
#: the size of the issue's measurement; HTTP with httpx as it comes (gzip) at most 3x the library.
FP_START = (113.9, 22.3)
FP_PREVIOUS = "HKHKG"
FP_DESTINATION = "AEJEA"
FP_TARGET_RATIO = 3.0
#: Prefix of the rows of the server of ``--before-src`` in Table 5.
BEFORE = "before: "
#: The series the target applies to: the service's own cost, without a client's decoding work.
TARGET_SERIES = ("http.client", "identity")
PACKAGES = ["sealane", "fastapi", "starlette", "uvicorn", "h11", "httptools", "uvloop"]
PACKAGES += ["httpx", "httpcore", "anyio", "orjson", "sqlalchemy", "numpy", "isal"]
#: gzip's ``wbits`` for zlib and ISA-L (de)compressors.
GZIP_WBITS = 16 + zlib.MAX_WBITS
#: The two HTTP clients: httpx (decoding gzip with zlib) and the standard library's http.client
#: reading a plain body in one go into a buffer it keeps, and a gzip one in 1 MiB pieces
#: inflated with ISA-L.
CLIENT_NAMES = ("httpx", "http.client")


@dataclass(frozen=True)
class Service:
    """A running ``sealane serve`` with a routing-enabled key and one vessel."""

    base_url: str
    key: str
    vessel_id: str
    pid: int
    #: The vessel of Table 5 (at :data:`FP_START`).
    fp_vessel_id: str = ""

    @property
    def auth(self) -> dict[str, str]:
        """The ``Authorization`` header of the benchmark account."""
        return {"Authorization": f"Token {self.key}"}


@dataclass(frozen=True)
class Fetch:
    """One timed HTTP request: total and time to headers, status, sizes and position count, with
    the server process's CPU time and page faults during it (None where /proc is missing)."""

    total_ms: float
    headers_ms: float
    status: int
    encoding: str
    wire_bytes: int
    body_bytes: int
    positions: int
    server_cpu_ms: float | None = None
    server_faults: int | None = None


@dataclass
class Load:
    """The outcome of one concurrent throughput run."""

    label: str
    started: int = 0
    elapsed_s: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)

    @property
    def completed(self) -> int:
        """Requests that got a response, whatever its status."""
        return sum(self.statuses.values())

    @property
    def lost(self) -> int:
        """Requests started but neither answered nor failed (should be 0)."""
        return self.started - self.completed - sum(self.errors.values())


@dataclass(frozen=True)
class Wrk:
    """The figures parsed from one ``wrk --latency`` run, with its summary lines."""

    label: str
    requests: int
    seconds: float
    per_s: float
    p50_ms: float | None
    p99_ms: float | None
    non_2xx: int
    socket_errors: int
    summary: list[str]


# --- set-up -------------------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def create_account(database_url: str) -> str:
    """A routing-enabled account made with ``sealane accounts create``; returns its key."""
    command = [str(SEALANE), "accounts", "create", "bench", "--routing"]
    done = subprocess.run(
        [*command, "--database", database_url], capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def add_vessel(database_url: str, start: tuple[float, float] = START, number: int = 1) -> str:
    """Insert benchmark vessel ``number`` (18 kn, at ``start``); returns its id."""
    engine = make_engine(database_url)
    try:
        upgrade(engine)
        with transaction(session_factory(engine)) as session:
            vessel = Vessel(
                name=f"Bench Voyager {number}",
                imo=f"990000{number}",
                mmsi=f"63600000{number}",
                latitude=start[1],
                longitude=start[0],
                nautical_speed_knots=SPEED_KN,
            )
            session.add(vessel)
            session.flush()
            vessel_id = vessel.id
    finally:
        engine.dispose()
    return vessel_id


def start_server(
    database_url: str, port: int, log: Path, source: str | None = None
) -> subprocess.Popen[bytes]:
    """``sealane serve`` on 127.0.0.1:``port`` without rate limiting, logging to ``log``; with
    ``source``, the sealane of that ``src`` directory (on ``PYTHONPATH``)."""
    env = dict(os.environ, SEALANE_RATE_LIMIT_PER_MINUTE=RATE_LIMIT_PER_MINUTE)
    if source is not None:
        env["PYTHONPATH"] = source
    command = [str(SEALANE), "serve", "--host", HOST, "--port", str(port)]
    command += ["--database", database_url, "--log-level", "warning"]
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)


def wait_ready(process: subprocess.Popen[bytes], base_url: str, log: Path) -> float:
    """Seconds until ``/v2/openapi.json`` answers 200; raises if the server exits or stalls."""
    start = time.perf_counter()
    while time.perf_counter() - start < READY_TIMEOUT_S:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{base_url}/openapi.json", timeout=2.0).status_code == 200:
                return time.perf_counter() - start
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server not ready after {READY_TIMEOUT_S:g} s:\n{log.read_text()}")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Terminate the server and wait for it, killing it if it does not stop in 10 s."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def running_service(source: str | None = None) -> Iterator[Service]:
    """A fresh database, account, vessel and server for the duration of the ``with`` block
    (the server of another checkout's ``src`` directory with ``source``)."""
    with tempfile.TemporaryDirectory(prefix="sealane-bench-") as tmp:
        database_url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        key = create_account(database_url)
        vessel_id = add_vessel(database_url)
        fp_vessel_id = add_vessel(database_url, FP_START, number=2)
        port, log = free_port(), Path(tmp) / "server.log"
        base_url = f"http://{HOST}:{port}/v2"
        process = start_server(database_url, port, log, source)
        try:
            ready_s = wait_ready(process, base_url, log)
            print(f"server  : pid {process.pid} on {base_url}, ready after {ready_s:.1f} s\n")
            yield Service(base_url, key, vessel_id, process.pid, fp_vessel_id)
        finally:
            stop_server(process)


# --- statistics ---------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (linear interpolation)."""
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def samples_ms(fn: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of ``repeat`` calls of ``fn`` after one untimed warm-up call."""
    fn()
    return [timed_s(fn) * 1e3 for _ in range(repeat)]


def ratio(numerator: float, denominator: float) -> str:
    """``numerator / denominator`` with two decimals."""
    return fmt(numerator / denominator, 2)


def verdict(ok: bool) -> str:
    """'met' or 'NOT met'."""
    return "met" if ok else "NOT met"


# --- the 25-day voyage --------------------------------------------------------------------------


def sail() -> Positions:
    """The voyage as the endpoint computes it: ports from the registry, starting now."""
    return future_positions(
        START,
        get_port(PREVIOUS),
        get_port(DESTINATION),
        speed_kn=SPEED_KN,
        start_time=datetime.now(UTC),
    )


def voyage_params() -> dict[str, str]:
    """Query parameters of the future-positions request."""
    return {
        "port_id": DESTINATION,
        "previous_port_id": PREVIOUS,
        "latitude": str(START[1]),
        "longitude": str(START[0]),
    }


def position_count(body: bytes | memoryview) -> int:
    """The number of positions in a future-positions document."""
    doc: dict[str, Any] = orjson.loads(body)
    return len(doc["data"]["attributes"]["positions"])


def server_usage(pid: int) -> tuple[float, int] | None:
    """CPU milliseconds (all threads) and minor page faults of process ``pid`` so far (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            faults = int(stat.read().rsplit(")", 1)[1].split()[7])
        cpu_ns = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                cpu_ns += int(schedstat.read().split()[0])
    except (OSError, IndexError, ValueError):
        return None
    return cpu_ns / 1e6, faults


def with_usage(result: Fetch, before: tuple[float, int] | None, pid: int) -> Fetch:
    """``result`` with the server's CPU time and page faults since ``before``."""
    after = server_usage(pid)
    if before is None or after is None:
        return result
    cpu_ms, faults = after[0] - before[0], after[1] - before[1]
    return replace(result, server_cpu_ms=cpu_ms, server_faults=faults)


def fetch_httpx(client: httpx.Client, url: str, accept_encoding: str) -> tuple[Fetch, bytes]:
    """One timed GET of ``url`` with httpx (headers, then the decoded body), with the body."""
    params, headers = voyage_params(), {"Accept-Encoding": accept_encoding}
    start = time.perf_counter()
    with client.stream("GET", url, params=params, headers=headers) as response:
        headers_at = time.perf_counter()
        body = response.read()
        end = time.perf_counter()
        wire = response.num_bytes_downloaded
    return voyage_fetch(
        start, headers_at, end, response.status_code, response.headers, wire, body
    ), body


class ReceiveBuffer:
    """One buffer that every plain body is read into, grown when a body is larger.

    Reading each 4 MB body into fresh memory cost about 1,000 page faults (2-3 ms) per request
    whenever the allocator had handed the previous one back to the kernel, which it did once
    httpx's requests ran in the same process: a cost of this client's allocator, not of the
    server, so the efficient client keeps its buffer, as wrk does.
    """

    def __init__(self) -> None:
        self.data = bytearray()

    def read(self, response: http.client.HTTPResponse) -> memoryview:
        """The whole body of ``response`` (which has a ``Content-Length``), valid until the
        next read."""
        size = response.length or 0
        if len(self.data) < size:
            self.data = bytearray(size)
        view = memoryview(self.data)[:size]
        done = 0
        while done < size:
            got = response.readinto(view[done:])
            if not got:
                raise http.client.IncompleteRead(bytes(view[:done]), size - done)
            done += got
        return view


def fetch_stdlib(
    connection: http.client.HTTPConnection,
    target: str,
    headers: dict[str, str],
    buffer: ReceiveBuffer,
) -> tuple[Fetch, bytes | memoryview]:
    """One timed GET of ``target`` with http.client: a plain body read in one go into
    ``buffer``, a gzip one read in 1 MiB pieces and inflated with ISA-L piece by piece as it
    arrives."""
    start = time.perf_counter()
    connection.request("GET", target, headers=headers)
    response = connection.getresponse()
    headers_at = time.perf_counter()
    body: bytes | memoryview
    if response.getheader("content-encoding") == "gzip":
        inflate = isal_zlib.decompressobj(GZIP_WBITS)
        pieces, wire = [], 0
        while piece := response.read1(1 << 20):
            wire += len(piece)
            pieces.append(inflate.decompress(piece))
        response.read()  # marks the response complete, so the connection is reused
        body = b"".join(pieces)
    elif response.length is not None:  # Content-Length bytes into the buffer, no pieces to join
        body = buffer.read(response)
        wire = len(body)
    else:
        body = response.read()
        wire = len(body)
    end = time.perf_counter()
    return voyage_fetch(start, headers_at, end, response.status, response.headers, wire, body), body


def voyage_fetch(
    start: float,
    headers_at: float,
    end: float,
    status: int,
    headers: Any,
    wire: int,
    body: bytes | memoryview,
) -> Fetch:
    """A :class:`Fetch` from the timestamps and response of one request."""
    return Fetch(
        total_ms=(end - start) * 1e3,
        headers_ms=(headers_at - start) * 1e3,
        status=status,
        encoding=headers.get("content-encoding", "identity"),
        wire_bytes=wire,
        body_bytes=len(body),
        positions=position_count(body) if status == 200 else -1,
    )


@dataclass
class Series:
    """The timed requests of one client and one ``Accept-Encoding``."""

    client: str
    encoding: str
    fetches: list[Fetch] = field(default_factory=list)

    @property
    def label(self) -> str:
        """'HTTP <client>, Accept-Encoding: <encoding>'."""
        return f"HTTP {self.client}, Accept-Encoding: {self.encoding}"


@dataclass(frozen=True)
class VoyageRun:
    """Library and HTTP samples of the voyage, with the body of an uncompressed response."""

    positions: Positions
    library_ms: list[float]
    positions_only_ms: list[float]
    series: list[Series]
    body: bytes
    #: The library call timed once per round between the requests (caches as the server has them).
    library_between_ms: list[float] = field(default_factory=list)
    #: The two calls right after that one, back to back: the baseline, timed in the same minutes
    #: as the requests (the dev VM's CPU speed drifts by up to 2x from one minute to the next).
    library_rounds_ms: list[float] = field(default_factory=list)

    @property
    def baseline_ms(self) -> float:
        """p50 of the library call alone, back to back, in the rounds (the target's baseline)."""
        return percentile(self.library_rounds_ms or self.library_ms, 50)

    def of(self, client: str, encoding: str) -> list[Fetch]:
        """The fetches of ``client`` with ``encoding``."""
        return next(s.fetches for s in self.series if (s.client, s.encoding) == (client, encoding))


def run_voyage(service: Service, repeat: int) -> VoyageRun:
    """Time the library call in this process, then the endpoint with both clients, without and
    with gzip, interleaved: each round makes one request of each kind, after one untimed round,
    then three library calls: the first finds the caches as the server's own call does, the other
    two are back to back, as the target means (the first measured 30-40 % slower on the 2-CPU dev
    machine: the server's work in between leaves the caches cold).
    """
    url = f"{service.base_url}/vessels/{service.vessel_id}/future_positions_with_coordinates"
    target = httpx.URL(url, params=voyage_params()).raw_path.decode()
    port = httpx.URL(url).port
    series = [Series(c, e) for c in CLIENT_NAMES for e in ("identity", "gzip")]
    library = samples_ms(lambda: positions_json(sail()), repeat)
    positions_only = samples_ms(sail, repeat)
    between: list[float] = []
    rounds: list[float] = []
    body = b""
    with httpx.Client(headers=service.auth, timeout=120.0) as client:
        connection = http.client.HTTPConnection(HOST, port, timeout=120.0)
        buffer = ReceiveBuffer()
        try:
            for round_ in range(repeat + 1):
                for one in series:
                    headers = {**service.auth, "Accept-Encoding": one.encoding}
                    before = server_usage(service.pid)
                    got: bytes | memoryview
                    if one.client == "httpx":
                        result, got = fetch_httpx(client, url, one.encoding)
                    else:
                        result, got = fetch_stdlib(connection, target, headers, buffer)
                    if round_:
                        one.fetches.append(with_usage(result, before, service.pid))
                    if (one.client, one.encoding) == ("httpx", "identity"):
                        body = bytes(got)  # httpx's own bytes, not a view of the buffer
                if round_:
                    between.append(timed_s(lambda: positions_json(sail())) * 1e3)
                    rounds += [timed_s(lambda: positions_json(sail())) * 1e3 for _ in range(2)]
        finally:
            connection.close()
    return VoyageRun(sail(), library, positions_only, series, body, between, rounds)


def http_checks(run: VoyageRun) -> tuple[bool, str]:
    """Whether every response was a 200 with the expected count and encoding, and a summary."""
    expected = len(run.positions)
    problems = []
    for one in run.series:
        statuses = Counter(f.status for f in one.fetches)
        counts = Counter(f.positions for f in one.fetches)
        encodings = Counter(f.encoding for f in one.fetches)
        if set(statuses) != {200} or set(counts) != {expected} or set(encodings) != {one.encoding}:
            problems.append(f"{one.label}: statuses {dict(statuses)}, counts {dict(counts)}")
    if problems:
        return False, "; ".join(problems)
    total = sum(len(one.fetches) for one in run.series)
    return True, f"all {total} responses 200 with {expected:,} positions and the expected encoding"


def print_voyage(run: VoyageRun) -> None:
    """The latency table of the voyage, with sizes and the target ratios."""
    positions = run.positions
    days = (positions.eta - positions.start_time).total_seconds() / 86400
    lib_p50 = run.baseline_ms
    rows = [
        library_row(
            "library future_positions(), before the rounds", run.positions_only_ms, lib_p50
        ),
        library_row("  + positions_json(), before the rounds", run.library_ms, lib_p50),
        library_row(
            "  + positions_json(), back to back in the rounds", run.library_rounds_ms, lib_p50
        ),
        library_row(
            "  + positions_json(), first call after the requests", run.library_between_ms, lib_p50
        ),
    ]
    rows += [http_row(one.label, one.fetches, lib_p50) for one in run.series]
    headers = ["call", "p50 ms", "p99 ms", "headers p50", "body p50", "wire MB", "x library"]
    calls = len(run.library_ms)
    title = (
        f"Table 1: {PREVIOUS} -> {DESTINATION} from {START} at {SPEED_KN:g} kn: "
        f"{days:.1f} days, {len(positions):,} positions, {calls} calls each"
    )
    print(render_table(title, headers, rows))
    print(
        "httpx decodes gzip with zlib; http.client reads a plain body in one go into a buffer\n"
        "it keeps, and a gzip one in 1 MiB pieces that it inflates with ISA-L as they arrive\n"
        "(what an efficient Python client does). The library is timed alone and back to back\n"
        "before the rounds; then each round makes one request of each kind, so noise hits all\n"
        "alike, and three library calls: the first finds the caches as the server's own call\n"
        "does, the next two run back to back. Those two are the target's baseline ('x library'):\n"
        "the library call alone, timed in the same minutes as the requests.\n"
    )
    ok, summary = http_checks(run)
    print(f"responses: {summary}" if ok else f"responses: PROBLEM: {summary}")
    plain, gzipped = run.of("httpx", "identity")[0], run.of("httpx", "gzip")[0]
    print(
        f"sizes    : positions JSON {len(positions_json(positions)):,} B; document "
        f"{plain.body_bytes:,} B uncompressed, {gzipped.wire_bytes:,} B gzip "
        f"({gzipped.wire_bytes / plain.body_bytes:.1%})"
    )
    p50s = [(one, percentile([f.total_ms for f in one.fetches], 50)) for one in run.series]
    targets, others = [], []
    for one, p50 in p50s:
        value = p50 / lib_p50
        if (one.client, one.encoding) == TARGET_SERIES:
            check = f"HTTP p50 ({one.client}, {one.encoding}) / library p50"
            status = verdict(value <= TARGET_RATIO)
            targets.append([check, fmt(value, 2), f"<= {TARGET_RATIO:g}", status])
        else:
            others.append([f"HTTP p50 ({one.client}, {one.encoding}) / library p50", fmt(value, 2)])
    check = "every response 200, count matches"
    targets.append([check, "yes" if ok else "no", "yes", verdict(ok)])
    print()
    print(render_table("Targets", ["check", "value", "target", "status"], targets))
    before = percentile(run.library_ms, 50)
    ratios = ", ".join(f"{one.client} {one.encoding} {p50 / before:.2f}" for one, p50 in p50s)
    print(f"against the library block timed before the rounds ({before:.2f} ms): {ratios}\n")
    print(
        render_table(
            "Other clients and encodings (reported, no target)", ["series", "x library"], others
        )
    )
    print(
        "The target measures the service's own cost: one efficient client, no content coding.\n"
        "gzip adds work the library call does not do, a deflate in the server and an inflate in\n"
        "the client, together about as long as the library call itself (Table 2); httpx spends\n"
        "several milliseconds of its own reading and joining a 4 MB body. Both share this\n"
        "machine's two CPUs with the server; neither came within 2x in the runs of 2026-11-22.\n"
    )


def library_row(label: str, values: list[float], lib_p50: float) -> list[str]:
    """A Table 1 row for an in-process call."""
    p50 = percentile(values, 50)
    return [label, fmt_ms(p50), fmt_ms(percentile(values, 99)), "-", "-", "-", ratio(p50, lib_p50)]


def http_row(label: str, fetches: list[Fetch], lib_p50: float) -> list[str]:
    """A Table 1 row for HTTP requests."""
    totals = [f.total_ms for f in fetches]
    p50 = percentile(totals, 50)
    return [
        label,
        fmt_ms(p50),
        fmt_ms(percentile(totals, 99)),
        fmt_ms(percentile([f.headers_ms for f in fetches], 50)),
        fmt_ms(percentile([f.total_ms - f.headers_ms for f in fetches], 50)),
        fmt(fetches[0].wire_bytes / 1e6, 2),
        ratio(p50, lib_p50),
    ]


# --- where the time goes ------------------------------------------------------------------------


def gzip_isal(body: bytes) -> bytes:
    """``body`` compressed as the server's gzip middleware does (ISA-L level 1)."""
    return isal_zlib.compress(body, 1, GZIP_WBITS)


def gzip_zlib(body: bytes) -> bytes:
    """``body`` compressed with zlib level 1 (Starlette's GZipMiddleware, before ISA-L)."""
    compressor = zlib.compressobj(1, zlib.DEFLATED, GZIP_WBITS)
    return compressor.compress(body) + compressor.flush()


def gunzip_zlib(data: bytes) -> bytes:
    """``data`` decompressed as httpx's gzip decoder does (zlib)."""
    decompressor = zlib.decompressobj(GZIP_WBITS)
    return decompressor.decompress(data) + decompressor.flush()


def gunzip_isal(data: bytes) -> bytes:
    """``data`` decompressed with ISA-L, as the http.client series does."""
    return isal_zlib.decompressobj(GZIP_WBITS).decompress(data)


def envelope() -> list[bytes]:
    """The endpoint's document around the positions: orjson, split at the positions' slot."""
    slot = "__sealane_positions__"
    doc = {"data": {"id": "x", "type": "vessel", "attributes": {"positions": slot}}}
    return orjson.dumps(doc).split(orjson.dumps(slot), 1)


def step_times(run: VoyageRun, repeat: int) -> dict[str, float]:
    """p50 milliseconds of the in-process steps on the HTTP path."""
    compressed = gzip_isal(run.body)
    steps: dict[str, Callable[[], object]] = {
        "future_positions()": sail,
        "positions_json(positions)": partial(positions_json, run.positions),
        "envelope": envelope,
        "gzip": lambda: gzip_isal(run.body),
        "gzip zlib": lambda: gzip_zlib(run.body),
        "gunzip zlib": lambda: gunzip_zlib(compressed),
        "gunzip isal": lambda: gunzip_isal(compressed),
        "orjson.loads": lambda: orjson.loads(run.body),
    }
    return {name: percentile(samples_ms(fn, repeat), 50) for name, fn in steps.items()}


def print_breakdown(run: VoyageRun, repeat: int) -> None:
    """In-process costs of the steps on the HTTP path, against the measured HTTP phases."""
    ms = step_times(run, repeat)
    compute = ms["future_positions()"] + ms["positions_json(positions)"] + ms["envelope"]
    rows = [
        ["server: future_positions()", fmt_ms(ms["future_positions()"]), "all"],
        ["server: positions_json(positions)", fmt_ms(ms["positions_json(positions)"]), "all"],
        ["server: envelope (orjson, split at the slot)", fmt_ms(ms["envelope"]), "all"],
        ["server: gzip, ISA-L level 1, of the document", fmt_ms(ms["gzip"]), "gzip"],
        ["  (zlib level 1, as before ISA-L)", fmt_ms(ms["gzip zlib"]), "-"],
        ["client: gunzip with zlib (httpx)", fmt_ms(ms["gunzip zlib"]), "httpx gzip"],
        ["client: gunzip with ISA-L (http.client)", fmt_ms(ms["gunzip isal"]), "http.client gzip"],
        ["client: orjson.loads of the document", fmt_ms(ms["orjson.loads"]), "neither"],
    ]
    for one in run.series:
        gzipped = one.encoding == "gzip"
        server = ms["gzip"] if gzipped else 0.0
        client = (ms["gunzip zlib"] if one.client == "httpx" else ms["gunzip isal"]) * gzipped
        rows += phase_rows(one, compute + server, client)
    title = "Table 2: where the time goes (p50 ms; steps timed alone in this process)"
    print(render_table(title, ["step", "p50 ms", "in HTTP"], rows))
    print(
        "The voyage is made in one trip to the server's thread pool, which deflates its first\n"
        "32 KiB at once, then the rest in 512 KiB pieces, each handed to the event loop as soon\n"
        "as it is deflated, so the client inflates one while the server makes the next\n"
        "('-> headers' then covers the server's work before the first piece). 'not the\n"
        "steps above' is the phase minus the in-process step times: HTTP parsing, middleware,\n"
        "the key and vessel look-ups, the hand-offs between the event loop and the thread pool,\n"
        "and the loopback transfer. Server CPU is all its threads' (kernel time of the sends\n"
        "included), per request.\n"
    )


def phase_rows(one: Series, server_ms: float, client_ms: float) -> list[list[str]]:
    """Table 2 rows for the phases of one series, net of the in-process step times."""
    fetches = one.fetches
    label = f"{one.client} {one.encoding}"
    headers = percentile([f.headers_ms for f in fetches], 50)
    body = percentile([f.total_ms - f.headers_ms for f in fetches], 50)
    rows = [
        ["HTTP: request sent -> headers received", fmt_ms(headers), label],
        ["HTTP: headers -> body read (and decoded)", fmt_ms(body), label],
        ["  total, not the steps above", fmt_ms(headers + body - server_ms - client_ms), label],
    ]
    cpu = [f.server_cpu_ms for f in fetches if f.server_cpu_ms is not None]
    faults = [f.server_faults for f in fetches if f.server_faults is not None]
    if cpu and faults:
        usage = f"{percentile(cpu, 50):.1f} ({percentile(faults, 50):,.0f})"
        rows.append(["server CPU ms (page faults) per request", usage, label])
    return rows


# --- throughput ---------------------------------------------------------------------------------


async def worker(client: httpx.AsyncClient, url: str, deadline: float, load: Load) -> None:
    """Send requests back to back until ``deadline``, recording each outcome in ``load``."""
    while time.perf_counter() < deadline and load.started < MAX_REQUESTS:
        load.started += 1
        start = time.perf_counter()
        try:
            response = await client.get(url)
        except httpx.HTTPError as error:
            load.errors[type(error).__name__] += 1
            continue
        load.latencies_ms.append((time.perf_counter() - start) * 1e3)
        load.statuses[response.status_code] += 1


async def run_load(
    service: Service, label: str, path: str, duration_s: float, clients: int = CLIENTS
) -> Load:
    """``clients`` concurrent keep-alive clients on ``path`` for ``duration_s`` seconds."""
    load = Load(label)
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    url = f"{service.base_url}{path}"
    async with httpx.AsyncClient(headers=service.auth, limits=limits, timeout=30.0) as client:
        warm = await asyncio.gather(*(client.get(url) for _ in range(clients * 2)))
        if any(response.status_code != 200 for response in warm):
            raise RuntimeError(f"warm-up of {url} answered {Counter(r.status_code for r in warm)}")
        start = time.perf_counter()
        deadline = start + duration_s
        await asyncio.gather(*(worker(client, url, deadline, load) for _ in range(clients)))
        load.elapsed_s = time.perf_counter() - start
    return load


_UNITS_MS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def wrk_ms(text: str) -> float:
    """A wrk duration such as '1.23ms' in milliseconds."""
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if match is None:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match[1]) * _UNITS_MS[match[2]]


def run_wrk(
    service: Service, label: str, path: str, duration_s: float, clients: int = CLIENTS
) -> Wrk:
    """``wrk -t2 -c<clients> --latency`` on ``path`` for ``duration_s`` seconds, parsed."""
    url = f"{service.base_url}{path}"
    command = ["wrk", "-t2", f"-c{clients}", f"-d{max(1, round(duration_s))}s", "--latency"]
    command += ["-H", f"Authorization: Token {service.key}", url]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    done = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m),", out)
    per_s = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if done is None or per_s is None:
        raise RuntimeError(f"unexpected wrk output:\n{out}")
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.MULTILINE)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.MULTILINE)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_pattern = r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)"
    sockets = re.search(socket_pattern, out)
    keep = ("requests in", "Requests/sec", "Non-2xx", "Socket errors")
    return Wrk(
        label=label,
        requests=int(done[1]),
        seconds=wrk_ms(done[2] + done[3]) / 1e3,
        per_s=float(per_s[1]),
        p50_ms=wrk_ms(p50[1]) if p50 else None,
        p99_ms=wrk_ms(p99[1]) if p99 else None,
        non_2xx=int(non_2xx[1]) if non_2xx else 0,
        socket_errors=sum(int(n) for n in sockets.groups()) if sockets else 0,
        summary=[line.strip() for line in out.splitlines() if any(k in line for k in keep)],
    )


def wrk_version() -> str | None:
    """wrk's version line, or None when wrk is not on PATH."""
    if shutil.which("wrk") is None:
        return None
    done = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
    return (done.stdout or done.stderr).strip().splitlines()[0]


def load_row(load: Load) -> list[str]:
    """A Table 3 row for an httpx run."""
    lat = load.latencies_ms
    non_200 = load.completed - load.statuses[200]
    return [
        load.label,
        fmt(load.completed),
        fmt(load.elapsed_s, 1),
        fmt(load.completed / load.elapsed_s, 0),
        fmt_ms(percentile(lat, 50)) if lat else "-",
        fmt_ms(percentile(lat, 99)) if lat else "-",
        fmt(non_200),
        fmt(sum(load.errors.values()) + load.lost),
    ]


def wrk_row(run: Wrk) -> list[str]:
    """A Table 3 row for a wrk run."""
    return [
        run.label,
        fmt(run.requests),
        fmt(run.seconds, 1),
        fmt(run.per_s, 0),
        fmt_ms(run.p50_ms),
        fmt_ms(run.p99_ms),
        fmt(run.non_2xx),
        fmt(run.socket_errors),
    ]


def lost_requests(run: Load | Wrk) -> int:
    """Requests of a load run that did not get a 200 (other statuses and transport errors)."""
    if isinstance(run, Wrk):
        return run.non_2xx + run.socket_errors
    return run.completed - run.statuses[200] + sum(run.errors.values()) + run.lost


def run_throughput(service: Service, duration_s: float) -> None:
    """Port look-ups by uuid and by LOCODE with httpx, then wrk when it is available."""
    paths = [("uuid", f"/ports/{get_port(DESTINATION).id}"), ("LOCODE", f"/ports/{DESTINATION}")]
    loads = [
        asyncio.run(run_load(service, f"httpx async, by {name}", path, duration_s))
        for name, path in paths
    ]
    rows = [load_row(load) for load in loads]
    wrk_runs: list[Wrk] = []
    if shutil.which("wrk"):
        wrk_runs = [run_wrk(service, f"wrk -t2, by {n}", path, duration_s) for n, path in paths]
        rows += [wrk_row(run) for run in wrk_runs]
    headers = ["client", "requests", "s", "req/s", "p50 ms", "p99 ms", "non-200", "errors"]
    title = f"Table 3: GET /v2/ports/{{id}} with {CLIENTS} concurrent keep-alive connections"
    print(render_table(title, headers, rows))
    for load in loads:
        statuses = ", ".join(f"{code}: {n:,}" for code, n in sorted(load.statuses.items()))
        errors = ", ".join(f"{name}: {n}" for name, n in load.errors.items()) or "none"
        print(f"{load.label}: status counts {statuses}; transport errors {errors}")
    for run in wrk_runs:
        print(f"{run.label}: " + " | ".join(run.summary))
    if not shutil.which("wrk"):
        print("wrk: not on PATH (apt-get install wrk); only the httpx figures are shown")
    runs: list[Load | Wrk] = [*loads, *wrk_runs]
    lost = sum(lost_requests(run) for run in runs)
    print(f"zero requests lost (non-200 + transport errors = 0): {verdict(lost == 0)} ({lost})\n")


# --- mixed load ---------------------------------------------------------------------------------


@dataclass
class VoyageLoop:
    """The voyage requested back to back on one connection while another load runs."""

    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)


def loop_voyage(service: Service, stop: threading.Event, into: VoyageLoop) -> None:
    """Request the voyage (identity, http.client) until ``stop`` is set, recording into ``into``."""
    url = f"{service.base_url}/vessels/{service.vessel_id}/future_positions_with_coordinates"
    target = httpx.URL(url, params=voyage_params()).raw_path.decode()
    connection = http.client.HTTPConnection(HOST, httpx.URL(url).port, timeout=120.0)
    headers = {**service.auth, "Accept-Encoding": "identity"}
    buffer = ReceiveBuffer()
    try:
        while not stop.is_set():
            start = time.perf_counter()
            connection.request("GET", target, headers=headers)
            response = connection.getresponse()
            if response.length is not None:
                buffer.read(response)
            else:
                response.read()
            into.latencies_ms.append((time.perf_counter() - start) * 1e3)
            into.statuses[response.status] += 1
    finally:
        connection.close()


def run_mixed(service: Service, duration_s: float) -> None:
    """Port look-ups (as in Table 3, by LOCODE) while one client loops on the 25-day voyage:
    whether the computation leaves the event loop free for the small requests."""
    path = f"/ports/{DESTINATION}"
    rows, lost = [], 0
    clients = MIXED_CLIENTS
    runs: list[Callable[[], Load | Wrk]] = [
        lambda: asyncio.run(run_load(service, "httpx async", path, duration_s, clients))
    ]
    if shutil.which("wrk"):
        runs.append(lambda: run_wrk(service, "wrk -t2", path, duration_s, clients))
    for run in runs:
        stop, voyage = threading.Event(), VoyageLoop()
        looping = threading.Thread(target=loop_voyage, args=(service, stop, voyage), daemon=True)
        looping.start()
        try:
            ports = run()
        finally:
            stop.set()
            looping.join()
        row = load_row(ports) if isinstance(ports, Load) else wrk_row(ports)
        lat = voyage.latencies_ms
        row += [fmt(len(lat)), fmt_ms(percentile(lat, 50)) if lat else "-"]
        rows.append(row)
        lost += lost_requests(ports) + voyage.statuses.total() - voyage.statuses[200]
    headers = ["ports client", "requests", "s", "req/s", "p50 ms", "p99 ms", "non-200", "errors"]
    headers += ["voyages", "voyage p50 ms"]
    title = (
        f"Table 4: GET /v2/ports/{DESTINATION} ({MIXED_CLIENTS} connections) while one client "
        "loops on the 25-day voyage"
    )
    print(render_table(title, headers, rows))
    print(
        "Set against Table 3: the voyage is computed in the server's thread pool, so the event\n"
        "loop keeps answering the small requests meanwhile; the two loads share the CPUs.\n"
        f"zero requests lost under the mixed load: {verdict(lost == 0)} ({lost})\n"
    )


# --- future positions at the size (Table 5) -------------------------------------------


def fp_library() -> bytes:
    """Table 5's library call with its JSON, as the endpoint makes it: ports from the registry,
    starting now."""
    start_time = datetime.now(UTC)
    previous, destination = get_port(FP_PREVIOUS), get_port(FP_DESTINATION)
    voyage = future_positions(
        FP_START, previous, destination, speed_kn=SPEED_KN, start_time=start_time
    )
    return positions_json(voyage)


def fp_requests(service: Service) -> dict[str, tuple[str, dict[str, str]]]:
    """The two operations of Table 5: URL and query of each."""
    ports = {"port_id": FP_DESTINATION, "previous_port_id": FP_PREVIOUS}
    here = {"latitude": str(FP_START[1]), "longitude": str(FP_START[0])}
    base = f"{service.base_url}/vessels/{service.fp_vessel_id}"
    return {
        "future_positions": (f"{base}/future_positions", ports),
        "future_positions_with_coordinates": (
            f"{base}/future_positions_with_coordinates",
            ports | here,
        ),
    }


def replay_server(answer: bytes) -> tuple[int, Callable[[], None]]:
    """A minimal HTTP/1.1 server in a child process sending the same recorded ``answer`` to every
    request of a keep-alive connection: what a client costs alone. Returns its port and a stop."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind((HOST, 0))
    listener.listen()
    port: int = listener.getsockname()[1]
    pid = os.fork()
    if pid == 0:  # the child: answer until killed
        try:
            while True:
                connection, _ = listener.accept()
                with connection, connection.makefile("rb") as requests:
                    while requests.readline():
                        while requests.readline() not in (b"\r\n", b""):
                            pass
                        connection.sendall(answer)
        finally:
            os._exit(0)
    listener.close()

    def stop() -> None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)

    return port, stop


def recorded_answer(service: Service) -> bytes:
    """The future_positions answer as the server sent it (status, headers, chunked gzip body)."""
    url, params = fp_requests(service)["future_positions"]
    target = httpx.URL(url, params=params).raw_path.decode()
    connection = http.client.HTTPConnection(HOST, httpx.URL(url).port, timeout=120.0)
    try:
        connection.request("GET", target, headers={**service.auth, "Accept-Encoding": "gzip"})
        response = connection.getresponse()
        pieces = []
        while piece := response.read1(1 << 16):
            pieces.append(b"%x\r\n%s\r\n" % (len(piece), piece))
    finally:
        connection.close()
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/vnd.api+json\r\n"
    head += b"content-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n"
    return head + b"".join(pieces) + b"0\r\n\r\n"


def run_fp(
    service: Service, rounds: int, before: Service | None = None
) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, list[float]]]:
    """Milliseconds per call: the library call with its JSON, and each operation over HTTP with
    one keep-alive ``httpx.Client`` sending its own default headers (``Accept-Encoding: gzip,
    deflate``), each response read and decoded in full (with the time to its headers). Every
    round times one of each, library first, then the requests, each round starting from the
    next one, so that the machine's drift hits all alike; one untimed round first. ``before`` is
    a server of other code, asked the same in each round. Also the server's CPU milliseconds
    (all its threads) during each request, read from /proc outside the timed part."""
    requests = fp_requests(service)
    pids = dict.fromkeys(requests, service.pid)
    if before is not None:
        requests |= {f"{BEFORE}{k}": v for k, v in fp_requests(before).items()}
        pids |= dict.fromkeys((f"{BEFORE}{k}" for k in fp_requests(before)), before.pid)
    cpu_ms: dict[str, list[float]] = {name: [] for name in pids}
    times: dict[str, list[float]] = {"library": [], **{name: [] for name in requests}}
    headers_at: dict[str, list[float]] = {name: [] for name in requests}
    times["client alone"], headers_at["client alone"] = [], []
    replay_port, stop_replay = replay_server(recorded_answer(service))
    requests["client alone"] = (f"http://{HOST}:{replay_port}/", {})
    expected = len(orjson.loads(b'{"p":' + fp_library() + b"}")["p"])
    keys = {before.base_url: before.auth} if before is not None else {}
    with httpx.Client(headers=service.auth, timeout=120.0) as client, _stopping(stop_replay):
        for round_ in range(rounds + 1):
            timed = {"library": timed_s(fp_library) * 1e3}
            order = list(requests.items())
            shift = round_ % len(order)  # each operation first in turn: no place is favoured
            for name, (url, params) in order[shift:] + order[:shift]:
                pid = pids.get(name)
                used = server_usage(pid) if pid is not None else None
                start = time.perf_counter()
                headers = next((h for b, h in keys.items() if url.startswith(b)), None)
                with client.stream("GET", url, params=params, headers=headers) as response:
                    first = time.perf_counter()
                    body = response.read()
                timed[name] = (time.perf_counter() - start) * 1e3
                if round_:
                    headers_at[name].append((first - start) * 1e3)
                now_used = server_usage(pid) if pid is not None else None
                if round_ and used is not None and now_used is not None:
                    cpu_ms[name].append(now_used[0] - used[0])
                encoding = response.headers.get("content-encoding")
                if response.status_code != 200 or encoding != "gzip":
                    raise RuntimeError(f"{name}: {response.status_code} {encoding}: {body[:300]!r}")
                if round_ == 0 and position_count(body) != expected:
                    raise RuntimeError(f"{name}: {position_count(body)} positions, not {expected}")
            if round_:
                for name, value in timed.items():
                    times[name].append(value)
    return times, headers_at, cpu_ms


@contextmanager
def _stopping(stop: Callable[[], None]) -> Iterator[None]:
    """Call ``stop`` when the block ends, however it ends."""
    try:
        yield
    finally:
        stop()


def print_fp(
    times: dict[str, list[float]],
    headers_at: dict[str, list[float]],
    cpu_ms: dict[str, list[float]] | None = None,
) -> None:
    """Table 5 and its targets."""
    library = times["library"]
    lib50, lib90 = percentile(library, 50), percentile(library, 90)
    rows = [["library positions_json(future_positions(...))", fmt_ms(lib50), fmt_ms(lib90), "-"]]
    rows[0] += ["1.00", "", "-"]
    cpu_ms = cpu_ms or {}
    targets = []
    for name, values in times.items():
        if name == "library":
            continue
        p50, p90 = percentile(values, 50), percentile(values, 90)
        first = fmt_ms(percentile(headers_at[name], 50))
        label = "httpx alone: that answer, recorded" if name == "client alone" else f"GET {name}"
        if name.startswith(BEFORE):
            label = f"{BEFORE}GET {name.removeprefix(BEFORE)}"
        rows.append([f"{label} (httpx, gzip)", fmt_ms(p50), fmt_ms(p90), first])
        rows[-1] += [ratio(p50, lib50), ratio(p90, lib90)]
        rows[-1].append(fmt_ms(percentile(cpu_ms[name], 50)) if cpu_ms.get(name) else "-")
        if name == "client alone":
            continue
        targets.append([name, fmt(p50 / lib50, 2), f"<= {FP_TARGET_RATIO:g}"])
        targets[-1].append(verdict(p50 / lib50 <= FP_TARGET_RATIO))
    positions = len(orjson.loads(b'{"p":' + fp_library() + b"}")["p"])
    title = (
        f"Table 5: {FP_PREVIOUS} -> {FP_DESTINATION} from {FP_START} at {SPEED_KN:g} kn, "
        f"{positions:,} positions, {len(library)} rounds"
    )
    headers = ["call", "p50 ms", "p90 ms", "headers p50", "p50 x library", "p90 x library"]
    headers.append("server CPU p50")
    print(render_table(title, headers, rows))
    print(
        "One httpx.Client with its default headers (gzip), the body read and decoded in full;\n"
        "'headers p50' is the time until the response headers arrived (the server has then\n"
        "computed the voyage and deflated its first piece). The library call is the engine's\n"
        "future_positions() with its positions_json(), in this process, once per round before the\n"
        "requests. 'httpx alone' reads future_positions' answer as the server sent it (its\n"
        "chunked gzip pieces), recorded once and replayed by a bare server in a child process:\n"
        "what the client costs by itself (the inflate, h11, the joins), whatever the server.\n"
        "'server CPU p50' is the server process's CPU time (all threads, /proc) during a request:\n"
        "on a shared machine, what the wall times cannot show apart from the other load.\n"
    )
    print(
        render_table(
            "Table 5 targets (p50)", ["operation", "x library", "target", "status"], targets
        )
    )
    print()


# --- entry point --------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=50, help="timed calls per measurement (50)")
    parser.add_argument(
        "--duration", type=float, default=10.0, help="seconds per throughput run (10)"
    )
    parser.add_argument("--quick", action="store_true", help="10 repeats, 3 s throughput runs")
    parser.add_argument(
        "--fp-rounds", type=int, default=300, help="rounds of Table 5 (future positions, 300)"
    )
    parser.add_argument(
        "--only-fp", action="store_true", help="Table 5 only (future positions, httpx, gzip)"
    )
    parser.add_argument(
        "--before-src",
        default=None,
        help="Table 5 also times a second server running the sealane of this src directory "
        "(a worktree of an earlier commit), in the same rounds",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.duration = min(args.repeat, 10), min(args.duration, 3.0)
    args.repeat = max(args.repeat, 1)
    args.duration = min(max(args.duration, 1.0), 120.0)
    return args


def print_header(args: argparse.Namespace) -> None:
    """Machine, versions, the shared-CPU note and run settings."""
    print("HTTP service: sealane serve over loopback vs the library call")
    for line in machine_lines(PACKAGES):
        print(line)
    print(f"wrk     : {wrk_version() or 'not installed'}")
    load1, load5, _ = os.getloadavg()
    print(f"load    : {load1:.2f} (1 min), {load5:.2f} (5 min) before the run")
    print(
        f"note    : {os.cpu_count()} CPUs shared by the server (one uvicorn process: event loop "
        "plus\n          worker threads) and the load generator (this process, or wrk); the "
        "figures are\n          for both on one machine, not for a dedicated server."
    )
    print(
        f"settings: {args.repeat} timed calls per latency figure after one untimed call; "
        f"{args.duration:g} s per throughput run\n          ({CLIENTS} connections, at most "
        f"{MAX_REQUESTS:,} requests); only {HOST} is contacted"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Set up the service, run every measurement and print the tables."""
    args = parse_args(argv)
    print_header(args)
    with running_service() as service:
        if args.before_src:
            with running_service(args.before_src) as before:
                print(f"before  : the server of {args.before_src} (rows '{BEFORE}...')\n")
                print_fp(*run_fp(service, max(args.fp_rounds, 1), before))
        else:
            print_fp(*run_fp(service, max(args.fp_rounds, 1)))
        if args.only_fp:
            return
        run = run_voyage(service, args.repeat)
        print_voyage(run)
        print()
        print_breakdown(run, args.repeat)
        run_throughput(service, args.duration)
        run_mixed(service, args.duration)


if __name__ == "__main__":
    main()

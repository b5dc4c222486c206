"""List pages under load beside a port look-up, on SQLite and PostgreSQL, and the server's memory.

Run ``.venv/bin/python benchmarks/lists.py`` (``--duration S`` per run, ``--shipments N``,
``--memory-requests N``, ``--no-postgres``, ``--no-sqlite``). For each database it starts
``sealane serve`` on a fresh database (SQLite in a temporary file; PostgreSQL as the tests'
private throwaway server, ``tests/pg.py``), tracks N test shipments through the API, waits until
the tracking poller has found them all, then loads each URL in turn with wrk (16 connections;
an httpx client stands in when wrk is not installed) and prints one table: the port look-up,
which costs no database query and is the floor of the service, then each list page with its
ratio to the port look-up (the target is at least 0.25). Last it sends list requests one after
another in 16 streams and prints the server's resident memory after the first 1,000 and after
all of them (10,000): the target is growth within 10 %. Nothing is asserted; the figures are
printed.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

from _util import fmt, fmt_ms, machine_lines, render_table
from api import (
    HOST,
    Service,
    create_account,
    free_port,
    run_load,
    run_wrk,
    start_server,
    stop_server,
    wait_ready,
)

CLIENTS = 16
JSONAPI = "application/vnd.api+json"
#: The list pages measured against the port look-up, and the ratio each must reach.
PORT = ("port NLRTM (no database)", "/ports/NLRTM")
LISTS = (
    ("30 shipments + containers", "/shipments?include=containers&page[size]=30"),
    ("30 shipments", "/shipments?page[size]=30"),
    ("containers (page of 30)", "/containers?page[size]=30"),
    ("tracking requests (page of 30)", "/tracking_requests?page[size]=30"),
)
TARGET_RATIO = 0.25
#: Memory may grow this much between the first 1,000 list requests and the whole run.
MEMORY_GROWTH = 0.10


@contextmanager
def service_on(database_url: str) -> Iterator[Service]:
    """``sealane serve`` on ``database_url`` (schema made by ``accounts create``) with one key."""
    with tempfile.TemporaryDirectory(prefix="sealane-lists-") as tmp:
        key = create_account(database_url)
        port, log = free_port(), Path(tmp) / "server.log"
        base_url = f"http://{HOST}:{port}/v2"
        process = start_server(database_url, port, log)
        try:
            ready_s = wait_ready(process, base_url, log)
            print(f"server  : pid {process.pid} on {base_url}, ready after {ready_s:.1f} s")
            yield Service(base_url, key, "", process.pid)
        finally:
            stop_server(process)


def track(service: Service, count: int) -> None:
    """Create ``count`` tracking requests of the simulated carrier and wait until each has
    become a shipment (the server polls every 5 s)."""
    headers = {"Authorization": f"Token {service.key}", "Content-Type": JSONAPI}
    with httpx.Client(base_url=service.base_url, headers=headers, timeout=30) as client:
        for index in range(count):
            document = {
                "data": {
                    "type": "tracking_request",
                    "attributes": {
                        "request_type": "bill_of_lading",
                        "request_number": f"TESTLOAD{index:04d}",
                        "scac": "TEST",
                    },
                }
            }
            client.post("/tracking_requests", json=document).raise_for_status()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            found = client.get("/shipments", params={"page[size]": 1}).json()["meta"]["total"]
            if found >= count:
                return
            time.sleep(1.0)
    raise RuntimeError(f"only {found} of {count} shipments were found in time")


def throughput(
    service: Service, label: str, path: str, duration_s: float
) -> tuple[float, list[str]]:
    """Requests per second of ``path`` and its table cells (client, p50, p99, failures)."""
    if shutil.which("wrk"):
        run = run_wrk(service, label, path, duration_s, clients=CLIENTS)
        failures = run.non_2xx + run.socket_errors
        return run.per_s, ["wrk", fmt_ms(run.p50_ms), fmt_ms(run.p99_ms), fmt(failures)]
    load = asyncio.run(run_load(service, label, path, duration_s, CLIENTS))
    lat = sorted(load.latencies_ms)
    per_s = load.completed / load.elapsed_s
    p50 = fmt_ms(lat[len(lat) // 2]) if lat else "-"
    p99 = fmt_ms(lat[int(len(lat) * 0.99)]) if lat else "-"
    return per_s, ["httpx", p50, p99, fmt(load.completed - load.statuses[200])]


def rss_kib(pid: int) -> int:
    """The resident set size of process ``pid`` in KiB (``VmRSS`` in /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


async def send(service: Service, count: int) -> int:
    """``count`` list requests in :data:`CLIENTS` streams, cycling through the list pages;
    the number that were not 200."""
    paths = [path for _, path in LISTS]
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    failures = 0
    sent = 0

    async def stream(client: httpx.AsyncClient) -> None:
        nonlocal failures, sent
        while sent < count:
            path = paths[sent % len(paths)]
            sent += 1
            response = await client.get(path)
            failures += response.status_code != 200

    async with httpx.AsyncClient(
        base_url=service.base_url, headers=service.auth, limits=limits, timeout=60.0
    ) as client:
        await asyncio.gather(*(stream(client) for _ in range(CLIENTS)))
    return failures


def memory(service: Service, first: int, total: int) -> list[str]:
    """RSS after the first ``first`` list requests and after ``total``, with the growth."""
    failures = asyncio.run(send(service, first))
    early = rss_kib(service.pid)
    failures += asyncio.run(send(service, total - first))
    late = rss_kib(service.pid)
    growth = late / early - 1
    verdict = "ok" if growth <= MEMORY_GROWTH else f"over {MEMORY_GROWTH:.0%}"
    return [f"{early / 1024:.1f}", f"{late / 1024:.1f}", f"{growth:+.1%}", verdict, fmt(failures)]


def measure(
    name: str, database_url: str, args: argparse.Namespace
) -> tuple[list[list[str]], list[str]]:
    """The throughput rows and the memory row of one database."""
    with service_on(database_url) as service:
        track(service, args.shipments)
        rows = []
        port_per_s, cells = throughput(service, *PORT, args.duration)
        rows.append([name, PORT[0], fmt(port_per_s, 0), "1", "", *cells])
        for label, path in LISTS:
            per_s, cells = throughput(service, label, path, args.duration)
            ratio = per_s / port_per_s
            verdict = "ok" if ratio >= TARGET_RATIO else f"under {TARGET_RATIO}"
            rows.append([name, label, fmt(per_s, 0), f"{ratio:.3f}", verdict, *cells])
        mem = memory(service, args.memory_first, args.memory_requests)
    return rows, [name, *mem]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=8.0, help="seconds per run")
    parser.add_argument("--shipments", type=int, default=40, help="shipments to create")
    parser.add_argument("--memory-first", type=int, default=1000, help="requests before RSS")
    parser.add_argument("--memory-requests", type=int, default=10000, help="requests in all")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args(argv)
    print("\n".join(machine_lines(["sealane", "fastapi", "uvicorn", "sqlalchemy", "psycopg"])))
    if shutil.which("wrk"):
        version = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
        print(f"client  : {(version.stdout or version.stderr).strip().splitlines()[0]}")
    rows: list[list[str]] = []
    memory_rows: list[list[str]] = []
    if not args.no_sqlite:
        with tempfile.TemporaryDirectory(prefix="sealane-lists-db-") as tmp:
            found, mem = measure("SQLite", f"sqlite:///{Path(tmp) / 'bench.db'}", args)
            rows += found
            memory_rows.append(mem)
    if not args.no_postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests import pg  # the tests' private PostgreSQL server

        with pg.postgres_server() as url:
            found, mem = measure("PostgreSQL", url, args)
            rows += found
            memory_rows.append(mem)
    print()
    print(
        render_table(
            f"GET /v2/... with {CLIENTS} keep-alive connections, {args.duration:g} s each "
            f"({args.shipments} shipments in the account); ratio to the port look-up, "
            f"target >= {TARGET_RATIO}",
            ["database", "request", "req/s", "ratio", "", "client", "p50 ms", "p99 ms", "non-200"],
            rows,
        )
    )
    print()
    print(
        render_table(
            f"server RSS after {args.memory_first:,} and {args.memory_requests:,} list requests "
            f"({CLIENTS} streams, the list pages in turn); target growth <= {MEMORY_GROWTH:.0%}",
            ["database", "RSS MiB first", "RSS MiB all", "growth", "", "non-200"],
            memory_rows,
        )
    )


if __name__ == "__main__":
    sys.exit(main())

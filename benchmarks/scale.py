"""Lists and search at scale (issue 41): each list beside ``GET /v2/ports/NLRTM`` in one sitting.

Run ``PYTHONPATH=src .venv/bin/python benchmarks/scale.py --shipments N --positions P`` (add
``--sqlite`` for SQLite instead of PostgreSQL, ``--duration S`` per run, ``--explain`` to print
``EXPLAIN ANALYZE`` of each list's statements, ``--ingest`` for the AIS ingest rows). It starts the
tests' private PostgreSQL server (``tests/pg.py``; SQLite: a temporary file), makes the
benchmark's account with ``sealane accounts create``, seeds N shipments in it and N/4 in each of
four more accounts with their containers, events and tracking requests, vessels and P positions
(``_scale_seed.py``), serves it with ``sealane serve --workers 2`` (one process on SQLite), and
loads each URL in turn with
wrk (16 connections; ``apt-get install wrk``). It prints the issue's table: requests a second of
each list and search with its ratio to the port look-up measured in the same sitting, and page 1
while the shipments are updated ten times a second (as the poller writes). Nothing is asserted.

``--ingest`` imports ``_scale_ingest.ingest_rates(database_url, seconds=10.0)`` (issue 41's
items 4 and 5, written beside this) and prints its positions a second for vessels with and
without shipments, on the database just seeded.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from sqlalchemy import bindparam, event, text, update

from _scale_seed import RARE_POD, Seeded, account_of, seed
from _util import fmt, fmt_ms, machine_lines, render_table
from api import HOST, SEALANE, Service, create_account, free_port, run_wrk, stop_server, wait_ready
from sealane.store.database import make_engine
from sealane.store.models import Shipment

CLIENTS = 16
WORKERS = 2
#: Shipment updates a second under which page 1 is measured.
UPDATES_PER_S = 10
#: The targets: ratio to the port look-up (search 0.2, page 1 under updates 0.15).
TARGET, SEARCH_TARGET, UNDER_WRITES_TARGET = 0.25, 0.2, 0.15


def urls(seeded: Seeded, page_49: str) -> list[tuple[str, str, float]]:
    """(label, path, target) of each request measured."""
    return [
        ("shipments?include=containers, page 1", "/shipments?include=containers", TARGET),
        (
            "page 50 by number",
            "/shipments?include=containers&page[number]=50",
            TARGET,
        ),
        ("page 50 by its previous next link", page_49, TARGET),
        ("?q=<part of a bill of lading number>", f"/shipments?q={seeded.bl_part}", SEARCH_TARGET),
        (
            "containers?filter[number]=",
            f"/containers?filter[number]={seeded.container_number}",
            SEARCH_TARGET,
        ),
        ("tracking_requests", "/tracking_requests", TARGET),
        (
            "filter[pod_locode] + filter[status]",
            f"/shipments?filter[pod_locode]={RARE_POD}&filter[status]=available",
            TARGET,
        ),
    ]


@contextmanager
def served(database_url: str, key: str) -> Iterator[Service]:
    """``sealane serve --workers 2`` on ``database_url`` without rate limiting (one process on
    SQLite, which lets one process write at a time)."""
    workers = 1 if database_url.startswith("sqlite") else WORKERS
    with tempfile.TemporaryDirectory(prefix="sealane-scale-") as tmp:
        port, log = free_port(), Path(tmp) / "server.log"
        env = dict(os.environ, SEALANE_RATE_LIMIT_PER_MINUTE="10000000")
        command = [str(SEALANE), "serve", "--host", HOST, "--port", str(port)]
        command += ["--workers", str(workers), "--database", database_url]
        command += ["--log-level", "warning"]
        with log.open("wb") as out:
            process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        base_url = f"http://{HOST}:{port}/v2"
        try:
            ready_s = wait_ready(process, base_url, log)
            print(f"server  : {workers} worker(s) on {base_url}, ready after {ready_s:.1f} s")
            yield Service(base_url, key, "", process.pid)
        finally:
            stop_server(process)


def next_link(service: Service, path: str, pages: int) -> str:
    """The path of the page ``pages`` next links after ``path`` (or of the last page, for an
    account with fewer)."""
    with httpx.Client(headers=service.auth, timeout=60) as client:
        url = f"{service.base_url}{path}"
        for _ in range(pages):
            response = client.get(url)
            response.raise_for_status()
            following = response.json()["links"].get("next")
            if following is None:
                break
            url = following
    parts = urlsplit(url)
    return f"{parts.path.removeprefix('/v2')}?{parts.query}"


class Updater:
    """Updates random shipments of the account ``UPDATES_PER_S`` times a second (each in its own
    transaction, as the poller commits), until stopped."""

    def __init__(self, database_url: str, ids: Sequence[str]) -> None:
        self._engine = make_engine(database_url)
        self._ids = list(ids)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.done = 0

    def _run(self) -> None:
        rng = random.Random(10)
        statement = (
            update(Shipment)
            .where(Shipment.id == bindparam("key"))
            .values(updated_at=bindparam("moment"))
        )
        next_at = time.monotonic()
        while not self._stop.is_set():
            with self._engine.begin() as connection:
                connection.execute(
                    statement, {"key": rng.choice(self._ids), "moment": datetime.now(UTC)}
                )
            self.done += 1
            next_at += 1 / UPDATES_PER_S
            self._stop.wait(max(0.0, next_at - time.monotonic()))

    def __enter__(self) -> Updater:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self._engine.dispose()


def row(label: str, run: Any, port_per_s: float, target: float | None) -> list[str]:
    ratio = run.per_s / port_per_s
    verdict = "" if target is None else ("ok" if ratio >= target else f"under {target}")
    failures = run.non_2xx + run.socket_errors
    return [
        label,
        fmt(run.per_s, 1),
        f"{ratio:.3f}",
        verdict,
        fmt_ms(run.p50_ms),
        fmt_ms(run.p99_ms),
        fmt(failures),
    ]


def measure(
    database_url: str, key: str, seeded: Seeded, duration_s: float
) -> tuple[list[list[str]], float]:
    """The table's rows, and the port look-up's requests a second."""
    with served(database_url, key) as service:
        page_49 = next_link(service, "/shipments?include=containers", 49)
        measured = urls(seeded, page_49)
        for _, path, _ in measured:  # each answered once before it is loaded
            httpx.get(f"{service.base_url}{path}", headers=service.auth, timeout=60)
        port = run_wrk(service, "port", "/ports/NLRTM", duration_s, clients=CLIENTS)
        rows = [row("ports/NLRTM (the floor)", port, port.per_s, None)]
        for label, path, target in measured:
            run = run_wrk(service, label, path, duration_s, clients=CLIENTS)
            rows.append(row(label, run, port.per_s, target))
        with Updater(database_url, seeded.shipment_ids) as updater:
            run = run_wrk(service, "under", "/shipments?include=containers", duration_s, CLIENTS)
        label = f"page 1 under {UPDATES_PER_S} updates/s ({updater.done} made)"
        rows.append(row(label, run, port.per_s, UNDER_WRITES_TARGET))
        again = run_wrk(service, "port", "/ports/NLRTM", duration_s, clients=CLIENTS)
        rows.append(row("ports/NLRTM again (drift)", again, port.per_s, None))
    return rows, port.per_s


def explain(database_url: str, key: str, seeded: Seeded) -> None:
    """``EXPLAIN ANALYZE`` of every statement each list runs, captured from the app itself."""
    from fastapi.testclient import TestClient

    from sealane.api.app import create_app
    from sealane.config import Settings

    app = create_app(Settings(database_url=database_url, rate_limit_per_minute=10_000_000))
    engine = app.state.sealane.engine
    captured: list[tuple[str, Any]] = []

    def capture(_c: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            captured.append((statement, parameters))

    with TestClient(app) as client:
        page_49 = ""
        found = client.get(
            "/v2/shipments?include=containers", headers={"Authorization": f"Token {key}"}
        )
        url = found.json()["links"]["next"]
        for _ in range(48):
            url = client.get(url, headers={"Authorization": f"Token {key}"}).json()["links"]["next"]
        page_49 = url.split("/v2", 1)[1]
        for label, path, _ in urls(seeded, page_49):
            app.state.pages = type(app.state.pages)()  # nothing kept: every statement runs
            captured.clear()
            event.listen(engine, "before_cursor_execute", capture)
            client.get(f"/v2{path}", headers={"Authorization": f"Token {key}"})
            event.remove(engine, "before_cursor_execute", capture)
            print(f"\n### {label}: GET /v2{path}\n")
            with engine.connect() as connection:
                for statement, parameters in captured:
                    if "list_stamps" in statement or "api_keys" in statement:
                        continue
                    plan = connection.exec_driver_sql(
                        f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {statement}", parameters
                    )
                    print(statement.strip().splitlines()[0][:120], "...")
                    print("\n".join(f"    {line[0]}" for line in plan))
    engine.dispose()


def run(database_url: str, args: argparse.Namespace) -> None:
    key = create_account(database_url)
    engine = make_engine(database_url)
    try:
        seeded = seed(engine, account_of(engine, "bench"), args.shipments, args.positions)
        with engine.connect() as connection:
            size = (
                connection.scalar(
                    text("SELECT pg_size_pretty(pg_database_size(current_database()))")
                )
                if engine.dialect.name == "postgresql"
                else "-"
            )
    finally:
        engine.dispose()
    print(
        f"seeded  : {seeded.shipments:,} shipments ({args.shipments:,} in the account measured), "
        f"{seeded.containers:,} containers, {seeded.events:,} events, "
        f"{seeded.positions:,} positions in {seeded.seconds:.0f} s; database {size}"
    )
    if args.explain:
        explain(database_url, key, seeded)
    rows, _ = measure(database_url, key, seeded, args.duration)
    print()
    print(
        render_table(
            f"{'SQLite, serve' if args.sqlite else f'PostgreSQL, serve --workers {WORKERS}'}, wrk "
            f"{CLIENTS} connections, {args.duration:g} s each, N = {args.shipments:,}, "
            f"P = {args.positions:,}; ratio to the port look-up in the same sitting",
            ["request", "req/s", "ratio", "target", "p50 ms", "p99 ms", "errors"],
            rows,
        )
    )
    if args.ingest:
        from _scale_ingest import ingest_rates  # issue 41 items 4 and 5, merged beside this

        rates = ingest_rates(database_url, seconds=10.0)
        print()
        for name, per_s in rates.items():
            print(f"AIS ingest, vessels {name}: {per_s:,.0f} positions/s (target 5,000)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shipments", type=int, default=10_000, help="N")
    parser.add_argument("--positions", type=int, default=1_000_000, help="P")
    parser.add_argument("--sqlite", action="store_true", help="SQLite instead of PostgreSQL")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per wrk run")
    parser.add_argument("--explain", action="store_true", help="print EXPLAIN ANALYZE plans")
    parser.add_argument("--ingest", action="store_true", help="AIS ingest (_scale_ingest.py)")
    args = parser.parse_args(argv)
    print("\n".join(machine_lines(["sealane", "fastapi", "uvicorn", "sqlalchemy", "psycopg"])))
    if args.sqlite:
        with tempfile.TemporaryDirectory(prefix="sealane-scale-db-") as tmp:
            run(f"sqlite:///{Path(tmp) / 'scale.db'}", args)
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests import pg  # the tests' private PostgreSQL server

    with pg.postgres_server() as url:
        run(url, args)


if __name__ == "__main__":
    main()

"""Shipment lists under load: ``GET /v2/shipments?include=containers`` beside a port look-up.

Run ``.venv/bin/python benchmarks/lists.py`` (``--duration S`` per run, ``--shipments N``). It
starts ``sealane serve`` on a fresh SQLite file, tracks N test shipments through the API, waits
until the tracking poller has found them all, then loads three URLs in turn with wrk (16
connections; an httpx client stands in when wrk is not installed) and prints one table: the
page of 30 shipments with their containers, the same page without the include, and a port
look-up, which costs no database query, as the floor of the service.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import time
from collections.abc import Sequence

import httpx

from _util import fmt, fmt_ms, machine_lines, render_table
from api import Service, run_load, run_wrk, running_service

CLIENTS = 16
JSONAPI = "application/vnd.api+json"


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


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--shipments", type=int, default=60, help="shipments to create")
    args = parser.parse_args(argv)
    print("\n".join(machine_lines(["sealane", "fastapi", "uvicorn", "sqlalchemy"])))
    with running_service() as service:
        track(service, args.shipments)
        paths = [
            ("30 shipments + containers", "/shipments?include=containers&page[size]=30"),
            ("30 shipments", "/shipments?page[size]=30"),
            ("one port (no database)", "/ports/NLRTM"),
        ]
        rows = []
        for label, path in paths:
            if shutil.which("wrk"):
                run = run_wrk(service, label, path, args.duration, clients=CLIENTS)
                rows.append(
                    [
                        label,
                        "wrk",
                        fmt(run.per_s, 0),
                        fmt_ms(run.p50_ms),
                        fmt_ms(run.p99_ms),
                        fmt(run.non_2xx + run.socket_errors),
                    ]
                )
            else:
                load = asyncio.run(run_load(service, label, path, args.duration, CLIENTS))
                lat = sorted(load.latencies_ms)
                rows.append(
                    [
                        label,
                        "httpx",
                        fmt(load.completed / load.elapsed_s, 0),
                        fmt_ms(lat[len(lat) // 2]) if lat else "-",
                        fmt_ms(lat[int(len(lat) * 0.99)]) if lat else "-",
                        fmt(load.completed - load.statuses[200]),
                    ]
                )
    print()
    print(
        render_table(
            f"GET /v2/... with {CLIENTS} keep-alive connections, {args.duration:g} s each "
            f"({args.shipments} shipments in the account)",
            ["request", "client", "req/s", "p50 ms", "p99 ms", "non-200"],
            rows,
        )
    )


if __name__ == "__main__":
    sys.exit(main())

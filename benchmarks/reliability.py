"""Lane and port reliability figures for an account with 100,000 shipments, on PostgreSQL (and
SQLite with ``--sqlite``).

Run ``.venv/bin/python benchmarks/reliability.py`` (``--shipments N``, ``--repeat R``,
``--sqlite``, ``--no-postgres``). It migrates a fresh database (PostgreSQL: the tests' private
throwaway server, ``tests/pg.py``), writes N arrived shipments for the measured account and as
many for another account (whose rows the queries must skip), each with one or two containers,
two or three arrival estimates (a fifth of them naming two voyages: rolled) and a transshipment
event for a quarter of the containers, plus 30 days of port calls, runs ANALYZE, then times the
application layer's calls warm (the median and the slowest of R runs), then the same questions
over HTTP: the app served by uvicorn on a 127.0.0.1 port in this process, each ``GET`` on a
kept-alive connection, timed from the request's first byte sent to the answer's last byte read.
It prints one table. The target is 200 ms for every lanes page at 100,000 shipments on
PostgreSQL. Nothing is asserted; the figures are printed.
"""

from __future__ import annotations

import argparse
import http.client
import random
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from statistics import median
from urllib.parse import urlencode

import uvicorn
from sqlalchemy import insert, text

from _util import fmt_ms, machine_lines, render_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sealane.api.app import create_app
from sealane.config import Settings
from sealane.service.access.accounts import create_account
from sealane.service.access.gatekeeper import Caller
from sealane.service.core.paging import PageRequest
from sealane.service.reliability.estimates import estimate_errors
from sealane.service.reliability.inputs import LaneQuery, Window
from sealane.service.reliability.lanes import lane_reliability
from sealane.service.reliability.ports import port_reliability
from sealane.store.models import (
    Container,
    EstimatedEvent,
    Shipment,
    TransportEvent,
    Vessel,
    VesselPortCall,
)

NOW = datetime(2026, 12, 1, tzinfo=UTC)
CARRIERS = ("MAEU", "MSCU", "CMDU", "HLCU", "ONEY", "COSU", "EGLV", "ZIMU")
POLS = ("CNSHA", "CNNGB", "CNYTN", "KRPUS", "SGSIN", "HKHKG")
PODS = ("NLRTM", "DEHAM", "BEANR", "USLAX", "USLGB", "USNYC", "GBFXT")
BATCH = 5_000


def rows_for(account_id: str, count: int, rng: random.Random) -> Iterator[tuple[list, ...]]:
    """Batches of (shipments, containers, estimates, events) rows of ``count`` shipments."""
    shipments: list[dict[str, object]] = []
    containers: list[dict[str, object]] = []
    estimates: list[dict[str, object]] = []
    events: list[dict[str, object]] = []
    for n in range(count):
        sid = str(uuid.uuid4())
        arrived = NOW - timedelta(days=rng.uniform(1, 365))
        transit = timedelta(hours=rng.gauss(720, 60))
        departed = arrived - transit
        first_eta = arrived - timedelta(hours=rng.gauss(20, 30))
        shipments.append(
            {
                "id": sid,
                "account_id": account_id,
                "bill_of_lading_number": f"BENCH{n:08d}",
                "ref_numbers": [],
                "shipping_line_scac": rng.choice(CARRIERS),
                "port_of_lading_locode": rng.choice(POLS),
                "port_of_discharge_locode": rng.choice(PODS),
                "transshipment_locodes": [],
                "pol_atd_at": departed,
                "pod_ata_at": arrived,
                "pod_eta_at": arrived,
                "pod_original_eta_at": first_eta,
                "carrier_request_type": "bill_of_lading",
                "carrier_number": f"BENCH{n:08d}",
                "carrier_epoch": departed,
                "created_at": departed,
                "updated_at": arrived,
            }
        )
        rolled = rng.random() < 0.2
        for k in range(rng.randint(2, 3)):
            estimates.append(
                {
                    "id": str(uuid.uuid4()),
                    "account_id": account_id,
                    "shipment_id": sid,
                    "event": "shipment.estimated.arrival",
                    "estimated_timestamp": first_eta + timedelta(hours=k * 6),
                    "voyage_number": f"{k if rolled else 0}W",
                    "data_source": "shipping_line",
                    "created_at": departed + timedelta(days=k * 10),
                }
            )
        for c in range(rng.randint(1, 2)):
            cid = str(uuid.uuid4())
            discharged = arrived + timedelta(hours=rng.uniform(8, 30))
            containers.append(
                {
                    "id": cid,
                    "account_id": account_id,
                    "shipment_id": sid,
                    "number": f"BNCU{n % 10**6:06d}{c}",
                    "equipment_type": "dry",
                    "equipment_length": 40,
                    "equipment_height": "standard",
                    "weight_in_lbs": 20000,
                    "current_status": "empty_returned",
                    "ref_numbers": [],
                    "fees_at_pod_terminal": [],
                    "holds_at_pod_terminal": [],
                    "availability_known": True,
                    "pod_discharged_at": discharged,
                    "pod_full_out_at": discharged + timedelta(hours=rng.gammavariate(4, 20)),
                    "created_at": departed,
                    "updated_at": arrived,
                }
            )
            if rng.random() < 0.25:
                events.append(
                    {
                        "id": str(uuid.uuid4()),
                        "account_id": account_id,
                        "shipment_id": sid,
                        "container_id": cid,
                        "event": "container.transport.transshipment_arrived",
                        "sequence": 1,
                        "timestamp": departed + transit / 2,
                        "location_locode": "SGSIN",
                        "data_source": "shipping_line",
                        "created_at": departed + transit / 2,
                    }
                )
        if len(shipments) >= BATCH:
            yield shipments, containers, estimates, events
            shipments, containers, estimates, events = [], [], [], []
    if shipments:
        yield shipments, containers, estimates, events


def fill(runtime: object, accounts: list[str], count: int) -> float:
    """Write ``count`` shipments for each account, and port calls; seconds taken."""
    started = time.perf_counter()
    rng = random.Random(44)
    engine = runtime.engine  # type: ignore[attr-defined]
    tables = (Shipment, Container, EstimatedEvent, TransportEvent)
    with engine.begin() as connection:
        for account_id in accounts:
            for batch in rows_for(account_id, count, rng):
                for model, rows in zip(tables, batch, strict=True):
                    if rows:
                        connection.execute(insert(model.__table__), rows)
        vessel_ids = [str(uuid.uuid4()) for _ in range(200)]
        connection.execute(
            insert(Vessel.__table__), [{"id": v, "name": f"BENCH {v[:8]}"} for v in vessel_ids]
        )
        calls = []
        for pod in PODS:
            for _ in range(30 * 40):
                arrived = NOW - timedelta(days=rng.uniform(0, 30))
                calls.append(
                    {
                        "vessel_id": rng.choice(vessel_ids),
                        "locode": pod,
                        "arrived_at": arrived,
                        "arrival_seen": True,
                        "berthed_at": arrived + timedelta(hours=rng.gammavariate(2, 6)),
                    }
                )
        connection.execute(insert(VesselPortCall.__table__), calls)
    with engine.connect() as connection:
        connection.execute(text("ANALYZE"))
        connection.commit()
    return time.perf_counter() - started


def timings(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and slowest of ``repeat`` warm runs (after one unmeasured), in ms."""
    fn()
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - started) * 1000)
    return median(runs), max(runs)


def served(app: object) -> tuple[uvicorn.Server, threading.Thread, int]:
    """``app`` served by uvicorn on a free 127.0.0.1 port, on a thread: (server, thread, port)."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, server.servers[0].sockets[0].getsockname()[1]


def getter(port: int, key: str, path: str, params: dict[str, str]) -> Callable[[], object]:
    """A GET of ``path`` with ``params`` on one kept-alive connection; it must answer 200."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    url = f"{path}?{urlencode(params)}" if params else path
    headers = {"Authorization": f"Token {key}", "Accept": "application/vnd.api+json"}

    def get() -> object:
        connection.request("GET", url, headers=headers)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{url} answered {response.status}: {body[:300]!r}")
        return body

    return get


def measure(name: str, url: str, args: argparse.Namespace) -> list[list[str]]:
    """The table rows of one database: the application layer's calls, then the HTTP answers."""
    settings = Settings(
        database_url=url, rate_limit_per_minute=10_000_000, base_url="http://127.0.0.1/v2"
    )
    app = create_app(settings)
    runtime = app.state.sealane
    try:
        ctx = runtime.context
        mine = create_account(ctx, "Measured", routing=False)
        other = create_account(ctx, "Other", routing=False)
        took = fill(runtime, [mine.account_id, other.account_id], args.shipments)
        print(f"{name}: wrote {2 * args.shipments:,} shipments and their rows in {took:.0f} s")
        caller = Caller(mine.account_id, routing_enabled=False)
        since = NOW - timedelta(days=90)
        month = NOW - timedelta(days=30)
        one_lane = {"port_of_lading": "CNSHA", "port_of_discharge": "NLRTM"}
        cases: list[tuple[str, Callable[[], object]]] = [
            (
                "lanes, all (page 1 of 30)",
                lambda: lane_reliability(ctx, caller, LaneQuery(), PageRequest(1, 30)),
            ),
            (
                "lanes, one carrier",
                lambda: lane_reliability(ctx, caller, LaneQuery.of(carrier="MAEU"), PageRequest()),
            ),
            (
                "lanes, one lane",
                lambda: lane_reliability(ctx, caller, LaneQuery.of(**one_lane), PageRequest()),
            ),
            (
                "lanes, last 90 days",
                lambda: lane_reliability(ctx, caller, LaneQuery.of(since=since), PageRequest()),
            ),
            (
                "ETA error by days, one lane",
                lambda: estimate_errors(ctx, caller, LaneQuery.of(**one_lane)),
            ),
            ("port NLRTM, all", lambda: port_reliability(ctx, caller, "NLRTM", Window())),
            (
                "port NLRTM, last 30 days",
                lambda: port_reliability(ctx, caller, "NLRTM", Window(month)),
            ),
        ]
        rows = []
        for label, fn in cases:
            middle, slowest = timings(fn, args.repeat)
            rows.append([name, "service", label, fmt_ms(middle), fmt_ms(slowest)])
        server, thread, port = served(app)
        try:
            lanes, ports = "/v2/reliability/lanes", "/v2/reliability/ports/NLRTM"
            stamp = {"filter[since]": since.isoformat().replace("+00:00", "Z")}
            requests = [
                ("lanes, all (page 1 of 30)", lanes, {"page[size]": "30"}),
                ("lanes, one carrier", lanes, {"filter[carrier]": "MAEU"}),
                ("lanes, one lane", lanes, {f"filter[{k}]": v for k, v in one_lane.items()}),
                ("lanes, last 90 days", lanes, stamp),
                ("port NLRTM, all", ports, {}),
                (
                    "port NLRTM, last 30 days",
                    ports,
                    {"filter[since]": month.isoformat().replace("+00:00", "Z")},
                ),
            ]
            for label, path, params in requests:
                middle, slowest = timings(getter(port, mine.secret, path, params), args.repeat)
                rows.append([name, "HTTP", label, fmt_ms(middle), fmt_ms(slowest)])
        finally:
            server.should_exit = True
            thread.join()
        return rows
    finally:
        runtime.stop()
        runtime.engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shipments", type=int, default=100_000, help="per account")
    parser.add_argument("--repeat", type=int, default=10, help="timed runs per case")
    parser.add_argument("--sqlite", action="store_true", help="SQLite too")
    parser.add_argument("--no-postgres", action="store_true", help="no PostgreSQL")
    args = parser.parse_args(argv)
    print("\n".join(machine_lines(["sealane", "sqlalchemy", "psycopg"])))
    rows: list[list[str]] = []
    if args.sqlite:
        with tempfile.TemporaryDirectory(prefix="sealane-reliability-") as tmp:
            rows += measure("SQLite", f"sqlite:///{Path(tmp) / 'bench.db'}", args)
    if not args.no_postgres:
        from tests import pg  # the tests' private PostgreSQL server

        with pg.postgres_server() as url:
            rows += measure("PostgreSQL", url, args)
    print()
    print(
        render_table(
            f"reliability figures, {args.shipments:,} arrived shipments in the account (and as "
            f"many in another), warm, {args.repeat} runs; target <= 200 ms per lanes page",
            ["database", "layer", "query", "median ms", "slowest ms"],
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The tracking page beside the JSON:API shipment document with the same includes.

Run ``.venv/bin/python benchmarks/web.py`` (``--rounds N``). It builds the demo on a fresh
SQLite file in this process, serves it with uvicorn on a 127.0.0.1 port in a thread, signs a
browser-like client in through the sign-in form, and then, round after round, asks for the
tracking page ``/shipments/{id}`` (containers, their events, terminal, timeline, map) and for
``/v2/shipments/{id}?include=containers,containers.transport_events,pod_terminal,...`` of the
same shipment, alternating, with the same client. It prints one table per shipment (p50 and
p90 in ms, bytes) and the ratio of the p50s, against the target of at most 2.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import httpx
import uvicorn

from _util import fmt, fmt_ms, machine_lines, render_table
from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.demo import seed_demo
from sealane.service.access.gatekeeper import Caller
from sealane.service.core.paging import PageRequest
from sealane.service.tracking.filters import TrackingFilter
from sealane.service.tracking.shipments import list_shipments

INCLUDE = ",".join(
    (
        "containers",
        "containers.transport_events",
        "pod_terminal",
        "port_of_lading",
        "port_of_discharge",
        "pod_vessel",
    )
)
TARGET = 2.0


def serve(database: Path) -> tuple[str, str, dict[str, str], uvicorn.Server]:
    """The demo served on a free port: (base URL, routing key, shipment ids, server)."""
    clock = ManualClock(datetime(2026, 11, 21, 12, 0, tzinfo=UTC))
    settings = Settings(database_url=f"sqlite:///{database}", rate_limit_per_minute=1_000_000)
    app = create_app(settings, clock=clock)
    keys = seed_demo(app.state.sealane)
    caller = Caller(keys[0][1].account_id, routing_enabled=True)
    ids = {}
    for number in ("TESTDEMO0001", "TESTDEMO0002"):
        page = list_shipments(
            app.state.sealane.context, caller, TrackingFilter(number=number), PageRequest(1, 1)
        )
        ids[number] = page.items[0].id
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    return f"http://127.0.0.1:{port}", keys[0][1].secret, ids, server


def sign_in(client: httpx.Client, key: str) -> None:
    """Sign ``client`` in through the form, as a browser does."""
    form = client.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token is not None
    done = client.post("/sign-in", data={"csrf_token": token.group(1), "api_key": key})
    assert done.status_code == 303, done.text


def measure(
    client: httpx.Client, urls: dict[str, tuple[str, dict[str, str]]], rounds: int
) -> dict[str, list[float]]:
    """Milliseconds per request of each URL, the URLs taken in turn every round."""
    times: dict[str, list[float]] = {name: [] for name in urls}
    sizes: dict[str, int] = {}
    for _ in range(3):  # warm-up
        for url, headers in urls.values():
            client.get(url, headers=headers).raise_for_status()
    for _ in range(rounds):
        for name, (url, headers) in urls.items():
            start = time.perf_counter()
            response = client.get(url, headers=headers)
            times[name].append((time.perf_counter() - start) * 1e3)
            assert response.status_code == 200, (url, response.status_code)
            sizes[name] = len(response.content)
    times.update({f"{name} bytes": [float(size)] for name, size in sizes.items()})
    return times


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="requests of each kind")
    args = parser.parse_args(argv)
    print("\n".join(machine_lines(["sealane", "starlette", "jinja2", "uvicorn", "sqlalchemy"])))
    with tempfile.TemporaryDirectory() as folder:
        base, key, ids, server = serve(Path(folder) / "sealane.db")
        try:
            with httpx.Client(base_url=base, headers={"Accept-Encoding": "identity"}) as client:
                sign_in(client, key)
                api = {"Authorization": f"Token {key}", "Accept": "application/vnd.api+json"}
                for number, shipment_id in ids.items():
                    urls = {
                        "tracking page (HTML)": (f"/shipments/{shipment_id}", {}),
                        "JSON:API document": (
                            f"/v2/shipments/{shipment_id}?include={INCLUDE}",
                            api,
                        ),
                    }
                    times = measure(client, urls, args.rounds)
                    report(number, times, args.rounds)
        finally:
            server.should_exit = True
    print("The machine is shared with other work: compare the columns of one run, not runs.")


def report(number: str, times: dict[str, list[float]], rounds: int) -> None:
    """One table for one shipment, and the verdict on the ratio of the p50s."""
    rows = []
    for name in ("tracking page (HTML)", "JSON:API document"):
        samples = times[name]
        p90 = statistics.quantiles(samples, n=10)[-1]
        rows.append(
            [name, fmt_ms(statistics.median(samples)), fmt_ms(p90), fmt(times[f"{name} bytes"][0])]
        )
    page, doc = (statistics.median(times[n]) for n in ("tracking page (HTML)", "JSON:API document"))
    title = f"Shipment {number}: {rounds} requests of each, alternating, one client, one process"
    print(render_table(title, ["request", "p50 ms", "p90 ms", "bytes"], rows))
    verdict = "met" if page / doc <= TARGET else "NOT met"
    ratio = page / doc
    print(f"p50 tracking page / p50 JSON:API document = {ratio:.2f} ", end="")
    print(f"(target <= {TARGET}: {verdict})\n")


if __name__ == "__main__":
    main()

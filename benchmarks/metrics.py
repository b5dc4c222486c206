"""What a ``GET /metrics`` scrape costs beside a ``GET /healthz``, before and after the kept text.

Run ``.venv/bin/python benchmarks/metrics.py [--before REF] [--requests N]``. For this checkout
and, with ``--before``, the ``src`` of another commit (checked out into a temporary worktree; the
compiled kernels are copied from this checkout, whose C sources must be the same), it starts
``sealane serve`` on a fresh SQLite file, sends requests over some twenty routes so the
registry holds several hundred series, then times ``/healthz`` and ``/metrics`` one after the
other, alternating, on one keep-alive connection, and prints the medians and their ratio (the
issue's target: a scrape costs a few times a ``/healthz``, not ten). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

from _util import machine_lines, render_table
from api import Service, running_service

ROOT = Path(__file__).resolve().parents[1]
#: Paths sent to fill the registry: list pages, unknown objects (404), a bad parameter (400).
FILL_PATHS = (
    "/shipments",
    "/containers",
    "/tracking_requests",
    "/webhooks",
    "/webhook_notifications",
    "/shipping_lines",
    "/ports/NLRTM",
    "/ports/CNSHA",
    "/terminals",
    "/custom_field_definitions",
    "/shipments/none",
    "/containers/none",
    "/tracking_requests/none",
    "/webhooks/none",
    "/vessels/none",
    "/shipments?page[size]=0",
    "/containers?include=nothing",
    "/nothing-here",
)


@contextmanager
def checkout(ref: str) -> Iterator[str]:
    """``ref``'s ``src`` in a temporary worktree, with this checkout's compiled kernels."""
    with tempfile.TemporaryDirectory(prefix="sealane-before-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), ref],
            check=True,
        )
        try:
            for built in (ROOT / "src").rglob("*.so"):
                shutil.copy2(built, tree / built.relative_to(ROOT))
            yield str(tree / "src")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
            )


def fill(client: httpx.Client, service: Service) -> None:
    for _ in range(3):
        for path in FILL_PATHS:
            client.get(service.base_url + path, headers=service.auth)


def timed_ms(client: httpx.Client, url: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = (time.perf_counter() - started) * 1000.0
    assert response.status_code == 200, response.text[:200]
    return elapsed


def measure(label: str, source: str | None, requests: int) -> list[str]:
    with running_service(source) as service, httpx.Client(timeout=30.0) as client:
        fill(client, service)
        origin = service.base_url.removesuffix("/v2")
        series = sum(
            1
            for line in client.get(origin + "/metrics").text.splitlines()
            if not line.startswith("#")
        )
        health, metrics = [], []
        for _ in range(requests):
            health.append(timed_ms(client, origin + "/healthz"))
            metrics.append(timed_ms(client, origin + "/metrics"))
        made = []
        for _ in range(5):  # a scrape after the window: the text made anew
            time.sleep(2.1)
            made.append(timed_ms(client, origin + "/metrics"))
    h, m = statistics.median(health), statistics.median(metrics)
    return [
        label,
        str(series),
        f"{h:.3f}",
        f"{m:.3f}",
        f"{m / h:.1f}x",
        f"{statistics.median(made):.3f}",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=None, help="a commit to compare with (its src)")
    parser.add_argument("--requests", type=int, default=300, help="timed requests of each path")
    args = parser.parse_args(argv)
    for line in machine_lines(["prometheus-client", "starlette"]):
        print(line)
    rows = []
    if args.before:
        with checkout(args.before) as source:
            rows.append(measure(f"before ({args.before})", source, args.requests))
    rows.append(measure("this checkout", None, args.requests))
    header = ["server", "series", "/healthz p50 ms", "/metrics p50 ms", "ratio", "made anew p50 ms"]
    print(
        render_table("GET /metrics beside GET /healthz (sequential, one connection)", header, rows)
    )


if __name__ == "__main__":
    main()

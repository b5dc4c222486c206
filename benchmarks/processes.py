"""Several processes on one PostgreSQL database under wrk, with tracking and webhooks going on.

Run ``.venv/bin/python benchmarks/processes.py`` (``--duration S``, default 60; ``--requests N``,
default 80; ``--api-processes N`` and ``--workers W``, default 2 and 2; ``--only split|single``).
On the tests' private throwaway PostgreSQL server (``tests/pg.py``) it runs, for each layout,
the commands of the README's "Deployment" section on a fresh database: ``sealane migrate``,
then either ``sealane serve --workers N`` beside W ``sealane worker`` (``split``) or one
``sealane serve`` doing everything (``single``). A webhook subscribes every event for a local
receiver (127.0.0.1, recording each ``webhook-id``); wrk (``-t2 -c16``, a Lua script rotating
over list pages and single tracking requests) loads the API for the whole duration while N
tracking requests with the simulated carrier are created in its first third. Afterwards it waits
until every request is looked up and every notification delivered, and prints one table per
layout: wrk's throughput, latency and failures, the notifications and their deliveries
(duplicates by ``webhook-id``), how long the last ones took, and each worker's share. Nothing is
asserted; the figures are printed. Needs ``wrk`` (``apt-get install wrk``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import pg
from tests.webhooks.receiver import receiving

from _util import fmt, fmt_ms, machine_lines, render_table
from api import HOST, free_port, wait_ready, wrk_ms, wrk_version
from sealane.store.database import make_engine, session_factory
from sealane.store.models import OutboxEvent, TrackingRequest, WebhookNotification
from sealane.vocabulary.events import EVENT_NAMES

SEALANE = Path(sys.executable).parent / "sealane"
JSONAPI = "application/vnd.api+json"
#: What wrk requests, in turn: list pages and (filled in once known) single tracking requests.
LIST_PATHS = (
    "/tracking_requests?page[size]=30",
    "/shipments?include=containers&page[size]=30",
    "/containers?page[size]=30",
    "/webhook_notifications?page[size]=30",
)
SETTLE_TIMEOUT_S = 600.0
CLIENTS = 16


class Service:
    """What wrk needs of a running layout."""

    def __init__(self, base_url: str, key: str) -> None:
        self.base_url = base_url
        self.key = key


@contextmanager
def process(
    arguments: list[str], env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A ``sealane`` process writing to ``log``; interrupted (then killed) on exit."""
    with log.open("wb") as output:
        child = subprocess.Popen(
            [str(SEALANE), *arguments], stdout=output, stderr=subprocess.STDOUT, env=env
        )
        try:
            yield child
        finally:
            child.send_signal(signal.SIGINT)
            try:
                child.wait(timeout=60)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def sealane(arguments: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([str(SEALANE), *arguments], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"sealane {' '.join(arguments)} failed:\n{done.stderr}")
    return done.stdout


def fresh_database(server_url: str, name: str) -> str:
    """A new database on the server (dropped first if a run left it); its URL."""
    admin = make_engine(server_url).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return server_url.replace("/postgres?", f"/{name}?", 1)


def create_requests(base: str, key: str, count: int, spread_s: float, made: list[str]) -> None:
    """``count`` tracking requests, evenly over ``spread_s`` seconds; their ids into ``made``."""
    headers = {"Authorization": f"Token {key}", "Content-Type": JSONAPI}
    with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
        for n in range(count):
            attributes = {"request_type": "bill_of_lading", "request_number": f"TESTPROC{n:04d}"}
            document = {
                "data": {"type": "tracking_request", "attributes": {**attributes, "scac": "TEST"}}
            }
            response = client.post("/tracking_requests", json=document)
            if response.status_code != 201:
                raise RuntimeError(f"tracking request {n}: {response.status_code} {response.text}")
            made.append(response.json()["data"]["id"])
            time.sleep(spread_s / count)


def wrk_script(directory: Path, request_ids: list[str]) -> Path:
    """A Lua script for wrk that rotates over the list pages and single tracking requests."""
    paths = [f"/v2{path}" for path in LIST_PATHS]
    paths += [f"/v2/tracking_requests/{request_id}" for request_id in request_ids[:20]]
    quoted = ", ".join(f'"{path}"' for path in paths)
    script = directory / "rotate.lua"
    script.write_text(
        f"local paths = {{{quoted}}}\n"
        "local n = 0\n"
        "request = function()\n"
        "  n = n + 1\n"
        '  return wrk.format("GET", paths[(n % #paths) + 1])\n'
        "end\n"
    )
    return script


def settled(sessions: sessionmaker[Session]) -> bool:
    """Every request looked up, every event fanned out and every notification delivered."""
    with sessions() as session:
        waiting = session.scalar(select(func.count()).where(TrackingRequest.status != "created"))
        undispatched = session.scalar(
            select(func.count()).where(OutboxEvent.dispatched_at.is_(None))
        )
        pending = session.scalar(
            select(func.count()).where(WebhookNotification.delivery_status == "pending")
        )
    return bool(waiting == undispatched == pending == 0)


def run_layout(layout: str, args: argparse.Namespace, server_url: str, tmp: Path) -> list[str]:
    """One layout from a fresh database to every notification delivered; its table."""
    url = fresh_database(server_url, f"bench_{layout}")
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("SEALANE_")}
    env = {
        **inherited,
        "SEALANE_DATABASE_URL": url,
        "SEALANE_WEBHOOK_ALLOW_PRIVATE": "1",  # the receiver is on 127.0.0.1
        "SEALANE_RATE_LIMIT_PER_MINUTE": "100000000",
        "SEALANE_WEB_SECRET_FILE": str(tmp / "web-secret"),
    }
    sealane(["migrate"], env)
    key = sealane(["accounts", "create", "Bench Co"], env).strip().splitlines()[-1]
    port = free_port()
    base = f"http://{HOST}:{port}/v2"
    serve = ["serve", "--host", HOST, "--port", str(port)]
    if layout == "split":
        serve += ["--workers", str(args.api_processes)]
    worker_logs = [tmp / f"{layout}-worker{n}.log" for n in range(args.workers)]
    with ExitStack() as stack:
        receiver = stack.enter_context(receiving())
        api = stack.enter_context(process(serve, env, tmp / f"{layout}-serve.log"))
        wait_ready(api, base, tmp / f"{layout}-serve.log")
        if layout == "split":
            for log in worker_logs:
                stack.enter_context(process(["worker"], env, log))
        headers = {"Authorization": f"Token {key}", "Content-Type": JSONAPI}
        attributes = {"url": receiver.url, "events": list(EVENT_NAMES)}
        hook = httpx.post(
            f"{base}/webhooks",
            json={"data": {"type": "webhook", "attributes": attributes}},
            headers=headers,
        )
        hook.raise_for_status()
        made: list[str] = []
        maker = threading.Thread(
            target=create_requests, args=(base, key, args.requests, args.duration / 3, made)
        )
        maker.start()
        time.sleep(2)  # the first requests exist, for the single-object paths
        script = wrk_script(tmp, made)
        run = run_wrk_script(Service(base, key), script, args.duration)
        maker.join()
        created_all = time.monotonic()
        engine = make_engine(url)
        sessions = session_factory(engine)
        while not settled(sessions):
            if time.monotonic() - created_all > SETTLE_TIMEOUT_S:
                raise RuntimeError("not settled in time")
            time.sleep(0.5)
        settle_s = time.monotonic() - created_all
        with sessions() as session:
            notifications = session.scalar(select(func.count()).select_from(WebhookNotification))
            attempts = session.scalar(select(func.sum(WebhookNotification.attempts)))
            retried = session.scalar(select(func.count()).where(TrackingRequest.retry_count > 0))
        engine.dispose()
        received = Counter(r.headers["webhook-id"] for r in receiver.received)
    shares = [delivered_by(log) for log in worker_logs] if layout == "split" else []
    label = (
        f"{args.api_processes} API processes + {args.workers} workers"
        if layout == "split"
        else "1 process (serve, background in it)"
    )
    rows = [
        ["wrk requests / s", fmt(run.per_s, 0)],
        ["wrk p50 / p99 ms", f"{fmt_ms(run.p50_ms)} / {fmt_ms(run.p99_ms)}"],
        ["wrk non-2xx / socket errors", f"{fmt(run.non_2xx)} / {fmt(run.socket_errors)}"],
        ["tracking requests (retried)", f"{fmt(len(made))} ({fmt(retried)})"],
        ["notifications / attempts", f"{fmt(notifications)} / {fmt(attempts)}"],
        ["delivered ids / deliveries", f"{fmt(len(received))} / {fmt(sum(received.values()))}"],
        ["delivered twice", fmt(sum(1 for n in received.values() if n > 1))],
        ["settled after last request, s", fmt(settle_s, 1)],
    ]
    if shares:
        rows.append(["deliveries per worker", " / ".join(fmt(n) for n in shares)])
    return render_table(f"{label}, {args.duration:g} s of wrk", ["", "figure"], rows).splitlines()


@dataclass
class WrkRun:
    """What wrk reported."""

    per_s: float
    p50_ms: float | None
    p99_ms: float | None
    non_2xx: int
    socket_errors: int


def run_wrk_script(service: Service, script: Path, duration_s: float) -> WrkRun:
    """``wrk -t2 -c16 --latency -s script`` against the API for ``duration_s`` seconds."""
    command = ["wrk", "-t2", f"-c{CLIENTS}", f"-d{max(1, round(duration_s))}s", "--latency"]
    command += ["-s", str(script), "-H", f"Authorization: Token {service.key}"]
    out = subprocess.run([*command, service.base_url], capture_output=True, text=True, check=True)
    text_out = out.stdout
    per_s = re.search(r"Requests/sec:\s+([\d.]+)", text_out)
    if per_s is None:
        raise RuntimeError(f"unexpected wrk output:\n{text_out}")
    p50 = re.search(r"^\s+50%\s+(\S+)", text_out, re.MULTILINE)
    p99 = re.search(r"^\s+99%\s+(\S+)", text_out, re.MULTILINE)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text_out)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text_out
    )
    return WrkRun(
        per_s=float(per_s[1]),
        p50_ms=wrk_ms(p50[1]) if p50 else None,
        p99_ms=wrk_ms(p99[1]) if p99 else None,
        non_2xx=int(non_2xx[1]) if non_2xx else 0,
        socket_errors=sum(int(n) for n in sockets.groups()) if sockets else 0,
    )


def delivered_by(log: Path) -> int:
    """The delivery attempts a worker logged."""
    found = re.findall(r"(\d+) delivery attempts", log.read_text(errors="replace"))
    return sum(int(n) for n in found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of wrk per layout")
    parser.add_argument("--requests", type=int, default=80, help="tracking requests per layout")
    parser.add_argument("--api-processes", type=int, default=2, help="serve --workers N")
    parser.add_argument("--workers", type=int, default=2, help="sealane worker processes")
    parser.add_argument("--only", choices=["split", "single"], default=None)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    print("\n".join(machine_lines(["sqlalchemy", "psycopg", "uvicorn"])))
    print(f"wrk     : {wrk_version()}\n")
    layouts = [args.only] if args.only else ["single", "split"]
    with pg.postgres_server() as server_url, tempfile.TemporaryDirectory() as tmp:
        for layout in layouts:
            print(
                "\n".join(run_layout(layout, args, server_url, Path(tmp))), end="\n\n", flush=True
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

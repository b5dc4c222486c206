"""Webhook delivery: N real transport events to a local receiver that fails a seeded share.

Run ``.venv/bin/python benchmarks/webhooks.py`` (``--events N``, ``--failure-rate F``, ``--seed S``,
``--timeout S``). For each configuration (one ``DeliveryWorker``, then two on the same database)
it builds a fresh SQLite service, creates real transport events through the simulated TEST
carrier, subscribes a webhook through the API, writes one outbox row per event and drives the
workers until every notification has succeeded (or the timeout). The receiver is a threaded
``http.server`` on 127.0.0.1; nothing else is contacted. It prints plain-text tables and asserts
nothing about timings.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import inspect
import math
import os
import random
import sqlite3
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from unittest.mock import patch

import httpx
import numpy as np
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select

from _util import fmt, machine_lines, render_table
from sealane.api.app import create_app
from sealane.clock import SystemClock
from sealane.config import Settings
from sealane.runtime import delivery_worker
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import (
    OutboxEvent,
    TransportEvent,
    WebhookNotification,
    WebhookNotificationLog,
)
from sealane.tracking.carrier_sync import emit
from sealane.webhooks import delivery
from sealane.webhooks.delivery import DeliveryWorker
from sealane.webhooks.notifications import fan_out

HOST = "127.0.0.1"
SCHEDULE = (1, 1, 2, 2, 4, 4, 8, 8)
#: Only used in the ``links`` of rendered bodies; never contacted.
BASE_URL = f"http://{HOST}:8000/v2"
JSONAPI = "application/vnd.api+json"
#: How long a driver sleeps when a pass found nothing due.
IDLE_S = 0.05
#: How often the main thread checks whether every notification has settled.
POLL_S = 0.1
#: Tracking requests made per transport event still missing (a request gives about 13).
REQUESTS_PER_EVENT = 0.1
PACKAGES = ["sealane", "fastapi", "starlette", "httpx", "httpcore", "sqlalchemy", "orjson"]

P = ParamSpec("P")
R = TypeVar("R")


# -- the receiver ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hit:
    """One POST seen by the receiver."""

    webhook_id: str
    status: int
    at: float
    signature_ok: bool


def signature_ok(secret: str, headers: Message, body: bytes) -> bool:
    """Whether ``webhook-signature`` is the Standard Webhooks HMAC of id, timestamp and body."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers.get('webhook-id')}.{headers.get('webhook-timestamp')}.".encode() + body
    expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    given = (headers.get("webhook-signature") or "").split()
    return any(hmac.compare_digest(expected, value) for value in given)


class Receiver:
    """A threaded HTTP server on 127.0.0.1 answering 500 to a seeded random share of POSTs.

    The outcomes come from one ``random.Random(seed)`` in arrival order, so their sequence is
    reproducible; which notification gets which outcome depends on thread scheduling.
    """

    def __init__(self, failure_rate: float, seed: int) -> None:
        self.failure_rate = failure_rate
        self.secret = ""
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._hits: list[Hit] = []
        self._succeeded: set[str] = set()
        self._server = ThreadingHTTPServer((HOST, 0), handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The webhook URL of this receiver."""
        return f"http://{HOST}:{self._server.server_address[1]}/hook"

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def answer(self, headers: Message, body: bytes) -> int:
        """Decide and log the status for one POST."""
        valid = signature_ok(self.secret, headers, body)
        webhook_id = headers.get("webhook-id") or ""
        with self._lock:
            status = 500 if self._rng.random() < self.failure_rate else 204
            self._hits.append(Hit(webhook_id, status, time.time(), valid))
            if status == 204:
                self._succeeded.add(webhook_id)
        return status

    def succeeded_count(self) -> int:
        """Distinct webhook ids answered 204 so far."""
        with self._lock:
            return len(self._succeeded)

    def hits(self) -> list[Hit]:
        """Every POST seen so far, in arrival order."""
        with self._lock:
            return list(self._hits)


def handler_for(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    """A keep-alive request handler that asks ``receiver`` for each POST's status."""

    class Handler(BaseHTTPRequestHandler):
        """Answers POST with 204, or 500 with a short body."""

        protocol_version = "HTTP/1.1"
        #: Headers and body go out in two writes; with Nagle on, the body of a 500 would wait
        #: for the client's delayed ACK (about 40 ms on loopback).
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            """Read the body, then answer."""
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status = receiver.answer(self.headers, body)
            self.send_response(status)
            payload = b"simulated failure" if status == 500 else b""
            if payload:
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            """Stay quiet."""

    return Handler


# -- timing the worker's phases ---------------------------------------------------------------


class Phases:
    """Seconds spent per named phase, summed over calls and threads (thread-safe)."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self._lock = threading.Lock()

    def add(self, name: str, seconds: float) -> None:
        """Count one call of ``name`` that took ``seconds``."""
        with self._lock:
            self.seconds[name] += seconds
            self.calls[name] += 1

    def wrap(self, name: str, fn: Callable[P, R]) -> Callable[P, R]:
        """``fn``, timed under ``name``."""

        def timed(*args: P.args, **kwargs: P.kwargs) -> R:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(name, time.perf_counter() - start)

        return timed


class TimedPool:
    """A stand-in for the worker's executor that times each ``map`` (the send phase, wall)."""

    def __init__(self, pool: ThreadPoolExecutor, phases: Phases) -> None:
        self._pool = pool
        self._phases = phases

    def map(self, fn: Callable[[Any], R], items: Sequence[Any]) -> list[R]:
        """All results of ``fn`` over ``items``, in order, computed by the pool."""
        start = time.perf_counter()
        results = list(self._pool.map(fn, items))
        if items:
            self._phases.add("send", time.perf_counter() - start)
        return results

    def shutdown(self, wait: bool = True) -> None:
        """Shut the real pool down."""
        self._pool.shutdown(wait=wait)


def instrument(worker: DeliveryWorker, phases: Phases) -> None:
    """Time the worker's rendering, claim, sends, HTTP round trips and records in ``phases``."""
    worker.render = phases.wrap("render", worker.render)
    worker._claim = phases.wrap("claim", worker._claim)  # type: ignore[method-assign]
    worker._send = phases.wrap("send job", worker._send)  # type: ignore[method-assign]
    worker._record = phases.wrap("record", worker._record)  # type: ignore[method-assign]
    worker.sender = phases.wrap("http", worker.sender)
    worker._pool = TimedPool(worker._pool, phases)  # type: ignore[assignment]


@contextmanager
def timed_fan_out(phases: Phases) -> Iterator[None]:
    """Time ``fan_out`` (rendering included, commit excluded) for every worker meanwhile."""
    with patch.object(delivery, "fan_out", phases.wrap("fan-out", fan_out)):
        yield


# -- setting up the service -------------------------------------------------------------------


@dataclass(frozen=True)
class Service:
    """A fresh app on a temporary SQLite file, with an account and real transport events."""

    app: FastAPI
    settings: Settings
    client: TestClient
    account_id: str
    key: str
    events: list[tuple[str, str]]
    requests: int
    setup_s: float

    def headers(self) -> dict[str, str]:
        """Headers of a JSON:API write by the benchmark account."""
        return {"Authorization": f"Token {self.key}", "Content-Type": JSONAPI}


def request_document(number: str) -> dict[str, Any]:
    """A bill-of-lading tracking request for the simulated TEST carrier."""
    attributes = {"request_type": "bill_of_lading", "request_number": number, "scac": "TEST"}
    return {"data": {"type": "tracking_request", "attributes": attributes}}


def transport_events(app: FastAPI) -> list[tuple[str, str]]:
    """(event name, id) of every transport event, in a stable order."""
    with app.state.sealane.sessions() as session:
        rows = session.execute(
            select(TransportEvent.event, TransportEvent.id).order_by(
                TransportEvent.timestamp, TransportEvent.id
            )
        ).all()
    return [(event, event_id) for event, event_id in rows]


def track_until(
    client: TestClient, app: FastAPI, key: str, wanted: int
) -> tuple[int, list[tuple[str, str]]]:
    """Create TEST tracking requests and tick until ``wanted`` transport events exist."""
    headers = {"Authorization": f"Token {key}", "Content-Type": JSONAPI}
    made, events = 0, transport_events(app)
    while len(events) < wanted:
        batch = max(5, math.ceil((wanted - len(events)) * REQUESTS_PER_EVENT))
        for _ in range(batch):
            response = client.post(
                "/v2/tracking_requests", json=request_document(f"WHB{made:07d}"), headers=headers
            )
            if response.status_code != 201:
                raise RuntimeError(f"tracking request refused: {response.text[:300]}")
            made += 1
        app.state.sealane.tracking.tick()
        events = transport_events(app)
    return made, events[:wanted]


def build_service(directory: Path, wanted: int) -> Service:
    """The app on a fresh database, an account, and ``wanted`` real transport events."""
    start = time.perf_counter()
    settings = Settings(
        database_url=f"sqlite:///{directory / 'sealane.db'}",
        rate_limit_per_minute=10_000_000,
        webhook_allow_private=True,
        webhook_retry_schedule=SCHEDULE,
        base_url=BASE_URL,
    )
    app = create_app(settings, clock=SystemClock())
    with transaction(app.state.sealane.sessions) as session:
        key = create_account(session, "webhook bench", routing=False)
    client = TestClient(app)
    requests, events = track_until(client, app, key.secret, wanted)
    with transaction(app.state.sealane.sessions) as session:
        session.execute(delete(OutboxEvent))  # the setup's own rows: no webhook saw them
    elapsed = time.perf_counter() - start
    return Service(app, settings, client, key.account_id, key.secret, events, requests, elapsed)


def create_webhook(service: Service, url: str) -> str:
    """Subscribe ``url`` to the event names in use through the API; the signing secret."""
    names = sorted({name for name, _ in service.events})
    document = {"data": {"type": "webhook", "attributes": {"url": url, "events": names}}}
    response = service.client.post("/v2/webhooks", json=document, headers=service.headers())
    if response.status_code != 201:
        raise RuntimeError(f"webhook refused: {response.text[:300]}")
    secret: str = response.json()["data"]["attributes"]["secret"]
    return secret


def emit_events(service: Service) -> float:
    """One outbox row per transport event, in one transaction; the wall time before it."""
    started = time.time()
    with transaction(service.app.state.sealane.sessions) as session:
        for name, event_id in service.events:
            emit(session, service.account_id, name, "transport_event", event_id, datetime.now(UTC))
    return started


# -- driving the workers ----------------------------------------------------------------------


@dataclass
class Driver:
    """What the driving threads saw: passes, idle passes, and exceptions out of ``run_once``."""

    passes: int = 0
    idle: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    samples: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def failed(self, error: Exception) -> None:
        """Count one pass that raised."""
        name = type(error).__name__
        with self.lock:
            self.errors[name] += 1
            self.samples.setdefault(name, str(error).splitlines()[0][:160])


def drive(worker: DeliveryWorker, phases: Phases, driver: Driver, stop: threading.Event) -> None:
    """Call ``run_once`` until ``stop``, sleeping briefly whenever nothing was due."""
    while not stop.is_set():
        start = time.perf_counter()
        try:
            sent = worker.run_once()
        except Exception as error:  # a pass may fail (e.g. two workers fanning out at once)
            driver.failed(error)
            sent = 0
        phases.add("pass", time.perf_counter() - start)
        with driver.lock:
            driver.passes += 1
            driver.idle += sent == 0
        if sent == 0:
            start = time.perf_counter()
            stop.wait(IDLE_S)
            phases.add("idle", time.perf_counter() - start)


def settled(app: FastAPI) -> bool:
    """Whether no outbox row is undispatched and no notification is pending."""
    with app.state.sealane.sessions() as session:
        undispatched = session.scalar(
            select(func.count()).where(OutboxEvent.dispatched_at.is_(None))
        )
        pending = session.scalar(
            select(func.count()).where(WebhookNotification.delivery_status == "pending")
        )
    return not undispatched and not pending


def wait_until_done(service: Service, receiver: Receiver, deadline: float) -> bool:
    """Wait until every notification succeeded or settled; False on timeout."""
    wanted = len(service.events)
    checked = time.monotonic()
    while time.monotonic() < deadline:
        if receiver.succeeded_count() >= wanted:
            return True
        if time.monotonic() - checked >= 1.0:
            checked = time.monotonic()
            if settled(service.app):
                return True
        time.sleep(POLL_S)
    return False


# -- one configuration ------------------------------------------------------------------------


@dataclass(frozen=True)
class Notification:
    """A notification's final state and its attempts as logged by the workers."""

    id: str
    created_at: float
    status: str
    attempts: int
    logs: int
    distinct_logged_attempts: int


@dataclass
class Run:
    """Everything measured for one configuration."""

    label: str
    workers: int
    wanted: int
    requests: int
    setup_s: float
    mix: Counter[str]
    t0: float
    timed_out: bool
    outbox_rows: int
    undispatched: int
    payload_bytes: float
    notifications: list[Notification]
    hits: list[Hit]
    phases: Phases
    driver: Driver


def collect(app: FastAPI) -> tuple[int, int, list[Notification]]:
    """Outbox rows, undispatched rows and every notification with its logged attempts."""
    with app.state.sealane.sessions() as session:
        outbox = session.scalar(select(func.count()).select_from(OutboxEvent)) or 0
        undispatched = (
            session.scalar(select(func.count()).where(OutboxEvent.dispatched_at.is_(None))) or 0
        )
        logged: defaultdict[str, list[int]] = defaultdict(list)
        for notification_id, attempt in session.execute(
            select(WebhookNotificationLog.notification_id, WebhookNotificationLog.attempt)
        ):
            logged[notification_id].append(attempt)
        rows = session.execute(
            select(
                WebhookNotification.id,
                OutboxEvent.created_at,
                WebhookNotification.delivery_status,
                WebhookNotification.attempts,
            ).join(OutboxEvent, OutboxEvent.id == WebhookNotification.outbox_event_id)
        ).all()
    notifications = [
        Notification(
            nid, created.timestamp(), status, attempts, len(logged[nid]), len(set(logged[nid]))
        )
        for nid, created, status, attempts in rows
    ]
    return outbox, undispatched, notifications


def delivery_workers(service: Service, count: int) -> list[DeliveryWorker]:
    """The app's own worker plus ``count - 1`` more on the same database."""
    state = service.app.state.sealane
    extra = [
        delivery_worker(service.settings, state.sessions, state.clock) for _ in range(count - 1)
    ]
    return [state.webhooks, *extra]


@dataclass(frozen=True)
class Delivery:
    """The outcome of driving the workers: start time, whether it finished, timings."""

    t0: float
    done: bool
    phases: Phases
    driver: Driver


def deliver(
    service: Service, receiver: Receiver, pool: Sequence[DeliveryWorker], timeout_s: float
) -> Delivery:
    """Emit the outbox rows, then drive every worker in its own thread until done or timeout."""
    phases, driver, stop = Phases(), Driver(), threading.Event()
    for worker in pool:
        instrument(worker, phases)
    threads = [
        threading.Thread(target=drive, args=(worker, phases, driver, stop), daemon=True)
        for worker in pool
    ]
    with timed_fan_out(phases):
        t0 = emit_events(service)
        for thread in threads:
            thread.start()
        try:
            done = wait_until_done(service, receiver, time.monotonic() + timeout_s)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
    return Delivery(t0, done, phases, driver)


def mean_payload_bytes(app: FastAPI) -> float:
    """The mean size of the rendered notification bodies."""
    with app.state.sealane.sessions() as session:
        value = session.scalar(select(func.avg(func.length(WebhookNotification.payload))))
    return float(value or 0.0)


def run_config(label: str, workers: int, args: argparse.Namespace) -> Run:
    """Set up a fresh service, deliver ``args.events`` notifications with ``workers`` workers."""
    with (
        tempfile.TemporaryDirectory(prefix="sealane-webhooks-") as tmp,
        Receiver(args.failure_rate, args.seed) as receiver,
    ):
        service = build_service(Path(tmp), args.events)
        pool = delivery_workers(service, workers)
        try:
            receiver.secret = create_webhook(service, receiver.url)
            result = deliver(service, receiver, pool, args.timeout)
            hits = receiver.hits()
            outbox, undispatched, notifications = collect(service.app)
            payload_bytes = mean_payload_bytes(service.app)
        finally:
            for worker in pool:
                worker.close()
            service.client.close()
            service.app.state.sealane.engine.dispose()
    return Run(
        label=label,
        workers=workers,
        wanted=args.events,
        requests=service.requests,
        setup_s=service.setup_s,
        mix=Counter(name for name, _ in service.events),
        t0=result.t0,
        timed_out=not result.done,
        outbox_rows=outbox,
        undispatched=undispatched,
        payload_bytes=payload_bytes,
        notifications=notifications,
        hits=hits,
        phases=result.phases,
        driver=result.driver,
    )


# -- figures ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    """The reported figures of one run."""

    succeeded: int
    failed: int
    pending: int
    lost: int
    wall_s: float | None
    first_wave_s: float | None
    attempts: int
    requests: int
    histogram: Counter[int]
    latencies_s: list[float]
    first_latencies_s: list[float]
    retried_ids: int
    after_success: int
    double_2xx: int
    double_sent: int
    bad_signatures: int
    unknown_ids: int


def receiver_checks(run: Run) -> tuple[int, int, int, int, int]:
    """Ids seen more than once, requests after a 2xx, ids answered 2xx twice, bad, unknown."""
    known = {n.id for n in run.notifications}
    seen: Counter[str] = Counter()
    ok: Counter[str] = Counter()
    after = 0
    for hit in run.hits:
        after += ok[hit.webhook_id] > 0
        seen[hit.webhook_id] += 1
        ok[hit.webhook_id] += hit.status < 300
    retried = sum(count > 1 for count in seen.values())
    twice = sum(count > 1 for count in ok.values())
    bad = sum(not hit.signature_ok for hit in run.hits)
    return retried, after, twice, bad, sum(wid not in known for wid in seen)


def latencies(run: Run) -> tuple[dict[str, float], list[float], list[float]]:
    """First-2xx time per id, and creation-to-success and creation-to-first-attempt seconds."""
    first_ok: dict[str, float] = {}
    first_hit: dict[str, float] = {}
    for hit in run.hits:
        first_hit.setdefault(hit.webhook_id, hit.at)
        if hit.status < 300:
            first_ok.setdefault(hit.webhook_id, hit.at)
    created = {n.id: n.created_at for n in run.notifications}
    done = [first_ok[i] - created[i] for i in created if i in first_ok]
    first = [first_hit[i] - created[i] for i in created if i in first_hit]
    return first_ok, done, first


def figures(run: Run) -> Figures:
    """Throughput, attempts, latency and the delivery checks of ``run``."""
    statuses = Counter(n.status for n in run.notifications)
    first_ok, done, first = latencies(run)
    first_hits = {hit.webhook_id: hit.at for hit in reversed(run.hits)}
    retried, after, twice, bad, unknown = receiver_checks(run)
    return Figures(
        succeeded=statuses["succeeded"],
        failed=statuses["failed"],
        pending=statuses["pending"],
        lost=run.wanted - statuses["succeeded"],
        wall_s=max(first_ok.values()) - run.t0 if first_ok else None,
        first_wave_s=max(first_hits.values()) - run.t0 if first_hits else None,
        attempts=sum(n.logs for n in run.notifications),
        requests=len(run.hits),
        histogram=Counter(n.logs for n in run.notifications),
        latencies_s=done,
        first_latencies_s=first,
        retried_ids=retried,
        after_success=after,
        double_2xx=twice,
        double_sent=sum(n.logs - n.distinct_logged_attempts for n in run.notifications),
        bad_signatures=bad,
        unknown_ids=unknown,
    )


def pct(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (linear), or None when there are no values."""
    return float(np.percentile(values, q)) if values else None


def per_s(count: int, seconds: float | None) -> float | None:
    """``count`` per second, or None without a duration."""
    return count / seconds if seconds else None


def baseline_ms(body_bytes: int, threads: int, count: int) -> float:
    """Median ms of a bare POST of ``body_bytes`` to a fresh receiver (no failures, no DB)."""
    body = b"x" * body_bytes
    headers = {"webhook-id": "baseline", "webhook-timestamp": "0", "webhook-signature": "v1,"}
    with Receiver(0.0, 0) as receiver, httpx.Client() as client:
        receiver.secret = "whsec_" + base64.b64encode(bytes(24)).decode()

        def post(_index: int) -> float:
            start = time.perf_counter()
            client.post(receiver.url, content=body, headers=headers).raise_for_status()
            return (time.perf_counter() - start) * 1e3

        post(0)
        with ThreadPoolExecutor(max_workers=threads) as pool:
            samples = list(pool.map(post, range(count)))
    return float(np.median(samples))


# -- output -----------------------------------------------------------------------------------


def worker_defaults() -> str:
    """The worker's batch, concurrency and lease defaults, read from its signature."""
    params = inspect.signature(DeliveryWorker.__init__).parameters
    fan_out_batch = inspect.signature(fan_out).parameters["batch"].default
    return (
        f"batch {params['batch'].default}, {params['concurrency'].default} sending threads, "
        f"lease {params['lease_s'].default:g} s, fan-out batch {fan_out_batch}"
    )


def print_header(args: argparse.Namespace) -> None:
    """Machine, versions and the configuration."""
    print("Webhook delivery: sealane DeliveryWorker -> local receiver with random 500s")
    for line in machine_lines(PACKAGES):
        print(line)
    load1, load5, _ = os.getloadavg()
    print(f"sqlite  : {sqlite3.sqlite_version} (WAL, synchronous=NORMAL, as make_engine sets)")
    print(f"load    : {load1:.2f} (1 min), {load5:.2f} (5 min) before the run")
    attempts = len(SCHEDULE) + 1
    print(
        f"config  : {args.events:,} events; receiver answers 500 with probability "
        f"{args.failure_rate:g}, else 204 (random.Random({args.seed}))\n"
        f"          retry schedule {SCHEDULE} s (x0.9-1.1 jitter, unseeded), at most "
        f"{attempts} attempts\n"
        f"          worker defaults: {worker_defaults()}\n"
        f"          driver: run_once() in a loop, {IDLE_S * 1e3:.0f} ms sleep when nothing was "
        f"due; timeout {args.timeout:g} s\n"
        f"          clock: SystemClock; latency = outbox row created_at -> receiver's 204 "
        f"(wall time)\n"
        f"          only {HOST} is contacted (receiver: http.server ThreadingHTTPServer, "
        "HTTP/1.1 keep-alive)"
    )
    print()


def delivery_table(runs: Sequence[Run], figs: Sequence[Figures]) -> str:
    """Table 1: throughput, attempts and latency."""
    headers = ["configuration", "delivered", "wall s", "notif/s", "1st wave s", "1st att/s"]
    headers += ["attempts", "att/notif", "max att", "p50 s", "p99 s", "max s", "1st try p50 s"]
    rows = []
    for run, fig in zip(runs, figs, strict=True):
        mean = fig.attempts / len(run.notifications) if run.notifications else None
        rows.append(
            [
                run.label,
                f"{fig.succeeded:,}/{run.wanted:,}",
                fmt(fig.wall_s, 2),
                fmt(per_s(fig.succeeded, fig.wall_s), 1),
                fmt(fig.first_wave_s, 2),
                fmt(per_s(len(run.notifications), fig.first_wave_s), 1),
                fmt(fig.attempts),
                fmt(mean, 3),
                fmt(max(fig.histogram, default=None)),
                fmt(pct(fig.latencies_s, 50), 3),
                fmt(pct(fig.latencies_s, 99), 3),
                fmt(max(fig.latencies_s, default=None), 3),
                fmt(pct(fig.first_latencies_s, 50), 3),
            ]
        )
    return render_table("Table 1: delivery", headers, rows)


def checks_table(runs: Sequence[Run], figs: Sequence[Figures]) -> str:
    """Table 2: nothing lost, no duplicate after a success, signatures."""
    headers = ["configuration", "lost", "failed", "pending", "retried ids", "after 2xx"]
    headers += ["2xx twice", "double-sent", "requests", "logged", "bad sig", "pass errors"]
    rows = [
        [
            run.label,
            fmt(fig.lost),
            fmt(fig.failed),
            fmt(fig.pending),
            fmt(fig.retried_ids),
            fmt(fig.after_success),
            fmt(fig.double_2xx),
            fmt(fig.double_sent),
            fmt(fig.requests),
            fmt(fig.attempts),
            fmt(fig.bad_signatures),
            fmt(sum(run.driver.errors.values())),
        ]
        for run, fig in zip(runs, figs, strict=True)
    ]
    return render_table(
        "Table 2: delivery checks (lost, after 2xx, 2xx twice must be 0)", headers, rows
    )


def histogram_table(runs: Sequence[Run], figs: Sequence[Figures], rate: float) -> str:
    """Table 3: attempts per notification against the geometric expectation."""
    limit = len(SCHEDULE) + 1
    top = max([limit, *(max(f.histogram, default=0) for f in figs)])
    n = runs[0].wanted
    headers = ["attempts", "expected", *(run.label for run in runs)]
    rows = [
        [str(k), fmt(n * (1 - rate) * rate ** (k - 1), 1), *(fmt(f.histogram[k]) for f in figs)]
        for k in range(1, top + 1)
    ]
    rows.append(["never 2xx", fmt(n * rate**limit, 2), *(fmt(f.lost) for f in figs)])
    return render_table("Table 3: attempts per notification (logged attempts)", headers, rows)


@dataclass(frozen=True)
class PhaseRow:
    """One row of Table 4: its seconds from the phase sums, what counts as a call."""

    label: str
    seconds: Callable[[Mapping[str, float]], float]
    calls: str
    share: bool = True


PHASE_ROWS = [
    PhaseRow("fan-out: queries, inserts", lambda s: s["fan-out"] - s["render"], "fan-out"),
    PhaseRow("fan-out: rendering bodies", lambda s: s["render"], "render"),
    PhaseRow(
        "fan-out commit, pass overhead",
        lambda s: s["pass"] - s["fan-out"] - s["claim"] - s["send"] - s["record"],
        "pass",
    ),
    PhaseRow("claim (lease transaction)", lambda s: s["claim"], "claim"),
    PhaseRow("send phase (wall)", lambda s: s["send"], "send"),
    PhaseRow("record (1 txn per attempt)", lambda s: s["record"], "record"),
    PhaseRow("= busy (sum of passes)", lambda s: s["pass"], "pass"),
    PhaseRow("idle (nothing due)", lambda s: s["idle"], "idle", share=False),
    PhaseRow("HTTP round trips (threads)", lambda s: s["http"], "http", share=False),
    PhaseRow(
        "URL check + signing (threads)", lambda s: s["send job"] - s["http"], "send job", False
    ),
]


def phases_table(runs: Sequence[Run]) -> str:
    """Table 4: where the time goes, per configuration."""
    headers = ["phase"]
    for run in runs:
        tag = f"[{run.workers}w]"
        headers += [f"{tag} s", f"{tag} % busy", f"{tag} calls", f"{tag} ms/call"]
    rows = []
    for phase in PHASE_ROWS:
        row = [phase.label]
        for run in runs:
            seconds = max(phase.seconds(run.phases.seconds), 0.0)
            busy = run.phases.seconds["pass"]
            calls = run.phases.calls[phase.calls]
            row += [
                fmt(seconds, 2),
                fmt(100 * seconds / busy if busy and phase.share else None, 1),
                fmt(calls),
                fmt(1e3 * seconds / calls if calls else None, 2),
            ]
        rows.append(row)
    return render_table("Table 4: where the time goes (driver threads summed)", headers, rows)


def print_notes(runs: Sequence[Run], figs: Sequence[Figures]) -> None:
    """Setup facts, pass counts and anything that went wrong."""
    print("Notes")
    print("=====")
    for run, fig in zip(runs, figs, strict=True):
        mix = ", ".join(
            f"{name.removeprefix('container.transport.')} {count}"
            for name, count in run.mix.most_common()
        )
        print(
            f"- {run.label}: setup {run.setup_s:.1f} s ({run.requests} TEST tracking requests); "
            f"{run.outbox_rows:,} outbox rows, {run.undispatched} undispatched, "
            f"{len(run.notifications):,} notifications; {run.driver.passes:,} passes "
            f"({run.driver.idle:,} idle)" + ("; TIMED OUT" if run.timed_out else "")
        )
        print(f"  events: {mix}")
        for name, count in run.driver.errors.items():
            print(f"  run_once raised {name} x{count}: {run.driver.samples[name]}")
        if fig.unknown_ids:
            print(f"  {fig.unknown_ids} webhook ids seen by the receiver match no notification")
    size = round(runs[0].payload_bytes)
    print(
        f"- mean rendered body {size:,} bytes. A bare POST of that size to the same kind of "
        f"receiver\n  (same process, no database): p50 {baseline_ms(size, 1, 200):.2f} ms from "
        f"1 thread, {baseline_ms(size, 8, 800):.2f} ms each with 8 threads."
    )
    print(
        "- 'retried ids' are ids the receiver saw more than once; every one of them must have "
        "had a 500\n  before its single 204 ('after 2xx' and '2xx twice' = 0). 'double-sent' "
        "counts attempts\n  logged twice under the same attempt number (two workers holding "
        "the same lease)."
    )
    print(
        "- Table 4 sums the driver threads' wall time (two drivers run at once in the 2-worker "
        "run);\n  the last two rows are thread time inside the sending pools. SQLite has one "
        "writer:\n  claims, fan-out and records of both workers are serialised by its lock."
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000, help="events to deliver (1000)")
    parser.add_argument(
        "--failure-rate", type=float, default=0.3, help="share of requests answered 500 (0.3)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the receiver's outcomes (1)")
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds per configuration (120)"
    )
    args = parser.parse_args(argv)
    if args.events < 1 or not 0.0 <= args.failure_rate < 1.0 or args.timeout <= 0:
        parser.error("--events >= 1, 0 <= --failure-rate < 1 and --timeout > 0 are required")
    return args


def no_proxies() -> None:
    """Drop proxy variables so that httpx sends straight to 127.0.0.1."""
    for name in list(os.environ):
        if name.lower() in {"http_proxy", "https_proxy", "all_proxy"}:
            del os.environ[name]


def main(argv: Sequence[str] | None = None) -> None:
    """Run both configurations and print the tables."""
    args = parse_args(argv)
    no_proxies()
    print_header(args)
    runs = [run_config(f"{n} worker{'s' * (n > 1)}", n, args) for n in (1, 2)]
    figs = [figures(run) for run in runs]
    print(delivery_table(runs, figs))
    print(checks_table(runs, figs))
    print(histogram_table(runs, figs, args.failure_rate))
    print(phases_table(runs))
    print_notes(runs, figs)


if __name__ == "__main__":
    main()

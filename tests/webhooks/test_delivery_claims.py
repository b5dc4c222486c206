"""Several delivery workers on one database never send the same attempt twice.

The interleaving tests are deterministic: worker A is paused right after the SELECT of its claim
(or of its fan-out) by a cursor hook, worker B runs a whole pass meanwhile, then A goes on. With
row locks (PostgreSQL's ``FOR UPDATE SKIP LOCKED``, or a write lock taken before the SELECT on
SQLite) B skips what A holds or waits for it; without them both send.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import Engine, event, select

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.runtime import delivery_worker
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.models import OutboxEvent, WebhookNotification, WebhookNotificationLog
from sealane.tracking.carrier_sync import emit
from sealane.webhooks.delivery import DeliveryWorker

from .receiver import Reply, receiving
from .support import close_app, fan_out_only, logs, notifications
from .world import World, world_on


@contextmanager
def backend_world(settings: Settings, clock: ManualClock) -> Iterator[World]:
    app = create_app(settings, clock=clock)
    try:
        with world_on(app) as world:
            yield world
    finally:
        close_app(app)


@contextmanager
def worker_on(settings: Settings, clock: ManualClock) -> Iterator[tuple[DeliveryWorker, Engine]]:
    """A delivery worker with an engine of its own, as another process would have."""
    engine = make_engine(settings.database_url)
    worker = delivery_worker(settings, session_factory(engine), clock)
    try:
        yield worker, engine
    finally:
        worker.close()
        engine.dispose()


def pause_after(engine: Engine, matches: Callable[[str], bool]) -> tuple[threading.Event, Any]:
    """Hook ``engine``: after its first statement that ``matches``, wait for ``resume`` (max 3 s).

    Returns (``reached``, ``resume``): set when the statement has run, and to set to go on.
    """
    reached, resume = threading.Event(), threading.Event()

    @event.listens_for(engine, "after_cursor_execute")
    def _pause(*args: Any) -> None:
        statement: str = args[2]
        if not reached.is_set() and matches(statement):
            reached.set()
            resume.wait(timeout=3)  # a B that is blocked by A's lock never resumes A

    return reached, resume


def run_in_thread(target: Callable[[], object], errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            target()
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def interleave(a: DeliveryWorker, b: DeliveryWorker, a_engine: Engine, select_of: str) -> None:
    """A pass of ``a`` paused after its SELECT on ``select_of``, a pass of ``b`` in between."""

    def matches(statement: str) -> bool:
        text = statement.lstrip().upper()
        return text.startswith("SELECT") and f"FROM {select_of.upper()}" in text

    reached, resume = pause_after(a_engine, matches)
    errors: list[BaseException] = []
    thread_a = run_in_thread(a.run_once, errors)
    assert reached.wait(timeout=10), "worker A never ran its SELECT"
    thread_b = run_in_thread(b.run_once, errors)
    thread_b.join(timeout=2.5)
    resume.set()
    thread_a.join(timeout=60)
    thread_b.join(timeout=60)
    assert not errors, errors


@pytest.mark.parametrize("answer", [200, 500])
def test_claim__paused_worker_and_another_send_once(
    backend_settings: Settings, clock: ManualClock, answer: int
) -> None:
    """Whether B's attempt succeeds or fails (and is rescheduled), A must not send it again."""
    with (
        backend_world(backend_settings, clock) as world,
        receiving(default=Reply(answer)) as receiver,
    ):
        world.webhook(receiver.url)
        world.event()
        fan_out_only(world.app)
        with (
            worker_on(backend_settings, clock) as (a, a_engine),
            worker_on(backend_settings, clock) as (b, _),
        ):
            interleave(a, b, a_engine, "webhook_notifications")
        ids = [r.headers["webhook-id"] for r in receiver.received]
        notification = world.notification()
        attempt_logs = logs(world.app, notification.id)
    assert ids == [notification.id]
    assert notification.attempts == 1
    assert len(attempt_logs) == 1
    assert notification.delivery_status == ("succeeded" if answer == 200 else "pending")


def test_fan_out__paused_worker_and_another_notify_once(
    backend_settings: Settings, clock: ManualClock
) -> None:
    with backend_world(backend_settings, clock) as world, receiving() as receiver:
        world.webhook(receiver.url)
        world.event()
        with (
            worker_on(backend_settings, clock) as (a, a_engine),
            worker_on(backend_settings, clock) as (b, _),
        ):
            interleave(a, b, a_engine, "outbox_events")
            a.run_once()
            b.run_once()
        ids = [r.headers["webhook-id"] for r in receiver.received]
        rows = notifications(world.app)
    assert len(rows) == 1
    assert ids == [rows[0].id]


# -- three workers, 200 notifications, PostgreSQL --------------------------------------------------


def emit_many(app: FastAPI, account: str, count: int) -> None:
    """``count`` events in the outbox (references need not exist to be delivered)."""
    now = app.state.sealane.clock.now()
    with transaction(app.state.sealane.sessions) as session:
        for index in range(count):
            emit(
                session, account, "tracking_request.succeeded", "tracking_request", f"r{index}", now
            )


def settled(app: FastAPI) -> bool:
    with app.state.sealane.sessions() as session:
        waiting = session.scalar(
            select(OutboxEvent.id).where(OutboxEvent.dispatched_at.is_(None)).limit(1)
        )
        pending = session.scalar(
            select(WebhookNotification.id)
            .where(WebhookNotification.delivery_status == "pending")
            .limit(1)
        )
    return waiting is None and pending is None


def run_workers(settings: Settings, clock: ManualClock, app: FastAPI, count: int) -> None:
    """``count`` workers, each with its own engine, in threads until nothing is left to do."""
    errors: list[BaseException] = []
    start = threading.Barrier(count)
    deadline = time.monotonic() + 60

    def work() -> None:
        with worker_on(settings, clock) as (worker, _):
            start.wait()
            while time.monotonic() < deadline:
                if worker.run_once() == 0 and settled(app):
                    return

    threads = [run_in_thread(work, errors) for _ in range(count)]
    for thread in threads:
        thread.join(timeout=90)
    assert not errors, errors
    assert settled(app), unsettled(app)


def unsettled(app: FastAPI) -> str:
    """What is left, and why (for the failure message)."""
    with app.state.sealane.sessions() as session:
        waiting = session.scalars(select(OutboxEvent).where(OutboxEvent.dispatched_at.is_(None)))
        pending = session.execute(
            select(WebhookNotificationLog.error, WebhookNotificationLog.status_code).where(
                WebhookNotificationLog.notification_id.in_(
                    select(WebhookNotification.id).where(
                        WebhookNotification.delivery_status == "pending"
                    )
                )
            )
        )
        attempts = [tuple(row) for row in pending][:5]
        return f"undispatched {len(list(waiting))}, pending attempts {attempts}"


def test_workers__three_send_each_of_200_notifications_once(
    backend_settings: Settings, clock: ManualClock
) -> None:
    with backend_world(backend_settings, clock) as world, receiving() as receiver:
        world.webhook(receiver.url)
        emit_many(world.app, world.account, 200)
        run_workers(backend_settings, clock, world.app, 3)
        received = Counter(r.headers["webhook-id"] for r in receiver.received)
        rows = notifications(world.app)
        with world.app.state.sealane.sessions() as session:
            attempts = list(session.scalars(select(WebhookNotificationLog.attempt)))
    assert len(rows) == 200  # one per event, although three workers fanned out
    assert set(received) == {row.id for row in rows}
    assert set(received.values()) == {1}  # each webhook-id exactly once
    assert {row.delivery_status for row in rows} == {"succeeded"}
    assert {row.attempts for row in rows} == {1}
    assert sorted(attempts) == [1] * 200

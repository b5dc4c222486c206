"""``sealane webhooks worker`` as a real process: one pass with ``--once``, and a worker killed
(SIGKILL) while its request is in flight, then replaced: the notification still arrives, with
the same ``webhook-id``, and ends ``succeeded``.

The workers run on the system clock; the test's app (manual clock) only creates the webhook and
puts the event in the outbox, which the worker process fans out at its own "now".
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sealane.store.database import transaction
from sealane.store.models import WebhookNotification
from sealane.tracking.outbox import emit

from .receiver import Reply, receiving
from .support import logs, notifications, verify
from .world import World

EVENT = "tracking_request.succeeded"
ENVIRONMENT = {
    "SEALANE_WEBHOOK_ALLOW_PRIVATE": "1",
    "SEALANE_WEBHOOK_RETRY_SCHEDULE": "1,1,1",
}


def worker_command(database_url: str, *options: str) -> list[str]:
    """The ``sealane webhooks worker`` command of this virtual environment."""
    script = shutil.which("sealane", path=str(Path(sys.executable).parent))
    program = [script] if script else [sys.executable, "-m", "sealane.cli"]
    return [*program, "webhooks", "worker", "--database", database_url, *options]


def worker_environment() -> dict[str, str]:
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("SEALANE_")}
    return {**inherited, **ENVIRONMENT}


@contextmanager
def worker_process(
    database_url: str, log: Path, *options: str
) -> Iterator[subprocess.Popen[bytes]]:
    """A running worker process (interrupted, then killed if need be, on exit)."""
    with log.open("wb") as output:
        process = subprocess.Popen(
            worker_command(database_url, *options),
            stdout=output,
            stderr=subprocess.STDOUT,
            env=worker_environment(),
        )
        try:
            yield process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)


def wait_until(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def status(world: World) -> WebhookNotification | None:
    rows = notifications(world.app)
    return rows[0] if rows else None


def test_worker_process__once_delivers_and_exits(world: World) -> None:
    with receiving() as receiver:
        webhook = world.webhook(receiver.url)
        world.event()
        done = subprocess.run(
            worker_command(world.app.state.sealane.settings.database_url, "--once"),
            capture_output=True,
            text=True,
            env=worker_environment(),
            timeout=60,
            check=False,
        )
        [request] = receiver.received
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "1 delivery attempts"
    notification = world.notification()
    assert notification.delivery_status == "succeeded"
    assert request.headers["webhook-id"] == notification.id
    verify(webhook["attributes"]["secret"], request)


@pytest.mark.slow
def test_worker_process__killed_mid_flight_then_replaced(world: World, tmp_path: Path) -> None:
    database_url = world.app.state.sealane.settings.database_url
    # The CLI has --lease: a short one lets the replacement take over the dead worker's claim in
    # 2 s instead of the default 120 s (no need to rewrite locked_until in the database).
    options = ("--interval", "0.1", "--lease", "2")
    with receiving(Reply(delay_s=3.0)) as receiver:  # the first request stalls for 3 s
        webhook = world.webhook(receiver.url)
        world.event()
        with worker_process(database_url, tmp_path / "first.log", *options) as first:
            stalled = receiver.wait_for(1, timeout_s=60)
            assert len(stalled) == 1, (tmp_path / "first.log").read_text()
            assert first.poll() is None
            first.kill()  # SIGKILL while the request is in flight
            first.wait(timeout=10)
        claimed = status(world)
        assert claimed is not None
        assert claimed.delivery_status == "pending"
        assert claimed.locked_until is not None  # the dead worker's claim
        assert logs(world.app, claimed.id) == []  # it never recorded the attempt
        with worker_process(database_url, tmp_path / "second.log", *options):
            wait_until(
                lambda: (row := status(world)) is not None and row.delivery_status == "succeeded",
                timeout_s=60,
                what="the replacement worker to deliver",
            )
        received = receiver.received
    notification = world.notification()
    assert len(received) >= 2  # at least once: the stalled request, then the retry
    assert {r.headers["webhook-id"] for r in received} == {notification.id}
    assert len({r.body for r in received}) == 1
    for request in received:
        verify(webhook["attributes"]["secret"], request)
    assert notification.delivery_status == "succeeded"
    assert [log.status_code for log in logs(world.app, notification.id)] == [200]


@pytest.mark.slow
def test_worker_process__sigterm_with_a_backlog_stops_within_the_grace_period(
    world: World, tmp_path: Path
) -> None:
    """``sealane worker`` with 40 notifications due to a receiver taking 4 s for each (a pass
    of eight sends at a time would take 20 s): SIGTERM while the first sends are in flight
    ends it within an orchestrator's 10 s grace period. The sends in flight are recorded, the
    notifications claimed but not sent are handed back (no lease left), and none is lost."""
    database_url = world.app.state.sealane.settings.database_url
    with transaction(world.app.state.sealane.sessions) as session:
        for occurrence in range(40):
            now = world.app.state.sealane.clock.now()
            emit(
                session,
                world.account,
                EVENT,
                "tracking_request",
                world.request_id,
                now,
                occurrence=occurrence,
            )
    script = shutil.which("sealane", path=str(Path(sys.executable).parent))
    program = [script] if script else [sys.executable, "-m", "sealane.cli"]
    command = [*program, "worker", "--database", database_url, "--interval", "0.1"]
    with receiving(default=Reply(delay_s=4.0)) as receiver:
        world.webhook(receiver.url, [EVENT])
        with (tmp_path / "worker.log").open("wb") as output:
            worker = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, env=worker_environment()
            )
            try:
                assert receiver.wait_for(1, timeout_s=60), (tmp_path / "worker.log").read_text()
                signalled = time.monotonic()
                worker.send_signal(signal.SIGTERM)
                worker.wait(timeout=60)
                stopped_s = time.monotonic() - signalled
            finally:
                if worker.poll() is None:
                    worker.kill()
                    worker.wait(timeout=10)
    shown = (tmp_path / "worker.log").read_text()
    assert worker.returncode == 0, shown
    assert stopped_s < 10, f"stopped {stopped_s:.1f} s after SIGTERM\n{shown}"
    rows = notifications(world.app)
    assert len(rows) == 40
    attempted = [row for row in rows if logs(world.app, row.id)]
    assert 0 < len(attempted) < 40  # the sends in flight were recorded, the rest not sent
    for row in rows:
        assert row.locked_until is None, row.id  # recorded, or handed back for the next worker

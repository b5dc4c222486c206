"""The demo's history tracked on a thread while the service runs: it ends early when asked to
stop, and the next start finishes it, voyage by voyage, without doing any twice."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.demo import DemoHistory
from sealane.runtime import Runtime, build_runtime
from sealane.store.models import TrackingRequest, VesselPortCall
from sealane.tracking.history import seed_history
from tests.templates import prepared_sqlite
from tests.toolkit import START, Scenario

VOYAGES = 6


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    made = build_runtime(
        Settings(database_url=prepared_sqlite(tmp_path / "demo.db")), clock=ManualClock(START)
    )
    yield made
    made.stop()
    made.engine.dispose()


def counts(runtime: Runtime) -> tuple[int, int]:
    """Tracking requests and AIS port calls in the database."""
    with runtime.sessions() as session:
        requests = session.scalar(select(func.count(TrackingRequest.id)))
        calls = session.scalar(select(func.count(VesselPortCall.id)))
    return int(requests or 0), int(calls or 0)


def test_demo_history__tracked_on_a_thread(runtime: Runtime) -> None:
    account = Scenario.on(runtime).account("Demo Co").account_id
    history = DemoHistory(runtime, account, shipments=VOYAGES)
    history.start()
    deadline = time.monotonic() + 120
    while counts(runtime)[1] == 0 and time.monotonic() < deadline:  # the port calls come last
        time.sleep(0.1)
    history.stop()
    requests, calls = counts(runtime)
    assert requests == VOYAGES and calls > 0


def test_demo_history__stopped_then_finished_by_the_next_start(runtime: Runtime) -> None:
    account = Scenario.on(runtime).account("Demo Co").account_id
    history = DemoHistory(runtime, account, shipments=VOYAGES)
    history.start()
    history.stop()  # at once: it ends after the voyage in hand, if any
    done, calls = counts(runtime)
    assert done < VOYAGES and calls == 0
    now = runtime.clock.now()
    assert seed_history(runtime.tracking, account, now, shipments=VOYAGES) == VOYAGES - done
    assert counts(runtime)[0] == VOYAGES and counts(runtime)[1] > 0
    assert seed_history(runtime.tracking, account, now, shipments=VOYAGES) == 0

"""Several pollers on one database: each tracking request and each shipment is worked on by one
poller at a time (:mod:`sealane.tracking.claims`).

Two :class:`TrackingService` instances (two workers, as two ``sealane worker`` processes have)
tick the same database at once from two threads, through a carrier that records which numbers
it is asked about at the same moment. On PostgreSQL, a row another transaction holds is skipped.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import pytest
from sqlalchemy import func, make_url, select
from sqlalchemy.orm import Session

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.runtime import Runtime, build_runtime
from sealane.store.models import OutboxEvent, Shipment, TrackingRequest
from sealane.tracking.carrier_sync import TrackingService
from sealane.tracking.carriers import SimulatedCarrier
from sealane.tracking.carriers.base import LookupResult, Snapshot
from tests.toolkit import START, Scenario

REQUESTS = 24


class WatchedCarrier:
    """The simulated carrier, counting calls per number and the most calls about one number
    in flight at once (each call lingers a little so that overlaps would show)."""

    scacs = frozenset({"TEST"})

    def __init__(self) -> None:
        self.inner = SimulatedCarrier()
        self.lookups: Counter[str] = Counter()
        self.most_at_once: Counter[str] = Counter()
        self._in_flight: Counter[str] = Counter()
        self._lock = threading.Lock()

    def _enter(self, number: str) -> None:
        with self._lock:
            self._in_flight[number] += 1
            self.most_at_once[number] = max(self.most_at_once[number], self._in_flight[number])
        time.sleep(0.005)

    def _leave(self, number: str) -> None:
        with self._lock:
            self._in_flight[number] -= 1

    def lookup(
        self, request_type: str, number: str, *, requested_at: datetime, now: datetime
    ) -> LookupResult:
        with self._lock:
            self.lookups[number] += 1
        self._enter(number)
        try:
            return self.inner.lookup(request_type, number, requested_at=requested_at, now=now)
        finally:
            self._leave(number)

    def snapshot(self, plan_key: tuple[str, str, datetime], now: datetime) -> Snapshot:
        self._enter(plan_key[1])
        try:
            return self.inner.snapshot(plan_key, now)
        finally:
            self._leave(plan_key[1])


def runtime_on(database_url: str) -> Runtime:
    return build_runtime(Settings(database_url=database_url), clock=ManualClock(START))


@pytest.fixture
def runtime(database_url: str) -> Iterator[Runtime]:
    the_runtime = runtime_on(database_url)
    yield the_runtime
    the_runtime.stop()
    the_runtime.engine.dispose()


def add_requests(runtime: Runtime, count: int) -> list[str]:
    """``count`` bill of lading requests with the simulated carrier; their numbers."""
    scenario = Scenario.on(runtime)
    scenario.account("Pollers", routing=False, at=START)
    numbers = [f"TESTCLAIM{n:04d}" for n in range(count)]
    for number in numbers:
        scenario.track("Pollers", number)
    return numbers


def test_two_pollers__each_request_looked_up_once_and_never_twice_at_once(
    runtime: Runtime,
) -> None:
    numbers = add_requests(runtime, REQUESTS)
    carrier = WatchedCarrier()
    workers = [TrackingService(runtime.sessions, runtime.clock, {"TEST": carrier}) for _ in "ab"]
    barrier = threading.Barrier(len(workers))

    def run(worker: TrackingService) -> tuple[int, int, int]:
        barrier.wait()
        first = worker.tick()
        second = worker.tick()  # the shipments the other worker created: synced one at a time
        return first.lookups, first.errors + second.errors, first.skipped + second.skipped

    with ThreadPoolExecutor(len(workers)) as pool:
        reports = list(pool.map(run, workers))
    assert sum(lookups for lookups, _, _ in reports) == REQUESTS
    assert [errors for _, errors, _ in reports] == [0, 0]
    assert carrier.lookups == Counter({number: 1 for number in numbers})
    assert set(carrier.most_at_once.values()) == {1}
    with runtime.sessions() as session:
        statuses = Counter(session.scalars(select(TrackingRequest.status)))
        assert statuses == Counter({"created": REQUESTS})
        assert session.scalar(select(func.count()).select_from(Shipment)) == REQUESTS
        assert len(session.scalars(select(OutboxEvent.id)).all()) > REQUESTS  # events recorded


@pytest.fixture
def postgres_runtime(postgres_database_url: str) -> Iterator[Runtime]:
    """A runtime on PostgreSQL whose statements give up after waiting 10 s for a lock, so a
    poller that waits for a held row (instead of skipping it) fails rather than hangs."""
    url = make_url(postgres_database_url)
    options = f"{url.query['options']} -clock_timeout=10s"
    the_runtime = runtime_on(url.update_query_dict({"options": options}).render_as_string(False))
    yield the_runtime
    the_runtime.stop()
    the_runtime.engine.dispose()


def hold(session: Session, model: type[TrackingRequest] | type[Shipment], row_id: str) -> None:
    """Lock one row in ``session``'s transaction, as a worker in the middle of its poll does."""
    session.execute(select(model).where(model.id == row_id).with_for_update())


def test_postgres__a_request_another_worker_holds_is_skipped_not_awaited(
    postgres_runtime: Runtime,
) -> None:
    add_requests(postgres_runtime, 1)
    with postgres_runtime.sessions() as session:
        request_id = session.scalars(select(TrackingRequest.id)).one()
    with postgres_runtime.sessions() as other:
        with other.begin():
            hold(other, TrackingRequest, request_id)
            report = postgres_runtime.tracking.tick()
            assert (report.lookups, report.skipped, report.errors) == (0, 1, 0)
        report = postgres_runtime.tracking.tick()  # released: now it is looked up
    assert (report.lookups, report.skipped, report.errors) == (1, 0, 0)
    with postgres_runtime.sessions() as session:
        assert session.get(TrackingRequest, request_id).status == "created"  # type: ignore[union-attr]


def test_postgres__a_shipment_another_worker_holds_is_skipped_not_awaited(
    postgres_runtime: Runtime,
) -> None:
    add_requests(postgres_runtime, 1)
    postgres_runtime.tracking.tick()
    postgres_runtime.clock.advance(3600)  # type: ignore[attr-defined]
    with postgres_runtime.sessions() as session:
        shipment_id = session.scalars(select(Shipment.id)).one()
    with postgres_runtime.sessions() as other:
        with other.begin():
            hold(other, Shipment, shipment_id)
            report = postgres_runtime.tracking.tick()
            assert (report.syncs, report.skipped, report.errors) == (0, 1, 0)
        report = postgres_runtime.tracking.tick()
    assert (report.syncs, report.skipped, report.errors) == (1, 0, 0)
    with postgres_runtime.sessions() as session:
        shipment = session.get(Shipment, shipment_id)
        assert shipment is not None
        assert shipment.line_tracking_last_attempted_at == postgres_runtime.clock.now()


def test_a_shipment_synced_at_a_later_time_is_left_alone(runtime: Runtime) -> None:
    """A worker whose pass began before another worker's sync of the same shipment does not
    sync it again with its older time (on either backend: the claim compares times)."""
    add_requests(runtime, 1)
    earlier = runtime.clock.now()
    runtime.clock.advance(3600)  # type: ignore[attr-defined]
    assert runtime.tracking.tick().lookups == 1  # found and synced an hour on
    late = TrackingService(runtime.sessions, ManualClock(earlier), runtime.tracking.carriers)
    report = late.tick()
    assert (report.syncs, report.skipped) == (0, 1)

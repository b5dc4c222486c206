"""A poll pass whose syncs find nothing new commits once, however many shipments it syncs: each
such sync is rolled back, and the pass stamps their attempts' times in one transaction
(``TrackingService._stamp_quiet``); a sync that finds something commits it as before."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, event, func, select

from sealane.clock import ManualClock
from sealane.runtime import Runtime
from sealane.store.database import transaction
from sealane.store.models import OutboxEvent, RouteLocation, Shipment, TransportEvent
from sealane.tracking.carrier_sync import TrackingService
from sealane.tracking.carriers import SimulatedCarrier
from sealane.tracking.carriers.base import LookupResult, Snapshot
from tests.toolkit import START

from .test_claims_polling import add_requests, runtime_on

SHIPMENTS = 5


class StillCarrier:
    """The simulated carrier, reporting every shipment as it was at ``at`` whatever the time
    (its estimates and positions move with the clock otherwise), without the sailing vessel's
    position."""

    scacs = frozenset({"TEST"})

    def __init__(self, at: datetime) -> None:
        self.inner = SimulatedCarrier()
        self.at = at

    def lookup(
        self, request_type: str, number: str, *, requested_at: datetime, now: datetime
    ) -> LookupResult:
        return self.inner.lookup(request_type, number, requested_at=requested_at, now=self.at)

    def snapshot(self, plan_key: tuple[str, str, datetime], now: datetime) -> Snapshot:
        return replace(self.inner.snapshot(plan_key, self.at), vessel_position=None)


@pytest.fixture
def runtime(database_url: str) -> Iterator[Runtime]:
    """A runtime whose shipments were found and synced a first time."""
    the_runtime = runtime_on(database_url)
    add_requests(the_runtime, SHIPMENTS)
    assert the_runtime.tracking.tick().lookups == SHIPMENTS
    yield the_runtime
    the_runtime.stop()
    the_runtime.engine.dispose()


def still(runtime: Runtime) -> TrackingService:
    """A poller of ``runtime``'s database whose carrier reports what it reported at first."""
    return TrackingService(runtime.sessions, runtime.clock, {"TEST": StillCarrier(START)})


class Commits:
    """The engine's commits while it is used as a context manager."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.count = 0

    def _commit(self, *_: object) -> None:
        self.count += 1

    def __enter__(self) -> Commits:
        event.listen(self.engine, "commit", self._commit)
        return self

    def __exit__(self, *_: object) -> None:
        event.remove(self.engine, "commit", self._commit)


def _times(runtime: Runtime) -> set[tuple[object, object]]:
    with runtime.sessions() as session:
        found = session.execute(
            select(
                Shipment.line_tracking_last_attempted_at, Shipment.line_tracking_last_succeeded_at
            )
        )
        return {(row[0], row[1]) for row in found}


def _counts(runtime: Runtime) -> tuple[int, int]:
    with runtime.sessions() as session:
        events = session.scalar(select(func.count()).select_from(TransportEvent))
        outbox = session.scalar(select(func.count()).select_from(OutboxEvent))
        return int(events or 0), int(outbox or 0)


def test_pass_with_nothing_new__one_commit_and_every_attempt_stamped(runtime: Runtime) -> None:
    clock = runtime.clock
    assert isinstance(clock, ManualClock)
    clock.advance(60)
    before = _counts(runtime)
    with Commits(runtime.engine) as commits:
        report = still(runtime).tick()
    assert (report.syncs, report.errors, report.skipped) == (SHIPMENTS, 0, 0)
    assert commits.count == 1
    assert _times(runtime) == {(clock.now(), clock.now())}
    assert _counts(runtime) == before


def test_pass_with_news__the_news_committed_and_the_others_stamped_at_once(
    runtime: Runtime,
) -> None:
    clock = runtime.clock
    assert isinstance(clock, ManualClock)
    with runtime.sessions() as session:
        first = session.scalars(select(Shipment.id).order_by(Shipment.id)).first()
    with transaction(runtime.sessions) as session:  # the first shipment's events, forgotten
        session.query(TransportEvent).filter(TransportEvent.shipment_id == first).delete()
    before = _counts(runtime)
    clock.advance(60)
    with Commits(runtime.engine) as commits:
        report = still(runtime).tick()
    assert (report.syncs, report.errors) == (SHIPMENTS, 0)
    assert commits.count == 2  # the first shipment's sync, then the others' stamps
    assert _counts(runtime)[0] > before[0]  # its events were recorded again
    assert _times(runtime) == {(clock.now(), clock.now())}


def test_pass_without_the_carrier__only_the_attempt_stamped(runtime: Runtime) -> None:
    clock = runtime.clock
    assert isinstance(clock, ManualClock)
    synced = clock.now()
    clock.advance(60)
    blind = TrackingService(runtime.sessions, clock, {})  # no adapter for the shipments' line
    with Commits(runtime.engine) as commits:
        report = blind.tick()
    assert (report.syncs, report.errors) == (SHIPMENTS, 0)
    assert commits.count == 1
    assert _times(runtime) == {(clock.now(), synced)}
    clock.advance(60)
    assert still(runtime).tick().errors == 0
    assert _times(runtime) == {(clock.now(), clock.now())}


def test_moving_estimates_are_news(runtime: Runtime) -> None:
    """A minute on, the simulated carrier's vessels are reported further along: each sync of a
    sailing shipment commits its own."""
    clock = runtime.clock
    assert isinstance(clock, ManualClock)
    clock.advance(60)
    with Commits(runtime.engine) as commits:
        assert runtime.tracking.tick().syncs == SHIPMENTS
    assert commits.count == SHIPMENTS


def _route_locations(runtime: Runtime) -> set[tuple[object, ...]]:
    with runtime.sessions() as session:
        return {tuple(row) for row in session.execute(select(RouteLocation.__table__))}


def _estimates(runtime: Runtime, now: datetime) -> list[object]:
    """Every shipment's call estimates as the simulated carrier states them at ``now``."""
    carrier = SimulatedCarrier()
    with runtime.sessions() as session:
        keys = session.execute(
            select(Shipment.carrier_request_type, Shipment.carrier_number, Shipment.carrier_epoch)
        ).all()
    return [carrier.snapshot((t, n, e), now).call_estimates for t, n, e in keys]


def _quiet_seconds(runtime: Runtime) -> int:
    """A few seconds (5 to 30) after which the carrier states every estimate as it did: they
    are stated to the minute and drift by a fraction of a second every few seconds, so one lying
    at a rounding boundary is restated, a real change the pass must write."""
    now = runtime.clock.now()
    stated = _estimates(runtime, now)
    for seconds in range(5, 31, 5):
        if _estimates(runtime, now + timedelta(seconds=seconds)) == stated:
            return seconds
    raise AssertionError("every moment of the next 30 s restates an estimate")


def _sailing(runtime: Runtime) -> int:
    """How many shipments' vessels the carrier reports at sea at the runtime's time."""
    carrier, now = SimulatedCarrier(), runtime.clock.now()
    with runtime.sessions() as session:
        keys = session.execute(
            select(Shipment.carrier_request_type, Shipment.carrier_number, Shipment.carrier_epoch)
        ).all()
    return sum(carrier.snapshot((t, n, e), now).vessel_position is not None for t, n, e in keys)


def test_sailing_within_the_minute__no_route_location_changes_and_one_commit(
    runtime: Runtime,
) -> None:
    """The real simulated carrier a few seconds later: its vessels have sailed on, but it states
    estimates and positions to the minute, so the pass writes only the attempts' times."""
    clock = runtime.clock
    assert isinstance(clock, ManualClock)
    assert _sailing(runtime) >= 2  # the pass has vessels at sea to report
    calls = _route_locations(runtime)
    assert calls
    before = _counts(runtime)
    clock.advance(_quiet_seconds(runtime))
    with Commits(runtime.engine) as commits:
        report = runtime.tracking.tick()
    assert (report.syncs, report.errors) == (SHIPMENTS, 0)
    assert _route_locations(runtime) == calls
    assert commits.count == 1
    assert _counts(runtime) == before
    assert _times(runtime) == {(clock.now(), clock.now())}

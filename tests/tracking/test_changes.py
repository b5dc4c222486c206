"""Stopping a shipment from two processes at once (:func:`sealane.tracking.changes.stop_tracking`):
one stop, one ``tracking_request.tracking_stopped``, and no error for the one that came second."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select

from sealane.runtime import Runtime
from sealane.service.access.gatekeeper import Caller
from sealane.service.tracking.shipments import set_tracking
from sealane.store.models import OutboxEvent, Shipment
from tests.webhooks.test_delivery_claims import pause_after, run_in_thread

from .test_claims_polling import add_requests, runtime_on

STOPPED = "tracking_request.tracking_stopped"


@pytest.fixture
def two(database_url: str) -> Iterator[tuple[Runtime, Runtime]]:
    """Two runtimes on one database, each with an engine of its own, as two processes have."""
    runtimes = (runtime_on(database_url), runtime_on(database_url))
    yield runtimes
    for runtime in runtimes:
        runtime.stop()
        runtime.engine.dispose()


def stopped_events(runtime: Runtime) -> list[int]:
    with runtime.sessions() as session:
        query = select(OutboxEvent.occurrence).where(OutboxEvent.event == STOPPED)
        return list(session.scalars(query))


@pytest.mark.parametrize("table", ["shipments", "tracking_requests"])
def test_stop_tracking__two_processes_at_once_one_event(
    two: tuple[Runtime, Runtime], table: str
) -> None:
    """A pauses after reading ``table``: after the shipment (still tracked, B stops it in
    between), or after its requests (A holds the shipment, B waits for it)."""
    a, b = two
    add_requests(a, 1)
    a.tracking.tick()
    with a.sessions() as session:
        shipment = session.scalars(select(Shipment)).one()
    caller = Caller(shipment.account_id, routing_enabled=False)

    def read(statement: str) -> bool:
        text = statement.lstrip().upper()
        return text.startswith("SELECT") and f"FROM {table.upper()}" in text

    reached, resume = pause_after(a.engine, read)
    errors: list[BaseException] = []
    thread_a = run_in_thread(
        lambda: set_tracking(a.context, caller, shipment.id, stop=True), errors
    )
    assert reached.wait(timeout=10), f"A never read {table}"
    thread_b = run_in_thread(
        lambda: set_tracking(b.context, caller, shipment.id, stop=True), errors
    )
    thread_b.join(timeout=2.5)
    resume.set()
    thread_a.join(timeout=60)
    thread_b.join(timeout=60)
    assert not errors, errors
    assert stopped_events(a) == [0]

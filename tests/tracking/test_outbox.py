"""The outbox: one row per event, object and occurrence, and ticks at the same time add
nothing."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from sealane.clock import ManualClock
from sealane.store.models import (
    Container,
    ContainerUpdatedEvent,
    EstimatedEvent,
    OutboxEvent,
    Shipment,
    TrackingRequest,
    TransportEvent,
    VesselPosition,
)
from sealane.tracking.catalog import reference_type
from tests.toolkit import START, Scenario, make_app

from .support import (
    CONTAINER,
    HOUR,
    containers_created,
    outbox,
    outbox_counts,
    run_until,
    tick,
)

TABLES = (
    OutboxEvent,
    TransportEvent,
    EstimatedEvent,
    ContainerUpdatedEvent,
    Container,
    Shipment,
    VesselPosition,
)


def table_counts(app: FastAPI) -> dict[str, int]:
    with app.state.sealane.sessions() as session:
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in TABLES
        }


#: How long the requests are followed: their last event comes 40 days 6 hours after START, then
#: nothing more happens (60 days took 80 more ticks and a fifth longer, for nothing new);
#: test_run__voyages_completed fails if the simulated voyages ever outlast it.
FOLLOWED = timedelta(days=45)


@dataclass(frozen=True)
class Run:
    app: FastAPI
    #: request number -> tracking request id
    requests: dict[str, str]
    #: (time, table counts before, after a second tick at the same time)
    repeats: list[tuple[object, dict[str, int], dict[str, int]]]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    """Four requests in two accounts followed every six hours to the end of their voyages."""
    path = tmp_path_factory.mktemp("outbox") / "sealane.db"
    clock = ManualClock(START)
    app = make_app(path, clock=clock, rate_limit_per_minute=100_000)
    scenario = Scenario.on(app)
    scenario.account("First", routing=False)
    scenario.account("Second", routing=False)
    repeats = []
    with TestClient(app, raise_server_exceptions=False) as client:
        track = scenario.with_client(client).track
        requests = {
            "TEST-TR-SUCCEEDED": track("First", "TEST-TR-SUCCEEDED"),
            "TEST-TR-AWAITING": track("First", "TEST-TR-AWAITING"),
            "TEST-TR-FAILED": track("Second", "TEST-TR-FAILED"),
            CONTAINER: track("Second", CONTAINER, request_type="container"),
        }
        steps = itertools.chain([START], run_until(app, clock, START + FOLLOWED))
        for index, now in enumerate(steps):
            if index == 0:
                tick(app)
            if index % 8 == 0:
                before = table_counts(app)
                tick(app)
                repeats.append((now, before, table_counts(app)))
        yield Run(app, requests, repeats)


def test_run__voyages_completed(run: Run) -> None:
    with run.app.state.sealane.sessions() as session:
        statuses = set(session.scalars(select(Container.current_status)))
        requests = dict(session.execute(select(TrackingRequest.id, TrackingRequest.status)).all())
    assert statuses == {"empty_returned"}
    assert requests[run.requests["TEST-TR-FAILED"]] == "failed"
    assert requests[run.requests[CONTAINER]] == "created"


def test_outbox__no_duplicates(run: Run) -> None:
    counts = outbox_counts(run.app)
    assert counts
    assert set(counts.values()) == {1}


def test_outbox__one_row_per_transport_event(run: Run) -> None:
    counts = outbox_counts(run.app)
    with run.app.state.sealane.sessions() as session:
        events = session.scalars(select(TransportEvent)).all()
    assert len(events) > 40
    for event in events:
        assert counts[(event.event, "transport_event", event.id)] == 1
    by_type = Counter(kind for (_, kind, _) in counts)
    assert by_type["transport_event"] == len(events)


def test_outbox__one_row_per_estimated_event(run: Run) -> None:
    counts = outbox_counts(run.app)
    with run.app.state.sealane.sessions() as session:
        estimates = session.scalars(select(EstimatedEvent)).all()
    assert len(estimates) >= 3
    for estimate in estimates:
        key = ("shipment.estimated.arrival", "estimated_event", estimate.id)
        assert counts[key] == 1
    assert Counter(kind for (_, kind, _) in counts)["estimated_event"] == len(estimates)


def test_outbox__one_row_per_container_update_with_changes(run: Run) -> None:
    counts = outbox_counts(run.app)
    with run.app.state.sealane.sessions() as session:
        updates = session.scalars(select(ContainerUpdatedEvent)).all()
    changed = [u for u in updates if u.changeset]
    assert len(changed) >= 3 * 4
    for update in updates:
        expected = 1 if update.changeset else 0
        assert counts[("container.updated", "container_updated_event", update.id)] == expected
    updated = Counter(event for (event, kind, _) in counts if kind == "container_updated_event")
    assert updated["container.updated"] == len(changed)


def test_outbox__one_row_per_container_created(run: Run) -> None:
    """Each container's creation refers to a container-updated event with no change."""
    counts = outbox_counts(run.app)
    created = containers_created(run.app)
    with run.app.state.sealane.sessions() as session:
        containers = session.scalars(select(Container.id)).all()
        events = session.scalars(
            select(ContainerUpdatedEvent).where(
                ContainerUpdatedEvent.id.in_(
                    [ref for (event, _, ref) in counts if event == "container.created"]
                )
            )
        ).all()
    assert {container_id: created[container_id] for container_id in containers} == {
        container_id: 1 for container_id in containers
    }
    assert {event.container_id for event in events} == set(containers)
    assert all(event.changeset == {} for event in events)
    assert sum(1 for (event, _, _) in counts if event == "container.created") == len(containers)


def test_outbox__one_row_per_request_status_change(run: Run) -> None:
    counts = outbox_counts(run.app)
    events = {
        number: sorted(e for (e, kind, ref) in counts if kind == "tracking_request" and ref == rid)
        for number, rid in run.requests.items()
    }
    assert events == {
        "TEST-TR-SUCCEEDED": ["tracking_request.succeeded"],
        "TEST-TR-AWAITING": ["tracking_request.awaiting_manifest", "tracking_request.succeeded"],
        "TEST-TR-FAILED": ["tracking_request.failed"],
        CONTAINER: ["tracking_request.succeeded"],
    }


def test_outbox__nothing_else(run: Run) -> None:
    kinds = {kind for (_, kind, _) in outbox_counts(run.app)}
    assert kinds == {
        "transport_event",
        "estimated_event",
        "container_updated_event",
        "tracking_request",
    }


def test_outbox__account_of_the_object(run: Run) -> None:
    with run.app.state.sealane.sessions() as session:
        owners = {
            **dict(session.execute(select(TransportEvent.id, TransportEvent.account_id)).all()),
            **dict(session.execute(select(EstimatedEvent.id, EstimatedEvent.account_id)).all()),
            **dict(
                session.execute(
                    select(ContainerUpdatedEvent.id, ContainerUpdatedEvent.account_id)
                ).all()
            ),
            **dict(session.execute(select(Container.id, Container.account_id)).all()),
            **dict(session.execute(select(TrackingRequest.id, TrackingRequest.account_id)).all()),
        }
    rows = outbox(run.app)
    assert {row.account_id for row in rows} == set(owners.values())
    assert len(set(owners.values())) == 2
    for row in rows:
        assert row.account_id == owners[row.reference_id], row.event


def test_outbox__written_with_its_transport_event(run: Run) -> None:
    with run.app.state.sealane.sessions() as session:
        created = dict(session.execute(select(TransportEvent.id, TransportEvent.created_at)).all())
    for row in outbox(run.app):
        if row.reference_type == "transport_event":
            assert row.created_at == created[row.reference_id]
            assert row.dispatched_at is None or row.dispatched_at >= row.created_at


def test_outbox__rows_in_event_time_order_per_container(run: Run) -> None:
    with run.app.state.sealane.sessions() as session:
        events = {e.id: e for e in session.scalars(select(TransportEvent))}
    by_container: dict[str, list[TransportEvent]] = {}
    for row in outbox(run.app):
        if row.reference_type == "transport_event":
            event = events[row.reference_id]
            by_container.setdefault(event.container_id, []).append(event)
    for sequence in by_container.values():
        assert [e.sequence for e in sequence] == sorted(e.sequence for e in sequence)


def test_tick__same_time_twice_adds_nothing(run: Run) -> None:
    assert len(run.repeats) > 20
    for now, before, after in run.repeats:
        assert after == before, now


def test_tick__after_the_end_adds_nothing(run: Run) -> None:
    before = table_counts(run.app)
    clock = run.app.state.sealane.clock
    clock.advance(HOUR)
    tick(run.app)
    after = table_counts(run.app)
    assert after == before


def test_outbox__reference_types_are_the_catalogs(run: Run) -> None:
    """Real notifications refer to the type the examples and the catalogue name."""
    for event, kind, _ in outbox_counts(run.app):
        assert kind == reference_type(event), event

"""A restart in the middle of a voyage loses nothing, repeats nothing and carries on.

The first app is dropped with its engine disposed; a new app is built with ``create_app`` on the
same database URL and a new manual clock at the same time, as a restarted server would be.
Each test runs on SQLite and on PostgreSQL (the storage tests' ``database_url``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.models import (
    Container,
    ContainerUpdatedEvent,
    EstimatedEvent,
    OutboxEvent,
    Shipment,
    TrackingRequest,
    TransportEvent,
    Vessel,
    VesselPosition,
)
from sealane.tracking.carriers.simulated import plan_voyage
from tests.toolkit import START, Scenario, make_app

from .support import (
    CONTAINER,
    HOUR,
    run_until,
    tick,
)

#: When the server restarts: both voyages are at sea (CSQU3054383 on SGSIN -> USSAV, the
#: TEST-TR-SUCCEEDED vessel on TWKHH -> BEANR).
RESTART = START + timedelta(days=6)
MAERSK = "MAEU987654321"


def snapshot(app: FastAPI) -> dict[str, Any]:
    """Every row that tracking writes, as comparable values."""
    with app.state.sealane.sessions() as session:
        return {
            "requests": {
                r.id: (r.status, r.retry_count, r.is_retrying, r.failed_reason, r.next_attempt_at)
                for r in session.scalars(select(TrackingRequest))
            },
            "shipments": {
                s.id: (
                    s.pod_eta_at,
                    s.pod_ata_at,
                    s.pol_atd_at,
                    s.updated_at,
                    s.tracking_stopped_at,
                )
                for s in session.scalars(select(Shipment))
            },
            "containers": {
                c.id: (c.number, c.current_status, c.updated_at, c.available_for_pickup)
                for c in session.scalars(select(Container))
            },
            "events": {
                e.id: (e.container_id, e.event, e.sequence, e.timestamp)
                for e in session.scalars(select(TransportEvent))
            },
            "estimates": {
                e.id: e.estimated_timestamp for e in session.scalars(select(EstimatedEvent))
            },
            "updates": {
                u.id: (u.container_id, u.timestamp)
                for u in session.scalars(select(ContainerUpdatedEvent))
            },
            "positions": sorted(
                (p.vessel_id, p.timestamp) for p in session.scalars(select(VesselPosition))
            ),
            "outbox": [
                (o.id, o.event, o.reference_type, o.reference_id)
                for o in session.scalars(select(OutboxEvent).order_by(OutboxEvent.id))
            ],
        }


def start(settings: Settings, now: datetime) -> tuple[FastAPI, ManualClock]:
    clock = ManualClock(now)
    return make_app(settings, clock=clock), clock


@pytest.fixture
def settings_for(database_url: str) -> Settings:
    return Settings(database_url=database_url, rate_limit_per_minute=100_000)


@pytest.fixture
def first_life(settings_for: Settings) -> Iterator[tuple[dict[str, Any], dict[str, str]]]:
    """Run the first server until RESTART; its final snapshot and the request ids."""
    app, clock = start(settings_for, START)
    try:
        scenario = Scenario.on(app)
        scenario.account("Restarter", routing=False)
        with TestClient(app, raise_server_exceptions=False) as client:
            track = partial(scenario.with_client(client).track, "Restarter")
            ids = {
                "succeeded": track("TEST-TR-SUCCEEDED"),
                "container": track(CONTAINER, request_type="container"),
            }
            scenario.tick()
            for _ in run_until(app, clock, RESTART - timedelta(hours=6)):
                pass
            ids["maersk"] = track(MAERSK, scac="MAEU")
            for _ in run_until(app, clock, RESTART, step_s=HOUR):
                pass
            assert clock.now() == RESTART
            with app.state.sealane.sessions() as session:
                sailing = session.scalars(
                    select(Vessel).where(Vessel.position_timestamp == RESTART)
                ).all()
            assert len(sailing) == 2  # both vessels at sea at the restart
            yield snapshot(app), ids
    finally:
        app.state.sealane.engine.dispose()


@pytest.fixture
def second_life(settings_for: Settings, first_life: Any) -> Iterator[tuple[FastAPI, ManualClock]]:
    app, clock = start(settings_for, RESTART)
    try:
        yield app, clock
    finally:
        app.state.sealane.engine.dispose()


def test_restart__state_and_outbox_intact_and_nothing_repeated(
    first_life: Any, second_life: Any
) -> None:
    before, _ = first_life
    app, _ = second_life
    assert snapshot(app) == before
    assert len(before["events"]) > 10 and len(before["outbox"]) > 10
    tick(app)  # the restarted server's first pass, at the time the old one stopped
    assert snapshot(app) == before


def test_restart__voyage_and_retries_continue(first_life: Any, second_life: Any) -> None:
    before, ids = first_life
    app, clock = second_life
    retry_count = before["requests"][ids["maersk"]][1]
    assert before["requests"][ids["maersk"]][:3] == ("pending", retry_count, True)
    assert 1 <= retry_count < 5
    tick(app)
    for _ in run_until(app, clock, RESTART + timedelta(hours=12), step_s=HOUR):
        pass
    for _ in run_until(app, clock, RESTART + timedelta(days=12)):
        pass
    after = snapshot(app)
    old, new = set(before["events"]), set(after["events"]) - set(before["events"])
    assert old <= set(after["events"])
    assert new
    assert all(after["events"][e][3] > RESTART for e in new)
    keys = [(c, s) for (c, _, s, _) in after["events"].values()]
    assert len(keys) == len(set(keys))
    # exactly the carrier's events up to now, no more, no fewer
    numbers = {cid: number for cid, (number, *_rest) in after["containers"].items()}
    recorded = {(numbers[c], name, at) for (c, name, _, at) in after["events"].values()}
    with app.state.sealane.sessions() as session:
        keys_of_plans = session.execute(
            select(Shipment.carrier_request_type, Shipment.carrier_number, Shipment.carrier_epoch)
        ).all()
    assert len(keys_of_plans) == 2
    planned = set()
    for request_type, number, epoch in keys_of_plans:
        plan = plan_voyage(request_type, number, epoch)
        planned |= {
            (plan.containers[e.container].number, e.event, e.at)
            for e in plan.events
            if e.at <= clock.now()
        }
    assert recorded == planned
    outbox_keys = [(event, kind, ref) for (_, event, kind, ref) in after["outbox"]]
    assert len(outbox_keys) == len(set(outbox_keys))
    assert after["outbox"][: len(before["outbox"])] == before["outbox"]
    assert {(e, "transport_event", i) for i, (_, e, _, _) in after["events"].items()} <= set(
        outbox_keys
    )
    assert after["requests"][ids["succeeded"]][0] == "created"
    assert after["requests"][ids["maersk"]] == ("failed", 5, False, "retries_exhausted", None)
    failed = ("tracking_request.failed", "tracking_request", ids["maersk"])
    assert outbox_keys.count(failed) == 1

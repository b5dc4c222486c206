"""A restart loses nothing: what is pending in the database is delivered by a new app (a new
engine, a new worker), and a claim held by a worker that died returns after its lease."""

from __future__ import annotations

from fastapi import FastAPI

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.runtime import delivery_worker
from sealane.store.database import make_engine, session_factory

from .receiver import free_port, receiving
from .support import close_app, deliver, emit_event, fan_out_only, logs, notifications, verify
from .world import World, world_on

EVENTS = ["tracking_request.succeeded", "tracking_request.failed"]


def deliver_until_idle(app: FastAPI) -> None:
    for _ in range(10):
        if deliver(app) == 0:
            return
    raise AssertionError("still delivering after 10 passes")


def test_restart__pending_notifications_delivered_by_a_new_app(
    backend_settings: Settings, clock: ManualClock
) -> None:
    port = free_port()  # the receiver is down until after the restart
    first = create_app(backend_settings, clock=clock)
    try:
        with world_on(first) as world:
            webhook = world.webhook(f"http://127.0.0.1:{port}/hooks", EVENTS)
            for event in EVENTS:
                world.event(event)
            assert world.deliver() == 2  # both refused: pending, to be retried
            emit_event(first, world.account, "a-later-request")  # in the outbox only
            before = {row.id: row.attempts for row in notifications(first)}
            secret = webhook["attributes"]["secret"]
    finally:
        close_app(first)  # the process ends: only the database remains
    assert sorted(before.values()) == [1, 1]

    clock.advance(5)
    second = create_app(backend_settings, clock=clock)  # a new engine on the same database
    try:
        with receiving(port=port) as receiver:
            deliver_until_idle(second)
            received = receiver.received
        rows = notifications(second)
        attempts = {row.id: [log.status_code for log in logs(second, row.id)] for row in rows}
    finally:
        close_app(second)
    assert len(rows) == 3
    assert {row.delivery_status for row in rows} == {"succeeded"}
    assert sorted(r.headers["webhook-id"] for r in received) == sorted(row.id for row in rows)
    for old in before:
        assert attempts[old] == [None, 200]  # refused before the restart, delivered after
    for request in received:
        verify(secret, request)


def test_restart__claim_of_a_dead_worker_returns_after_its_lease(
    world: World, clock: ManualClock
) -> None:
    state = world.app.state.sealane
    with receiving() as receiver:
        world.webhook(receiver.url)
        world.event()
        fan_out_only(world.app)
        engine = make_engine(state.settings.database_url)
        dead = delivery_worker(state.settings, session_factory(engine), clock)
        try:
            [job] = dead._claim(clock.now())  # claimed, then the process died mid-flight
        finally:
            dead.close()
            engine.dispose()
        assert world.deliver() == 0  # the claim is held for the lease (120 s by default)
        clock.advance(119)
        assert world.deliver() == 0
        clock.advance(2)
        assert world.deliver() == 1
        [request] = receiver.received
    notification = world.notification()
    assert request.headers["webhook-id"] == job.notification_id == notification.id
    assert notification.delivery_status == "succeeded"
    assert [(log.attempt, log.status_code) for log in logs(world.app, notification.id)] == [
        (1, 200)
    ]


def test_restart__lease_option_of_delivery_worker(world: World, clock: ManualClock) -> None:
    state = world.app.state.sealane
    with receiving() as receiver:
        world.webhook(receiver.url)
        world.event()
        fan_out_only(world.app)
        engine = make_engine(state.settings.database_url)
        dead = delivery_worker(state.settings, session_factory(engine), clock, lease_s=15)
        try:
            dead._claim(clock.now())
        finally:
            dead.close()
            engine.dispose()
        clock.advance(14)
        assert world.deliver() == 0
        clock.advance(2)
        assert world.deliver() == 1
        assert len(receiver.received) == 1

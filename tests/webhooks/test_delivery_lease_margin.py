"""A claimed notification is sent only while enough of its lease is left for the request to end
before the lease does: a job that waited behind slow sends in the worker's pool is left for the
next claim, so no other worker can be sending it at the same time."""

from __future__ import annotations

from fastapi import FastAPI

from sealane.clock import ManualClock
from sealane.runtime import notification_renderer
from sealane.webhooks.delivery import Attempt, DeliveryWorker
from sealane.webhooks.urlpolicy import CheckedUrl

from .receiver import receiving
from .support import logs, notifications
from .world import World

EVENTS = [
    "tracking_request.succeeded",
    "tracking_request.failed",
    "tracking_request.awaiting_manifest",
]
LEASE_S = 30.0  # sent only in its first 15 s (half the lease, as it is under 2 x 10 s)
SEND_S = 10.0


def slow_worker(app: FastAPI, sent: list[str]) -> DeliveryWorker:
    """One sending thread whose every request takes SEND_S on the app's clock."""
    clock: ManualClock = app.state.sealane.clock

    def send(target: CheckedUrl, headers: dict[str, str], body: bytes) -> Attempt:
        sent.append(headers["webhook-id"])
        clock.advance(SEND_S)
        return Attempt(200, SEND_S * 1000)

    return DeliveryWorker(
        app.state.sealane.sessions,
        clock,
        render=notification_renderer(app.state.sealane.settings.base_url),
        schedule=(1,),
        allow_private=True,
        sender=send,
        lease_s=LEASE_S,
        concurrency=1,
    )


def test_a_job_left_in_the_queue_until_its_lease_nearly_ends_is_not_sent(world: World) -> None:
    sent: list[str] = []
    worker = slow_worker(world.app, sent)
    try:
        with receiving() as receiver:
            world.webhook(receiver.url, events=EVENTS)
        for event in EVENTS:
            world.event(event)
        assert worker.run_once() == 2  # at 0 s and 10 s; the third would start at 20 s
        rows = {row.id: row for row in notifications(world.app)}
        [left] = [row for row in rows.values() if row.id not in sent]
        assert left.delivery_status == "pending"
        assert left.attempts == 0
        assert logs(world.app, left.id) == []
        assert all(rows[done].delivery_status == "succeeded" for done in sent)
        world.advance(LEASE_S)  # its lease has run out: claimed again and sent
        assert worker.run_once() == 1
    finally:
        worker.close()
    assert sent[2] == left.id
    assert [row.delivery_status for row in notifications(world.app)] == ["succeeded"] * 3

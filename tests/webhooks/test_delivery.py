"""Delivery to a real HTTP receiver on 127.0.0.1: signing, success and failure, retries on the
schedule, Retry-After, redirects, inactive webhooks, custom headers and the URL policy re-checked
when sending. Time is the app's manual clock; ``webhook-timestamp`` is wall time."""

from __future__ import annotations

import email.utils
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.webhooks import delivery, subscription_rules
from sealane.webhooks.delivery import Attempt
from sealane.webhooks.urlpolicy import CheckedUrl, check_url

from .receiver import Reply, free_port, receiving
from .support import (
    JITTER,
    SCHEDULE,
    close_app,
    fan_out_only,
    logs,
    notifications,
    private_app,
    verify,
)
from .world import World, world_on


@contextmanager
def app_with(
    settings: Settings, clock: ManualClock, schedule: tuple[int, ...] = SCHEDULE
) -> Iterator[World]:
    """A world on an app of its own (another retry schedule, or a patched module constant)."""
    app = private_app(settings, clock, schedule)
    try:
        with world_on(app) as world:
            yield world
    finally:
        close_app(app)


# -- what a delivery is ----------------------------------------------------------------------------


def test_deliver__signed_notification_document(world: World) -> None:
    with receiving() as receiver:
        webhook = world.webhook(receiver.url)
        world.event()
        assert world.deliver() == 1
        [request] = receiver.received
    notification = world.notification()
    body = verify(webhook["attributes"]["secret"], request)
    assert request.method == "POST"
    assert request.path == "/hooks"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["webhook-id"] == notification.id
    assert abs(int(request.headers["webhook-timestamp"]) - time.time()) < 60
    assert request.headers["webhook-signature"].startswith("v1,")
    data = body["data"]
    assert data["type"] == "webhook_notification"
    assert data["id"] == notification.id
    assert data["attributes"]["event"] == "tracking_request.succeeded"
    assert data["relationships"]["webhook"]["data"] == {"type": "webhook", "id": webhook["id"]}
    assert data["relationships"]["reference_object"]["data"] == {
        "type": "tracking_request",
        "id": world.request_id,
    }
    assert [(o["type"], o["id"]) for o in body["included"]] == [
        ("tracking_request", world.request_id)
    ]


def test_deliver__body_is_the_api_document_with_included(world: World) -> None:
    with receiving() as receiver:
        world.webhook(receiver.url)
        world.event()
        world.deliver()
        [request] = receiver.received
    body = json.loads(request.body)
    notification = world.notification()
    response = world.client.get(
        f"/v2/webhook_notifications/{notification.id}",
        params={"include": "reference_object"},
        headers={"Authorization": f"Token {world.key}"},
    )
    assert response.status_code == 200, response.text
    api = response.json()
    assert body["data"]["id"] == api["data"]["id"]
    assert body["data"]["type"] == api["data"]["type"]
    assert body["data"]["links"] == api["data"]["links"]
    for name in ("webhook", "reference_object"):
        assert body["data"]["relationships"][name] == api["data"]["relationships"][name]
    assert body["included"] == api["included"]


@pytest.mark.parametrize("status", [200, 201, 202, 204, 299])
def test_deliver__any_2xx_succeeds(world: World, status: int) -> None:
    with receiving(default=Reply(status, body=b"" if status == 204 else b"thanks")) as receiver:
        world.webhook(receiver.url)
        world.event()
        assert world.deliver() == 1
    notification = world.notification()
    assert notification.delivery_status == "succeeded"
    assert notification.attempts == 1
    assert notification.next_attempt_at is None
    [log] = logs(world.app, notification.id)
    assert log.attempt == 1
    assert log.status_code == status
    assert log.error is None
    assert log.duration_ms >= 0
    assert log.attempted_at == world.app.state.sealane.clock.now()


def test_deliver__succeeded_is_not_sent_again(world: World) -> None:
    with receiving() as receiver:
        world.webhook(receiver.url)
        world.event()
        world.deliver()
        world.advance(3600)
        assert world.deliver() == 0
        assert len(receiver.received) == 1


def test_deliver__custom_headers_sent(world: World) -> None:
    headers = [{"name": "X-Api-Key", "value": "k-123"}, {"name": "X-Tenant", "value": "north"}]
    with receiving() as receiver:
        webhook = world.webhook(receiver.url, headers=headers)
        world.event()
        world.deliver()
        [request] = receiver.received
    assert request.headers["x-api-key"] == "k-123"
    assert request.headers["x-tenant"] == "north"
    verify(webhook["attributes"]["secret"], request)


def test_deliver__only_the_subscribed_url_is_called(world: World) -> None:
    with receiving() as subscribed, receiving() as other:
        world.webhook(subscribed.url, events=["tracking_request.failed"])
        world.webhook(other.url, events=["tracking_request.succeeded"])
        world.event("tracking_request.failed")
        world.deliver()
        assert len(subscribed.received) == 1
        assert other.received == []


# -- failures and retries --------------------------------------------------------------------------


def assert_retry_scheduled(world: World, delay_s: float) -> None:
    notification = world.notification()
    assert notification.delivery_status == "pending"
    assert notification.locked_until is None
    low, high = JITTER
    assert delay_s * low - 0.001 <= world.seconds_to_next_attempt() <= delay_s * high + 0.001


@pytest.mark.parametrize("status", [500, 503, 404, 400, 410])
def test_deliver__error_status_retried_on_schedule(world: World, status: int) -> None:
    with receiving(default=Reply(status, body=b"nope")) as receiver:
        world.webhook(receiver.url)
        world.event()
        assert world.deliver() == 1
        assert len(receiver.received) == 1
    assert_retry_scheduled(world, SCHEDULE[0])
    [log] = logs(world.app, world.notification().id)
    assert (log.attempt, log.status_code, log.response_excerpt) == (1, status, "nope")


def test_deliver__connection_refused_retried(world: World) -> None:
    world.webhook(f"http://127.0.0.1:{free_port()}/hooks")
    world.event()
    assert world.deliver() == 1
    assert_retry_scheduled(world, SCHEDULE[0])
    [log] = logs(world.app, world.notification().id)
    assert log.status_code is None
    assert log.error is not None and "ConnectError" in log.error


def test_deliver__timeout_retried(
    settings: Settings, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery, "TIMEOUT_S", 0.3)  # read when the worker's client is made
    with app_with(settings, clock) as world, receiving(Reply(delay_s=1.5)) as receiver:
        world.webhook(receiver.url)
        world.event()
        assert world.deliver() == 1
        assert len(receiver.received) == 1
        assert_retry_scheduled(world, SCHEDULE[0])
        [log] = logs(world.app, world.notification().id)
    assert log.status_code is None
    assert log.error is not None and "Timeout" in log.error
    assert 250 <= log.duration_ms < 1500


def test_deliver__timeout_is_10_s(app: FastAPI) -> None:
    assert app.state.sealane.webhooks._client.timeout == httpx.Timeout(10.0)
    assert app.state.sealane.webhooks._client.follow_redirects is False


def test_deliver__not_resent_before_the_next_attempt(world: World) -> None:
    with receiving(default=Reply(500)) as receiver:
        world.webhook(receiver.url)
        world.event()
        world.deliver()
        world.advance(SCHEDULE[0] * JITTER[0] - 0.01)
        assert world.deliver() == 0
        assert len(receiver.received) == 1


def test_deliver__fails_twice_then_succeeds_same_webhook_id(world: World) -> None:
    with receiving(Reply(500), Reply(502), Reply(200)) as receiver:
        webhook = world.webhook(receiver.url)
        world.event()
        for _ in range(3):
            assert world.deliver() == 1
            if world.notification().delivery_status == "pending":
                world.until_due()
        requests = receiver.received
    notification = world.notification()
    assert notification.delivery_status == "succeeded"
    assert notification.attempts == 3
    assert [r.headers["webhook-id"] for r in requests] == [notification.id] * 3
    assert len({r.body for r in requests}) == 1  # the same body on every retry
    for request in requests:
        verify(webhook["attributes"]["secret"], request)  # each attempt signed afresh
    assert [(log.attempt, log.status_code) for log in logs(world.app, notification.id)] == [
        (1, 500),
        (2, 502),
        (3, 200),
    ]


@pytest.mark.parametrize("schedule", [(1,), (1, 1, 1), (1, 2, 3, 4, 5)])
def test_deliver__failed_after_len_schedule_plus_one_attempts(
    settings: Settings, clock: ManualClock, schedule: tuple[int, ...]
) -> None:
    with app_with(settings, clock, schedule) as world, receiving(default=Reply(500)) as receiver:
        world.webhook(receiver.url)
        world.event()
        delays = []
        for _ in range(len(schedule) + 1):
            assert world.deliver() == 1
            if world.notification().delivery_status == "pending":
                delays.append(world.seconds_to_next_attempt())
                world.until_due()
        notification = world.notification()
        assert notification.delivery_status == "failed"
        assert notification.next_attempt_at is None
        world.advance(7 * 86400)
        assert world.deliver() == 0
        assert len(receiver.received) == len(schedule) + 1
        found = logs(world.app, notification.id)
    assert notification.attempts == len(schedule) + 1
    assert [log.attempt for log in found] == list(range(1, len(schedule) + 2))
    assert all(log.status_code == 500 for log in found)
    for delay, planned in zip(delays, schedule, strict=True):
        assert planned * JITTER[0] - 0.001 <= delay <= planned * JITTER[1] + 0.001


def test_deliver__receiver_down_then_up_on_the_same_port(world: World) -> None:
    port = free_port()
    webhook = world.webhook(f"http://127.0.0.1:{port}/hooks")
    world.event()
    for _ in range(2):  # nothing listens yet: connection refused, twice
        assert world.deliver() == 1
        world.until_due()
    with receiving(port=port) as receiver:
        assert world.deliver() == 1
        [request] = receiver.received
    notification = world.notification()
    assert notification.delivery_status == "succeeded"
    assert request.headers["webhook-id"] == notification.id
    verify(webhook["attributes"]["secret"], request)
    found = logs(world.app, notification.id)
    assert [log.status_code for log in found] == [None, None, 200]


# -- Retry-After -----------------------------------------------------------------------------------


def test_deliver__retry_after_seconds_honoured(world: World) -> None:
    with receiving(Reply(429, headers=(("Retry-After", "30"),))) as receiver:
        world.webhook(receiver.url)
        world.event()
        world.deliver()
        assert world.seconds_to_next_attempt() >= 30  # the schedule says 1 s
        world.advance(2)
        assert world.deliver() == 0
        world.advance(29)
        assert world.deliver() == 1
        assert len(receiver.received) == 2
    assert world.notification().delivery_status == "succeeded"
    assert [log.status_code for log in logs(world.app, world.notification().id)] == [429, 200]


def test_deliver__retry_after_http_date_honoured(world: World) -> None:
    later = email.utils.format_datetime(datetime.now(UTC) + timedelta(seconds=120), usegmt=True)
    with receiving(Reply(503, headers=(("Retry-After", later),))) as receiver:
        world.webhook(receiver.url)
        world.event()
        world.deliver()
    assert 110 <= world.seconds_to_next_attempt() <= 121


def test_deliver__retry_after_shorter_than_schedule_keeps_schedule(
    settings: Settings, clock: ManualClock
) -> None:
    with (
        app_with(settings, clock, (100, 100)) as world,
        receiving(Reply(429, headers=(("Retry-After", "5"),))) as receiver,
    ):
        world.webhook(receiver.url)
        world.event()
        world.deliver()
        assert 90 - 0.001 <= world.seconds_to_next_attempt() <= 110 + 0.001


def test_deliver__huge_retry_after_does_not_break_the_worker(world: World) -> None:
    with receiving(Reply(429, headers=(("Retry-After", "999999999999999"),))) as receiver:
        world.webhook(receiver.url)
        world.event()
        world.deliver()
        assert len(receiver.received) == 1
    [log] = logs(world.app, world.notification().id)
    assert log.status_code == 429


# -- redirects -------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_deliver__redirect_not_followed(world: World, status: int) -> None:
    with receiving() as target:
        location = (("Location", target.url),)
        with receiving(default=Reply(status, headers=location)) as receiver:
            world.webhook(receiver.url)
            world.event()
            assert world.deliver() == 1
            assert len(receiver.received) == 1
        assert target.received == []
    assert_retry_scheduled(world, SCHEDULE[0])
    [log] = logs(world.app, world.notification().id)
    assert log.status_code == status
    assert log.error is not None and "redirect" in log.error


# -- inactive and deleted webhooks -----------------------------------------------------------------


def test_deliver__webhook_deactivated_after_the_notification_gets_nothing(world: World) -> None:
    with receiving() as receiver:
        webhook = world.webhook(receiver.url)
        world.event()
        fan_out_only(world.app)
        world.patch(webhook["id"], active=False)
        world.deliver()
        world.advance(86400)
        world.deliver()
        assert receiver.received == []
    notification = world.notification()
    assert notification.delivery_status != "succeeded"
    assert notification.delivery_status == "failed"
    [log] = logs(world.app, notification.id)
    assert log.status_code is None
    assert log.error is not None and "inactive" in log.error


def test_deliver__webhook_deleted_after_the_notification_gets_nothing(world: World) -> None:
    with receiving() as receiver:
        webhook = world.webhook(receiver.url)
        world.event()
        fan_out_only(world.app)
        response = world.client.delete(
            f"/v2/webhooks/{webhook['id']}", headers={"Authorization": f"Token {world.key}"}
        )
        assert response.status_code == 200
        assert world.deliver() == 0
        assert receiver.received == []
    assert notifications(world.app) == []


# -- the URL policy at delivery time ---------------------------------------------------------------


def resolving(mapping: dict[str, list[str]]) -> Any:
    """``check_url`` with a fake resolver for the names in ``mapping`` (numeric hosts as given)."""

    def fake(host: str, port: int) -> list[str]:
        return list(mapping.get(host, [host]))

    def check(url: str, *, allow_private: bool, resolver: Any = None) -> CheckedUrl:
        return check_url(url, allow_private=allow_private, resolver=fake)

    return check


class RecordingSender:
    """Stands in for the HTTP sender: records what would be sent, answers 200."""

    def __init__(self) -> None:
        self.sent: list[tuple[CheckedUrl, dict[str, str], bytes]] = []

    def __call__(self, target: CheckedUrl, headers: dict[str, str], body: bytes) -> Attempt:
        self.sent.append((target, headers, body))
        return Attempt(200, 1.0)


@pytest.fixture
def public_world(settings: Settings, clock: ManualClock) -> Iterator[World]:
    """A world whose app has the default policy (https, public addresses only)."""
    app = create_app(settings, clock=clock)
    try:
        with world_on(app) as world:
            yield world
    finally:
        close_app(app)


def test_deliver__dns_now_private_is_refused_and_logged(
    public_world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = public_world
    monkeypatch.setattr(
        subscription_rules, "check_url", resolving({"hooks.example.com": ["8.8.8.8"]})
    )
    world.webhook("https://hooks.example.com/hooks")
    monkeypatch.setattr(delivery, "check_url", resolving({"hooks.example.com": ["10.1.2.3"]}))
    sender = RecordingSender()
    world.app.state.sealane.webhooks.sender = sender
    world.event()
    assert world.deliver() == 1
    assert sender.sent == []
    notification = world.notification()
    assert notification.delivery_status == "pending"
    [log] = logs(world.app, notification.id)
    assert log.status_code is None
    assert log.error is not None
    assert "URL policy" in log.error and "10.1.2.3" in log.error


def test_deliver__connects_to_the_address_checked_at_delivery(
    public_world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = public_world
    monkeypatch.setattr(
        subscription_rules, "check_url", resolving({"hooks.example.com": ["8.8.8.8"]})
    )
    webhook = world.webhook("https://hooks.example.com/in")
    monkeypatch.setattr(delivery, "check_url", resolving({"hooks.example.com": ["8.8.4.4"]}))
    sender = RecordingSender()
    world.app.state.sealane.webhooks.sender = sender
    world.event()
    world.deliver()
    [(target, headers, _body)] = sender.sent
    assert (target.host, target.address, target.port) == ("hooks.example.com", "8.8.4.4", 443)
    assert headers["webhook-id"] == world.notification().id
    assert world.notification().delivery_status == "succeeded"
    assert webhook["attributes"]["url"] == "https://hooks.example.com/in"


def test_deliver__host_header_keeps_the_name_while_connecting_to_its_address(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = {"receiver.test": ["127.0.0.1"]}
    monkeypatch.setattr(subscription_rules, "check_url", resolving(names))
    monkeypatch.setattr(delivery, "check_url", resolving(names))
    with receiving() as receiver:
        world.webhook(f"http://receiver.test:{receiver.port}/named")
        world.event()
        world.deliver()
        [request] = receiver.received
    assert request.headers["host"] == f"receiver.test:{receiver.port}"
    assert request.path == "/named"
    assert world.notification().delivery_status == "succeeded"


# -- robustness ------------------------------------------------------------------------------------


def test_deliver__long_response_excerpt_cut_at_500_characters(world: World) -> None:
    with receiving(default=Reply(500, body=b"e" * 5000)) as receiver:
        world.webhook(receiver.url)
        world.event()
        world.deliver()
    [log] = logs(world.app, world.notification().id)
    assert log.response_excerpt == "e" * 500


def test_deliver__non_ascii_header_value_refused_or_delivered(world: World) -> None:
    with receiving() as receiver:
        response = world.client.post(
            "/v2/webhooks",
            json={
                "data": {
                    "type": "webhook",
                    "attributes": {
                        "url": receiver.url,
                        "events": ["tracking_request.succeeded"],
                        "headers": [{"name": "X-Note", "value": "café"}],
                    },
                }
            },
            headers={
                "Authorization": f"Token {world.key}",
                "Content-Type": "application/vnd.api+json",
            },
        )
        if response.status_code == 422:  # refusing the value at the API is a fix too
            error = response.json()["errors"][0]
            assert error["source"] == {"pointer": "/data/attributes/headers/0/value"}
            return
        assert response.status_code == 201
        world.event()
        world.deliver()  # must not raise
    assert len(logs(world.app, world.notification().id)) == 1


def test_deliver__timeout_bounds_the_whole_attempt(
    settings: Settings, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery, "TIMEOUT_S", 0.3)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]

        def trickle() -> None:
            connection, _ = server.accept()
            with connection:
                connection.recv(65536)
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n")
                for _ in range(8):  # one byte every 0.25 s: each read is within 0.3 s
                    time.sleep(0.25)
                    try:
                        connection.sendall(b"x")
                    except OSError:  # the worker hung up at its deadline, as it should
                        return

        thread = threading.Thread(target=trickle, daemon=True)
        thread.start()
        with app_with(settings, clock) as world:
            world.webhook(f"http://127.0.0.1:{port}/hooks")
            world.event()
            world.deliver()
            [log] = logs(world.app, world.notification().id)
        thread.join(timeout=5)
    assert log.duration_ms < 2 * 300, log

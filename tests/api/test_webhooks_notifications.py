"""Webhook notifications through the HTTP API, made by a real simulated voyage and delivered to a
real receiver: one per event per active webhook listing it, the reference object of each event,
``include=``, filters, delivery logs, and account isolation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.models import OutboxEvent, WebhookNotification
from sealane.vocabulary.events import EVENT_NAMES
from tests.api.jsonapi_asserts import assert_error
from tests.toolkit import START, Keys, Scenario, auth
from tests.webhooks.receiver import Receiver, Reply, free_port, receiving
from tests.webhooks.support import (
    account_id,
    close_app,
    create_webhook,
    deliver,
    emit_event,
    logs,
    private_app,
    tracking_request,
    verify,
)

URL = "/v2/webhook_notifications"
DAY = 86400.0
TRACKING_EVENTS = ["tracking_request.succeeded", "tracking_request.failed"]


@pytest.fixture
def app(settings: Settings, clock: ManualClock) -> Iterator[FastAPI]:
    """The API app, allowed to deliver to a receiver on 127.0.0.1."""
    the_app = private_app(settings, clock)
    yield the_app
    close_app(the_app)


# -- a voyage, once per module ---------------------------------------------------------------------


@dataclass(frozen=True)
class Voyage:
    """Account A's webhooks ``all`` (every event), ``tracking`` (two events), ``off`` (inactive,
    every event); account B's ``b`` (every event). Both track TEST numbers for 30 days."""

    app: FastAPI
    client: TestClient
    a: str
    b: str
    hooks: dict[str, dict[str, Any]]
    receiver: Receiver

    def get(self, url: str, key: str | None = None, **params: Any) -> Any:
        response = self.client.get(url, params=params, headers=auth(key or self.a))
        assert response.status_code == 200, response.text[:500]
        return response.json()

    def listed(self, key: str | None = None, **filters: str) -> list[dict[str, Any]]:
        """Every notification of a list (all pages), with ``filter[...]`` as given."""
        params = {f"filter[{name}]": value for name, value in filters.items()}
        found: list[dict[str, Any]] = []
        page = 1
        while True:
            body = self.get(URL, key, **params, **{"page[size]": 100, "page[number]": page})
            found += body["data"]
            if len(found) >= body["meta"]["total"]:
                return found
            page += 1

    def outbox(self, account: str) -> list[OutboxEvent]:
        with self.app.state.sealane.sessions() as session:
            return list(
                session.scalars(select(OutboxEvent).where(OutboxEvent.account_id == account))
            )

    def stored(self) -> list[WebhookNotification]:
        with self.app.state.sealane.sessions() as session:
            return list(session.scalars(select(WebhookNotification)))


def deliver_all(app: FastAPI) -> None:
    for _ in range(50):
        if deliver(app) == 0:
            return
    raise AssertionError("still delivering after 50 passes")


@pytest.fixture(scope="module")
def voyage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Voyage]:
    path = tmp_path_factory.mktemp("voyage") / "sealane.db"
    settings = Settings(
        database_url=f"sqlite:///{path}",
        rate_limit_per_minute=100_000,
        base_url="http://testserver/v2",
    )
    clock = ManualClock(START)
    app = private_app(settings, clock)
    scenario = Scenario.on(app)
    a = scenario.account("A Co", routing=True).secret
    b = scenario.account("B Co", routing=False).secret
    everything = list(EVENT_NAMES)
    with receiving() as receiver, TestClient(app, raise_server_exceptions=False) as client:
        hooks = {
            "all": create_webhook(client, a, f"{receiver.url}/all", everything),
            "tracking": create_webhook(client, a, f"{receiver.url}/tracking", TRACKING_EVENTS),
            "off": create_webhook(client, a, f"{receiver.url}/off", everything, active=False),
            "b": create_webhook(client, b, f"{receiver.url}/b", everything),
        }
        track = scenario.with_client(client).track
        for number in ("TEST-TR-SUCCEEDED", "TEST-TR-FAILED", "TEST-TR-AWAITING"):
            track("A Co", number)
        track("B Co", "TEST-TR-SUCCEEDED")
        scenario.tick()
        deliver_all(app)
        # daily while TEST-TR-FAILED retries (it fails for good within 5 days), then a jump to
        # when the voyage has reached port and the terminal has updated its containers
        for days in (1, 1, 1, 1, 1, 1, 24):
            scenario.tick(days)
            deliver_all(app)
        yield Voyage(app, client, a, b, hooks, receiver)
    close_app(app)


def test_voyage__emitted_every_kind_of_event(voyage: Voyage) -> None:
    """The scenario covers what the other tests look at (a guard on the fixture)."""
    kinds = {row.event for row in voyage.outbox(account_id(voyage.app, voyage.a))}
    for name in (
        "tracking_request.succeeded",
        "tracking_request.failed",
        "tracking_request.awaiting_manifest",
        "shipment.estimated.arrival",
        "container.created",
        "container.updated",
        "container.transport.vessel_departed",
        "container.transport.vessel_arrived",
    ):
        assert name in kinds


def test_notifications__one_per_event_per_active_webhook_listing_it(voyage: Voyage) -> None:
    a_events = voyage.outbox(account_id(voyage.app, voyage.a))
    b_events = voyage.outbox(account_id(voyage.app, voyage.b))
    per_hook = Counter(row.webhook_id for row in voyage.stored())
    assert per_hook[voyage.hooks["all"]["id"]] == len(a_events)
    assert per_hook[voyage.hooks["tracking"]["id"]] == sum(
        row.event in TRACKING_EVENTS for row in a_events
    )
    assert per_hook[voyage.hooks["off"]["id"]] == 0
    assert per_hook[voyage.hooks["b"]["id"]] == len(b_events)
    pairs = Counter((row.webhook_id, row.outbox_event_id) for row in voyage.stored())
    assert set(pairs.values()) == {1}


def test_notifications__listed_events_only(voyage: Voyage) -> None:
    events = {
        n["attributes"]["event"] for n in voyage.listed(webhook=voyage.hooks["tracking"]["id"])
    }
    assert events == set(TRACKING_EVENTS)


def test_notifications__inactive_webhook_gets_none(voyage: Voyage) -> None:
    assert voyage.listed(webhook=voyage.hooks["off"]["id"]) == []
    assert not [r for r in voyage.receiver.received if r.path.endswith("/off")]


def test_notifications__each_delivered_once_signed(voyage: Voyage) -> None:
    received = voyage.receiver.received
    for name in ("all", "tracking", "b"):
        key = voyage.b if name == "b" else voyage.a
        listed = voyage.listed(key, webhook=voyage.hooks[name]["id"])
        requests = [r for r in received if r.path.endswith(f"/{name}")]
        assert sorted(r.headers["webhook-id"] for r in requests) == sorted(n["id"] for n in listed)
        for request in requests:
            body = verify(voyage.hooks[name]["attributes"]["secret"], request)
            assert body["data"]["id"] == request.headers["webhook-id"]
        assert {n["attributes"]["delivery_status"] for n in listed} == {"succeeded"}


#: Event -> type of its reference object, and the types its ``include=reference_object`` brings.
REFERENCES = [
    ("tracking_request.succeeded", "tracking_request", {"shipment"}),
    ("tracking_request.failed", "tracking_request", set()),
    ("tracking_request.awaiting_manifest", "tracking_request", set()),
    ("shipment.estimated.arrival", "estimated_event", {"shipment", "port"}),
    ("container.transport.empty_out", "transport_event", {"shipment", "container", "port"}),
    ("container.transport.vessel_departed", "transport_event", {"shipment", "container", "port"}),
    (
        "container.transport.vessel_arrived",
        "transport_event",
        {"shipment", "container", "port", "terminal"},
    ),
    ("container.updated", "container_updated_event", {"container", "terminal"}),
    ("container.created", "container_updated_event", {"container", "shipment"}),
]


def first(voyage: Voyage, event: str, hook: str) -> dict[str, Any]:
    """The earliest notification of ``event`` to webhook ``hook`` of account A."""
    listed = voyage.listed(event=event, webhook=voyage.hooks[hook]["id"])
    assert listed, event
    return min(listed, key=lambda n: (n["attributes"]["created_at"], n["id"]))


@pytest.mark.parametrize(("event", "kind", "related"), REFERENCES, ids=[r[0] for r in REFERENCES])
def test_notification__reference_object_type_per_event(
    voyage: Voyage, event: str, kind: str, related: set[str]
) -> None:
    listed = voyage.listed(event=event, webhook=voyage.hooks["all"]["id"])
    assert listed
    for notification in listed:
        assert notification["relationships"]["reference_object"]["data"]["type"] == kind


@pytest.mark.parametrize(
    ("event", "kind", "related"),
    REFERENCES,
    ids=[r[0] for r in REFERENCES],
)
def test_notification__include_reference_object_alone(
    voyage: Voyage, event: str, kind: str, related: set[str]
) -> None:
    """Read through the API, a notification includes its reference object and nothing it names
    (the reference API's notification documents allow no shipment, container, port or terminal;
    the delivered body carries those)."""
    notification = first(voyage, event, "all")
    reference = notification["relationships"]["reference_object"]["data"]
    doc = voyage.get(f"{URL}/{notification['id']}", include="reference_object")
    assert [(o["type"], o["id"]) for o in doc["included"]] == [(reference["type"], reference["id"])]


def test_notification__delivered_body_has_the_reference_object_and_what_it_names(
    voyage: Voyage,
) -> None:
    """The objects as they were when the event happened (a tracking request awaiting its
    manifest had no shipment yet); the reference object is the one the API includes."""
    requests = {r.headers["webhook-id"]: r for r in voyage.receiver.received}
    for event, _kind, related in REFERENCES:
        notification = first(voyage, event, "all")
        body = verify(voyage.hooks["all"]["attributes"]["secret"], requests[notification["id"]])
        doc = voyage.get(f"{URL}/{notification['id']}", include="reference_object")
        reference = notification["relationships"]["reference_object"]["data"]
        sent = {(o["type"], o["id"]) for o in body["included"]}
        assert (reference["type"], reference["id"]) in sent, event
        assert related <= {kind for kind, _ in sent}, event
        assert {(o["type"], o["id"]) for o in doc["included"]} <= sent, event


def test_notification__attributes_and_links(voyage: Voyage) -> None:
    notification = first(voyage, "tracking_request.succeeded", "tracking")
    doc = voyage.get(f"{URL}/{notification['id']}")
    data = doc["data"]
    assert data["type"] == "webhook_notification"
    assert data["attributes"]["event"] == "tracking_request.succeeded"
    assert data["attributes"]["delivery_status"] == "succeeded"
    assert data["attributes"]["created_at"] == "2026-11-21T12:00:00Z"
    assert data["links"]["self"] == f"http://testserver/v2/webhook_notifications/{data['id']}"
    assert data["relationships"]["webhook"]["data"] == {
        "type": "webhook",
        "id": voyage.hooks["tracking"]["id"],
    }
    assert "included" not in doc


def test_notification__include_webhook(voyage: Voyage) -> None:
    notification = first(voyage, "tracking_request.succeeded", "tracking")
    doc = voyage.get(f"{URL}/{notification['id']}", include="webhook")
    [webhook] = doc["included"]
    assert (webhook["type"], webhook["id"]) == ("webhook", voyage.hooks["tracking"]["id"])
    assert webhook["attributes"]["events"] == TRACKING_EVENTS
    assert webhook["attributes"]["secret"] == voyage.hooks["tracking"]["attributes"]["secret"]


def test_notification__include_logs(voyage: Voyage) -> None:
    notification = first(voyage, "tracking_request.succeeded", "tracking")
    doc = voyage.get(f"{URL}/{notification['id']}", include="webhook_notification_logs")
    [log] = doc["included"]
    assert log["type"] == "webhook_notification_log"
    assert doc["data"]["relationships"]["webhook_notification_logs"]["data"] == [
        {"type": "webhook_notification_log", "id": log["id"]}
    ]
    attributes = log["attributes"]
    assert attributes["attempt"] == 1
    assert attributes["attempted_at"] == "2026-11-21T12:00:00Z"
    assert attributes["status_code"] == 200
    assert isinstance(attributes["duration_ms"], float | int) and attributes["duration_ms"] >= 0
    assert attributes["error"] is None
    assert attributes["response_excerpt"] == "ok"


def test_notification__include_all_three(voyage: Voyage) -> None:
    notification = first(voyage, "tracking_request.succeeded", "all")
    doc = voyage.get(
        f"{URL}/{notification['id']}", include="webhook,reference_object,webhook_notification_logs"
    )
    types = Counter(o["type"] for o in doc["included"])
    assert types["webhook"] == 1
    assert types["tracking_request"] == 1
    assert types["shipment"] == 0
    assert types["webhook_notification_log"] == 1


def test_list_notifications__include_reference_object(voyage: Voyage) -> None:
    body = voyage.get(
        URL, include="reference_object", **{"filter[event]": "container.created", "page[size]": 2}
    )
    assert len(body["data"]) == 2
    included = {(o["type"], o["id"]) for o in body["included"]}
    for notification in body["data"]:
        reference = notification["relationships"]["reference_object"]["data"]
        assert (reference["type"], reference["id"]) in included


def test_list_notifications__filter_event(voyage: Voyage) -> None:
    listed = voyage.listed(event="container.created")
    assert {n["attributes"]["event"] for n in listed} == {"container.created"}
    a_created = [
        row
        for row in voyage.outbox(account_id(voyage.app, voyage.a))
        if row.event == "container.created"
    ]
    assert len(listed) == len(a_created)  # one per container, for the one webhook listing it


def test_list_notifications__filter_webhook(voyage: Voyage) -> None:
    listed = voyage.listed(webhook=voyage.hooks["tracking"]["id"])
    assert {n["relationships"]["webhook"]["data"]["id"] for n in listed} == {
        voyage.hooks["tracking"]["id"]
    }


def test_list_notifications__filter_unknown_event_empty(voyage: Voyage) -> None:
    assert voyage.listed(event="no.such.event") == []


def test_list_notifications__newest_first(voyage: Voyage) -> None:
    stamps = [n["attributes"]["created_at"] for n in voyage.listed()]
    assert stamps == sorted(stamps, reverse=True)


def test_list_notifications__bad_delivery_status_400(voyage: Voyage) -> None:
    response = voyage.client.get(
        URL, params={"filter[delivery_status]": "delivered"}, headers=auth(voyage.a)
    )
    assert_error(response, 400, parameter="filter[delivery_status]")


def test_list_notifications__unknown_include_400(voyage: Voyage) -> None:
    response = voyage.client.get(URL, params={"include": "shipment"}, headers=auth(voyage.a))
    assert_error(response, 400, parameter="include")


def test_get_notification__unknown_include_400(voyage: Voyage) -> None:
    [notification, *_] = voyage.listed()
    response = voyage.client.get(
        f"{URL}/{notification['id']}", params={"include": "secret"}, headers=auth(voyage.a)
    )
    assert_error(response, 400, parameter="include")


def test_get_notification__unknown_404(voyage: Voyage) -> None:
    assert_error(voyage.client.get(f"{URL}/nope", headers=auth(voyage.a)), 404)


# -- account isolation ---------------------------------------------------------------------------


def test_other_account__notification_404(voyage: Voyage) -> None:
    [notification, *_] = voyage.listed()
    response = voyage.client.get(f"{URL}/{notification['id']}", headers=auth(voyage.b))
    assert_error(response, 404)


def test_other_account__not_listed(voyage: Voyage) -> None:
    mine = {n["id"] for n in voyage.listed()}
    theirs = {n["id"] for n in voyage.listed(voyage.b)}
    assert mine and theirs
    assert not mine & theirs
    assert voyage.listed(voyage.b, webhook=voyage.hooks["all"]["id"]) == []


def test_other_account__webhook_404(voyage: Voyage) -> None:
    response = voyage.client.get(
        f"/v2/webhooks/{voyage.hooks['all']['id']}", headers=auth(voyage.b)
    )
    assert_error(response, 404)


# -- delivery states (an app per test) -------------------------------------------------------------


def test_list_notifications__filter_delivery_status(
    app: FastAPI, client: TestClient, keys: Keys, clock: ManualClock
) -> None:
    account = account_id(app, keys.routing)
    request_id = tracking_request(client, keys.routing)
    with receiving() as ok, receiving(default=Reply(500, body=b"down")) as broken:
        create_webhook(client, keys.routing, ok.url, ["tracking_request.succeeded"])
        create_webhook(client, keys.routing, broken.url, ["tracking_request.failed"])
        retrying = create_webhook(client, keys.routing, broken.url, ["tracking_request.succeeded"])
        emit_event(app, account, request_id, "tracking_request.failed")
        for _ in range(4):  # 1 + len(SCHEDULE) attempts: failed
            deliver(app)
            clock.advance(2)
        emit_event(app, account, request_id, "tracking_request.succeeded")
        deliver(app)  # succeeded for ``ok``, one failure (pending) for ``retrying``

    def statuses(value: str) -> list[tuple[str, str]]:
        body = client.get(
            URL, params={"filter[delivery_status]": value}, headers=auth(keys.routing)
        ).json()
        return [
            (n["attributes"]["event"], n["attributes"]["delivery_status"]) for n in body["data"]
        ]

    assert statuses("succeeded") == [("tracking_request.succeeded", "succeeded")]
    assert statuses("pending") == [("tracking_request.succeeded", "pending")]
    assert statuses("failed") == [("tracking_request.failed", "failed")]
    pending = client.get(
        URL,
        params={"filter[delivery_status]": "pending", "filter[webhook]": retrying["id"]},
        headers=auth(keys.routing),
    ).json()
    assert pending["meta"]["total"] == 1


def test_notification__logs_of_failed_attempts(
    app: FastAPI, client: TestClient, keys: Keys, clock: ManualClock
) -> None:
    request_id = tracking_request(client, keys.routing)
    with receiving(Reply(503, body=b"busy"), Reply(200, body=b"fine")) as receiver:
        create_webhook(client, keys.routing, receiver.url)
        emit_event(app, account_id(app, keys.routing), request_id)
        deliver(app)
        clock.advance(2)
        deliver(app)
    [notification] = client.get(URL, headers=auth(keys.routing)).json()["data"]
    doc = client.get(
        f"{URL}/{notification['id']}",
        params={"include": "webhook_notification_logs"},
        headers=auth(keys.routing),
    ).json()
    attempts = [o["attributes"] for o in doc["included"]]
    assert [(a["attempt"], a["status_code"], a["response_excerpt"]) for a in attempts] == [
        (1, 503, "busy"),
        (2, 200, "fine"),
    ]
    assert attempts[0]["attempted_at"] == "2026-11-21T12:00:00Z"
    assert attempts[1]["attempted_at"] == "2026-11-21T12:00:02Z"
    assert doc["data"]["attributes"]["delivery_status"] == "succeeded"
    assert len(logs(app, notification["id"])) == 2


def test_notification__connection_error_logged(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    request_id = tracking_request(client, keys.routing)
    create_webhook(client, keys.routing, f"http://127.0.0.1:{free_port()}/hooks")
    emit_event(app, account_id(app, keys.routing), request_id)
    deliver(app)
    [notification] = client.get(URL, headers=auth(keys.routing)).json()["data"]
    doc = client.get(
        f"{URL}/{notification['id']}",
        params={"include": "webhook_notification_logs"},
        headers=auth(keys.routing),
    ).json()
    [log] = [o["attributes"] for o in doc["included"]]
    assert log["status_code"] is None
    assert log["response_excerpt"] is None
    assert "ConnectError" in log["error"]
    assert doc["data"]["attributes"]["delivery_status"] == "pending"


def test_notification__gone_with_its_webhook(app: FastAPI, client: TestClient, keys: Keys) -> None:
    request_id = tracking_request(client, keys.routing)
    with receiving() as receiver:
        webhook = create_webhook(client, keys.routing, receiver.url)
        emit_event(app, account_id(app, keys.routing), request_id)
        deliver(app)
    [notification] = client.get(URL, headers=auth(keys.routing)).json()["data"]
    client.delete(f"/v2/webhooks/{webhook['id']}", headers=auth(keys.routing))
    assert_error(client.get(f"{URL}/{notification['id']}", headers=auth(keys.routing)), 404)
    assert client.get(URL, headers=auth(keys.routing)).json()["meta"]["total"] == 0


def test_notifications__none_for_a_webhook_created_after_the_event_was_handled(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    request_id = tracking_request(client, keys.routing)
    emit_event(app, account_id(app, keys.routing), request_id)
    deliver(app)  # no webhook yet: the outbox row is handled with nobody to tell
    with receiving() as receiver:
        create_webhook(client, keys.routing, receiver.url)
        deliver(app)
        assert receiver.received == []
    assert client.get(URL, headers=auth(keys.routing)).json()["meta"]["total"] == 0

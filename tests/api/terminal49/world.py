"""Real data made through the API, the way a Terminal49 client would make it: a party, custom
field definitions with options, a webhook for every event, tracking requests with scac TEST
(found, failed, awaiting its manifest), weeks of simulated voyage, and delivery attempts."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.models import OutboxEvent
from sealane.vocabulary.events import EVENT_NAMES
from tests.api.jsonapi_asserts import JSONAPI
from tests.toolkit import START, Scenario, auth

#: The only write media type until the lead's negotiation rework accepts application/json.
WRITE = JSONAPI
CONTAINER = "CSQU3054383"
SOURCE_IP = "203.0.113.7"


@dataclass
class World:
    """The app, its clock, two accounts' keys and the ids of what was made."""

    app: FastAPI
    client: TestClient
    clock: ManualClock
    key: str
    #: Another account with the routing feature, and one without it.
    other_key: str
    plain_key: str
    scenario: Scenario
    ids: dict[str, str] = field(default_factory=dict)

    def get(self, url: str, key: str | None = None, **params: Any) -> httpx.Response:
        """GET ``url`` (a path under /v2) as the main account (or ``key``)."""
        return self.client.get(f"/v2{url}", params=params, headers=auth(key or self.key))

    def send(
        self, method: str, url: str, body: Any = None, key: str | None = None
    ) -> httpx.Response:
        """A write request with a JSON body (none for ``None``)."""
        headers = {**auth(key or self.key), "Content-Type": WRITE}
        content = None if body is None else httpx.Request("POST", "/", json=body).content
        return self.client.request(method, f"/v2{url}", content=content, headers=headers)

    def made(self, method: str, url: str, body: Any, status: int = 201) -> dict[str, Any]:
        """A write that must succeed; the ``data`` of its answer."""
        response = self.send(method, url, body)
        assert response.status_code == status, response.text[:800]
        data: dict[str, Any] = response.json()["data"]
        return data

    def tick(self, days: float = 0.0) -> None:
        """Move time on, let tracking do one pass, then webhook delivery until the outbox is
        dispatched: a pass fans out a batch of the oldest events, and the world's earlier
        tests (which differ with the order a test worker runs them in) can leave more."""
        self.scenario.tick(days)
        for _ in range(1_000):
            self.scenario.deliver()
            if not self.undispatched():
                return
        raise AssertionError("webhook delivery left the outbox undispatched")

    def undispatched(self) -> int:
        """Outbox events not yet turned into notifications."""
        with self.app.state.sealane.sessions() as session:
            query = select(func.count(OutboxEvent.id)).where(OutboxEvent.dispatched_at.is_(None))
            return int(session.scalar(query) or 0)


def fresh(prefix: str) -> str:
    """A number or name no other call uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10].upper()}"


def document(type_: str, attributes: dict[str, Any], **relationships: Any) -> dict[str, Any]:
    """A JSON:API write document."""
    data: dict[str, Any] = {"type": type_, "attributes": attributes}
    if relationships:
        data["relationships"] = {
            name: {"data": {"type": kind, "id": key}} for name, (kind, key) in relationships.items()
        }
    return {"data": data}


def build_world(tmp: Path) -> Iterator[World]:
    """The world, on its own SQLite file; stopped on exit."""
    clock = ManualClock(START)
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'sealane.db'}",
        rate_limit_per_minute=1_000_000,
        base_url="http://testserver/v2",
        webhook_allow_private=True,
        webhook_retry_schedule=(60, 60),
        webhook_source_ips=(SOURCE_IP,),
    )
    app = create_app(settings, clock=clock)
    scenario = Scenario.on(app)
    key = scenario.account("Compat Co", routing=True).secret
    other = scenario.account("Other Co", routing=True).secret
    plain = scenario.account("Plain Co", routing=False).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        world = World(app, client, clock, key, other, plain, scenario.with_client(client))
        _populate(world)
        yield world
    app.state.sealane.webhooks.close()
    app.state.sealane.engine.dispose()


def _populate(world: World) -> None:
    ids = world.ids
    for name, company in (("party", "Acme"), ("party_2", "Globex")):
        made = world.made("POST", "/parties", document("party", {"company_name": company}))
        ids[name] = made["id"]
    _definitions(world)
    hook = {"url": "http://127.0.0.1:9/hook", "events": list(EVENT_NAMES), "active": True}
    ids["webhook"] = world.made("POST", "/webhooks", document("webhook", hook))["id"]
    quiet = {"url": "http://127.0.0.1:9/quiet", "events": ["document.extracted"], "active": False}
    ids["webhook_2"] = world.made("POST", "/webhooks", document("webhook", quiet))["id"]
    initial = {
        "shipment": [{"api_slug": "po_number", "value": "PO-77"}],
        "containers": [{"api_slug": "priority", "value": "high"}],
    }
    found = {
        "request_type": "bill_of_lading",
        "request_number": "TEST-TR-SUCCEEDED",
        "scac": "TEST",
        "ref_numbers": ["REF-A1"],
        "shipment_tags": ["vip"],
        "initial_custom_fields": initial,
    }
    request = document("tracking_request", found, customer=("party", ids["party"]))
    ids["request"] = world.made("POST", "/tracking_requests", request)["id"]
    by_container = {"request_type": "container", "request_number": CONTAINER, "scac": "TEST"}
    by_container["ref_numbers"] = ["REF-C1"]
    ids["container_request"] = world.made(
        "POST", "/tracking_requests", document("tracking_request", by_container)
    )["id"]
    for number in ("TEST-TR-FAILED", "TEST-TR-AWAITING"):
        attributes = {"request_type": "bill_of_lading", "request_number": number, "scac": "TEST"}
        ids[number] = world.made(
            "POST", "/tracking_requests", document("tracking_request", attributes)
        )["id"]
    world.tick()
    for _ in range(24):  # twelve days of voyage, twice a day
        world.tick(days=0.5)
    for _ in range(8):  # then to the discharge, the terminal's updates and the pickup
        world.tick(days=5)
    _ids_of_what_was_found(world)


def _definitions(world: World) -> None:
    ids = world.ids
    shipment = {
        "entity_type": "Shipment",
        "api_slug": "po_number",
        "display_name": "PO number",
        "data_type": "short_text",
    }
    container = {
        "entity_type": "Container",
        "api_slug": "priority",
        "display_name": "Priority",
        "data_type": "enum",
    }
    request = {
        "entity_type": "TrackingRequest",
        "api_slug": "cost_center",
        "display_name": "Cost center",
        "data_type": "number",
        "validation": {"min": 0},
    }
    carrier_ref = {**shipment, "api_slug": "carrier_ref", "display_name": "Carrier reference"}
    door = {**container, "api_slug": "door", "display_name": "Door", "data_type": "short_text"}
    made = (
        ("shipment", shipment),
        ("container", container),
        ("request", request),
        ("carrier_ref", carrier_ref),
        ("door", door),
    )
    for name, attributes in made:
        made = world.made(
            "POST", "/custom_field_definitions", document("custom_field_definition", attributes)
        )
        ids[f"definition_{name}"] = made["id"]
    options = f"/custom_field_definitions/{ids['definition_container']}/options"
    for label, value, position in (("High", "high", 1), ("Low", "low", 2)):
        option = {"label": label, "value": value, "position": position}
        ids[f"option_{value}"] = world.made(
            "POST", options, document("custom_field_option", option)
        )["id"]


def _ids_of_what_was_found(world: World) -> None:
    ids = world.ids
    request = world.get(f"/tracking_requests/{ids['request']}").json()["data"]
    ids["shipment"] = request["relationships"]["tracked_object"]["data"]["id"]
    shipment = world.get(f"/shipments/{ids['shipment']}").json()["data"]
    ids["container"] = shipment["relationships"]["containers"]["data"][0]["id"]
    container_request = world.get(f"/tracking_requests/{ids['container_request']}").json()["data"]
    ids["shipment_2"] = container_request["relationships"]["tracked_object"]["data"]["id"]
    container = world.get(f"/containers/{ids['container']}").json()["data"]
    ids["terminal"] = container["relationships"]["pod_terminal"]["data"]["id"]
    ids["port"] = shipment["relationships"]["port_of_discharge"]["data"]["id"]
    ids["vessel"] = shipment["relationships"]["pod_vessel"]["data"]["id"]
    events = world.get(f"/containers/{ids['container']}/transport_events").json()["data"]
    assert events, "the voyage has begun"
    notifications = world.get("/webhook_notifications", **{"page[size]": 100}).json()["data"]
    ids["notification"] = notifications[0]["id"]
    fields = world.get("/custom_fields", **{"filter[entity_id]": ids["shipment"]}).json()["data"]
    ids["custom_field"] = fields[0]["id"]
    line = world.get("/shipping_lines/TEST").json()["data"]
    ids["shipping_line"] = line["id"]
    second = world.get(f"/shipments/{ids['shipment_2']}").json()["data"]
    ids["container_2"] = second["relationships"]["containers"]["data"][0]["id"]
    cost = document("custom_field", {"api_slug": "cost_center", "value": 42})
    world.made("POST", f"/tracking_requests/{ids['request']}/custom_fields", cost)

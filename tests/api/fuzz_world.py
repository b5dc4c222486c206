"""The data the schemathesis suite runs against, made through the API as a client would: two
accounts (with and without the routing feature), a vessel with a position, a party, custom
field definitions with options and values, webhooks (private addresses allowed), and tracking
requests of the simulated carrier ``TEST`` polled over weeks, so shipments, containers,
transport events and webhook notifications exist."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Vessel
from sealane.vocabulary.events import EVENT_NAMES
from tests.toolkit import JSONAPI, START, auth

#: The world's vessel, known by id and by IMO number.
IMO = "9400001"
#: Tracking requests made: a bill of lading found at once, a container, one the carrier never
#: finds and one waiting for its manifest.
REQUESTS = (
    ("bill_of_lading", "TEST-TR-SUCCEEDED"),
    ("container", "CSQU3054383"),
    ("bill_of_lading", "TEST-TR-FAILED"),
    ("bill_of_lading", "TEST-TR-AWAITING"),
)
DAY_S = 86_400.0


@dataclass
class FuzzWorld:
    """The app, the keys of its two accounts and the ids of what was made."""

    app: FastAPI
    key: str
    plain_key: str
    ids: dict[str, str] = field(default_factory=dict)


def settings_for(database_url: str) -> Settings:
    """Limits far above what a run sends; webhooks may call private addresses."""
    return Settings(
        database_url=database_url,
        rate_limit_per_minute=10_000_000,
        auth_failures_per_minute=10_000_000,
        base_url="http://testserver/v2",
        webhook_allow_private=True,
        webhook_retry_schedule=(60, 60),
    )


def build_world(database_url: str) -> FuzzWorld:
    """The world on ``database_url`` (an empty database)."""
    clock = ManualClock(START)
    app = create_app(settings_for(database_url), clock=clock)
    with transaction(app.state.sealane.sessions) as session:
        key = create_account(session, "Fuzz Routing Co", routing=True, now=START).secret
        plain = create_account(session, "Fuzz Plain Co", routing=False, now=START).secret
        ship = Vessel(
            name="Test Mariner",
            imo=IMO,
            mmsi="211000001",
            latitude=12.3,
            longitude=60.1,
            nautical_speed_knots=18.0,
            navigational_heading_degrees=250.0,
            position_timestamp=START,
        )
        session.add(ship)
    world = FuzzWorld(app, key, plain, {"vessel": ship.id})
    with TestClient(app, raise_server_exceptions=True) as client:
        _populate(world, client)
        for _ in range(20):  # the voyage: departures, arrivals, discharge, availability
            clock.advance(DAY_S)
            app.state.sealane.tracking.tick()
        app.state.sealane.webhooks.run_once()  # delivery attempts (refused: nothing listens)
    return world


def _populate(world: FuzzWorld, client: TestClient) -> None:
    def made(url: str, type_: str, attributes: dict[str, Any], **links: Any) -> str:
        data: dict[str, Any] = {"type": type_, "attributes": attributes}
        if links:
            data["relationships"] = {k: {"data": v} for k, v in links.items()}
        headers = {**auth(world.key), "Content-Type": JSONAPI}
        response = client.post(f"/v2{url}", json={"data": data}, headers=headers)
        assert response.status_code == 201, response.text[:500]
        return str(response.json()["data"]["id"])

    ids = world.ids
    ids["party"] = made("/parties", "party", {"company_name": "Acme"})
    definition = {"entity_type": "Container", "data_type": "enum", "display_name": "Priority"}
    ids["definition"] = made(
        "/custom_field_definitions", "custom_field_definition", {**definition, "api_slug": "prio"}
    )
    ids["option"] = made(
        f"/custom_field_definitions/{ids['definition']}/options",
        "custom_field_option",
        {"label": "High", "value": "high", "position": 1},
    )
    text = {"entity_type": "Shipment", "data_type": "short_text", "display_name": "PO"}
    made("/custom_field_definitions", "custom_field_definition", {**text, "api_slug": "po"})
    hook = {"url": "http://127.0.0.1:9/hook", "events": list(EVENT_NAMES)}
    ids["webhook"] = made("/webhooks", "webhook", hook)
    for request_type, number in REQUESTS:
        attributes = {"request_type": request_type, "request_number": number, "scac": "TEST"}
        attributes["ref_numbers"] = ["REF-1"]
        ids[number] = made(
            "/tracking_requests",
            "tracking_request",
            attributes,
            customer={"type": "party", "id": ids["party"]},
        )

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
from sealane.vocabulary.events import EVENT_NAMES
from tests.toolkit import START, Scenario

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
ROUTING, PLAIN = "Fuzz Routing Co", "Fuzz Plain Co"


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
    app = create_app(settings_for(database_url), clock=ManualClock(START))
    scenario = Scenario.on(app)
    key = scenario.account(ROUTING, routing=True).secret
    plain = scenario.account(PLAIN, routing=False).secret
    world = FuzzWorld(app, key, plain, {"vessel": scenario.vessel(imo=IMO).id})
    with TestClient(app, raise_server_exceptions=True) as client:
        _populate(world, scenario.with_client(client))
        scenario.sail(20, every=1)  # the voyage: departures, arrivals, discharge, availability
        scenario.deliver()  # delivery attempts (refused: nothing listens)
    return world


def _populate(world: FuzzWorld, scenario: Scenario) -> None:
    def made(path: str, type_: str, attributes: dict[str, Any]) -> str:
        return str(scenario.post(ROUTING, path, type_, attributes)["id"])

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
        ids[number] = scenario.track(
            ROUTING,
            number,
            request_type=request_type,
            ref_numbers=["REF-1"],
            customer=ids["party"],
        )

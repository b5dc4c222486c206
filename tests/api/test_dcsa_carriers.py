"""Carriers configured over DCSA T&T 2.2, through the API: a tracking request polled from the
DCSA test server on 127.0.0.1, and the signed push callback, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.feeds.dcsa.push import signature_of
from tests.feeds.dcsa_fixtures import BL, CONTAINERS, day, shipment_events
from tests.feeds.dcsa_server import DcsaState, dcsa_server
from tests.feeds.dcsa_world import SCAC, SECRET, START, config_for
from tests.store.conftest import database_url, fresh_postgres_url, postgres_database_url
from tests.toolkit import JSONAPI, Scenario, auth

from .jsonapi_asserts import assert_error

__all__ = ["database_url", "fresh_postgres_url", "postgres_database_url"]

PUSH = "/v2/dcsa/dcsa-test/events"


@dataclass
class Carrier:
    """The API app with the DCSA carrier configured, its client, key, clock and the server."""

    app: FastAPI
    client: TestClient
    key: str
    clock: ManualClock
    state: DcsaState

    def at(self, when: datetime) -> None:
        self.clock.advance((when - self.clock.now()).total_seconds())
        self.state.now = when

    def tick(self) -> None:
        self.app.state.sealane.tracking.tick()

    def get(self, path: str, **params: Any) -> Any:
        response = self.client.get(path, params=params, headers=auth(self.key))
        assert response.status_code == 200, response.text[:500]
        return response.json()

    def track(self, number: str = BL) -> str:
        attributes = {"request_type": "bill_of_lading", "request_number": number, "scac": SCAC}
        body = {"data": {"type": "tracking_request", "attributes": attributes}}
        headers = {"Content-Type": JSONAPI, **auth(self.key)}
        response = self.client.post("/v2/tracking_requests", json=body, headers=headers)
        assert response.status_code == 201, response.text[:500]
        request_id: str = response.json()["data"]["id"]
        return request_id

    def events(self) -> Counter[tuple[str, str, str]]:
        """Transport events by (container number, event, place), as the API lists them."""
        found: Counter[tuple[str, str, str]] = Counter()
        for container in self.get("/v2/containers")["data"]:
            number = container["attributes"]["number"]
            path = f"/v2/containers/{container['id']}/transport_events"
            for event in self.get(path, **{"page[size]": "100"})["data"]:
                attributes = event["attributes"]
                name = attributes["event"].removeprefix("container.transport.")
                found[(number, name, attributes["location_locode"])] += 1
                assert attributes["data_source"] == "shipping_line"
        return found

    def push(self, body: bytes, signature: str | None, **headers: str) -> Any:
        sent = {"Content-Type": "application/json", **headers}
        if signature is not None:
            sent["Notification-Signature"] = signature
        return self.client.post(PUSH, content=body, headers=sent)


@pytest.fixture
def carrier(request: pytest.FixtureRequest, database_url: str) -> Iterator[Carrier]:
    """The app and the server; an indirect parameter sets the carrier's ``poll_interval_s``."""
    poll_interval_s = float(getattr(request, "param", 0.0))
    with dcsa_server(shipment_events(), START) as (url, state, _stop):
        clock = ManualClock(START)
        configs = (
            config_for(url, poll_interval_s=poll_interval_s),
            config_for(url, name="no-push", scacs=("DCSY",), push_secret=None),
        )
        settings = Settings(database_url=database_url, rate_limit_per_minute=10_000)
        app = create_app(Settings(**{**_fields(settings), "dcsa_carriers": configs}), clock=clock)
        key = Scenario.on(app).account("Importer Co", routing=False).secret
        with TestClient(app, raise_server_exceptions=False) as client:
            yield Carrier(app, client, key, clock, state)
        app.state.sealane.engine.dispose()


def _fields(settings: Settings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in Settings.__dataclass_fields__}


def test_tracking_request__polled_from_the_dcsa_server(carrier: Carrier) -> None:
    request_id = carrier.track()
    carrier.tick()
    request = carrier.get(f"/v2/tracking_requests/{request_id}")["data"]
    assert request["attributes"]["status"] == "created"
    shipments = carrier.get("/v2/shipments", include="containers")
    assert [s["attributes"]["bill_of_lading_number"] for s in shipments["data"]] == [BL]
    assert shipments["data"][0]["attributes"]["shipping_line_scac"] == SCAC
    numbers = {c["attributes"]["number"] for c in shipments["included"] if c["type"] == "container"}
    assert numbers == set(CONTAINERS)
    departed = carrier.events()
    assert departed[(CONTAINERS[0], "vessel_departed", "CNSHA")] == 1
    assert not any(place == "SGSIN" for _box, _name, place in departed)
    carrier.at(day(12))
    carrier.tick()
    later = carrier.events()
    assert later[(CONTAINERS[1], "transshipment_departed", "SGSIN")] == 1
    assert set(later.values()) == {1}


def polls(state: DcsaState) -> int:
    return sum(path.startswith("/v2/events") for path, _headers in state.requests)


@pytest.mark.parametrize("carrier", [20 * 86400.0], indirect=True)
def test_push__kept_once_then_polled_again_nothing_twice(carrier: Carrier) -> None:
    carrier.track()
    carrier.tick()
    before = carrier.events()
    carrier.at(day(12))
    fresh = [e for e in carrier.state.visible({}) if e["eventCreatedDateTime"] > "2026-11-04"]
    body = json.dumps(fresh).encode()
    for _ in range(2):  # the carrier retries a callback it thinks failed
        response = carrier.push(body, signature_of(body, SECRET))
        assert response.status_code == 204, response.text[:500]
        assert response.content == b""
    polled = polls(carrier.state)
    carrier.tick()  # within the poll interval: the pushed events only
    assert polls(carrier.state) == polled
    pushed = carrier.events()
    assert set(pushed.values()) == {1}
    assert len(pushed) == len(before) + 8  # the transshipment's four events, two boxes
    carrier.at(day(40))
    carrier.tick()  # the interval is over: polls everything again, pushed events included
    carrier.tick()
    assert polls(carrier.state) > polled
    after = carrier.events()
    assert set(after.values()) == {1}
    assert after[(CONTAINERS[0], "vessel_arrived", "NLRTM")] == 1


def test_push__needs_no_api_key_but_the_signature(carrier: Carrier) -> None:
    body = json.dumps(shipment_events()[:2]).encode()
    error = assert_error(carrier.push(body, "sha256=" + "0" * 64), 401, code="invalid_signature")
    assert "Notification-Signature" in error["detail"]
    assert_error(carrier.push(body, None), 401, code="invalid_signature")
    wrong_key = carrier.push(body, signature_of(body, b"another secret"))
    assert "www-authenticate" not in wrong_key.headers
    assert_error(wrong_key, 401)


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/v2/dcsa/unknown/events", b"[]", 404, "not_found"),
        ("/v2/dcsa/no-push/events", b"[]", 404, "not_found"),
        (PUSH, b"{}", 400, "invalid_body"),
        (PUSH, b"[{", 400, "invalid_body"),
        (PUSH, b"[" * 100_000, 400, "invalid_body"),
        (PUSH, b"[" * 50_000 + b"]" * 50_000, 400, "invalid_body"),
    ],
    ids=["unknown", "no-push", "object", "truncated", "deep-open", "deep-closed"],
)
def test_push__rejections(carrier: Carrier, path: str, body: bytes, status: int, code: str) -> None:
    headers = {
        "Content-Type": "application/json",
        "Notification-Signature": signature_of(body, SECRET),
    }
    response = carrier.client.post(path, content=body, headers=headers)
    assert_error(response, status, code=code)


def test_push__not_json_media_type_415(carrier: Carrier) -> None:
    body = b"[]"
    response = carrier.push(body, signature_of(body, SECRET), **{"Content-Type": "text/plain"})
    assert_error(response, 415, code="unsupported_media_type")


def test_push__larger_than_the_body_limit_413(carrier: Carrier) -> None:
    limit = carrier.app.state.sealane.settings.max_body_bytes
    body = b"[" + b" " * limit + b"]"
    assert_error(carrier.push(body, signature_of(body, SECRET)), 413, code="payload_too_large")


def test_runtime__one_adapter_per_carrier_closed_on_stop(tmp_path: Any) -> None:
    from sealane.feeds.dcsa.carrier import DcsaCarrier
    from sealane.runtime import build_runtime

    config = config_for("http://127.0.0.1:9", scacs=(SCAC, "DCSZ"))
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", dcsa_carriers=(config,))
    runtime = build_runtime(settings)
    carriers = runtime.context.carriers
    adapter = carriers[SCAC]
    assert isinstance(adapter, DcsaCarrier) and carriers["DCSZ"] is adapter
    assert type(carriers["TEST"]).__name__ == "SimulatedCarrier"
    runtime.stop()
    runtime.engine.dispose()
    assert adapter.client.http.is_closed

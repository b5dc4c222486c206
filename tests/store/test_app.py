"""End to end: the real API app on each backend (migrations, reference data, keys, vessels)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.toolkit import make_app

from .conftest import START

JSONAPI = "application/vnd.api+json"


@pytest.fixture
def app(database_url: str) -> Iterator[FastAPI]:
    application = make_app(database_url)
    yield application
    application.state.sealane.engine.dispose()


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Token {key}"}


def test_api__ports_terminals_and_routing_over_the_database(app: FastAPI, backend: str) -> None:
    with transaction(app.state.sealane.sessions) as session:
        routing = create_account(session, "Routing Co", routing=True, now=START)
        plain = create_account(session, "Plain Co", routing=False, now=START)
        ship = Vessel(
            name="Test Mariner",
            imo="9400001",
            mmsi="211000001",
            latitude=12.3,
            longitude=60.1,
            nautical_speed_knots=18.0,
            navigational_heading_degrees=250.0,
            position_timestamp=START,
        )
        session.add(ship)
    assert app.state.sealane.engine.dialect.name == backend

    with TestClient(app, raise_server_exceptions=True) as client:
        port = client.get("/v2/ports/NLRTM", headers=auth(routing.secret))
        assert port.status_code == 200, port.text
        assert port.headers["content-type"] == JSONAPI
        assert port.json()["data"]["attributes"]["code"] == "NLRTM"

        # Reference data loaded by create_app, read back through the API.
        terminals = client.get(
            "/v2/terminals", params={"filter[port]": "NLRTM"}, headers=auth(plain.secret)
        )
        assert terminals.status_code == 200, terminals.text
        names = [t["attributes"]["name"] for t in terminals.json()["data"]]
        assert "Euromax Terminal Rotterdam" in names

        vessel = client.get(f"/v2/vessels/{ship.id}", headers=auth(plain.secret))
        assert vessel.status_code == 200, vessel.text
        assert vessel.json()["data"]["attributes"]["position_timestamp"] == "2026-11-21T12:00:00Z"

        route_params = {"port_id": "NLRTM", "previous_port_id": "CNSHA"}
        future = client.get(
            f"/v2/vessels/{ship.id}/future_positions",
            params=route_params,
            headers=auth(routing.secret),
        )
        assert future.status_code == 200, future.text
        positions = future.json()["data"]["attributes"]["positions"]
        assert positions[0]["timestamp"] == "2026-11-21T12:00:00Z"
        assert positions[0]["latitude"] == 12.3 and positions[0]["longitude"] == 60.1

        refused = client.get(
            f"/v2/vessels/{ship.id}/future_positions",
            params=route_params,
            headers=auth(plain.secret),
        )
        assert refused.status_code == 403, refused.text
        unknown = client.get("/v2/ports/NLRTM", headers=auth("sl_wrong"))
        assert unknown.status_code == 401

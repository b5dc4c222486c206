"""``POST /v2/vessel_positions``: batches from an AIS provider's API, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.store.conftest import database_url, fresh_postgres_url, postgres_database_url
from tests.toolkit import JSONAPI, auth, make_app

from .jsonapi_asserts import assert_error

__all__ = ["database_url", "fresh_postgres_url", "postgres_database_url"]

URL = "/v2/vessel_positions"
MMSI = "636019825"
BODY_HEADERS = {"Content-Type": JSONAPI}


def position(minute: int, **changes: Any) -> dict[str, Any]:
    """A position of the test vessel ``minute`` minutes before START, off Rotterdam."""
    attributes = {
        "mmsi": MMSI,
        "latitude": 51.95,
        "longitude": 3.9 + minute * 0.001,
        "timestamp": f"2026-11-21T11:{59 - minute:02d}:00Z",
        "speed_knots": 11.5,
        "course_degrees": 270.0,
        "heading_degrees": 271,
        "navigational_status": 0,
        **changes,
    }
    return {"type": "vessel_position", "attributes": attributes}


class Setup:
    """An app on the test's database, a vessel known by MMSI, and three keys."""

    def __init__(self, url: str) -> None:
        self.app: FastAPI = make_app(url)
        with transaction(self.app.state.sealane.sessions) as session:
            ship = Vessel(name="Sealane Aurora", imo="9811000", mmsi=MMSI)
            session.add(ship)
            session.flush()
            self.vessel_id = ship.id
            self.ingest = create_account(session, "Feed Co", routing=False, ingest=True).secret
            self.routing = create_account(session, "Routing Co", routing=True).secret

    def post(self, client: TestClient, body: Any, key: str | None = None) -> Any:
        headers = {**BODY_HEADERS, **auth(key or self.ingest)}
        return client.post(URL, json=body, headers=headers)

    def vessel(self, client: TestClient) -> dict[str, Any]:
        response = client.get(f"/v2/vessels/{self.vessel_id}", headers=auth(self.routing))
        assert response.status_code == 200, response.text[:300]
        attributes: dict[str, Any] = response.json()["data"]["attributes"]
        return attributes


@pytest.fixture
def setup(database_url: str) -> Iterator[Setup]:
    made = Setup(database_url)
    yield made
    made.app.state.sealane.engine.dispose()


@pytest.fixture
def client(setup: Setup) -> Iterator[TestClient]:
    with TestClient(setup.app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_post__stores_thins_and_moves_the_vessel(setup: Setup, client: TestClient) -> None:
    # five reports a minute apart, oldest first, plus one 20 s after the newest (thinned from
    # the track, yet where the vessel is now)
    batch = [position(minute) for minute in (4, 3, 2, 1, 0)]
    batch.append(position(0, timestamp="2026-11-21T11:59:20Z", longitude=3.8995))
    batch[1] = batch[1]["attributes"]  # a bare attributes object is read the same
    response = setup.post(client, {"data": batch})
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-type"] == JSONAPI
    meta = response.json()["meta"]
    assert set(response.json()) == {"meta"}
    counts = (meta["positions"], meta["stored"], meta["thinned"], meta["vessels_moved"])
    assert counts == (6, 5, 1, 1)
    vessel = setup.vessel(client)
    assert vessel["longitude"] == pytest.approx(3.8995)
    assert vessel["position_timestamp"].startswith("2026-11-21T11:59:20")


def test_post__the_same_batch_again_stores_nothing(setup: Setup, client: TestClient) -> None:
    batch = {"data": [position(minute) for minute in (2, 1, 0)]}
    assert setup.post(client, batch).json()["meta"]["stored"] == 3
    again = setup.post(client, batch).json()["meta"]
    assert (again["stored"], again["dropped_stale"]) == (0, 3)


def test_post__bad_values_422_each_named_and_nothing_stored(
    setup: Setup, client: TestClient
) -> None:
    batch = [position(2), position(1, latitude=91), position(0, speed_knots=102.3, mmsi="12")]
    response = setup.post(client, {"data": batch})
    assert response.status_code == 422
    errors = response.json()["errors"]
    assert [e["source"]["pointer"] for e in errors] == [
        "/data/1/attributes/latitude",
        "/data/2/attributes/mmsi",
        "/data/2/attributes/speed_knots",
    ]
    assert {e["status"] for e in errors} == {"422"}
    assert all(e["detail"] and e["code"] for e in errors)
    assert setup.vessel(client)["position_timestamp"] is None


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"data": []}, "/data"),
        ({"data": {"type": "vessel_position"}}, "/data"),
        ([position(0)], "/data"),
        ({"data": [{"type": "vessel", "attributes": position(0)["attributes"]}]}, "/data/0/type"),
    ],
)
def test_post__bad_document_422_with_pointer(
    setup: Setup, client: TestClient, body: Any, pointer: str
) -> None:
    error = assert_error(setup.post(client, body), 422)
    assert error["source"] == {"pointer": pointer}


def test_post__without_ingest_permission_403(setup: Setup, client: TestClient) -> None:
    response = setup.post(client, {"data": [position(0)]}, key=setup.routing)
    error = assert_error(response, 403, code="ingest_disabled")
    assert "ingest" in error["detail"]
    assert setup.vessel(client)["position_timestamp"] is None


def test_post__without_key_401(setup: Setup, client: TestClient) -> None:
    response = client.post(URL, json={"data": [position(0)]}, headers=BODY_HEADERS)
    assert_error(response, 401)


def test_post__malformed_json_400(setup: Setup, client: TestClient) -> None:
    headers = {**BODY_HEADERS, **auth(setup.ingest)}
    response = client.post(URL, content=b'{"data": [', headers=headers)
    assert_error(response, 400, code="invalid_json")


def test_post__not_json_media_type_415(setup: Setup, client: TestClient) -> None:
    headers = {"Content-Type": "text/csv", **auth(setup.ingest)}
    response = client.post(URL, content=b"mmsi,lat\n", headers=headers)
    assert_error(response, 415, code="unsupported_media_type")


def raw_post(setup: Setup, client: TestClient, text: str) -> Any:
    headers = {**BODY_HEADERS, **auth(setup.ingest)}
    return client.post(URL, content=text.encode(), headers=headers)


@pytest.mark.parametrize(
    ("name", "literal"),
    [
        ("latitude", "1" + "0" * 308),
        ("longitude", "-1" + "0" * 400),
        ("speed_knots", "9" * 309),
        ("navigational_status", "1" + "0" * 310),
        ("imo", '"' + "9" * 5000 + '"'),
        ("mmsi", '"' + "2" * 5000 + '"'),
        ("timestamp", '"0001-01-01T00:00:00+01:00"'),
    ],
)
def test_post__values_out_of_any_range_422_nothing_stored(
    setup: Setup, client: TestClient, name: str, literal: str
) -> None:
    """Integers too large for a float, or too long for Python to convert to text, and a time
    before year 1 in UTC: each is the named 422, also in a batch of 2,000 (never a 500)."""
    good = [json.dumps(position(minute % 60)) for minute in range(1999)]
    attributes = {**position(0)["attributes"], name: "@"}
    bad = json.dumps({"type": "vessel_position", "attributes": attributes})
    text = '{"data": [' + ", ".join([*good, bad.replace('"@"', literal)]) + "]}"
    error = assert_error(raw_post(setup, client, text), 422)
    assert error["source"] == {"pointer": f"/data/1999/attributes/{name}"}
    assert setup.vessel(client)["position_timestamp"] is None


def test_post__lower_case_t_and_z_read_as_rfc_3339_allows(setup: Setup, client: TestClient) -> None:
    batch = {"data": [position(0, timestamp="2026-11-21t11:59:00z")]}
    response = setup.post(client, batch)
    assert response.status_code == 200, response.text[:500]
    assert setup.vessel(client)["position_timestamp"].startswith("2026-11-21T11:59:00")

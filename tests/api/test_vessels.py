"""Vessels: list filters (``filter[name]``, ``filter[imo]``), lookup by id or IMO, and the
future positions' self link."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.config import Settings
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.toolkit import START, Keys, auth

from .jsonapi_asserts import JSONAPI, assert_error

#: name, IMO of the module's fleet.
FLEET = (
    ("Ever Given", "9811000"),
    ("Ever Ace", "9893890"),
    ("Maersk Essen", "9456769"),
    ("CMA CGM Jacques Saade", "9839131"),
)


@pytest.fixture(scope="module")
def fleet(shared_app: FastAPI) -> dict[str, str]:
    """IMO -> vessel id of four vessels added to the module's shared app."""
    ids = {}
    with transaction(shared_app.state.sealane.sessions) as session:
        for name, imo in FLEET:
            ship = Vessel(
                name=name,
                imo=imo,
                mmsi="1" + imo,
                latitude=1.0,
                longitude=104.0,
                nautical_speed_knots=15.0,
                navigational_heading_degrees=90.0,
                position_timestamp=START,
            )
            session.add(ship)
            session.flush()
            ids[imo] = ship.id
    return ids


def get(client: TestClient, keys: Keys, url: str, **params: Any) -> Any:
    response = client.get(url, params=params, headers=auth(keys.plain))
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-type"] == JSONAPI
    return response.json()


def names(body: Any) -> list[str]:
    return [item["attributes"]["name"] for item in body["data"]]


def test_list_vessels__all_sorted_by_name(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels")
    assert names(body) == sorted(name for name, _ in FLEET)
    assert body["meta"]["total"] == 4
    assert {item["type"] for item in body["data"]} == {"vessel"}


def test_list_vessels__name_substring_case_insensitive(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels", **{"filter[name]": "eVeR"})
    assert names(body) == ["Ever Ace", "Ever Given"]
    assert body["meta"]["total"] == 2


def test_list_vessels__name_in_the_middle(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels", **{"filter[name]": "jacques"})
    assert names(body) == ["CMA CGM Jacques Saade"]


def test_list_vessels__name_without_match_is_empty(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels", **{"filter[name]": "titanic"})
    assert body["data"] == []
    assert body["meta"]["total"] == 0


def test_list_vessels__imo(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels", **{"filter[imo]": "9456769"})
    assert [item["id"] for item in body["data"]] == [fleet["9456769"]]


def test_list_vessels__imo_is_exact_not_substring(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels", **{"filter[imo]": "945676"})
    assert body["data"] == []


def test_list_vessels__name_and_imo_together(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(
        shared_client,
        shared_keys,
        "/v2/vessels",
        **{"filter[name]": "ever", "filter[imo]": "9456769"},
    )
    assert body["data"] == []


def test_list_vessels__imo_longer_than_16_400(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    response = shared_client.get(
        "/v2/vessels", params={"filter[imo]": "1" * 17}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, parameter="filter[imo]")


def test_get_vessel__by_id(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    vessel_id = fleet["9811000"]
    body = get(shared_client, shared_keys, f"/v2/vessels/{vessel_id}")
    attributes = body["data"]["attributes"]
    assert body["data"]["id"] == vessel_id
    assert attributes["name"] == "Ever Given"
    assert attributes["imo"] == "9811000"
    assert (attributes["latitude"], attributes["longitude"]) == (1.0, 104.0)
    assert attributes["nautical_speed_knots"] == 15.0
    assert attributes["position_timestamp"] == "2026-11-21T12:00:00Z"
    assert "positions" not in attributes
    assert body["links"]["self"] == f"http://testserver/v2/vessels/{vessel_id}"


def test_get_vessel__by_imo(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels/9893890")
    assert body["data"]["id"] == fleet["9893890"]


def test_get_vessel__unknown_id_404(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    url = "/v2/vessels/00000000-0000-0000-0000-000000000000"
    assert_error(shared_client.get(url, headers=auth(shared_keys.plain)), 404, code="not_found")


def test_get_vessel__unknown_imo_404(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    response = shared_client.get("/v2/vessels/9999999", headers=auth(shared_keys.plain))
    assert_error(response, 404, code="not_found")


def test_list_vessels__name_percent_is_literal(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels", **{"filter[name]": "%"})
    assert body["data"] == []


def test_list_vessels__name_underscore_is_literal(
    shared_client: TestClient, shared_keys: Keys, fleet: dict[str, str]
) -> None:
    body = get(shared_client, shared_keys, "/v2/vessels", **{"filter[name]": "ever_"})
    assert body["data"] == []


#: A public base whose path is not the server's own /v2 (a proxy serves the API under /api/v2).
PROXIED_BASE = "https://ships.example.com/api/v2"
TO_ROTTERDAM = {"port_id": "NLRTM", "previous_port_id": "CNSHA"}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The function-scoped app's settings, with :data:`PROXIED_BASE`."""
    database_url = f"sqlite:///{tmp_path / 'sealane.db'}"
    return Settings(database_url=database_url, rate_limit_per_minute=10_000, base_url=PROXIED_BASE)


@pytest.mark.parametrize(
    ("endpoint", "params"),
    [
        ("future_positions", TO_ROTTERDAM),
        (
            "future_positions_with_coordinates",
            {**TO_ROTTERDAM, "latitude": "12.3", "longitude": "60.1"},
        ),
    ],
)
@pytest.mark.parametrize("key", ["id", "imo"])
def test_future_positions__self_link_is_the_request_under_the_base_url(
    client: TestClient,
    keys: Keys,
    vessel: Vessel,
    endpoint: str,
    params: dict[str, str],
    key: str,
) -> None:
    vessel_key = vessel.id if key == "id" else vessel.imo
    url = f"/v2/vessels/{vessel_key}/{endpoint}"
    response = client.get(url, params=params, headers=auth(keys.routing))
    assert response.status_code == 200, response.text[:300]
    expected = f"{PROXIED_BASE}/vessels/{vessel_key}/{endpoint}?{urlencode(params)}"
    assert response.json()["links"]["self"] == expected

"""``/v2/reliability``: lane and port figures as JSON:API resources, each account its own."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.store.database import transaction
from tests.service.reliability.seeding import T0, Voyage, seed, seed_call, seed_dwell
from tests.toolkit import START, Keys, Scenario, auth

from .jsonapi_asserts import assert_error

LANE = [Voyage("MAEU", "CNSHA", "NLRTM", 7 * k, (30 + k) * 24, 6 * k) for k in range(6)]
OTHER = [Voyage("MSCU", "CNNGB", "DEHAM", 0, 30 * 24, 0)]
THEIRS = [Voyage("CMDU", "CNSHA", "NLRTM", 0, 20 * 24, 0)]


@pytest.fixture(scope="module")
def seeded(shared_app: FastAPI, shared_client: TestClient) -> Keys:
    scenario = Scenario.on(shared_app)
    mine = scenario.account("Mine", routing=False, at=START)
    theirs = scenario.account("Theirs", routing=False, at=START)
    with transaction(shared_app.state.sealane.sessions) as session:
        for voyage in LANE + OTHER:
            seed(session, mine.account_id, voyage)
        for voyage in THEIRS:
            seed(session, theirs.account_id, voyage)
        for hours in (10, 20, 30):
            seed_dwell(session, mine.account_id, "NLRTM", T0 + timedelta(hours=hours), hours)
        seed_call(session, "NLRTM", T0, 5)
    return Keys(routing=mine.secret, plain=theirs.secret)


def get(client: TestClient, key: str, path: str, **params: Any) -> Any:
    return client.get(f"/v2{path}", params=params, headers=auth(key))


def test_lanes__figures_as_resources(shared_client: TestClient, seeded: Keys) -> None:
    response = get(shared_client, seeded.routing, "/reliability/lanes")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/vnd.api+json"
    body = response.json()
    assert body["meta"]["total"] == 3
    first = body["data"][0]
    assert (first["type"], first["id"]) == ("lane_reliability", "MAEU-CNSHA-NLRTM")
    attributes = first["attributes"]
    assert attributes["shipments"] == 6
    # 720, 744, ..., 840 hours: median at rank 3.5, P10 at 1.5, P90 at 5.5
    assert attributes["transit_time"] == {
        "n": 6,
        "median_hours": 780.0,
        "p10_hours": 732.0,
        "p90_hours": 828.0,
        "mean_hours": 780.0,
    }
    # drift 0, 6, ..., 30 hours: on time (within 24 h) for 0 to 24
    assert attributes["on_time"] == {
        "tolerance_hours": 24.0,
        "n": 6,
        "on_time": 5,
        "share": round(5 / 6, 6),
    }
    assert attributes["eta_drift"]["p90_hours"] == 27.0
    assert attributes["containers"]["n"] == 6


def test_lanes__filters_and_tolerance(shared_client: TestClient, seeded: Keys) -> None:
    body = get(
        shared_client,
        seeded.routing,
        "/reliability/lanes",
        **{
            "filter[carrier]": "maeu",
            "filter[port_of_discharge]": "nlrtm",
            "tolerance_days": "0.5",
        },
    ).json()
    assert [lane["id"] for lane in body["data"]] == ["MAEU-CNSHA-NLRTM"]
    assert body["data"][0]["attributes"]["on_time"]["on_time"] == 3  # 0, 6 and 12 hours late
    since = (T0 + timedelta(days=60)).isoformat()
    body = get(
        shared_client, seeded.routing, "/reliability/lanes", **{"filter[since]": since}
    ).json()
    assert body["data"][0]["attributes"]["shipments"] == 2  # arrivals on days 62 and 70


def test_lanes__paged(shared_client: TestClient, seeded: Keys) -> None:
    body = get(
        shared_client,
        seeded.routing,
        "/reliability/lanes",
        **{"page[size]": "1", "page[number]": "2"},
    ).json()
    assert [lane["id"] for lane in body["data"]] == ["MSCU-CNNGB-DEHAM"]
    assert body["meta"]["total"] == 3
    assert (
        "page%5Bnumber%5D=1" in body["links"]["first"] or "page[number]=1" in body["links"]["first"]
    )


def test_lanes__another_account_sees_only_its_own(shared_client: TestClient, seeded: Keys) -> None:
    body = get(shared_client, seeded.plain, "/reliability/lanes").json()
    assert [lane["id"] for lane in body["data"]] == ["CMDU-CNSHA-NLRTM"]
    assert body["data"][0]["attributes"]["transit_time"]["n"] == 1
    assert body["data"][0]["attributes"]["transit_time"]["median_hours"] is None


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"filter[carrier]": "M*EU"}, "filter[carrier]"),
        ({"filter[port_of_lading]": "no such port"}, "filter[port_of_lading]"),
        ({"filter[since]": "yesterday"}, "filter[since]"),
        ({"tolerance_days": "-1"}, "tolerance_days"),
        ({"tolerance_days": "nan"}, "tolerance_days"),
        (
            {"filter[since]": "2026-02-01T00:00:00Z", "filter[until]": "2026-01-01T00:00:00Z"},
            "filter[until]",
        ),
        ({"page[size]": "101"}, "page[size]"),
        ({"filter[colour]": "red"}, "filter[colour]"),
    ],
)
def test_lanes__bad_input_is_400(
    shared_client: TestClient, seeded: Keys, params: dict[str, str], parameter: str
) -> None:
    response = get(shared_client, seeded.routing, "/reliability/lanes", **params)
    assert_error(response, 400, parameter=parameter)


def test_lanes__needs_a_key(shared_client: TestClient) -> None:
    assert_error(shared_client.get("/v2/reliability/lanes"), 401)


def test_port__dwell_and_waiting(shared_client: TestClient, seeded: Keys) -> None:
    response = get(shared_client, seeded.routing, "/reliability/ports/nlrtm")
    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["type"], data["id"]) == ("port_reliability", "NLRTM")
    attributes = data["attributes"]
    assert attributes["container_dwell"]["n"] == 3
    assert attributes["container_dwell"]["mean_hours"] == 20.0
    assert attributes["anchorage_waiting"]["n"] == 1
    assert [day["date"] for day in attributes["days"]] == ["2026-06-01", "2026-06-02"]
    assert data["links"]["self"] == "http://testserver/v2/reliability/ports/NLRTM"


def test_port__another_account_has_no_dwell_of_mine(
    shared_client: TestClient, seeded: Keys
) -> None:
    attributes = get(shared_client, seeded.plain, "/reliability/ports/NLRTM").json()["data"][
        "attributes"
    ]
    assert attributes["container_dwell"]["n"] == 0
    assert attributes["anchorage_waiting"]["n"] == 1  # port calls are shared, like positions


def test_port__unknown_is_404(shared_client: TestClient, seeded: Keys) -> None:
    assert_error(get(shared_client, seeded.routing, "/reliability/ports/not-a-port"), 404)


def test_port__bad_window_is_400(shared_client: TestClient, seeded: Keys) -> None:
    response = get(
        shared_client, seeded.routing, "/reliability/ports/NLRTM", **{"filter[until]": "soon"}
    )
    assert_error(response, 400, parameter="filter[until]")


def test_openapi__documents_the_operations(shared_client: TestClient) -> None:
    paths = shared_client.get("/v2/openapi.json").json()["paths"]
    lanes = paths["/v2/reliability/lanes"]["get"]
    names = {parameter["name"] for parameter in lanes["parameters"]}
    assert {
        "filter[carrier]",
        "filter[port_of_lading]",
        "filter[port_of_discharge]",
        "filter[since]",
    } <= names
    assert "/v2/reliability/ports/{locode}" in paths

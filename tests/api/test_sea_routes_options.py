"""``GET /v2/sea_route_options``: the route options of the routing feature, fastest first, each
avoiding what it says; 403 without the feature, clear errors for bad input, in the OpenAPI
document."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import sealane
from tests.toolkit import Keys, auth

from .jsonapi_asserts import JSONAPI, assert_error

URL = "/v2/sea_route_options"


def options(client: TestClient, keys: Keys, **params: Any) -> Any:
    response = client.get(URL, params=params, headers=auth(keys.routing))
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-type"] == JSONAPI
    return response.json()


def test_sea_route_options__fastest_first_each_avoiding_what_it_says(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    body = options(shared_client, shared_keys, origin="CNSHA", destination="NLRTM", speed_kn=16)
    found = [item["attributes"] for item in body["data"]]
    assert [item["type"] for item in body["data"]] == ["sea_route_option"] * len(found)
    hours = [option["duration_h"] for option in found]
    assert hours == sorted(hours) and len(found) >= 3
    assert found[0]["option"] == "shortest" and "suez" in found[0]["passages"]
    by_label = {option["option"]: option for option in found}
    assert "suez" not in by_label["avoiding suez"]["passages"]
    assert "good_hope" in by_label["avoiding panama, suez"]["passages"]
    for option in found:
        assert not set(option["avoided"]) & set(option["passages"])
        assert option["geometry"]["type"] in {"LineString", "MultiLineString"}
    # The same figures as the engine's, on the speed profile.
    engine = sealane.route_options("CNSHA", "NLRTM", speed_kn=16)
    assert [o.label for o in engine] == [option["option"] for option in found]
    assert [round(o.duration_h, 2) for o in engine] == hours
    assert body["meta"]["speed_kn"] == 16.0 and body["meta"]["origin"]["locode"] == "CNSHA"


def test_sea_route_options__each_option_avoids_the_callers_passages(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    body = options(shared_client, shared_keys, origin="CNSHA", destination="NLRTM", avoid="suez")
    for item in body["data"]:
        assert "suez" in item["attributes"]["avoided"]
        assert "suez" not in item["attributes"]["passages"]


def test_sea_route_options__403_without_the_routing_feature(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.get(
        URL, params={"origin": "CNSHA", "destination": "NLRTM"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 403)


def test_sea_route_options__unknown_passage_is_a_clear_error(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.get(
        URL,
        params={"origin": "CNSHA", "destination": "NLRTM", "avoid": "suez,atlantis"},
        headers=auth(shared_keys.routing),
    )
    error = assert_error(response, 422, code="unknown_passage")
    assert "atlantis" in error["detail"] and "known passages" in error["detail"]


def test_sea_route_options__bad_places_and_speeds(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    headers = auth(shared_keys.routing)
    unknown = shared_client.get(URL, params={"origin": "XXZZZ", "destination": "NLRTM"},
                                headers=headers)  # fmt: skip
    assert_error(unknown, 422, code="unknown_port")
    malformed = shared_client.get(URL, params={"origin": "4.0,north", "destination": "NLRTM"},
                                  headers=headers)  # fmt: skip
    assert_error(malformed, 422, code="unknown_port")
    slow = shared_client.get(
        URL, params={"origin": "CNSHA", "destination": "NLRTM", "speed_kn": 0}, headers=headers
    )
    assert_error(slow, 400, parameter="speed_kn")
    missing = shared_client.get(URL, params={"origin": "CNSHA"}, headers=headers)
    assert_error(missing, 400, parameter="destination")


def test_sea_route_options__in_the_openapi_document(shared_client: TestClient) -> None:
    document = shared_client.get("/v2/openapi.json").json()
    operation = document["paths"]["/v2/sea_route_options"]["get"]
    names = {parameter["name"] for parameter in operation["parameters"]}
    assert {"origin", "destination", "avoid", "speed_kn", "draft_m"} <= names
    assert "403" in operation["responses"] or "default" in operation["responses"]

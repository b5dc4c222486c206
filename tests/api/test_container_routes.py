"""``GET /v2/containers/{id}/route`` and ``/map_geojson`` over HTTP: the documents validated
against Terminal49's published schemas at every phase of a simulated voyage, media types, the
routing feature (403) and account isolation (404)."""

from __future__ import annotations

import copy
import doctest
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import sealane.api.geojson
from sealane.clock import ManualClock
from tests.service.container_routes.routes_support import (
    DIRECT,
    TRANSSHIPPED,
    assert_joined,
    assert_rfc7946_lines,
    phase_times,
    plan_of,
    reference_file,
    schema_validator,
    with_errata,
)
from tests.toolkit import START, Scenario, auth, make_app

from .jsonapi_asserts import JSONAPI, assert_error
from .test_auth import ROUTING_DISABLED

GEOJSON = "application/geo+json"
PLAIN = "application/json"
ALL_INCLUDES = "port,vessel,terminal,route_location,shipment"


@dataclass(frozen=True)
class Journey:
    """An app whose two containers were followed through every phase, the documents each
    endpoint answered at each, and the keys of three accounts."""

    app: FastAPI
    client: TestClient
    routing: str
    plain: str
    other: str
    containers: dict[str, str]
    routes: dict[tuple[str, str], dict[str, Any]]
    maps: dict[tuple[str, str], dict[str, Any]]


def _container(client: TestClient, key: str, request_id: str) -> str:
    found = client.get(f"/v2/tracking_requests/{request_id}", headers=auth(key))
    shipment_id = found.json()["data"]["relationships"]["tracked_object"]["data"]["id"]
    shipment = client.get(f"/v2/shipments/{shipment_id}", headers=auth(key)).json()
    (container,) = shipment["data"]["relationships"]["containers"]["data"]
    return str(container["id"])


def _get(client: TestClient, key: str, url: str, **headers: str) -> Any:
    response = client.get(url, headers={**auth(key), **headers})
    assert response.status_code == 200, response.text[:500]
    return response.json()


@pytest.fixture(scope="module")
def journey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journey]:
    clock = ManualClock(START)
    path = tmp_path_factory.mktemp("routes") / "sealane.db"
    app = make_app(path, clock=clock, rate_limit_per_minute=100_000)
    with TestClient(app, raise_server_exceptions=False) as client:
        scenario = Scenario.on(app).with_client(client)
        keys = [
            scenario.account(name, routing=routing).secret
            for name, routing in (("R", True), ("P", False), ("O", True))
        ]
        routing = keys[0]
        requests = {n: scenario.track("R", n) for n in (TRANSSHIPPED, DIRECT)}
        scenario.tick()
        containers = {n: _container(client, routing, r) for n, r in requests.items()}
        routes, maps = {}, {}
        for phase, when in phase_times(TRANSSHIPPED).items():
            clock.advance((when - clock.now()).total_seconds())
            app.state.sealane.tracking.tick()
            for number, container_id in containers.items():
                base = f"/v2/containers/{container_id}"
                routes[number, phase] = _get(
                    client, routing, f"{base}/route?include={ALL_INCLUDES}"
                )
                maps[number, phase] = _get(client, routing, f"{base}/map_geojson", accept=GEOJSON)
        yield Journey(app, client, *keys, containers, routes, maps)


SEEN = [(n, p) for n in (TRANSSHIPPED, DIRECT) for p in phase_times(TRANSSHIPPED)]


@cache
def route_validator() -> jsonschema.Draft7Validator:
    """The 200 schema of Terminal49's ``GET /containers/{id}/route`` with the README's errata,
    whose ``included`` also admits its ``terminal`` resource (the ``facility`` a route location
    names; included here only when asked for)."""
    path = reference_file("openapi-with-route.json")
    spec = with_errata(json.loads(path.read_text(encoding="utf-8")))
    response = spec["paths"]["/containers/{id}/route"]["get"]["responses"]["200"]
    schema = copy.deepcopy(response["content"]["application/json"]["schema"])
    schema["properties"]["included"]["items"]["anyOf"].append(
        {"$ref": "#/components/schemas/terminal"}
    )
    return schema_validator(spec, schema)


@cache
def map_validator() -> jsonschema.Draft7Validator:
    """The 200 schema of Terminal49's ``GET /containers/{id}/map_geojson`` as published."""
    path = reference_file("openapi.json")
    spec = json.loads(path.read_text(encoding="utf-8"))
    response = spec["paths"]["/containers/{id}/map_geojson"]["get"]["responses"]["200"]
    return schema_validator(spec, response["content"]["application/json"]["schema"])


# -- the documents against Terminal49's schemas ------------------------------------------------


@pytest.mark.parametrize(("number", "phase"), SEEN)
def test_route__valid_against_terminal49_route_schema(
    journey: Journey, number: str, phase: str
) -> None:
    document = journey.routes[number, phase]
    route_validator().validate(document)
    assert {item["type"] for item in document["included"]} == {
        "route_location",
        "port",
        "vessel",
        "terminal",
        "shipment",
    }


@pytest.mark.parametrize(("number", "phase"), SEEN)
def test_map__valid_against_terminal49_feature_schemas(
    journey: Journey, number: str, phase: str
) -> None:
    document = journey.maps[number, phase]
    map_validator().validate(document)
    assert_joined(document)
    assert_rfc7946_lines(document)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("data", "type"), "routes"),
        (("data", "relationships", "route_locations", "data", 0, "type"), "port"),
        (("included", "route_location", "attributes", "inbound_mode"), "truck"),
        (("data", "attributes"), {"id": "x"}),
    ],
    ids=["type", "linkage", "mode", "timestamps"],
)
def test_route__validator_rejects_a_wrong_document(
    journey: Journey, path: tuple[Any, ...], value: Any
) -> None:
    document = copy.deepcopy(journey.routes[TRANSSHIPPED, "first_leg"])
    target = document
    for key in path[:-1]:
        if key == "route_location":  # the first included route location
            key = next(i for i, item in enumerate(target) if item["type"] == key)
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        route_validator().validate(document)


def test_route__validator_rejects_an_object_terminal49_never_includes(journey: Journey) -> None:
    document = copy.deepcopy(journey.routes[TRANSSHIPPED, "first_leg"])
    document["included"].append({"type": "webhook", "id": "x", "attributes": {}})
    with pytest.raises(jsonschema.ValidationError):
        route_validator().validate(document)


def test_map__validator_rejects_a_wrong_feature(journey: Journey) -> None:
    document = copy.deepcopy(journey.maps[TRANSSHIPPED, "first_leg"])
    document["features"][1]["properties"]["start_time"] = 17
    with pytest.raises(jsonschema.ValidationError):
        map_validator().validate(document)


# -- the route document ------------------------------------------------------------------------


def test_route__calls_in_order_with_their_ports(journey: Journey) -> None:
    document = journey.routes[TRANSSHIPPED, "transshipment"]
    data = document["data"]
    assert data["type"] == "route" and data["attributes"]["id"] == data["id"]
    assert data["relationships"]["cargo"]["data"] == {
        "type": "container",
        "id": journey.containers[TRANSSHIPPED],
    }
    assert data["links"]["self"] == document["links"]["self"]
    assert document["links"]["self"].endswith(
        f"/containers/{journey.containers[TRANSSHIPPED]}/route"
    )
    ids = [item["id"] for item in data["relationships"]["route_locations"]["data"]]
    included = {(item["type"], item["id"]): item for item in document["included"]}
    calls = [included["route_location", i] for i in ids]
    ports = [included["port", c["relationships"]["location"]["data"]["id"]] for c in calls]
    assert [p["attributes"]["code"] for p in ports] == ["VNSGN", "SGSIN", "USLGB"]
    legs = plan_of(TRANSSHIPPED).legs
    hub = calls[1]["attributes"]
    assert hub["inbound_ata_at"] == legs[0].arrive_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert hub["inbound_eta_at"] is None and hub["outbound_atd_at"] is None
    assert hub["outbound_voyage_number"] == legs[1].voyage_number
    vessel = included["vessel", calls[1]["relationships"]["outbound_vessel"]["data"]["id"]]
    assert vessel["attributes"]["imo"] == legs[1].vessel_imo
    assert calls[2]["relationships"]["facility"]["data"]["type"] == "terminal"
    assert all(c["relationships"]["route"]["data"]["id"] == data["id"] for c in calls)


@pytest.mark.parametrize(
    ("include", "types"),
    [
        ("", set()),
        ("route_location", {"route_location"}),
        ("route_locations", {"route_location"}),
        ("port", {"route_location", "port"}),
        ("vessel", {"route_location", "vessel"}),
        ("route_locations.location", {"route_location", "port"}),
        ("route_locations.outbound_vessel", {"route_location", "vessel"}),
        ("route_locations.facility", {"route_location", "terminal"}),
        ("shipment", {"shipment"}),
    ],
)
def test_route__include(journey: Journey, include: str, types: set[str]) -> None:
    url = f"/v2/containers/{journey.containers[DIRECT]}/route"
    document = _get(journey.client, journey.routing, f"{url}?include={include}")
    assert {item["type"] for item in document.get("included", [])} == types
    assert document["data"]["relationships"]["route_locations"]["data"]


def test_route__unknown_include_400(journey: Journey) -> None:
    url = f"/v2/containers/{journey.containers[DIRECT]}/route?include=containers"
    response = journey.client.get(url, headers=auth(journey.routing))
    assert_error(response, 400, code="unknown_include", parameter="include")


def test_route__plain_json_for_clients_asking_for_it(journey: Journey) -> None:
    url = f"/v2/containers/{journey.containers[DIRECT]}/route"
    response = journey.client.get(url, headers={**auth(journey.routing), "accept": PLAIN})
    assert response.status_code == 200 and response.headers["content-type"] == PLAIN
    assert journey.client.get(url, headers=auth(journey.routing)).headers["content-type"] == JSONAPI


# -- the map document ------------------------------------------------------------------------


def test_map__phases_have_their_features(journey: Journey) -> None:
    def kinds(phase: str) -> set[str]:
        features = journey.maps[TRANSSHIPPED, phase]["features"]
        return {f["properties"]["feature_type"] for f in features}

    assert kinds("not_departed") == {"port", "estimated_full_legs"}
    assert kinds("first_leg") == {
        "port",
        "past_vessel_locations",
        "current_vessel",
        "estimated_partial_leg",
        "estimated_full_legs",
    }
    assert kinds("last_leg") == {
        "port",
        "past_vessel_locations",
        "current_vessel",
        "estimated_partial_leg",
    }
    assert kinds("delivered") == {"port", "past_vessel_locations"}


@pytest.mark.parametrize(
    ("accept", "media_type"),
    [
        (GEOJSON, GEOJSON),
        (f"{GEOJSON}, {PLAIN};q=0.5", GEOJSON),
        (PLAIN, PLAIN),
        (None, PLAIN),
        ("*/*", PLAIN),
        (JSONAPI, PLAIN),
        (f"{PLAIN}, {GEOJSON};q=0.9", PLAIN),
    ],
)
def test_map__media_type(journey: Journey, accept: str | None, media_type: str) -> None:
    headers = auth(journey.routing) | ({"accept": accept} if accept else {})
    url = f"/v2/containers/{journey.containers[TRANSSHIPPED]}/map_geojson"
    response = journey.client.get(url, headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"] == media_type
    assert "accept" in response.headers["vary"].lower()
    body = response.json()
    assert body["type"] == "FeatureCollection" and "data" not in body  # never JSON:API


def test_map__gzip_keeps_the_media_type(journey: Journey) -> None:
    url = f"/v2/containers/{journey.containers[TRANSSHIPPED]}/map_geojson"
    headers = auth(journey.routing) | {"accept": GEOJSON, "accept-encoding": "gzip"}
    response = journey.client.get(url, headers=headers)
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["content-type"] == GEOJSON
    assert response.json()["type"] == "FeatureCollection"


def test_geojson_type__doctests() -> None:
    result = doctest.testmod(sealane.api.geojson, verbose=False)
    assert result.attempted >= 2 and result.failed == 0


# -- the feature and the account -------------------------------------------------------------

ENDPOINTS = ("route", "map_geojson")


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_routing_disabled__403_document(journey: Journey, endpoint: str) -> None:
    url = f"/v2/containers/{journey.containers[DIRECT]}/{endpoint}"
    for headers in ({}, {"accept": GEOJSON}, {"accept": PLAIN}):
        response = journey.client.get(url, headers=auth(journey.plain) | headers)
        assert response.status_code == 403
        assert response.json() == ROUTING_DISABLED


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_routing_disabled__403_before_the_container_is_looked_up(
    journey: Journey, endpoint: str
) -> None:
    response = journey.client.get(f"/v2/containers/nope/{endpoint}", headers=auth(journey.plain))
    assert_error(response, 403, code="routing_disabled")


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("container", ["other-account", "unknown"])
def test_container__404_for_another_account_or_none(
    journey: Journey, endpoint: str, container: str
) -> None:
    container_id = journey.containers[DIRECT] if container == "other-account" else "f" * 36
    response = journey.client.get(
        f"/v2/containers/{container_id}/{endpoint}", headers=auth(journey.other)
    )
    error = assert_error(response, 404, code="not_found")
    assert "container" in error["detail"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_without_key__401(journey: Journey, endpoint: str) -> None:
    response = journey.client.get(f"/v2/containers/{journey.containers[DIRECT]}/{endpoint}")
    assert_error(response, 401, code="unauthorized")


def test_map__include_is_refused(journey: Journey) -> None:
    url = f"/v2/containers/{journey.containers[DIRECT]}/map_geojson?include=port"
    assert_error(journey.client.get(url, headers=auth(journey.routing)), 400, parameter="include")


def test_reference_file__kept_in_the_repository() -> None:
    found = reference_file("openapi.json")
    assert found.is_relative_to(Path(__file__).resolve().parents[1] / "fixtures")


def test_reference_file__missing_is_a_failure() -> None:
    with pytest.raises(pytest.fail.Exception, match=r"no-such-document\.json"):
        reference_file("no-such-document.json")


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_undeclared_parameter__400_naming_it(journey: Journey, endpoint: str) -> None:
    url = f"/v2/containers/{journey.containers[DIRECT]}/{endpoint}?zz_unknown=1"
    response = journey.client.get(url, headers=auth(journey.routing))
    assert_error(response, 400, code="unknown_parameter", parameter="zz_unknown")

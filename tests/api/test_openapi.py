"""The OpenAPI document of /v2, and schemathesis runs over it in-process (ASGI, no network).

The schemathesis schema is loaded at import time from a schema-only app (``migrate=False``: its
database is never touched), because ``schemathesis.pytest.from_fixture`` fails on pytest 9.2
(``Function._nodeid`` is gone). Every request goes to this module's ``shared_app`` through
``case.call_and_validate(app=...)``; ``test_openapi__served_document_is_the_fuzzed_one`` checks the
two documents agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from sealane.api.app import create_app
from sealane.config import Settings
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.toolkit import START, Keys, auth

JSONAPI = "application/vnd.api+json"
OPENAPI_URL = "/v2/openapi.json"
WITH_COORDINATES = "/v2/vessels/{vessel_id}/future_positions_with_coordinates"
FROM_LAST_POSITION = "/v2/vessels/{vessel_id}/future_positions"
CONTAINER_ROUTE = "/v2/containers/{container_id}/route"
CONTAINER_MAP = "/v2/containers/{container_id}/map_geojson"
ROUTING_PATHS = (WITH_COORDINATES, FROM_LAST_POSITION, CONTAINER_ROUTE, CONTAINER_MAP)
#: The one operation whose success is not a JSON:API document: a GeoJSON FeatureCollection.
GEOJSON_TYPES = {"application/geo+json", "application/json"}
IMO = "9400001"
#: The DCSA callback: signed by the carrier, not authenticated by an API key.
PUSH_PATH = "/v2/dcsa/{carrier}/events"

_LOADED = schemathesis.openapi.from_asgi(
    OPENAPI_URL, create_app(Settings(database_url="sqlite://"), migrate=False)
)
#: Every GET operation of the document served by a fresh app.
SCHEMA = _LOADED.include(method="GET")
#: The paid routing operations only (chained ``include`` calls widen, so both filters at once).
ROUTING_SCHEMA = _LOADED.include(
    method="GET", path_regex=r"/future_positions|/containers/\{container_id\}/(route|map_geojson)$"
)

#: No 5xx; status code, media type, headers and body as documented.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
#: Per operation: 30 fuzzed cases (positive and negative) after schemathesis' coverage-phase
#: cases; derandomized so that a run is reproducible. The two health checks do not fire here today;
#: they are suppressed so a loaded CI machine does not turn slow generation into a failure.
FUZZ = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.fixture(scope="module")
def shared_vessel(shared_app: FastAPI) -> Vessel:
    """The ``vessel`` fixture's ship, in the module's shared app (IMO 9400001, Arabian Sea)."""
    with transaction(shared_app.state.sealane.sessions) as session:
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
    return ship


@pytest.fixture(scope="module")
def document(shared_client: TestClient) -> dict[str, Any]:
    response = shared_client.get(OPENAPI_URL)
    assert response.status_code == 200, response.text[:500]
    doc: dict[str, Any] = response.json()
    return doc


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(method, path, operation) of every operation under /v2."""
    for path, item in doc["paths"].items():
        assert path.startswith("/v2/"), path
        for method, operation in item.items():
            yield method.upper(), path, operation


# --- the document ---------------------------------------------------------------------------


def test_openapi__served_and_valid(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.")
    schemathesis.openapi.from_dict(document).validate()  # raises on an invalid document
    assert sorted(document["paths"]) == sorted(
        [
            "/v2/account",
            "/v2/ports",
            "/v2/ports/{port_id}",
            "/v2/reliability/lanes",
            "/v2/reliability/ports/{locode}",
            "/v2/terminals",
            "/v2/terminals/{terminal_id}",
            "/v2/shipping_lines",
            "/v2/shipping_lines/{line_id}",
            "/v2/vessels",
            "/v2/vessels/{vessel_id}",
            WITH_COORDINATES,
            FROM_LAST_POSITION,
            "/v2/tracking_requests",
            "/v2/tracking_requests/{request_id}",
            "/v2/shipments",
            "/v2/shipments/{shipment_id}",
            "/v2/shipments/{shipment_id}/stop_tracking",
            "/v2/shipments/{shipment_id}/resume_tracking",
            "/v2/containers",
            "/v2/containers/{container_id}",
            "/v2/containers/{container_id}/transport_events",
            CONTAINER_ROUTE,
            CONTAINER_MAP,
            "/v2/webhooks",
            "/v2/webhooks/events",
            "/v2/webhooks/{webhook_id}",
            "/v2/webhook_notifications",
            "/v2/webhook_notifications/{notification_id}",
            # live feeds (issue 18)
            "/v2/vessel_positions",
            PUSH_PATH,
            "/v2/sea_route_options",
            # Terminal49 compatibility (issue 15)
            "/v2/search",
            "/v2/metro_areas/{area_id}",
            "/v2/parties",
            "/v2/parties/{party_id}",
            "/v2/tracking_requests/infer_number",
            "/v2/containers/{container_id}/raw_events",
            "/v2/containers/{container_id}/refresh",
            "/v2/webhooks/ips",
            "/v2/webhooks/trigger",
            "/v2/webhook_notifications/examples",
            "/v2/custom_field_definitions",
            "/v2/custom_field_definitions/{definition_id}",
            "/v2/custom_field_definitions/{definition_id}/options",
            "/v2/custom_field_definitions/{definition_id}/options/{option_id}",
            "/v2/custom_fields",
            "/v2/custom_fields/{field_id}",
            *(
                f"/v2/{collection}/{{object_id}}/custom_fields{tail}"
                for collection in ("tracking_requests", "shipments", "containers")
                for tail in ("", "/{api_slug}")
            ),
        ]
    )


def test_openapi__served_document_is_the_fuzzed_one(document: dict[str, Any]) -> None:
    assert document["paths"] == SCHEMA.raw_schema["paths"]
    assert document["components"] == SCHEMA.raw_schema["components"]


def test_openapi__every_operation_declares_jsonapi_errors(document: dict[str, Any]) -> None:
    problems = []
    for method, path, operation in operations(document):
        # the callback has no API key, so no per-account rate limit
        for status in ("400", "401", "404") if path == PUSH_PATH else ("400", "401", "404", "429"):
            content = operation["responses"].get(status, {}).get("content", {})
            schema = content.get(JSONAPI, {}).get("schema", {})
            errors = schema.get("properties", {}).get("errors", {})
            if set(content) != {JSONAPI}:
                problems.append(f"{method} {path} {status}: content {sorted(content)}")
            elif "errors" not in schema.get("required", []) or errors.get("type") != "array":
                problems.append(f"{method} {path} {status}: not an error document: {schema}")
    assert problems == []


#: Operations whose success is not a resource document, and the member their body requires
#: (as the reference API documents them).
NOT_RESOURCES = {
    ("PATCH", "/v2/containers/{container_id}/refresh"): "message",
    ("GET", "/v2/webhooks/ips"): "webhook_notification_ips",
    ("POST", "/v2/webhooks/trigger"): "succeeded",
    ("POST", "/v2/vessel_positions"): "meta",
}
#: Operations answering 200 (not 201) to a POST: they create nothing.
POST_200 = {"/v2/tracking_requests/infer_number", "/v2/webhooks/trigger", "/v2/vessel_positions"}


def test_openapi__success_is_a_jsonapi_document(document: dict[str, Any]) -> None:
    for method, path, operation in operations(document):
        # an object's custom field deleted, a carrier's callback kept: no content
        if (method == "DELETE" and path.endswith("/{api_slug}")) or path == PUSH_PATH:
            assert "204" in operation["responses"], (method, path)
            continue
        success = "201" if method == "POST" and path not in POST_200 else "200"
        content = operation["responses"][success]["content"]
        if path == CONTAINER_MAP:
            assert set(content) == GEOJSON_TYPES
            continue
        assert set(content) == {JSONAPI}, (method, path)
        schema = content[JSONAPI]["schema"]
        required = NOT_RESOURCES.get((method, path), "meta" if method == "DELETE" else "data")
        assert schema["type"] == "object" and required in schema["required"], (method, path)


def test_openapi__no_application_json_response(document: dict[str, Any]) -> None:
    """JSON:API everywhere, but for the GeoJSON of the container map's success."""
    media_types = {
        media_type
        for _method, path, operation in operations(document)
        for status, response in operation["responses"].items()
        if (path, status) != (CONTAINER_MAP, "200")
        for media_type in response.get("content", {})
    }
    assert media_types == {JSONAPI}


def test_openapi__container_map_declares_a_feature_collection(document: dict[str, Any]) -> None:
    content = document["paths"][CONTAINER_MAP]["get"]["responses"]["200"]["content"]
    for media_type in GEOJSON_TYPES:
        schema = content[media_type]["schema"]
        assert schema["properties"]["type"]["enum"] == ["FeatureCollection"]


def test_openapi__routing_operations_declare_403(document: dict[str, Any]) -> None:
    for path in ROUTING_PATHS:
        forbidden = document["paths"][path]["get"]["responses"]["403"]
        assert set(forbidden["content"]) == {JSONAPI}


def test_openapi__token_security_scheme(document: dict[str, Any]) -> None:
    token = document["components"]["securitySchemes"]["Token"]
    assert (token["type"], token["in"], token["name"]) == ("apiKey", "header", "Authorization")
    for method, path, operation in operations(document):
        if path == PUSH_PATH:  # the Notification-Signature is its credential
            assert operation["security"] == [], method
            continue
        assert {"Token": []} in operation["security"], (method, path)


@pytest.mark.parametrize("path", ROUTING_PATHS[:2])
def test_openapi__routing_parameters_required_and_optional(
    document: dict[str, Any], path: str
) -> None:
    """The start coordinate is required where it is asked for; the ports may be left out (taken
    from the vessel's tracked voyage), and the vessel's dimensions and speed are optional extras."""
    wanted = {"latitude", "longitude"} if path == WITH_COORDINATES else set()
    parameters = document["paths"][path]["get"]["parameters"]
    query = {p["name"]: bool(p.get("required")) for p in parameters if p["in"] == "query"}
    assert {name for name, required in query.items() if required} == wanted
    optional = {"port_id", "previous_port_id", "draft_m", "beam_m", "length_m", "air_draft_m"}
    optional.add("speed_kn")  # sealane's own: the speed, else the vessel's own (meta.speed)
    assert {name for name, required in query.items() if not required} == optional


# --- schemathesis ---------------------------------------------------------------------------


@pytest.mark.slow
@SCHEMA.parametrize()
@FUZZ
def test_fuzz__routing_key(
    case: schemathesis.Case, shared_app: FastAPI, shared_keys: Keys, shared_vessel: Vessel
) -> None:
    """Generated ids are almost all unknown (404); negative cases drop the key (401)."""
    case.call_and_validate(app=shared_app, headers=auth(shared_keys.routing), checks=CHECKS)


@pytest.mark.slow
@ROUTING_SCHEMA.parametrize()
@FUZZ
def test_fuzz__plain_key_routing(
    case: schemathesis.Case, shared_app: FastAPI, shared_keys: Keys, shared_vessel: Vessel
) -> None:
    """Without the routing feature: 403 before any parameter is looked at.

    401 when a negative case drops the key; 404 when a generated id holds a "/" (no route).
    The coverage phase also sends undeclared methods (405, or 415 for writes): not asserted here.
    """
    response = case.call_and_validate(
        app=shared_app, headers=auth(shared_keys.plain), checks=CHECKS
    )
    if case.method == "GET":
        assert response.status_code in (401, 403, 404), response.text[:300]


#: (path, path parameters, query, key, status); "<id>" and "<imo>" are the vessel's.
EXPLICIT = [
    ("/v2/vessels/{vessel_id}", {"vessel_id": "<id>"}, {}, "routing", 200),
    ("/v2/vessels/{vessel_id}", {"vessel_id": "<imo>"}, {}, "plain", 200),
    ("/v2/vessels", {}, {"filter[imo]": IMO}, "plain", 200),
    ("/v2/ports/{port_id}", {"port_id": "NLRTM"}, {}, "plain", 200),
    ("/v2/terminals", {}, {"filter[port]": "NLRTM", "include": "port"}, "plain", 200),
    (
        WITH_COORDINATES,
        {"vessel_id": "<id>"},
        {"port_id": "NLRTM", "previous_port_id": "CNSHA", "latitude": "12.3", "longitude": "60.1"},
        "routing",
        200,
    ),
    (
        FROM_LAST_POSITION,
        {"vessel_id": "<imo>"},
        {"port_id": "NLRTM", "previous_port_id": "CNSHA"},
        "routing",
        200,
    ),
    (
        FROM_LAST_POSITION,
        {"vessel_id": "<id>"},
        {"port_id": "NLRTM", "previous_port_id": "CNSHA"},
        "plain",
        403,
    ),
    (
        FROM_LAST_POSITION,
        {"vessel_id": "<id>"},
        {"port_id": "XXZZZ", "previous_port_id": "CNSHA"},
        "routing",
        422,
    ),
    (
        WITH_COORDINATES,
        {"vessel_id": "<id>"},
        {"port_id": "NLRTM", "previous_port_id": "CNSHA", "latitude": "91", "longitude": "0"},
        "routing",
        400,
    ),
]


@pytest.mark.parametrize(
    ("path", "path_parameters", "query", "key", "status"),
    EXPLICIT,
    ids=[
        "vessel-by-id",
        "vessel-by-imo",
        "vessels-filter-imo",
        "port-by-locode",
        "terminals-include-port",
        "with-coordinates-200",
        "from-last-position-200",
        "plain-key-403",
        "unknown-port-422",
        "latitude-out-of-range-400",
    ],
)
def test_explicit_case__conforms(
    shared_app: FastAPI,
    shared_keys: Keys,
    shared_vessel: Vessel,
    path: str,
    path_parameters: dict[str, str],
    query: dict[str, str],
    key: str,
    status: int,
) -> None:
    """The real vessel and real ports: the success bodies are validated against the schema too."""
    known = {"<id>": shared_vessel.id, "<imo>": IMO}
    case = SCHEMA[path]["GET"].Case(
        path_parameters={name: known.get(value, value) for name, value in path_parameters.items()},
        query=query,
    )
    response = case.call_and_validate(
        app=shared_app, headers=auth(getattr(shared_keys, key)), checks=CHECKS
    )
    assert response.status_code == status, response.text[:300]
    if status == 200 and path in ROUTING_PATHS:
        attributes = response.json()["data"]["attributes"]
        assert attributes["imo"] == IMO and len(attributes["positions"]) > 1


#: Destination, previous port.
VOYAGES = [("NLRTM", "CNSHA"), ("CNSHA", "NLRTM"), ("USLAX", "SGSIN"), ("DEHAM", "AUSYD")]


@pytest.mark.slow
@settings(max_examples=8, deadline=None, derandomize=True)
@given(
    latitude=st.floats(-90, 90),
    longitude=st.floats(-180, 180),
    voyage=st.sampled_from(VOYAGES),
)
def test_future_positions_with_coordinates__any_start_conforms(
    shared_app: FastAPI,
    shared_keys: Keys,
    shared_vessel: Vessel,
    latitude: float,
    longitude: float,
    voyage: tuple[str, str],
) -> None:
    """Any start in range: a validated 200, or 422 when the start is too far inland."""
    destination, previous = voyage
    case = SCHEMA[WITH_COORDINATES]["GET"].Case(
        path_parameters={"vessel_id": shared_vessel.id},
        query={
            "port_id": destination,
            "previous_port_id": previous,
            "latitude": repr(latitude),
            "longitude": repr(longitude),
        },
    )
    response = case.call_and_validate(
        app=shared_app, headers=auth(shared_keys.routing), checks=CHECKS
    )
    assert response.status_code in (200, 422), response.text[:300]

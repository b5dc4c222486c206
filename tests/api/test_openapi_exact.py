"""The OpenAPI document says exactly what the server accepts (issue 12, item 8): the bounds of
``page[...]``, the values of ``include``, the ranges of coordinates, a typed body for every write
and the errors a write may answer; and the server holds to the same edges."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient

from sealane.api.app import create_app
from sealane.config import Settings
from sealane.service.core.paging import MAX_PAGE_SIZE
from tests.toolkit import Keys, auth

from .jsonapi_asserts import assert_error

WITH_COORDINATES = "/v2/vessels/{vessel_id}/future_positions_with_coordinates"
WRITES = ("post", "patch", "put")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The document of an app whose database is never touched (it needs none)."""
    app = create_app(Settings(database_url="sqlite://"), migrate=False)
    found: dict[str, Any] = app.openapi()
    app.state.sealane.engine.dispose()
    return found


def parameters(document: dict[str, Any], name: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(path, schema) of every query parameter called ``name``."""
    for path, item in document["paths"].items():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == name and parameter["in"] == "query":
                    yield path, parameter["schema"]


def test_page_size__bounded_1_to_max(document: dict[str, Any]) -> None:
    found = list(parameters(document, "page[size]"))
    assert len(found) >= 10
    for path, schema in found:
        assert schema["type"] == "integer", path
        assert (schema["minimum"], schema["maximum"]) == (1, MAX_PAGE_SIZE), path


def test_page_number__at_least_1(document: dict[str, Any]) -> None:
    for path, schema in parameters(document, "page[number]"):
        assert schema["type"] == "integer", path
        assert schema["minimum"] == 1, path


def test_include__a_comma_list_of_named_paths(document: dict[str, Any]) -> None:
    found = list(parameters(document, "include"))
    assert len(found) >= 5
    for path, schema in found:
        assert schema["type"] == "array", path
        assert schema["items"]["enum"], path
    shipments = dict(found)["/v2/shipments"]
    assert "containers.transport_events" in shipments["items"]["enum"]


def test_include__serialised_comma_separated(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "include":
                    assert (parameter["style"], parameter["explode"]) == ("form", False), path


def test_coordinates__ranges_in_degrees(document: dict[str, Any]) -> None:
    operation = document["paths"][WITH_COORDINATES]["get"]
    schemas = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert (schemas["latitude"]["minimum"], schemas["latitude"]["maximum"]) == (-90, 90)
    assert (schemas["longitude"]["minimum"], schemas["longitude"]["maximum"]) == (-180, 180)


def test_writes__declare_401_413_415_and_their_error_document(document: dict[str, Any]) -> None:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in WRITES:
                continue
            for status in ("401", "413", "415"):
                response = operation["responses"].get(status)
                assert response is not None, (method, path, status)
                schema = response["content"]["application/vnd.api+json"]["schema"]
                assert "errors" in str(schema), (method, path, status)


def test_writes_with_a_body__typed_in_both_media_types(document: dict[str, Any]) -> None:
    bodies = 0
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in WRITES or "requestBody" not in operation:
                continue
            bodies += 1
            content = operation["requestBody"]["content"]
            if path == "/v2/dcsa/{carrier}/events":  # DCSA's own callbacks: plain JSON only
                assert set(content) == {"application/json"}, path
                continue
            assert set(content) == {"application/vnd.api+json", "application/json"}, path
            schema = content["application/vnd.api+json"]["schema"]
            assert schema.get("type") == "object" and schema.get("required"), (method, path)
    assert bodies >= 15


def test_new_tracking_request__required_attributes_and_enums(document: dict[str, Any]) -> None:
    operation = document["paths"]["/v2/tracking_requests"]["post"]
    schema = operation["requestBody"]["content"]["application/vnd.api+json"]["schema"]
    data = schema["properties"]["data"]
    attributes = data["properties"]["attributes"]
    assert data["properties"]["type"]["enum"] == ["tracking_request"]
    assert set(attributes["required"]) == {"request_type", "request_number"}
    assert attributes["additionalProperties"] is False
    assert "container" in attributes["properties"]["request_type"]["enum"]
    assert "TEST" in document["components"]["schemas"]["Scac"]["enum"]


# --- the server holds to the same edges --------------------------------------------------


@pytest.mark.parametrize("size", ["1", str(MAX_PAGE_SIZE)])
def test_page_size__edges_accepted(shared_client: TestClient, shared_keys: Keys, size: str) -> None:
    response = shared_client.get(
        "/v2/shipments", params={"page[size]": size}, headers=auth(shared_keys.plain)
    )
    assert response.status_code == 200, response.text[:300]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("page[size]", "0"),
        ("page[size]", str(MAX_PAGE_SIZE + 1)),
        ("page[number]", "0"),
        ("page[number]", "1.0"),
        ("include", "containers,nope"),
    ],
)
def test_outside_the_document__400_naming_the_parameter(
    shared_client: TestClient, shared_keys: Keys, name: str, value: str
) -> None:
    response = shared_client.get(
        "/v2/shipments", params={name: value}, headers=auth(shared_keys.plain)
    )
    error = assert_error(response, 400)
    assert error["source"]["parameter"] == name


@pytest.mark.parametrize(("latitude", "longitude"), [("90.5", "0"), ("0", "-180.5")])
def test_coordinates__outside_their_range_400(
    shared_client: TestClient, shared_keys: Keys, latitude: str, longitude: str
) -> None:
    response = shared_client.get(
        WITH_COORDINATES.replace("{vessel_id}", "9400001"),
        params={
            "port_id": "NLRTM",
            "previous_port_id": "CNSHA",
            "latitude": latitude,
            "longitude": longitude,
        },
        headers=auth(shared_keys.routing),
    )
    error = assert_error(response, 400)
    assert error["source"]["parameter"] in ("latitude", "longitude")


def test_body_examples__valid_against_their_schema(document: dict[str, Any]) -> None:
    """The examples schemathesis' examples phase sends are bodies the document allows."""
    checked = 0
    for item in document["paths"].values():
        for operation in item.values():
            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/vnd.api+json", {}).get("schema", {})
            for example in schema.get("examples", []):
                wrapped = {**schema, "components": document["components"]}
                jsonschema.validate(example, wrapped, cls=jsonschema.Draft202012Validator)
                checked += 1
    assert checked >= 8

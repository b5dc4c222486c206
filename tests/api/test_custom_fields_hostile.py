"""Custom field definitions and values under the probe's inputs: numbers and dates out of range
and patterns RE2 cannot run are 422 with the attribute's pointer, and nothing is written (the
definition list keeps answering 200). Bodies are sent as JSON text, literally as the probe did."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.jsonapi_asserts import assert_error
from tests.toolkit import JSONAPI, Keys, auth

DEFINITIONS = "/v2/custom_field_definitions"


def send(client: TestClient, key: str, url: str, text: str) -> Any:
    return client.post(url, content=text.encode(), headers={**auth(key), "Content-Type": JSONAPI})


def definition_text(data_type: str, slug: str, validation: str = "null") -> str:
    return (
        '{"data": {"type": "custom_field_definition", "attributes": {"entity_type": '
        f'"TrackingRequest", "api_slug": "{slug}", "display_name": "Probe", '
        f'"data_type": "{data_type}", "validation": {validation}}}}}}}'
    )


@pytest.mark.parametrize(
    ("validation", "member"),
    [
        ('{"max": 1' + "0" * 400 + "}", "max"),
        ('{"min": 1e309}', "min"),
        ('{"max_length": 1' + "0" * 30 + "}", "max_length"),
        ('{"pattern": "(a)\\\\1"}', "pattern"),
    ],
)
def test_definition__validation_out_of_range_422(
    client: TestClient, keys: Keys, validation: str, member: str
) -> None:
    response = send(client, keys.plain, DEFINITIONS, definition_text("number", "n", validation))
    error = assert_error(response, 422)
    assert error["source"] == {"pointer": f"/data/attributes/validation/{member}"}
    listed = client.get(DEFINITIONS, headers=auth(keys.plain))
    assert listed.status_code == 200 and listed.json()["data"] == []


@pytest.mark.parametrize(
    ("data_type", "value"),
    [
        ("number", "100000000000000000000000"),
        ("number", "-1e23"),
        ("datetime", '"0001-01-01T00:00:00+01:00"'),
    ],
)
def test_value__out_of_range_422_with_pointer(
    client: TestClient, keys: Keys, data_type: str, value: str
) -> None:
    made = send(client, keys.plain, DEFINITIONS, definition_text(data_type, "probe"))
    assert made.status_code == 201, made.text
    request = send(
        client,
        keys.plain,
        "/v2/tracking_requests",
        '{"data": {"type": "tracking_request", "attributes": {"request_type": '
        '"bill_of_lading", "request_number": "PROBE0001", "scac": "TEST"}}}',
    )
    assert request.status_code == 201, request.text
    fields = f"/v2/tracking_requests/{request.json()['data']['id']}/custom_fields"
    body = '{"data": {"type": "custom_field", "attributes": {"api_slug": "probe", "value": '
    error = assert_error(send(client, keys.plain, fields, body + value + "}}}"), 422)
    assert error["source"] == {"pointer": "/data/attributes/value"}
    listed = client.get(fields, headers=auth(keys.plain))
    assert listed.status_code == 200 and listed.json()["data"] == []

"""Content negotiation per JSON:API 1.1: 406 for foreign ``Accept`` parameters, 415 for writes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.toolkit import Keys, auth

from .jsonapi_asserts import JSONAPI, assert_error

URL = "/v2/ports/NLRTM"


def get(shared_client: TestClient, shared_keys: Keys, accept: str) -> int:
    return shared_client.get(URL, headers={**auth(shared_keys.plain), "Accept": accept}).status_code


def test_accept__jsonapi_with_charset_406(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        URL, headers={**auth(shared_keys.plain), "Accept": f"{JSONAPI}; charset=utf-8"}
    )
    assert_error(response, 406, code="not_acceptable")


def test_accept__406_comes_before_authentication(shared_client: TestClient) -> None:
    response = shared_client.get(URL, headers={"Accept": f"{JSONAPI}; charset=utf-8"})
    assert_error(response, 406, code="not_acceptable")


def test_accept__jsonapi_plain_200(shared_client: TestClient, shared_keys: Keys) -> None:
    assert get(shared_client, shared_keys, JSONAPI) == 200


def test_accept__jsonapi_with_ext_200(shared_client: TestClient, shared_keys: Keys) -> None:
    assert get(shared_client, shared_keys, f'{JSONAPI}; ext="x"') == 200


def test_accept__jsonapi_with_profile_200(shared_client: TestClient, shared_keys: Keys) -> None:
    assert get(shared_client, shared_keys, f'{JSONAPI}; profile="https://example.com/p"') == 200


def test_accept__jsonapi_with_quality_200(shared_client: TestClient, shared_keys: Keys) -> None:
    assert get(shared_client, shared_keys, f"{JSONAPI}; q=0.9") == 200


def test_accept__one_plain_jsonapi_entry_among_parameterised_200(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    assert get(shared_client, shared_keys, f"{JSONAPI}; charset=utf-8, {JSONAPI}") == 200


def test_accept__wildcard_200(shared_client: TestClient, shared_keys: Keys) -> None:
    assert get(shared_client, shared_keys, "*/*") == 200


def test_accept__application_json_answered_as_json(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.get(
        URL, headers={**auth(shared_keys.plain), "Accept": "application/json"}
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    ("accept", "answered"),
    [
        ("*/*", JSONAPI),
        ("application/*", JSONAPI),
        (f"{JSONAPI}, application/json", JSONAPI),
        (f"application/json, {JSONAPI}; q=0.5", "application/json"),
        ("application/json; q=0.1, */*; q=0.5", JSONAPI),
    ],
)
def test_accept__media_type_chosen(
    shared_client: TestClient, shared_keys: Keys, accept: str, answered: str
) -> None:
    response = shared_client.get(URL, headers={**auth(shared_keys.plain), "Accept": accept})
    assert response.status_code == 200
    assert response.headers["content-type"] == answered


def test_accept__parameterised_jsonapi_beside_json_still_406(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    """JSON:API's rule holds even when plain JSON is acceptable too."""
    response = shared_client.get(
        URL,
        headers={
            **auth(shared_keys.plain),
            "Accept": f"{JSONAPI}; charset=utf-8, application/json",
        },
    )
    assert_error(response, 406, code="not_acceptable")


def test_accept__errors_answered_as_json_too(shared_client: TestClient) -> None:
    response = shared_client.get(URL, headers={"Accept": "application/json"})
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/json"
    assert response.json()["errors"][0]["status"] == "401"


WRITE = "/v2/tracking_requests"


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", f"{JSONAPI}; charset=utf-8", "application/xml", "application/json-patch+json"],
)
def test_content_type__not_json_415(
    shared_client: TestClient, shared_keys: Keys, content_type: str
) -> None:
    response = shared_client.post(
        WRITE,
        headers={**auth(shared_keys.plain), "Content-Type": content_type},
        content=b'{"data": {}}',
    )
    assert_error(response, 415, code="unsupported_media_type")


def test_content_type__missing_on_post_415(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.post(WRITE, headers=auth(shared_keys.plain), content=b'{"data": {}}')
    assert_error(response, 415, code="unsupported_media_type")


def test_content_type__application_json_with_charset_accepted(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.post(
        WRITE,
        headers={**auth(shared_keys.plain), "Content-Type": "application/json; charset=utf-8"},
        content=b'{"data": {"type": "tracking_request", "attributes": {}}}',
    )
    assert_error(response, 422)  # past the media type: the document itself is incomplete


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_content_type__write_to_read_only_resource_405(
    shared_client: TestClient, shared_keys: Keys, method: str
) -> None:
    response = shared_client.request(
        method, "/v2/ports", headers={**auth(shared_keys.plain), "Content-Type": "text/plain"}
    )
    assert_error(response, 405)


def test_content_type__without_a_key_401_first(shared_client: TestClient) -> None:
    response = shared_client.patch(
        "/v2/shipments/x", headers={"Content-Type": "text/plain"}, content=b"x"
    )
    assert_error(response, 401)


def test_content_type__ignored_on_get_200(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        URL, headers={**auth(shared_keys.plain), "Content-Type": "text/plain"}
    )
    assert response.status_code == 200

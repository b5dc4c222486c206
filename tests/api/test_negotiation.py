"""Content negotiation per JSON:API 1.1: 406 for foreign ``Accept`` parameters, 415 for writes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .conftest import Keys, auth
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


def test_accept__application_json_200(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        URL, headers={**auth(shared_keys.plain), "Accept": "application/json"}
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == JSONAPI


@pytest.mark.parametrize("method", ["POST", "PATCH", "PUT"])
def test_content_type__application_json_415(
    shared_client: TestClient, shared_keys: Keys, method: str
) -> None:
    response = shared_client.request(
        method,
        "/v2/ports",
        headers={**auth(shared_keys.plain), "Content-Type": "application/json"},
        content=b'{"data": {}}',
    )
    assert_error(response, 415, code="unsupported_media_type")


@pytest.mark.parametrize("method", ["POST", "PATCH"])
def test_content_type__jsonapi_with_charset_415(
    shared_client: TestClient, shared_keys: Keys, method: str
) -> None:
    response = shared_client.request(
        method,
        "/v2/ports",
        headers={**auth(shared_keys.plain), "Content-Type": f"{JSONAPI}; charset=utf-8"},
        content=b'{"data": {}}',
    )
    assert_error(response, 415, code="unsupported_media_type")


def test_content_type__missing_on_post_415(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.post(
        "/v2/ports", headers=auth(shared_keys.plain), content=b'{"data": {}}'
    )
    assert_error(response, 415, code="unsupported_media_type")


def test_content_type__jsonapi_on_post_to_read_only_resource_405(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.post(
        "/v2/ports",
        headers={**auth(shared_keys.plain), "Content-Type": JSONAPI},
        content=b'{"data": {}}',
    )
    assert_error(response, 405)


def test_content_type__ignored_on_get_200(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        URL, headers={**auth(shared_keys.plain), "Content-Type": "text/plain"}
    )
    assert response.status_code == 200

"""HTTP caching of GET answers: ETag, If-None-Match and 304, Cache-Control and Vary."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.api.caching import ConditionalGet, entity_tag, none_match
from tests.toolkit import Keys, auth
from tests.tracking.support import create_request, get_json, patch_json, tick

#: A list, a single resource's template and a reference look-up.
LIST = "/v2/shipments?include=containers"
REFERENCE = "/v2/ports/NLRTM"


@pytest.fixture
def shipment_id(app: FastAPI, client: TestClient, keys: Keys) -> str:
    """A shipment the routing account tracks (found by one pass of the poller)."""
    create_request(client, keys.routing, "TESTCACHE0001")
    tick(app)
    body = get_json(client, keys.routing, "/v2/shipments")
    found: str = body["data"][0]["id"]
    return found


def paths(shipment_id: str) -> list[str]:
    return [LIST, f"/v2/shipments/{shipment_id}", REFERENCE, "/v2/tracking_requests"]


def get(client: TestClient, key: str, url: str, **headers: str) -> Any:
    return client.get(url, headers={**auth(key), **headers})


def test_get__tagged_private_and_varying_by_account(
    client: TestClient, keys: Keys, shipment_id: str
) -> None:
    for url in paths(shipment_id):
        response = get(client, keys.routing, url)
        assert response.status_code == 200, url
        assert response.headers["etag"] == entity_tag(response.content), url
        assert response.headers["etag"].startswith('W/"'), url
        assert response.headers["cache-control"] == "private, no-cache", url
        assert "Authorization" in response.headers["vary"], url


def test_get__same_body_same_tag_gzipped_or_not(
    client: TestClient, keys: Keys, shipment_id: str
) -> None:
    plain = get(client, keys.routing, LIST, **{"Accept-Encoding": "identity"})
    zipped = get(client, keys.routing, LIST, **{"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert plain.headers["etag"] == zipped.headers["etag"] == entity_tag(plain.content)
    assert "Accept-Encoding" in zipped.headers["vary"]


@pytest.mark.parametrize("form", ["current", "star", "listed", "strong"])
def test_if_none_match__current_tag_is_304_without_body(
    client: TestClient, keys: Keys, shipment_id: str, form: str
) -> None:
    for url in paths(shipment_id):
        tag = get(client, keys.routing, url).headers["etag"]
        condition = {
            "current": tag,
            "star": "*",
            "listed": f'"other", {tag} , W/"another"',
            "strong": tag.removeprefix("W/"),  # If-None-Match compares weakly
        }[form]
        response = get(client, keys.routing, url, **{"If-None-Match": condition})
        assert response.status_code == 304, url
        assert response.content == b""
        assert response.headers["etag"] == tag
        assert response.headers["cache-control"] == "private, no-cache"
        assert "Authorization" in response.headers["vary"]
        assert "Accept-Encoding" in response.headers["vary"]
        assert "content-type" not in response.headers


def test_if_none_match__head_is_304_too(client: TestClient, keys: Keys) -> None:
    tag = get(client, keys.routing, REFERENCE).headers["etag"]
    response = client.head(REFERENCE, headers={**auth(keys.routing), "If-None-Match": tag})
    assert response.status_code == 304
    assert response.headers["etag"] == tag


@pytest.mark.parametrize("condition", ['"other"', 'W/"other", "again"', "garbage", '""'])
def test_if_none_match__other_tags_get_the_body(
    client: TestClient, keys: Keys, condition: str
) -> None:
    response = get(client, keys.routing, REFERENCE, **{"If-None-Match": condition})
    assert response.status_code == 200
    assert response.json()["data"]["id"]
    assert response.headers["etag"] == entity_tag(response.content)


def test_if_none_match__stale_tag_after_a_change_gets_the_new_body(
    client: TestClient, keys: Keys, shipment_id: str
) -> None:
    one = f"/v2/shipments/{shipment_id}"
    before = {url: get(client, keys.routing, url).headers["etag"] for url in (LIST, one)}
    patch_json(
        client,
        keys.routing,
        one,
        {"data": {"type": "shipment", "id": shipment_id, "attributes": {"tags": ["cached"]}}},
    )
    for url, stale in before.items():
        response = get(client, keys.routing, url, **{"If-None-Match": stale})
        assert response.status_code == 200, url
        assert response.headers["etag"] != stale
        assert response.headers["etag"] == entity_tag(response.content)
        again = get(client, keys.routing, url, **{"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304, url


def test_errors_and_writes__no_tag(client: TestClient, keys: Keys) -> None:
    missing = get(client, keys.routing, "/v2/shipments/nope", **{"If-None-Match": "*"})
    assert missing.status_code == 404
    assert "etag" not in missing.headers
    anonymous = client.get(REFERENCE, headers={"If-None-Match": "*"})
    assert anonymous.status_code == 401
    assert "etag" not in anonymous.headers
    created = client.post(
        "/v2/tracking_requests",
        json={
            "data": {
                "type": "tracking_request",
                "attributes": {
                    "request_type": "bill_of_lading",
                    "request_number": "TESTCACHE0002",
                    "scac": "TEST",
                },
            }
        },
        headers={**auth(keys.routing), "Content-Type": "application/vnd.api+json"},
    )
    assert created.status_code == 201
    assert "etag" not in created.headers


def test_outside_the_api__untouched(client: TestClient) -> None:
    response = client.get("/healthz")
    assert "etag" not in response.headers


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('W/"abc"', True),
        ('"abc"', True),
        (' "x" ,W/"abc"', True),
        ("*", True),
        (" * ", True),
        ('"abd"', False),
        ("abc", False),
        ('W/"ab"c"', False),
        ("", False),
        ("W/", False),
    ],
)
def test_none_match__weak_comparison(header: str, matches: bool) -> None:
    assert none_match(header, 'W/"abc"') is matches


@pytest.mark.parametrize("thread_minimum", [1, 10_000])
def test_conditional_get__large_body_hashed_on_a_thread_same_tag(thread_minimum: int) -> None:
    body = b'{"data": "' + b"x" * 5000 + b'"}'

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def run(condition: bytes | None) -> None:
        headers = [(b"if-none-match", condition)] if condition else []
        scope = {"type": "http", "method": "GET", "path": "/v2/x", "headers": headers}
        await ConditionalGet(app, prefix="/v2", thread_minimum=thread_minimum)(scope, receive, send)

    anyio.run(run, None)
    assert dict(sent[0]["headers"])[b"etag"] == entity_tag(body).encode()
    assert sent[1]["body"] == body
    sent.clear()
    anyio.run(run, entity_tag(body).encode())
    assert sent[0]["status"] == 304 and sent[1]["body"] == b""

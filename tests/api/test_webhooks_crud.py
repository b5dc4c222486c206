"""Webhooks through the HTTP API: create, list, read, change, delete, the events list; one test per
bad input (422 with ``source.pointer``); another account's webhooks are 404.

The app has the default URL policy (https, public addresses only). URLs use a public address
literal so that no test needs DNS; nothing is delivered here.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from sealane.vocabulary.events import EVENT_NAMES
from tests.api.jsonapi_asserts import JSONAPI, assert_error
from tests.toolkit import Keys, auth

URL = "/v2/webhooks"
HOOK = "https://8.8.8.8/hooks"
VALID: dict[str, Any] = {"url": HOOK, "events": ["tracking_request.succeeded"]}


def write_headers(key: str) -> dict[str, str]:
    return {**auth(key), "Content-Type": JSONAPI}


def document(attributes: Any, type_: str = "webhook", **data: Any) -> dict[str, Any]:
    return {"data": {"type": type_, "attributes": attributes, **data}}


def post(client: TestClient, key: str, body: Any) -> Any:
    return client.post(URL, json=body, headers=write_headers(key))


def post_attributes(client: TestClient, key: str, **changes: Any) -> Any:
    return post(client, key, document({**VALID, **changes}))


def without(name: str) -> dict[str, Any]:
    return {k: v for k, v in VALID.items() if k != name}


def create(client: TestClient, key: str, **changes: Any) -> dict[str, Any]:
    response = post_attributes(client, key, **changes)
    assert response.status_code == 201, response.text[:500]
    data: dict[str, Any] = response.json()["data"]
    return data


def patch(client: TestClient, key: str, webhook_id: str, attributes: Any, **data: Any) -> Any:
    body = {"data": {"type": "webhook", "id": webhook_id, "attributes": attributes, **data}}
    return client.patch(f"{URL}/{webhook_id}", json=body, headers=write_headers(key))


def assert_invalid(response: Any, pointer: str, code: str | None = None) -> dict[str, Any]:
    error = assert_error(response, 422, code=code)
    assert error["source"] == {"pointer": pointer}
    return error


# -- creating --------------------------------------------------------------------------------------


def test_create_webhook__201_with_secret(client: TestClient, keys: Keys) -> None:
    response = post_attributes(client, keys.routing)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == JSONAPI
    doc = response.json()
    data = doc["data"]
    assert data["type"] == "webhook"
    assert response.headers["location"] == doc["links"]["self"] == data["links"]["self"]
    assert data["links"]["self"] == f"http://testserver/v2/webhooks/{data['id']}"
    secret = data["attributes"].pop("secret")
    assert data["attributes"] == {
        "url": HOOK,
        "active": True,
        "events": ["tracking_request.succeeded"],
        "headers": [],
        "created_at": "2026-11-21T12:00:00Z",
        "updated_at": "2026-11-21T12:00:00Z",
    }
    assert re.fullmatch(r"whsec_[A-Za-z0-9+/=]+", secret)
    assert len(base64.b64decode(secret.removeprefix("whsec_"))) >= 24


def test_create_webhook__secret_shown_to_the_owner_again(client: TestClient, keys: Keys) -> None:
    """Both the interface document and the reference API require ``secret`` on a webhook."""
    created = create(client, keys.routing)
    one = client.get(f"{URL}/{created['id']}", headers=auth(keys.routing)).json()["data"]
    listed = client.get(URL, headers=auth(keys.routing)).json()["data"]
    changed = patch(client, keys.routing, created["id"], {"active": False}).json()["data"]
    for data in (one, *listed, changed):
        assert data["attributes"]["secret"] == created["attributes"]["secret"]


def test_create_webhook__each_gets_its_own_secret(client: TestClient, keys: Keys) -> None:
    first = create(client, keys.routing)
    second = create(client, keys.routing)
    assert first["attributes"]["secret"] != second["attributes"]["secret"]


def test_create_webhook__all_attributes(client: TestClient, keys: Keys) -> None:
    headers = [{"name": "X-Api-Key", "value": "k-1"}, {"name": "x-tenant", "value": ""}]
    events = ["container.created", "container.transport.vessel_arrived"]
    data = create(client, keys.routing, active=False, events=events, headers=headers)
    assert data["attributes"]["active"] is False
    assert data["attributes"]["events"] == events
    assert data["attributes"]["headers"] == headers


def test_create_webhook__url_stripped(client: TestClient, keys: Keys) -> None:
    data = create(client, keys.routing, url=f"  {HOOK}  ")
    assert data["attributes"]["url"] == HOOK


def test_create_webhook__every_event_at_once(client: TestClient, keys: Keys) -> None:
    data = create(client, keys.routing, events=list(EVENT_NAMES))
    assert data["attributes"]["events"] == list(EVENT_NAMES)


def test_create_webhook__headers_null_means_none(client: TestClient, keys: Keys) -> None:
    assert create(client, keys.routing, headers=None)["attributes"]["headers"] == []


# -- one bad input per test ------------------------------------------------------------------------


@pytest.fixture
def bad(shared_client: TestClient, shared_keys: Keys) -> Any:
    """POST ``attributes`` changed as given (an attribute set to ``...`` is left out)."""

    def send(**changes: Any) -> Any:
        attributes = {**VALID, **changes}
        attributes = {k: v for k, v in attributes.items() if v is not ...}
        return post(shared_client, shared_keys.routing, document(attributes))

    return send


def test_create_webhook__url_missing(bad: Any) -> None:
    assert_invalid(bad(url=...), "/data/attributes/url")


def test_create_webhook__url_not_a_string(bad: Any) -> None:
    assert_invalid(bad(url=443), "/data/attributes/url")


def test_create_webhook__url_blank(bad: Any) -> None:
    assert_invalid(bad(url="   "), "/data/attributes/url")


def test_create_webhook__url_http_without_the_private_setting(bad: Any) -> None:
    assert_invalid(bad(url="http://8.8.8.8/hooks"), "/data/attributes/url", "unsafe_url")


def test_create_webhook__url_with_userinfo(bad: Any) -> None:
    assert_invalid(bad(url="https://user:pw@8.8.8.8/hooks"), "/data/attributes/url", "unsafe_url")


def test_create_webhook__url_private_address(bad: Any) -> None:
    assert_invalid(bad(url="https://10.0.0.1/hooks"), "/data/attributes/url", "unsafe_url")


def test_create_webhook__url_loopback_name(bad: Any) -> None:
    assert_invalid(bad(url="https://localhost/hooks"), "/data/attributes/url", "unsafe_url")


def test_create_webhook__url_cloud_metadata(bad: Any) -> None:
    assert_invalid(bad(url="https://169.254.169.254/"), "/data/attributes/url", "unsafe_url")


def test_create_webhook__url_not_http(bad: Any) -> None:
    assert_invalid(bad(url="ftp://8.8.8.8/hooks"), "/data/attributes/url", "unsafe_url")


def test_create_webhook__events_null(bad: Any) -> None:
    assert_invalid(bad(events=None), "/data/attributes/events")


def test_create_webhook__events_empty(bad: Any) -> None:
    assert_invalid(bad(events=[]), "/data/attributes/events")


def test_create_webhook__events_not_a_list(bad: Any) -> None:
    assert_invalid(bad(events="tracking_request.succeeded"), "/data/attributes/events")


def test_create_webhook__events_with_a_non_string(bad: Any) -> None:
    assert_invalid(bad(events=["tracking_request.succeeded", 7]), "/data/attributes/events")


def test_create_webhook__events_repeated(bad: Any) -> None:
    events = ["container.created", "container.created"]
    assert_invalid(bad(events=events), "/data/attributes/events", "duplicate")


def test_create_webhook__events_unknown_name(bad: Any) -> None:
    error = assert_invalid(
        bad(events=["tracking_request.exploded"]), "/data/attributes/events", "unknown_event"
    )
    assert "tracking_request.exploded" in error["detail"]


def test_create_webhook__events_name_in_other_case(bad: Any) -> None:
    assert_invalid(
        bad(events=["Tracking_Request.Succeeded"]), "/data/attributes/events", "unknown_event"
    )


def test_create_webhook__active_not_a_boolean(bad: Any) -> None:
    assert_invalid(bad(active="true"), "/data/attributes/active")


def test_create_webhook__active_null(bad: Any) -> None:
    assert_invalid(bad(active=None), "/data/attributes/active")


def test_create_webhook__active_number(bad: Any) -> None:
    assert_invalid(bad(active=1), "/data/attributes/active")


def test_create_webhook__headers_not_a_list(bad: Any) -> None:
    assert_invalid(bad(headers={"name": "X-A", "value": "1"}), "/data/attributes/headers")


def test_create_webhook__headers_over_20(bad: Any) -> None:
    headers = [{"name": f"X-H{i}", "value": "1"} for i in range(21)]
    assert_invalid(bad(headers=headers), "/data/attributes/headers")


def test_create_webhook__header_not_an_object(bad: Any) -> None:
    assert_invalid(bad(headers=["X-A: 1"]), "/data/attributes/headers/0")


def test_create_webhook__header_without_value(bad: Any) -> None:
    assert_invalid(bad(headers=[{"name": "X-A"}]), "/data/attributes/headers/0")


def test_create_webhook__header_with_an_extra_member(bad: Any) -> None:
    header = {"name": "X-A", "value": "1", "secret": True}
    assert_invalid(bad(headers=[header]), "/data/attributes/headers/0")


def test_create_webhook__header_name_invalid(bad: Any) -> None:
    headers = [{"name": "X-A", "value": "1"}, {"name": "X Bad", "value": "1"}]
    assert_invalid(bad(headers=headers), "/data/attributes/headers/1/name")


def test_create_webhook__header_name_empty(bad: Any) -> None:
    assert_invalid(bad(headers=[{"name": "", "value": "1"}]), "/data/attributes/headers/0/name")


def test_create_webhook__header_name_with_colon(bad: Any) -> None:
    header = {"name": "X-A:", "value": "1"}
    assert_invalid(bad(headers=[header]), "/data/attributes/headers/0/name")


def test_create_webhook__header_name_not_a_string(bad: Any) -> None:
    assert_invalid(bad(headers=[{"name": 5, "value": "1"}]), "/data/attributes/headers/0/name")


#: Hop-by-hop, framing, identity and signature headers (the names as users might spell them).
FORBIDDEN = [
    "Authorization",
    "authorization",
    "AUTHORIZATION",
    "Proxy-Authorization",
    "Proxy-Authenticate",
    "Cookie",
    "Host",
    "Connection",
    "Keep-Alive",
    "TE",
    "Trailer",
    "Transfer-Encoding",
    "Upgrade",
    "Content-Length",
    "Content-Type",
    "Content-Encoding",
    "webhook-id",
    "webhook-timestamp",
    "webhook-signature",
    "Webhook-Signature",
]


@pytest.mark.parametrize("name", FORBIDDEN)
def test_create_webhook__forbidden_header_name(bad: Any, name: str) -> None:
    response = bad(headers=[{"name": name, "value": "x"}])
    assert_invalid(response, "/data/attributes/headers/0/name", "forbidden_header")


@pytest.mark.parametrize("value", ["a\nb", "a\rb", "a\r\nX-Injected: 1", "a\x00b"])
def test_create_webhook__header_value_with_newline_or_nul(bad: Any, value: str) -> None:
    header = {"name": "X-A", "value": value}
    assert_invalid(bad(headers=[header]), "/data/attributes/headers/0/value")


def test_create_webhook__header_value_not_a_string(bad: Any) -> None:
    assert_invalid(bad(headers=[{"name": "X-A", "value": 1}]), "/data/attributes/headers/0/value")


def test_create_webhook__header_value_over_1024(bad: Any) -> None:
    header = {"name": "X-A", "value": "v" * 1025}
    assert_invalid(bad(headers=[header]), "/data/attributes/headers/0/value")


def test_create_webhook__type_mismatch_409(shared_client: TestClient, shared_keys: Keys) -> None:
    response = post(shared_client, shared_keys.routing, document(VALID, type_="webhooks"))
    error = assert_error(response, 409, code="type_mismatch")
    assert error["source"] == {"pointer": "/data/type"}


def test_create_webhook__no_data(shared_client: TestClient, shared_keys: Keys) -> None:
    assert_invalid(post(shared_client, shared_keys.routing, {"url": HOOK}), "/data")


def test_create_webhook__attributes_not_an_object(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post(shared_client, shared_keys.routing, document(["url"]))
    assert_invalid(response, "/data/attributes")


def test_create_webhook__json_content_type_201(client: TestClient, keys: Keys) -> None:
    response = client.post(
        URL,
        json=document(VALID),
        headers={**auth(keys.routing), "Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text


def test_create_webhook__form_content_type_415(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = shared_client.post(
        URL,
        content=b"url=x",
        headers={**auth(shared_keys.routing), "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_error(response, 415)


def test_create_webhook__no_api_key_401(shared_client: TestClient) -> None:
    response = shared_client.post(URL, json=document(VALID), headers={"Content-Type": JSONAPI})
    assert_error(response, 401)


def test_create_webhook__nothing_stored_after_bad_inputs(client: TestClient, keys: Keys) -> None:
    for changes in ({"url": "http://8.8.8.8/"}, {"events": []}, {"active": "yes"}):
        assert post_attributes(client, keys.routing, **changes).status_code == 422
    assert post(client, keys.routing, document(VALID, type_="tracking_request")).status_code == 409
    assert client.get(URL, headers=auth(keys.routing)).json()["meta"]["total"] == 0


# -- reading ---------------------------------------------------------------------------------------


def test_list_webhooks__own_only_oldest_first(
    client: TestClient, keys: Keys, clock: ManualClock
) -> None:
    first = create(client, keys.routing)
    clock.advance(60)
    second = create(client, keys.routing, events=["container.created"])
    create(client, keys.plain)
    body = client.get(URL, headers=auth(keys.routing)).json()
    assert [d["id"] for d in body["data"]] == [first["id"], second["id"]]
    assert body["meta"]["total"] == 2
    assert body["links"]["self"].startswith("http://testserver/v2/webhooks")


def test_list_webhooks__paginated(client: TestClient, keys: Keys, clock: ManualClock) -> None:
    ids = []
    for _ in range(3):
        ids.append(create(client, keys.routing)["id"])
        clock.advance(1)
    body = client.get(URL, params={"page[size]": 2, "page[number]": 2}, headers=auth(keys.routing))
    assert [d["id"] for d in body.json()["data"]] == ids[2:]
    assert body.json()["meta"]["total"] == 3


def test_get_webhook__200(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing)
    response = client.get(f"{URL}/{created['id']}", headers=auth(keys.routing))
    assert response.status_code == 200
    assert response.json()["data"] == created


def test_get_webhook__unknown_404(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(f"{URL}/no-such-webhook", headers=auth(shared_keys.routing))
    assert_error(response, 404)


def test_list_events__every_known_name(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(f"{URL}/events", headers=auth(shared_keys.plain))
    assert response.status_code == 200
    body = response.json()
    assert {item["type"] for item in body["data"]} == {"webhook_event_category"}
    events = [event for item in body["data"] for event in item["attributes"]["events"]]
    names = [event["name"] for event in events]
    assert sorted(names) == sorted(EVENT_NAMES)
    assert len(set(names)) == len(names) == body["meta"]["total"]
    assert all(event["description"] for event in events)
    for name in (
        "tracking_request.succeeded",
        "tracking_request.failed",
        "tracking_request.awaiting_manifest",
        "tracking_request.tracking_stopped",
        "shipment.estimated.arrival",
        "container.created",
        "container.updated",
        "container.transport.vessel_arrived",
    ):
        assert name in names


def test_list_events__not_a_webhook_id(shared_client: TestClient, shared_keys: Keys) -> None:
    """``/v2/webhooks/events`` is the events list, not the webhook with id ``events``."""
    response = shared_client.get(f"{URL}/events", headers=auth(shared_keys.routing))
    assert response.json()["data"][0]["type"] == "webhook_event_category"


# -- changing and deleting -------------------------------------------------------------------------


def test_patch_webhook__changes_each_attribute(
    client: TestClient, keys: Keys, clock: ManualClock
) -> None:
    created = create(client, keys.routing)
    clock.advance(90)
    changes = {
        "url": "https://8.8.4.4/other",
        "events": ["container.updated", "shipment.estimated.arrival"],
        "active": False,
        "headers": [{"name": "X-Token", "value": "t"}],
    }
    response = patch(client, keys.routing, created["id"], changes)
    assert response.status_code == 200, response.text
    attributes = response.json()["data"]["attributes"]
    for name, value in changes.items():
        assert attributes[name] == value
    assert attributes["created_at"] == "2026-11-21T12:00:00Z"
    assert attributes["updated_at"] == "2026-11-21T12:01:30Z"
    stored = client.get(f"{URL}/{created['id']}", headers=auth(keys.routing)).json()["data"]
    assert stored["attributes"] == attributes


def test_patch_webhook__only_given_attributes_change(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing, headers=[{"name": "X-A", "value": "1"}])
    response = patch(client, keys.routing, created["id"], {"active": False})
    attributes = response.json()["data"]["attributes"]
    assert attributes["url"] == HOOK
    assert attributes["events"] == ["tracking_request.succeeded"]
    assert attributes["headers"] == [{"name": "X-A", "value": "1"}]


def test_patch_webhook__secret_read_only(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing)
    response = patch(client, keys.routing, created["id"], {"secret": "whsec_AAAA"})
    assert_invalid(response, "/data/attributes/secret", "read_only")


@pytest.mark.parametrize("name", ["created_at", "updated_at", "id"])
def test_patch_webhook__other_read_only_attributes(
    client: TestClient, keys: Keys, name: str
) -> None:
    created = create(client, keys.routing)
    response = patch(client, keys.routing, created["id"], {name: "2020-01-01T00:00:00Z"})
    assert_invalid(response, f"/data/attributes/{name}", "read_only")


@pytest.mark.parametrize(
    ("attributes", "pointer"),
    [
        ({"url": "http://8.8.8.8/"}, "/data/attributes/url"),
        ({"url": None}, "/data/attributes/url"),
        ({"events": []}, "/data/attributes/events"),
        ({"events": ["nope"]}, "/data/attributes/events"),
        ({"active": "false"}, "/data/attributes/active"),
        ({"headers": [{"name": "Host", "value": "x"}]}, "/data/attributes/headers/0/name"),
    ],
)
def test_patch_webhook__same_rules_as_create(
    client: TestClient, keys: Keys, attributes: dict[str, Any], pointer: str
) -> None:
    created = create(client, keys.routing)
    assert_invalid(patch(client, keys.routing, created["id"], attributes), pointer)
    stored = client.get(f"{URL}/{created['id']}", headers=auth(keys.routing)).json()["data"]
    assert stored["attributes"]["url"] == HOOK
    assert stored["attributes"]["active"] is True


def test_patch_webhook__type_mismatch_409(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing)
    body = {"data": {"type": "tracking_request", "id": created["id"], "attributes": {}}}
    response = client.patch(
        f"{URL}/{created['id']}", json=body, headers=write_headers(keys.routing)
    )
    assert_error(response, 409, code="type_mismatch")


def test_patch_webhook__id_mismatch_409(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing)
    body = {"data": {"type": "webhook", "id": "another", "attributes": {"active": False}}}
    response = client.patch(
        f"{URL}/{created['id']}", json=body, headers=write_headers(keys.routing)
    )
    assert_error(response, 409, code="id_mismatch")


def test_delete_webhook__200_then_404(client: TestClient, keys: Keys) -> None:
    """200 with a meta-only document, as the reference API documents the deletion."""
    created = create(client, keys.routing)
    response = client.delete(f"{URL}/{created['id']}", headers=auth(keys.routing))
    assert response.status_code == 200
    assert response.json() == {"meta": {"deleted": created["id"]}}
    assert_error(client.get(f"{URL}/{created['id']}", headers=auth(keys.routing)), 404)
    assert_error(client.delete(f"{URL}/{created['id']}", headers=auth(keys.routing)), 404)


# -- account isolation -----------------------------------------------------------------------------


def test_other_account__get_404(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing)
    assert_error(client.get(f"{URL}/{created['id']}", headers=auth(keys.plain)), 404)


def test_other_account__patch_404_and_unchanged(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing)
    assert_error(patch(client, keys.plain, created["id"], {"active": False}), 404)
    stored = client.get(f"{URL}/{created['id']}", headers=auth(keys.routing)).json()["data"]
    assert stored["attributes"]["active"] is True


def test_other_account__delete_404_and_kept(client: TestClient, keys: Keys) -> None:
    created = create(client, keys.routing)
    assert_error(client.delete(f"{URL}/{created['id']}", headers=auth(keys.plain)), 404)
    assert client.get(f"{URL}/{created['id']}", headers=auth(keys.routing)).status_code == 200


def test_other_account__not_listed(client: TestClient, keys: Keys) -> None:
    create(client, keys.routing)
    body = client.get(URL, headers=auth(keys.plain)).json()
    assert body["data"] == []
    assert body["meta"]["total"] == 0

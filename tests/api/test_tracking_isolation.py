"""Account isolation of tracking: another account's objects are 404, never visible or editable."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.store.accounts import create_account
from sealane.store.database import transaction
from tests.toolkit import START, Keys, auth, make_app
from tests.tracking.support import (
    CONTAINER,
    create_request,
    get_json,
    tick,
    write_headers,
)

from .jsonapi_asserts import assert_error


@dataclass(frozen=True)
class Owned:
    """Account A's tracking request, shipment and container; both accounts' keys."""

    client: TestClient
    owner: str
    other: str
    request_id: str
    shipment_id: str
    container_id: str


@pytest.fixture(scope="module")
def owned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Owned]:
    path = tmp_path_factory.mktemp("isolation") / "sealane.db"
    app = make_app(path, rate_limit_per_minute=100_000)
    with transaction(app.state.sealane.sessions) as session:
        owner = create_account(session, "A", routing=True, now=START).secret
        other = create_account(session, "B", routing=True, now=START).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        request_id = create_request(
            client, owner, CONTAINER, request_type="container", ref_numbers=["PO-A"]
        )["id"]
        tick(app)
        request = get_json(client, owner, f"/v2/tracking_requests/{request_id}")["data"]
        shipment_id = request["relationships"]["tracked_object"]["data"]["id"]
        shipment = get_json(client, owner, f"/v2/shipments/{shipment_id}")["data"]
        container_id = shipment["relationships"]["containers"]["data"][0]["id"]
        yield Owned(client, owner, other, request_id, shipment_id, container_id)


def urls(owned: Owned) -> dict[str, str]:
    return {
        "tracking_request": f"/v2/tracking_requests/{owned.request_id}",
        "shipment": f"/v2/shipments/{owned.shipment_id}",
        "container": f"/v2/containers/{owned.container_id}",
        "container_events": f"/v2/containers/{owned.container_id}/transport_events",
    }


@pytest.mark.parametrize("name", ["tracking_request", "shipment", "container", "container_events"])
def test_get__owner_sees_it(owned: Owned, name: str) -> None:
    get_json(owned.client, owned.owner, urls(owned)[name])


@pytest.mark.parametrize("name", ["tracking_request", "shipment", "container", "container_events"])
def test_get__other_account_404(owned: Owned, name: str) -> None:
    response = owned.client.get(urls(owned)[name], headers=auth(owned.other))
    assert_error(response, 404, code="not_found")
    assert CONTAINER not in response.text and "PO-A" not in response.text


@pytest.mark.parametrize("name", ["tracking_request", "shipment", "container"])
def test_get__other_account_404_with_include(owned: Owned, name: str) -> None:
    include = {
        "tracking_request": "tracked_object.containers",
        "shipment": "containers",
        "container": "shipment",
    }[name]
    response = owned.client.get(
        urls(owned)[name], params={"include": include}, headers=auth(owned.other)
    )
    assert_error(response, 404, code="not_found")


def patch_body(kind: str, object_id: str, attributes: dict[str, Any]) -> dict[str, Any]:
    return {"data": {"type": kind, "id": object_id, "attributes": attributes}}


@pytest.mark.parametrize(
    ("name", "kind", "id_field"),
    [
        ("tracking_request", "tracking_request", "request_id"),
        ("shipment", "shipment", "shipment_id"),
        ("container", "container", "container_id"),
    ],
)
def test_patch__other_account_404(owned: Owned, name: str, kind: str, id_field: str) -> None:
    body = patch_body(kind, getattr(owned, id_field), {"ref_numbers": ["STOLEN"]})
    response = owned.client.patch(urls(owned)[name], json=body, headers=write_headers(owned.other))
    assert_error(response, 404, code="not_found")
    mine = get_json(owned.client, owned.owner, urls(owned)[name])["data"]["attributes"]
    assert mine["ref_numbers"] == ["PO-A"]


@pytest.mark.parametrize("action", ["stop_tracking", "resume_tracking"])
def test_tracking_actions__other_account_404(owned: Owned, action: str) -> None:
    response = owned.client.patch(
        f"/v2/shipments/{owned.shipment_id}/{action}", headers=write_headers(owned.other)
    )
    assert_error(response, 404, code="not_found")
    request = get_json(owned.client, owned.owner, urls(owned)["tracking_request"])["data"]
    assert request["attributes"]["status"] == "created"


@pytest.mark.parametrize("url", ["/v2/tracking_requests", "/v2/shipments", "/v2/containers"])
def test_list__other_account_empty(owned: Owned, url: str) -> None:
    body = get_json(owned.client, owned.other, url)
    assert body["data"] == []
    assert body["meta"]["total"] == 0
    assert get_json(owned.client, owned.owner, url)["meta"]["total"] >= 1


@pytest.mark.parametrize(
    ("url", "params"),
    [
        ("/v2/shipments", {"filter[number]": CONTAINER}),
        ("/v2/containers", {"filter[number]": "PO-A"}),
        ("/v2/tracking_requests", {"filter[request_number]": CONTAINER}),
        ("/v2/shipments", {"include": "containers"}),
        ("/v2/tracking_requests", {"include": "tracked_object.containers"}),
    ],
)
def test_list__other_account_filters_and_includes_empty(
    owned: Owned, url: str, params: dict[str, str]
) -> None:
    body = get_json(owned.client, owned.other, url, **params)
    assert body["data"] == []
    assert "included" not in body


def test_create_request__other_account_may_track_the_same_number(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    mine = create_request(client, keys.routing, CONTAINER, request_type="container")
    theirs = create_request(client, keys.plain, CONTAINER, request_type="container")
    assert mine["id"] != theirs["id"]
    tick(app)
    for key in (keys.routing, keys.plain):
        shipments = get_json(client, key, "/v2/shipments")
        assert shipments["meta"]["total"] == 1
    mine_shipment = get_json(client, keys.routing, "/v2/shipments")["data"][0]["id"]
    theirs_shipment = get_json(client, keys.plain, "/v2/shipments")["data"][0]["id"]
    assert mine_shipment != theirs_shipment


def test_create_request__duplicate_check_per_account(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    create_request(client, keys.routing, "BL-1")
    tick(app)
    create_request(client, keys.plain, "BL-1")
    response = client.post(
        "/v2/tracking_requests",
        json={
            "data": {
                "type": "tracking_request",
                "attributes": {
                    "request_type": "bill_of_lading",
                    "request_number": "BL-1",
                    "scac": "TEST",
                },
            }
        },
        headers=write_headers(keys.plain),
    )
    assert_error(response, 422, code="duplicate")


def test_stop_tracking__own_shipment_only(app: FastAPI, client: TestClient, keys: Keys) -> None:
    create_request(client, keys.routing, "BL-1")
    create_request(client, keys.plain, "BL-1")
    tick(app)
    mine = get_json(client, keys.routing, "/v2/shipments")["data"][0]["id"]
    response = client.patch(
        f"/v2/shipments/{mine}/stop_tracking", headers=write_headers(keys.routing)
    )
    assert response.status_code == 200
    statuses = {
        key: get_json(client, key, "/v2/tracking_requests")["data"][0]["attributes"]["status"]
        for key in (keys.routing, keys.plain)
    }
    assert statuses == {keys.routing: "tracking_stopped", keys.plain: "created"}

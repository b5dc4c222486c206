"""Tracking requests through the HTTP API: creation, one bad input per test, lists, PATCH."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from tests.toolkit import START, Keys, auth, make_app
from tests.tracking.support import (
    CONTAINER,
    HOUR,
    create_request,
    get_json,
    patch_json,
    request_document,
    retry_until_settled,
    tick,
    write_headers,
)

from .jsonapi_asserts import JSONAPI, assert_error

URL = "/v2/tracking_requests"
VALID = {"request_type": "bill_of_lading", "request_number": "BL-1", "scac": "TEST"}


def post(client: TestClient, key: str, body: Any) -> Any:
    return client.post(URL, json=body, headers=write_headers(key))


def post_attributes(client: TestClient, key: str, **changes: Any) -> Any:
    attributes = {**VALID, **changes}
    return post(client, key, {"data": {"type": "tracking_request", "attributes": attributes}})


@pytest.fixture(scope="module")
def writer(shared_app: FastAPI) -> str:
    """Key of a third account of the shared app, for tests that store requests but never tick."""
    with transaction(shared_app.state.sealane.sessions) as session:
        return create_account(session, "Writer Co", routing=False, now=START).secret


def fresh() -> str:
    """A bill of lading number no other test uses."""
    return f"BL-{uuid.uuid4().hex[:12]}"


def assert_invalid(response: Any, pointer: str, code: str = "invalid") -> None:
    error = assert_error(response, 422, code=code)
    assert error["source"] == {"pointer": pointer}


# -- creation ------------------------------------------------------------------------------------


def test_create_request__201_pending(shared_client: TestClient, writer: str) -> None:
    body = request_document("bill_of_lading", "BL-1", ref_numbers=["PO-1"], tags=["urgent"])
    response = post(shared_client, writer, body)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == JSONAPI
    doc = response.json()
    data = doc["data"]
    assert data["type"] == "tracking_request"
    assert response.headers["location"] == doc["links"]["self"] == data["links"]["self"]
    assert data["links"]["self"] == f"http://testserver/v2/tracking_requests/{data['id']}"
    assert data["attributes"] == {
        "request_number": "BL-1",
        "request_type": "bill_of_lading",
        "scac": "TEST",
        "status": "pending",
        "failed_reason": None,
        "is_retrying": False,
        "retry_count": 0,
        "ref_numbers": ["PO-1"],
        "tags": ["urgent"],
        "shipment_tags": [],
        "created_at": "2026-11-21T12:00:00Z",
        "updated_at": "2026-11-21T12:00:00Z",
    }
    assert data["relationships"] == {"tracked_object": {"data": None}, "customer": {"data": None}}


def test_create_request__location_answers_the_same_document(
    shared_client: TestClient, writer: str
) -> None:
    response = post(shared_client, writer, request_document("booking_number", "BK-9"))
    fetched = shared_client.get(response.headers["location"], headers=auth(writer))
    assert fetched.status_code == 200
    assert fetched.json()["data"] == response.json()["data"]


def test_create_request__container_number_normalised(
    shared_client: TestClient, writer: str
) -> None:
    data = create_request(shared_client, writer, "csqu 305438-3", request_type="container")
    assert data["attributes"]["request_number"] == CONTAINER


def test_create_request__scac_upper_cased(shared_client: TestClient, writer: str) -> None:
    data = create_request(shared_client, writer, "BL-2", scac="test")
    assert data["attributes"]["scac"] == "TEST"


def test_create_request__number_stripped(shared_client: TestClient, writer: str) -> None:
    data = create_request(shared_client, writer, "  BL-3  ")
    assert data["attributes"]["request_number"] == "BL-3"


def test_create_request__number_of_64_characters(shared_client: TestClient, writer: str) -> None:
    data = create_request(shared_client, writer, "B" * 64)
    assert data["attributes"]["request_number"] == "B" * 64


def test_create_request__ref_numbers_stripped_and_deduplicated(
    shared_client: TestClient, writer: str
) -> None:
    data = create_request(shared_client, writer, "BL-4", ref_numbers=[" PO-1 ", "PO-2", "PO-1"])
    assert data["attributes"]["ref_numbers"] == ["PO-1", "PO-2"]


def test_create_request__ref_numbers_and_tags_default_empty(
    shared_client: TestClient, writer: str
) -> None:
    data = create_request(shared_client, writer, "BL-5")
    assert data["attributes"]["ref_numbers"] == []
    assert data["attributes"]["tags"] == []


# -- one bad input per test (nothing is stored, so the module's shared app serves them) ----------


def test_create_request__missing_data(shared_client: TestClient, shared_keys: Keys) -> None:
    assert_invalid(post(shared_client, shared_keys.plain, {"meta": {}}), "/data")


def test_create_request__data_not_an_object(shared_client: TestClient, shared_keys: Keys) -> None:
    assert_invalid(post(shared_client, shared_keys.plain, {"data": [VALID]}), "/data")


def test_create_request__body_not_an_object(shared_client: TestClient, shared_keys: Keys) -> None:
    assert_invalid(post(shared_client, shared_keys.plain, [VALID]), "/data")


def test_create_request__wrong_type(shared_client: TestClient, shared_keys: Keys) -> None:
    body = {"data": {"type": "shipment", "attributes": VALID}}
    error = assert_error(post(shared_client, shared_keys.plain, body), 409, code="type_mismatch")
    assert error["source"] == {"pointer": "/data/type"}


def test_create_request__missing_type(shared_client: TestClient, shared_keys: Keys) -> None:
    body = {"data": {"attributes": VALID}}
    error = assert_error(post(shared_client, shared_keys.plain, body), 409, code="type_mismatch")
    assert error["source"] == {"pointer": "/data/type"}


def test_create_request__attributes_not_an_object(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    body = {"data": {"type": "tracking_request", "attributes": ["BL-1"]}}
    assert_invalid(post(shared_client, shared_keys.plain, body), "/data/attributes")


@pytest.mark.parametrize("request_type", ["bol", "Container", "", None, 3])
def test_create_request__request_type_not_in_enum(
    shared_client: TestClient, shared_keys: Keys, request_type: Any
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, request_type=request_type)
    assert_invalid(response, "/data/attributes/request_type")


def test_create_request__missing_request_type(shared_client: TestClient, shared_keys: Keys) -> None:
    attributes = {k: v for k, v in VALID.items() if k != "request_type"}
    body = {"data": {"type": "tracking_request", "attributes": attributes}}
    assert_invalid(post(shared_client, shared_keys.plain, body), "/data/attributes/request_type")


@pytest.mark.parametrize("number", ["", "   ", "\t"])
def test_create_request__blank_request_number(
    shared_client: TestClient, shared_keys: Keys, number: str
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, request_number=number)
    assert_invalid(response, "/data/attributes/request_number")


@pytest.mark.parametrize("number", [None, 12345, ["BL-1"]])
def test_create_request__request_number_not_a_string(
    shared_client: TestClient, shared_keys: Keys, number: Any
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, request_number=number)
    assert_invalid(response, "/data/attributes/request_number")


def test_create_request__request_number_over_64_characters(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, request_number="B" * 65)
    assert_invalid(response, "/data/attributes/request_number")


def test_create_request__scac_3_characters(shared_client: TestClient, shared_keys: Keys) -> None:
    response = post_attributes(shared_client, shared_keys.plain, scac="TES")
    assert_invalid(response, "/data/attributes/scac")


def test_create_request__scac_5_characters(shared_client: TestClient, shared_keys: Keys) -> None:
    response = post_attributes(shared_client, shared_keys.plain, scac="TESTS")
    assert_invalid(response, "/data/attributes/scac")


def test_create_request__scac_missing(shared_client: TestClient, shared_keys: Keys) -> None:
    attributes = {k: v for k, v in VALID.items() if k != "scac"}
    body = {"data": {"type": "tracking_request", "attributes": attributes}}
    assert_invalid(post(shared_client, shared_keys.plain, body), "/data/attributes/scac")


def test_create_request__scac_not_a_string(shared_client: TestClient, shared_keys: Keys) -> None:
    response = post_attributes(shared_client, shared_keys.plain, scac=1234)
    assert_invalid(response, "/data/attributes/scac")


def test_create_request__unknown_scac(shared_client: TestClient, shared_keys: Keys) -> None:
    response = post_attributes(shared_client, shared_keys.plain, scac="ZZZZ")
    assert_invalid(response, "/data/attributes/scac", code="unknown_scac")


def test_create_request__container_bad_check_digit(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(
        shared_client, shared_keys.plain, request_type="container", request_number="CSQU3054384"
    )
    assert_invalid(response, "/data/attributes/request_number", code="invalid_number")


def test_create_request__container_not_iso_6346(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(
        shared_client, shared_keys.plain, request_type="container", request_number="BL-1"
    )
    assert_invalid(response, "/data/attributes/request_number", code="invalid_number")


def test_create_request__ref_numbers_not_an_array(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, ref_numbers="PO-1")
    assert_invalid(response, "/data/attributes/ref_numbers")


def test_create_request__ref_numbers_with_a_non_string(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, ref_numbers=["PO-1", 2])
    assert_invalid(response, "/data/attributes/ref_numbers")


def test_create_request__ref_numbers_with_a_blank(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, ref_numbers=["PO-1", "  "])
    assert_invalid(response, "/data/attributes/ref_numbers")


def test_create_request__ref_number_over_100_characters(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, ref_numbers=["P" * 101])
    assert_invalid(response, "/data/attributes/ref_numbers")


def test_create_request__over_50_ref_numbers(shared_client: TestClient, shared_keys: Keys) -> None:
    many = [f"PO-{i}" for i in range(51)]
    response = post_attributes(shared_client, shared_keys.plain, ref_numbers=many)
    assert_invalid(response, "/data/attributes/ref_numbers")


def test_create_request__tags_not_an_array(shared_client: TestClient, shared_keys: Keys) -> None:
    response = post_attributes(shared_client, shared_keys.plain, tags={"a": 1})
    assert_invalid(response, "/data/attributes/tags")


def test_create_request__tags_with_a_non_string(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = post_attributes(shared_client, shared_keys.plain, tags=[None])
    assert_invalid(response, "/data/attributes/tags")


def test_create_request__malformed_json(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.post(
        URL, content=b'{"data": {', headers=write_headers(shared_keys.plain)
    )
    assert_error(response, 400, code="invalid_json")


def test_create_request__content_type_json_201(client: TestClient, keys: Keys) -> None:
    """Clients written for the Terminal49 API send plain JSON: accepted like JSON:API."""
    headers = {**auth(keys.plain), "Content-Type": "application/json"}
    response = client.post(URL, json=request_document("bill_of_lading", "BL-1"), headers=headers)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == "application/vnd.api+json"


def test_create_request__json_accepted_and_answered_as_json(client: TestClient, keys: Keys) -> None:
    headers = {
        **auth(keys.plain),
        "Content-Type": "application/json",
        "Accept": "application/json",
    }
    response = client.post(URL, json=request_document("bill_of_lading", "BL-1"), headers=headers)
    assert response.status_code == 201, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json()["data"]["attributes"]["request_number"] == "BL-1"


def test_create_request__text_plain_415(shared_client: TestClient, shared_keys: Keys) -> None:
    headers = {**auth(shared_keys.plain), "Content-Type": "text/plain"}
    response = shared_client.post(URL, content=b'{"data": {}}', headers=headers)
    assert_error(response, 415, code="unsupported_media_type")


def test_create_request__no_api_key_and_bad_media_type_401(shared_client: TestClient) -> None:
    """Authentication comes before the media type is looked at."""
    response = shared_client.post(URL, content=b"x", headers={"Content-Type": "text/plain"})
    assert_error(response, 401)


def test_create_request__no_content_type(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.post(URL, content=b'{"data": {}}', headers=auth(shared_keys.plain))
    assert_error(response, 415, code="unsupported_media_type")


def test_create_request__no_api_key(shared_client: TestClient) -> None:
    response = shared_client.post(
        URL,
        json=request_document("bill_of_lading", "BL-1"),
        headers={"Content-Type": JSONAPI},
    )
    assert_error(response, 401)


def test_create_request__nothing_stored_after_bad_inputs(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    assert get_json(shared_client, shared_keys.plain, URL)["meta"]["total"] == 0


# -- duplicates ----------------------------------------------------------------------------------


def test_create_request__duplicate_while_pending(client: TestClient, keys: Keys) -> None:
    create_request(client, keys.routing, "BL-1")
    response = post_attributes(client, keys.routing)
    assert_invalid(response, "/data/attributes/request_number", code="duplicate")


def test_create_request__duplicate_ignores_case(client: TestClient, keys: Keys) -> None:
    create_request(client, keys.routing, "BL-1")
    response = post_attributes(client, keys.routing, request_number="bl-1")
    assert_invalid(response, "/data/attributes/request_number", code="duplicate")


def test_create_request__duplicate_container_spelt_differently(
    client: TestClient, keys: Keys
) -> None:
    create_request(client, keys.routing, CONTAINER, request_type="container")
    response = post_attributes(
        client, keys.routing, request_type="container", request_number="csqu-305438 3"
    )
    assert_invalid(response, "/data/attributes/request_number", code="duplicate")


def test_create_request__duplicate_once_created(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    create_request(client, keys.routing, "BL-1")
    tick(app)
    assert get_json(client, keys.routing, URL)["data"][0]["attributes"]["status"] == "created"
    response = post_attributes(client, keys.routing)
    assert_invalid(response, "/data/attributes/request_number", code="duplicate")


def test_create_request__duplicate_while_awaiting_manifest(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    create_request(client, keys.routing, "TEST-TR-AWAITING")
    tick(app)
    response = post_attributes(client, keys.routing, request_number="TEST-TR-AWAITING")
    assert_invalid(response, "/data/attributes/request_number", code="duplicate")


def test_create_request__same_number_other_scac_allowed(client: TestClient, keys: Keys) -> None:
    create_request(client, keys.routing, "BL-1")
    data = create_request(client, keys.routing, "BL-1", scac="MAEU")
    assert data["attributes"]["scac"] == "MAEU"


def test_create_request__allowed_again_after_failure(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    first = create_request(client, keys.routing, "TEST-TR-FAILED")
    assert retry_until_settled(app, clock, first["id"])[-1].status == "failed"
    again = create_request(client, keys.routing, "TEST-TR-FAILED")
    assert again["id"] != first["id"]
    assert again["attributes"]["status"] == "pending"


def test_create_request__allowed_again_after_tracking_stopped(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    first = create_request(client, keys.routing, "BL-1")
    tick(app)
    request = get_json(client, keys.routing, f"{URL}/{first['id']}")["data"]
    shipment_id = request["relationships"]["tracked_object"]["data"]["id"]
    patch_json(client, keys.routing, f"/v2/shipments/{shipment_id}/stop_tracking")
    assert create_request(client, keys.routing, "BL-1")["id"] != first["id"]


# -- lists ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Listing:
    """A module's own app with four requests made an hour apart, the first two found."""

    client: TestClient
    key: str
    ids: dict[str, str]


@pytest.fixture(scope="module")
def listing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Listing]:
    path = tmp_path_factory.mktemp("listing") / "sealane.db"
    clock = ManualClock(START)
    app = make_app(path, clock=clock, rate_limit_per_minute=100_000)
    with transaction(app.state.sealane.sessions) as session:
        key = create_account(session, "Lister", routing=False, now=START).secret
    made = {}
    with TestClient(app, raise_server_exceptions=False) as client:
        for name, number, request_type, scac in (
            ("bl", "BL-1", "bill_of_lading", "TEST"),
            ("container", CONTAINER, "container", "TEST"),
            ("maersk", "MAEU123", "bill_of_lading", "MAEU"),
            ("booking", "BK-7", "booking_number", "TEST"),
        ):
            made[name] = create_request(client, key, number, request_type=request_type, scac=scac)[
                "id"
            ]
            if name == "container":
                tick(app)
            clock.advance(HOUR)
        yield Listing(client, key, made)


def ids(body: dict[str, Any]) -> list[str]:
    return [item["id"] for item in body["data"]]


def listed(listing: Listing, **params: Any) -> list[str]:
    return ids(get_json(listing.client, listing.key, URL, **params))


def test_list_requests__newest_first(listing: Listing) -> None:
    body = get_json(listing.client, listing.key, URL)
    assert ids(body) == [listing.ids[n] for n in ("booking", "maersk", "container", "bl")]
    assert body["meta"]["total"] == 4


def test_list_requests__filter_status(listing: Listing) -> None:
    assert listed(listing, **{"filter[status]": "created"}) == [
        listing.ids["container"],
        listing.ids["bl"],
    ]
    assert listed(listing, **{"filter[status]": "pending"}) == [
        listing.ids["booking"],
        listing.ids["maersk"],
    ]


def test_list_requests__filter_request_type(listing: Listing) -> None:
    assert listed(listing, **{"filter[request_type]": "container"}) == [listing.ids["container"]]
    assert listed(listing, **{"filter[request_type]": "booking_number"}) == [listing.ids["booking"]]


@pytest.mark.parametrize("scac", ["MAEU", "maeu"])
def test_list_requests__filter_scac(listing: Listing, scac: str) -> None:
    assert listed(listing, **{"filter[scac]": scac}) == [listing.ids["maersk"]]


@pytest.mark.parametrize("number", ["BL-1", "bl-1", " BL-1 "])
def test_list_requests__filter_request_number(listing: Listing, number: str) -> None:
    assert listed(listing, **{"filter[request_number]": number}) == [listing.ids["bl"]]


def test_list_requests__filter_created_at_start(listing: Listing) -> None:
    found = listed(listing, **{"filter[created_at][start]": "2026-11-21T14:00:00Z"})
    assert found == [listing.ids["booking"], listing.ids["maersk"]]


def test_list_requests__filter_created_at_end(listing: Listing) -> None:
    found = listed(listing, **{"filter[created_at][end]": "2026-11-21T13:00:00Z"})
    assert found == [listing.ids["container"], listing.ids["bl"]]


def test_list_requests__filter_created_at_range_with_offset(listing: Listing) -> None:
    # 14:00+02:00 is 12:00Z; 15:30+02:00 is 13:30Z
    found = listed(
        listing,
        **{
            "filter[created_at][start]": "2026-11-21T14:00:00+02:00",
            "filter[created_at][end]": "2026-11-21T15:30:00+02:00",
        },
    )
    assert found == [listing.ids["container"], listing.ids["bl"]]


@pytest.mark.parametrize(
    "value", ["yesterday", "2026-13-01T00:00:00Z", "2026-11-21", "2026-11-21T12:00:00"]
)
def test_list_requests__filter_created_at_bad_date(listing: Listing, value: str) -> None:
    response = listing.client.get(
        URL, params={"filter[created_at][start]": value}, headers=auth(listing.key)
    )
    assert_error(response, 400, code="invalid_parameter", parameter="filter[created_at][start]")


def test_list_requests__filter_created_at_end_bad_date(listing: Listing) -> None:
    response = listing.client.get(
        URL, params={"filter[created_at][end]": "soon"}, headers=auth(listing.key)
    )
    assert_error(response, 400, code="invalid_parameter", parameter="filter[created_at][end]")


def test_list_requests__pagination(listing: Listing) -> None:
    body = get_json(listing.client, listing.key, URL, **{"page[size]": "3", "page[number]": "2"})
    assert ids(body) == [listing.ids["bl"]]
    assert body["meta"]["total"] == 4
    assert "next" not in body["links"]
    assert body["links"]["prev"] is not None


# -- one request: GET and PATCH -------------------------------------------------------------------


def test_get_request__unknown_id(shared_client: TestClient, writer: str) -> None:
    response = shared_client.get(
        f"{URL}/00000000-0000-0000-0000-000000000000", headers=auth(writer)
    )
    assert_error(response, 404, code="not_found")


def patch_document(request_id: str, **attributes: Any) -> dict[str, Any]:
    return {"data": {"type": "tracking_request", "id": request_id, "attributes": attributes}}


def test_update_request__ref_numbers_and_tags(
    client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, "BL-1", ref_numbers=["PO-1"])["id"]
    clock.advance(HOUR)
    body = patch_document(request_id, ref_numbers=["PO-2", "PO-3"], tags=["hot"])
    data = patch_json(client, keys.routing, f"{URL}/{request_id}", body)["data"]
    assert data["attributes"]["ref_numbers"] == ["PO-2", "PO-3"]
    assert data["attributes"]["tags"] == ["hot"]
    assert data["attributes"]["updated_at"] == "2026-11-21T13:00:00Z"
    stored = get_json(client, keys.routing, f"{URL}/{request_id}")["data"]["attributes"]
    assert stored["ref_numbers"] == ["PO-2", "PO-3"]
    assert stored["tags"] == ["hot"]


def test_update_request__tags_only_keeps_ref_numbers(
    shared_client: TestClient, writer: str
) -> None:
    request_id = create_request(shared_client, writer, fresh(), ref_numbers=["PO-1"])["id"]
    data = patch_json(
        shared_client, writer, f"{URL}/{request_id}", patch_document(request_id, tags=["a"])
    )["data"]
    assert data["attributes"]["ref_numbers"] == ["PO-1"]


def test_update_request__without_id_in_body(shared_client: TestClient, writer: str) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    body = {"data": {"type": "tracking_request", "attributes": {"tags": ["x"]}}}
    assert patch_json(shared_client, writer, f"{URL}/{request_id}", body)["data"]["attributes"][
        "tags"
    ] == ["x"]


@pytest.mark.parametrize(
    ("name", "value"),
    [("request_number", "BL-2"), ("status", "created"), ("scac", "MAEU"), ("is_retrying", True)],
)
def test_update_request__read_only_attribute(
    shared_client: TestClient, writer: str, name: str, value: Any
) -> None:
    number = fresh()
    request_id = create_request(shared_client, writer, number)["id"]
    response = shared_client.patch(
        f"{URL}/{request_id}",
        json=patch_document(request_id, **{name: value}),
        headers=write_headers(writer),
    )
    assert_invalid(response, f"/data/attributes/{name}", code="read_only")
    stored = get_json(shared_client, writer, f"{URL}/{request_id}")["data"]["attributes"]
    assert stored["request_number"] == number and stored["status"] == "pending"


def test_update_request__id_mismatch(shared_client: TestClient, writer: str) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    body = patch_document("11111111-1111-1111-1111-111111111111", tags=["x"])
    response = shared_client.patch(f"{URL}/{request_id}", json=body, headers=write_headers(writer))
    error = assert_error(response, 409, code="id_mismatch")
    assert error["source"] == {"pointer": "/data/id"}


def test_update_request__wrong_type(shared_client: TestClient, writer: str) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    body = {"data": {"type": "shipment", "id": request_id, "attributes": {"tags": []}}}
    response = shared_client.patch(f"{URL}/{request_id}", json=body, headers=write_headers(writer))
    assert_error(response, 409, code="type_mismatch")


def test_update_request__ref_numbers_not_an_array(shared_client: TestClient, writer: str) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    response = shared_client.patch(
        f"{URL}/{request_id}",
        json=patch_document(request_id, ref_numbers="PO-1"),
        headers=write_headers(writer),
    )
    assert_invalid(response, "/data/attributes/ref_numbers")


def test_update_request__unknown_id(shared_client: TestClient, writer: str) -> None:
    missing = "00000000-0000-0000-0000-000000000000"
    response = shared_client.patch(
        f"{URL}/{missing}",
        json=patch_document(missing, tags=[]),
        headers=write_headers(writer),
    )
    assert_error(response, 404, code="not_found")


def test_update_request__content_type_json_200(shared_client: TestClient, writer: str) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    response = shared_client.patch(
        f"{URL}/{request_id}",
        json=patch_document(request_id, tags=["plain-json"]),
        headers={**auth(writer), "Content-Type": "application/json"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["data"]["attributes"]["tags"] == ["plain-json"]


def test_update_request__content_type_text_415(shared_client: TestClient, writer: str) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    response = shared_client.patch(
        f"{URL}/{request_id}",
        content=b"tags",
        headers={**auth(writer), "Content-Type": "text/plain"},
    )
    assert_error(response, 415)


# -- include -------------------------------------------------------------------------------------


def included(body: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(item["type"], item["id"]): item for item in body.get("included", [])}


def test_get_request__include_tracked_object_before_found(
    shared_client: TestClient, writer: str
) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    body = get_json(shared_client, writer, f"{URL}/{request_id}", include="tracked_object")
    assert body["data"]["relationships"]["tracked_object"] == {"data": None}
    assert "included" not in body


def test_get_request__include_tracked_object(app: FastAPI, client: TestClient, keys: Keys) -> None:
    request_id = create_request(client, keys.routing, "BL-1")["id"]
    tick(app)
    body = get_json(client, keys.routing, f"{URL}/{request_id}", include="tracked_object")
    shipment = body["data"]["relationships"]["tracked_object"]["data"]
    assert shipment["type"] == "shipment"
    assert list(included(body)) == [("shipment", shipment["id"])]
    assert included(body)[("shipment", shipment["id"])]["attributes"]["bill_of_lading_number"] == (
        "BL-1"
    )


def test_get_request__include_tracked_object_containers(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, CONTAINER, request_type="container")["id"]
    tick(app)
    body = get_json(
        client, keys.routing, f"{URL}/{request_id}", include="tracked_object.containers"
    )
    found = included(body)
    shipment_id = body["data"]["relationships"]["tracked_object"]["data"]["id"]
    shipment = found[("shipment", shipment_id)]
    container_ids = [c["id"] for c in shipment["relationships"]["containers"]["data"]]
    assert container_ids
    assert set(found) == {("shipment", shipment_id)} | {("container", c) for c in container_ids}
    numbers = {found[("container", c)]["attributes"]["number"] for c in container_ids}
    assert CONTAINER in numbers


def test_list_requests__include_tracked_object(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    create_request(client, keys.routing, "BL-1")
    create_request(client, keys.routing, "BL-2")
    tick(app)
    create_request(client, keys.routing, "BL-3")
    body = get_json(client, keys.routing, URL, include="tracked_object")
    shipments = {
        item["relationships"]["tracked_object"]["data"]["id"]
        for item in body["data"]
        if item["relationships"]["tracked_object"]["data"]
    }
    assert len(shipments) == 2
    assert set(included(body)) == {("shipment", s) for s in shipments}


@pytest.mark.parametrize("include", ["containers", "tracked_object.vessel", "tracked_object,foo"])
def test_get_request__unknown_include(shared_client: TestClient, writer: str, include: str) -> None:
    request_id = create_request(shared_client, writer, fresh())["id"]
    response = shared_client.get(
        f"{URL}/{request_id}", params={"include": include}, headers=auth(writer)
    )
    assert_error(response, 400, code="unknown_include", parameter="include")


def test_list_requests__unknown_include(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.get(
        URL, params={"include": "shipments"}, headers=auth(shared_keys.plain)
    )
    assert_error(response, 400, code="unknown_include", parameter="include")


def test_create_request__created_at_is_the_clock(
    client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    clock.advance(90)
    data = create_request(client, keys.routing, "BL-1")
    assert data["attributes"]["created_at"] == "2026-11-21T12:01:30Z"

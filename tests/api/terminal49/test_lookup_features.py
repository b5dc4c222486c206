"""``GET /v2/search`` and ``POST /v2/tracking_requests/infer_number`` over HTTP."""

from __future__ import annotations

from tests.api.jsonapi_asserts import assert_error

from .world import CONTAINER, World


def test_search__container_number_any_spacing(world: World) -> None:
    body = world.get("/search", query="csqu 305438-3").json()
    cargo = [hit for hit in body["data"] if hit["type"] == "cargo"]
    assert [hit["attributes"]["number"] for hit in cargo] == [CONTAINER]
    assert cargo[0]["attributes"]["shipment_id"] == world.ids["shipment_2"]
    assert cargo[0]["attributes"]["exact_match"] is True


def test_search__reference_number_finds_the_shipment(world: World) -> None:
    body = world.get("/search", query="REF-A1").json()
    assert body["data"][0]["type"] == "shipment"
    assert body["data"][0]["id"] == world.ids["shipment"]


def test_search__only_the_callers_account(world: World) -> None:
    assert world.get("/search", world.other_key, query=CONTAINER).json()["data"] == []


def test_search__too_long_400(world: World) -> None:
    assert_error(world.get("/search", query="x" * 101), 400, parameter="query")


def test_infer__container_with_its_carrier(world: World) -> None:
    body = world.send("POST", "/tracking_requests/infer_number", {"number": "tstu 000001-4"}).json()
    attributes = body["data"]["attributes"]
    assert (attributes["number_type"], attributes["request_type"]) == ("container", "container")
    assert attributes["validation"]["parsed_number"] == "TSTU0000014"
    assert attributes["validation"]["check_digit_passed"] is True
    line = attributes["shipping_line"]
    assert (line["decision"], line["selected"]["scac"]) == ("auto_select", "TEST")


def test_infer__bill_of_lading_prefix_from_the_carrier_table(world: World) -> None:
    """PABV is PIL's bill of lading prefix in Terminal49's coverage table."""
    attributes = world.send(
        "POST", "/tracking_requests/infer_number", {"number": "PABV12345678"}
    ).json()["data"]["attributes"]
    assert attributes["number_type"] == "bill_of_lading"
    assert attributes["shipping_line"]["selected"]["scac"] == "PCIU"


def test_infer__not_an_object_422(world: World) -> None:
    error = assert_error(world.send("POST", "/tracking_requests/infer_number", ["x"]), 422)
    assert error["source"] == {"pointer": ""}

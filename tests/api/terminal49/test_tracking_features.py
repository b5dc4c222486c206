"""Tracking requests and shipments as a Terminal49 client uses them: tags for the shipment,
a customer, custom fields given up front, an inferred or alternative SCAC, the new shipment
fields, the test numbers' states at the first poll, and the list filters."""

from __future__ import annotations

from typing import Any

from tests.api.jsonapi_asserts import assert_error

from .world import World, document, fresh


def request(w: World, **attributes: Any) -> Any:
    given = {"request_type": "bill_of_lading", "request_number": fresh("TEST"), "scac": "TEST"}
    return w.send(
        "POST", "/tracking_requests", document("tracking_request", {**given, **attributes})
    )


def test_found_shipment__tags_customer_and_custom_fields_from_the_request(world: World) -> None:
    shipment = world.get(f"/shipments/{world.ids['shipment']}").json()["data"]
    attributes = shipment["attributes"]
    assert "vip" in attributes["tags"]
    assert attributes["customer_name"] == "Acme"
    assert attributes["normalized_number"] == "TEST-TR-SUCCEEDED"
    assert attributes["shipping_line_short_name"] == "Test"
    assert attributes["pod_original_eta_at"] is not None
    assert (
        attributes["line_tracking_last_succeeded_at"]
        == attributes["line_tracking_last_attempted_at"]
    )
    fields = world.get(f"/shipments/{world.ids['shipment']}/custom_fields").json()["data"]
    assert {f["attributes"]["api_slug"] for f in fields} >= {"po_number"}
    for container in shipment["relationships"]["containers"]["data"]:
        values = world.get(f"/containers/{container['id']}/custom_fields").json()["data"]
        priority = [v for v in values if v["attributes"]["api_slug"] == "priority"]
        assert priority and priority[0]["attributes"]["display_value"] in ("High", "Low")


def test_request__customer_relationship(world: World) -> None:
    data = world.get(f"/tracking_requests/{world.ids['request']}").json()["data"]
    assert data["relationships"]["customer"] == {
        "data": {"type": "party", "id": world.ids["party"]}
    }


def test_request__unknown_customer_422_points_at_the_relationship(world: World) -> None:
    body = document(
        "tracking_request",
        {"request_type": "bill_of_lading", "request_number": fresh("TEST"), "scac": "TEST"},
        customer=("party", "no-such-party"),
    )
    error = assert_error(world.send("POST", "/tracking_requests", body), 422, code="unknown_party")
    assert error["source"] == {"pointer": "/data/relationships/customer"}


def test_request__another_accounts_party_is_unknown(world: World) -> None:
    theirs = world.send(
        "POST", "/parties", document("party", {"company_name": "Theirs"}), world.other_key
    )
    body = document(
        "tracking_request",
        {"request_type": "bill_of_lading", "request_number": fresh("TEST"), "scac": "TEST"},
        customer=("party", theirs.json()["data"]["id"]),
    )
    assert_error(world.send("POST", "/tracking_requests", body), 422, code="unknown_party")


def test_request__customer_of_another_type_409(world: World) -> None:
    body = document(
        "tracking_request",
        {"request_type": "bill_of_lading", "request_number": fresh("TEST"), "scac": "TEST"},
        customer=("shipment", world.ids["shipment"]),
    )
    assert_error(world.send("POST", "/tracking_requests", body), 409, code="type_mismatch")


def test_request__unknown_initial_custom_field_422(world: World) -> None:
    initial = {"shipment": [{"api_slug": "no_such_field", "value": 1}]}
    error = assert_error(request(world, initial_custom_fields=initial), 422)
    assert error["source"] == {"pointer": "/data/attributes/initial_custom_fields"}


def test_request__initial_custom_field_value_checked_up_front(world: World) -> None:
    initial = {"containers": [{"api_slug": "priority", "value": "not-an-option"}]}
    error = assert_error(request(world, initial_custom_fields=initial), 422)
    assert "priority" in error["detail"] or "option" in error["detail"]


def test_request__shipment_tags_must_be_strings(world: World) -> None:
    error = assert_error(request(world, shipment_tags="vip"), 422)
    assert error["source"] == {"pointer": "/data/attributes/shipment_tags"}


def test_request__alternative_scac_tracks_with_the_carrier(world: World) -> None:
    created = request(world, scac="SEAL")
    assert created.status_code == 201, created.text
    assert created.json()["data"]["attributes"]["scac"] == "SEAU"


def test_request__auto_detected_scac(world: World) -> None:
    """TSTU is the owner code of the simulated carrier's containers."""
    created = world.send(
        "POST",
        "/tracking_requests",
        document(
            "tracking_request",
            {
                "request_type": "container",
                "request_number": "TSTU 000001-4",
                "auto_detect_vocc_scac": True,
            },
        ),
    )
    assert created.status_code == 201, created.text
    assert created.json()["data"]["attributes"]["scac"] == "TEST"


def test_request__auto_detect_without_a_prediction_422(world: World) -> None:
    body = {
        "request_type": "bill_of_lading",
        "request_number": "XYZ123",
        "auto_detect_vocc_scac": True,
    }
    error = assert_error(
        world.send("POST", "/tracking_requests", document("tracking_request", body)),
        422,
        code="scac_not_inferred",
    )
    assert error["source"] == {"pointer": "/data/attributes/scac"}


def test_request__no_scac_without_auto_detect_422(world: World) -> None:
    body = {"request_type": "bill_of_lading", "request_number": "XYZ123"}
    error = assert_error(
        world.send("POST", "/tracking_requests", document("tracking_request", body)), 422
    )
    assert error["source"] == {"pointer": "/data/attributes/scac"}


def test_test_numbers__documented_state_at_the_first_poll(world: World) -> None:
    failed = world.get(f"/tracking_requests/{world.ids['TEST-TR-FAILED']}").json()["data"]
    assert (failed["attributes"]["status"], failed["attributes"]["failed_reason"]) == (
        "failed",
        "not_found",
    )
    assert failed["attributes"]["is_retrying"] is False
    found = world.get(f"/tracking_requests/{world.ids['request']}").json()["data"]
    assert found["attributes"]["status"] == "created"


def test_patch_request__one_ref_number(world: World) -> None:
    key = world.ids["TEST-TR-AWAITING"]
    body = {"data": {"type": "tracking_request", "id": key, "attributes": {"ref_number": "RN-1"}}}
    assert world.send("PATCH", f"/tracking_requests/{key}", body).json()["data"]["attributes"][
        "ref_numbers"
    ] == ["RN-1"]
    bad = {"data": {"type": "tracking_request", "id": key, "attributes": {"ref_number": 5}}}
    error = assert_error(world.send("PATCH", f"/tracking_requests/{key}", bad), 422)
    assert error["source"] == {"pointer": "/data/attributes/ref_number"}


def test_patch_shipment__tags(world: World) -> None:
    key = world.ids["shipment_2"]
    body = {"data": {"type": "shipment", "id": key, "attributes": {"tags": ["a", "b", "a"]}}}
    data = world.send("PATCH", f"/shipments/{key}", body).json()["data"]
    assert data["attributes"]["tags"] == ["a", "b"]
    bad = {"data": {"type": "shipment", "id": key, "attributes": {"tags": "a"}}}
    assert assert_error(world.send("PATCH", f"/shipments/{key}", bad), 422)["source"] == {
        "pointer": "/data/attributes/tags"
    }


def test_stop_tracking__reason_and_resume_clears_it(world: World) -> None:
    key = world.ids["shipment_2"]
    stopped = world.send("PATCH", f"/shipments/{key}/stop_tracking").json()["data"]["attributes"]
    assert stopped["line_tracking_stopped_reason"] == "cancelled_by_user"
    listed = world.get("/shipments", **{"filter[tracking_stopped]": "true"}).json()["data"]
    assert [s["id"] for s in listed] == [key]
    resumed = world.send("PATCH", f"/shipments/{key}/resume_tracking").json()["data"]["attributes"]
    assert resumed["line_tracking_stopped_reason"] is None


def test_shipments__q_matches_part_of_a_container_number(world: World) -> None:
    found = world.get("/shipments", q="305438").json()["data"]
    assert [s["id"] for s in found] == [world.ids["shipment_2"]]


def test_shipments__number_is_the_number_tracked(world: World) -> None:
    found = world.get("/shipments", number="test-tr-succeeded").json()["data"]
    assert [s["id"] for s in found] == [world.ids["shipment"]]


def test_tracking_requests__q_matches_reference_numbers(world: World) -> None:
    found = world.get("/tracking_requests", q="ref-a").json()["data"]
    assert world.ids["request"] in {r["id"] for r in found}
    assert all(
        "ref-a"
        in " ".join(r["attributes"]["ref_numbers"] + [r["attributes"]["request_number"]]).lower()
        for r in found
    )


def test_tracking_requests__tracked_object_included_by_default(world: World) -> None:
    body = world.get(f"/tracking_requests/{world.ids['request']}").json()
    assert [(i["type"], i["id"]) for i in body["included"]] == [("shipment", world.ids["shipment"])]
    assert (
        "included" not in world.get(f"/tracking_requests/{world.ids['request']}", include="").json()
    )

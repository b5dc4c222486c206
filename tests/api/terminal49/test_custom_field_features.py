"""Custom fields: definitions with a unique slug per kind of object, options only for the
enumerations, values checked against their definition, shown for people, and gone with it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.jsonapi_asserts import assert_error

from .world import World, document, fresh

DEFINITIONS = "/custom_field_definitions"


def slug() -> str:
    return fresh("f").lower().replace("-", "_")


def define(w: World, data_type: str, entity_type: str = "Shipment", **more: Any) -> dict[str, Any]:
    attributes = {
        "entity_type": entity_type,
        "api_slug": slug(),
        "display_name": data_type.title(),
        "data_type": data_type,
        **more,
    }
    return w.made("POST", DEFINITIONS, document("custom_field_definition", attributes))


def put(w: World, definition: dict[str, Any], value: Any, key: str = "shipment_2") -> Any:
    kind = {"Shipment": "shipments", "Container": "containers"}[
        definition["attributes"]["entity_type"]
    ]
    body = document(
        "custom_field", {"api_slug": definition["attributes"]["api_slug"], "value": value}
    )
    return w.send("POST", f"/{kind}/{w.ids[key]}/custom_fields", body)


@pytest.mark.parametrize(
    ("change", "pointer"),
    [
        ({"api_slug": "Bad Slug"}, "api_slug"),
        ({"entity_type": "Vessel"}, "entity_type"),
        ({"data_type": "xml"}, "data_type"),
        ({"display_name": ""}, "display_name"),
        ({"validation": {"min": "zero"}}, "validation/min"),
        ({"data_type": "number", "default_value": "ten"}, "default_value"),
        ({"owner": "me"}, "owner"),
    ],
)
def test_definition__bad_attribute_422(world: World, change: dict[str, Any], pointer: str) -> None:
    attributes = {
        "entity_type": "Shipment",
        "api_slug": slug(),
        "display_name": "Name",
        "data_type": "short_text",
        **change,
    }
    error = assert_error(
        world.send("POST", DEFINITIONS, document("custom_field_definition", attributes)), 422
    )
    assert error["source"] == {"pointer": f"/data/attributes/{pointer}"}


def test_definition__slug_unique_per_kind_of_object(world: World) -> None:
    made = define(world, "boolean")
    again = {**made["attributes"], "display_name": "Again"}
    shown = {k: again[k] for k in ("entity_type", "api_slug", "display_name", "data_type")}
    error = assert_error(
        world.send("POST", DEFINITIONS, document("custom_field_definition", shown)),
        422,
        code="duplicate",
    )
    assert error["source"] == {"pointer": "/data/attributes/api_slug"}
    other_kind = {**shown, "entity_type": "Container"}
    assert (
        world.send("POST", DEFINITIONS, document("custom_field_definition", other_kind)).status_code
        == 201
    )


def test_definition__entity_type_cannot_change(world: World) -> None:
    made = define(world, "boolean")
    body = {
        "data": {
            "type": "custom_field_definition",
            "id": made["id"],
            "attributes": {"entity_type": "Container"},
        }
    }
    assert_error(world.send("PATCH", f"{DEFINITIONS}/{made['id']}", body), 422, code="read_only")


def test_definition__display_name_is_a_prefix_filter(world: World) -> None:
    found = world.get(DEFINITIONS, **{"filter[display_name]": "PRIOR"}).json()["data"]
    assert {d["attributes"]["api_slug"] for d in found} == {"priority"}


def test_options__only_for_enumerations(world: World) -> None:
    made = define(world, "short_text")
    option = document("custom_field_option", {"label": "A", "value": "a"})
    assert_error(
        world.send("POST", f"{DEFINITIONS}/{made['id']}/options", option),
        422,
        code="not_an_enumeration",
    )


def test_options__value_unique_and_fixed(world: World) -> None:
    made = define(world, "enum")
    url = f"{DEFINITIONS}/{made['id']}/options"
    first = world.made("POST", url, document("custom_field_option", {"label": "A", "value": "a"}))
    assert_error(
        world.send("POST", url, document("custom_field_option", {"label": "B", "value": "a"})),
        422,
        code="duplicate",
    )
    body = {
        "data": {"type": "custom_field_option", "id": first["id"], "attributes": {"value": "b"}}
    }
    assert_error(world.send("PATCH", f"{url}/{first['id']}", body), 422, code="read_only")


def test_options__of_another_definition_404(world: World) -> None:
    made = define(world, "enum")
    assert_error(world.get(f"{DEFINITIONS}/{made['id']}/options/{world.ids['option_high']}"), 404)


@pytest.mark.parametrize(
    ("data_type", "given", "stored", "shown"),
    [
        ("short_text", "Dock 5", "Dock 5", "Dock 5"),
        ("number", 12.5, 12.5, "12.5"),
        ("number", 3, 3, "3"),
        ("date", "2027-02-01", "2027-02-01", "2027-02-01"),
        ("datetime", "2027-02-01T10:00:00+02:00", "2027-02-01T08:00:00Z", "2027-02-01T08:00:00Z"),
        ("boolean", True, True, "Yes"),
        ("reference", "PO-123", "PO-123", "PO-123"),
        ("short_text", None, None, None),
    ],
)
def test_value__stored_and_shown(
    world: World, data_type: str, given: Any, stored: Any, shown: Any
) -> None:
    made = define(world, data_type)
    answer = put(world, made, given)
    assert answer.status_code == 201, answer.text
    attributes = answer.json()["data"]["attributes"]
    assert (attributes["value"], attributes["display_value"]) == (stored, shown)


@pytest.mark.parametrize(
    ("data_type", "given", "more"),
    [
        ("short_text", 5, {}),
        ("short_text", "x" * 300, {}),
        ("short_text", "abc", {"validation": {"max_length": 2}}),
        ("number", True, {}),
        ("number", -1, {"validation": {"min": 0}}),
        ("number", 11, {"validation": {"max": 10}}),
        ("date", "01/02/2027", {}),
        ("datetime", "2027-02-01T10:00:00", {}),
        ("boolean", "yes", {}),
        ("enum", "nope", {}),
        ("enum_multi", ["nope"], {}),
        ("reference", "", {}),
    ],
)
def test_value__not_of_the_type_422(
    world: World, data_type: str, given: Any, more: dict[str, Any]
) -> None:
    made = define(world, data_type, **more)
    error = assert_error(put(world, made, given), 422)
    assert error["source"] == {"pointer": "/data/attributes/value"}


def test_value__enum_multi_labels(world: World) -> None:
    made = define(world, "enum_multi", "Container")
    url = f"{DEFINITIONS}/{made['id']}/options"
    for label, value in (("Fragile", "fragile"), ("Heavy", "heavy")):
        world.made("POST", url, document("custom_field_option", {"label": label, "value": value}))
    attributes = put(world, made, ["heavy", "fragile", "heavy"], "container_2").json()["data"][
        "attributes"
    ]
    assert (attributes["value"], attributes["display_value"]) == (
        ["heavy", "fragile"],
        "Heavy, Fragile",
    )


def test_value__one_per_object_then_changed_by_slug(world: World) -> None:
    made = define(world, "short_text")
    assert put(world, made, "a").status_code == 201
    assert_error(put(world, made, "b"), 422, code="duplicate")
    url = f"/shipments/{world.ids['shipment_2']}/custom_fields/{made['attributes']['api_slug']}"
    changed = world.send("PATCH", url, document("custom_field", {"value": "c"}))
    assert changed.json()["data"]["attributes"]["value"] == "c"


def test_value__unknown_slug_422(world: World) -> None:
    body = document("custom_field", {"api_slug": "no_such_field", "value": 1})
    error = assert_error(
        world.send("POST", f"/shipments/{world.ids['shipment_2']}/custom_fields", body), 422
    )
    assert error["source"] == {"pointer": "/data/attributes/api_slug"}


def test_value__of_another_kind_of_object_is_unknown(world: World) -> None:
    """po_number is a shipment field: a container has no such field."""
    body = document("custom_field", {"api_slug": "po_number", "value": "x"})
    assert_error(
        world.send("POST", f"/containers/{world.ids['container_2']}/custom_fields", body), 422
    )


def test_value__entity_relationship_required(world: World) -> None:
    body = document("custom_field", {"api_slug": "po_number", "value": "x"})
    error = assert_error(world.send("POST", "/custom_fields", body), 422)
    assert error["source"] == {"pointer": "/data/relationships/entity"}


def test_value__entity_of_an_unknown_type_422(world: World) -> None:
    body = document("custom_field", {"api_slug": "po_number", "value": "x"}, entity=("vessel", "v"))
    error = assert_error(world.send("POST", "/custom_fields", body), 422)
    assert error["source"] == {"pointer": "/data/relationships/entity"}


def test_value__missing_value_422(world: World) -> None:
    body = document("custom_field", {"api_slug": "po_number"})
    error = assert_error(
        world.send("POST", f"/shipments/{world.ids['shipment_2']}/custom_fields", body), 422
    )
    assert error["source"] == {"pointer": "/data/attributes/value"}


def test_deleting_a_definition_takes_its_values(world: World) -> None:
    made = define(world, "short_text")
    put(world, made, "a")
    assert world.get("/custom_fields", **{"filter[definition_id]": made["id"]}).json()["data"]
    assert world.send("DELETE", f"{DEFINITIONS}/{made['id']}").json() == {
        "meta": {"deleted": made["id"]}
    }
    assert world.get("/custom_fields", **{"filter[definition_id]": made["id"]}).json()["data"] == []
    assert_error(world.get(f"{DEFINITIONS}/{made['id']}"), 404)

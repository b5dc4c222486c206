"""Another account's objects are not found (404, an error document) by any shared operation
that names one: reads, writes and deletions alike."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.api.jsonapi_asserts import assert_error

from . import document as t49
from .world import World

#: The placeholders of account-owned objects, and the world's object that fills each.
OWNED = {
    "{tracking_request_id}": "request",
    "{shipment_id}": "shipment",
    "{container_id}": "container",
    "{definition_id}": "definition_container",
    "{option_id}": "option_high",
}
#: Paths whose ``{id}`` is an account's object, and which one.
OWNED_IDS = {
    "/shipments/{id}": "shipment",
    "/shipments/{id}/stop_tracking": "shipment",
    "/shipments/{id}/resume_tracking": "shipment",
    "/tracking_requests/{id}": "request",
    "/webhooks/{id}": "webhook",
    "/webhook_notifications/{id}": "notification",
    "/containers/{id}": "container",
    "/containers/{id}/raw_events": "container",
    "/containers/{id}/transport_events": "container",
    "/containers/{id}/refresh": "container",
    "/parties/{id}": "party",
    "/custom_field_definitions/{id}": "definition_shipment",
    "/custom_fields/{id}": "custom_field",
}
#: A body good enough to reach the ownership check, by the resource type a write is about.
BODIES: dict[str, Callable[[str], object]] = {
    "custom_fields": lambda key: {
        "data": {"type": "custom_field", "attributes": {"api_slug": "po_number", "value": "X"}}
    },
    "options": lambda key: {
        "data": {
            "type": "custom_field_option",
            "id": key,
            "attributes": {"label": "X"},
        }
    },
}


def owned_operations() -> list[tuple[str, str]]:
    found = []
    for method, path in t49.operations():
        ours = t49.sealane_path(method, path)
        if ours in OWNED_IDS or any(p in ours for p in OWNED):
            found.append((method, path))
    return found


def url_of(w: World, path: str) -> str:
    url = path.replace("{id}", w.ids[OWNED_IDS[path]]) if path in OWNED_IDS else path
    for placeholder, key in OWNED.items():
        url = url.replace(placeholder, w.ids[key])
    return url.replace("{api_slug}", "po_number")


def body_for(method: str, path: str, url: str) -> object:
    key = url.rstrip("/").rsplit("/", 1)[-1]
    if "custom_fields" in path:
        body = BODIES["custom_fields"](key)
        if method == "PATCH":  # a change names the value only
            del body["data"]["attributes"]["api_slug"]  # type: ignore[index]
        return body
    if "/options" in path:
        body = BODIES["options"](key)
        if path.endswith("/options"):  # a new option also needs its value
            body["data"]["attributes"]["value"] = "x"  # type: ignore[index]
            del body["data"]["id"]  # type: ignore[attr-defined]
        return body
    kind = {
        "shipments": "shipment",
        "tracking_requests": "tracking_request",
        "webhooks": "webhook",
        "containers": "container",
        "parties": "party",
        "custom_field_definitions": "custom_field_definition",
    }[path.split("/")[1]]
    attributes = {"company_name": "X"} if kind == "party" else {}
    return {"data": {"type": kind, "id": key, "attributes": attributes}}


@pytest.mark.parametrize(
    ("method", "path"), owned_operations(), ids=[f"{m} {p}" for m, p in owned_operations()]
)
def test_other_account__404(world: World, method: str, path: str) -> None:
    ours = t49.sealane_path(method, path)
    url = url_of(world, ours)
    if method == "GET":
        response = world.get(url, world.other_key)
    else:
        response = world.send(method, url, body_for(method, ours, url), world.other_key)
    assert_error(response, 404)

"""How to call each operation sealane shares with Terminal49's document, on the world's data.

A recipe returns the responses to check: at least one success, and where the document gives
a body for an error status, a request that causes it. Set-up calls a recipe needs (a webhook to
delete, a stopped shipment to resume) are made inside it and not returned. Each recipe uses its
own objects, so the recipes can run in any order.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx

from tests.webhooks.receiver import receiving

from .world import World, document, fresh

Recipe = Callable[[World], list[httpx.Response]]
RECIPES: dict[tuple[str, str], Recipe] = {}
#: The status each response of a recipe must have, in order (unlisted: every one a success).
EXPECTED: dict[tuple[str, str], tuple[int, ...]] = {}

SHIPMENT_INCLUDES = "containers,port_of_lading,port_of_discharge,pod_terminal,destination"
EVENT_INCLUDES = "shipment,container,location,vessel,terminal"


def recipe(method: str, path: str, *expected: int) -> Callable[[Recipe], Recipe]:
    """Register the recipe of the document's operation (``method``, ``path``) and the status
    of each response it returns (none given: each must be a success)."""

    def register(function: Recipe) -> Recipe:
        RECIPES[method, path] = function
        if expected:
            EXPECTED[method, path] = expected
        return function

    return register


# -- shipments ---------------------------------------------------------------------------------


@recipe("GET", "/shipments")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/shipments", include=SHIPMENT_INCLUDES + ",destination_terminal")]


@recipe("GET", "/shipments/{id}", 200, 404, 404)
def _(w: World) -> list[httpx.Response]:
    found = w.get(f"/shipments/{w.ids['shipment']}", include=SHIPMENT_INCLUDES)
    return [
        found,
        w.get("/shipments/no-such-shipment"),
        w.get(f"/shipments/{w.ids['shipment']}", w.other_key),
    ]


@recipe("PATCH", "/shipments/{id}")
def _(w: World) -> list[httpx.Response]:
    changes = {"ref_numbers": ["REF-A1", "REF-A2"], "tags": ["vip", "late"]}
    body = {"data": {"type": "shipment", "id": w.ids["shipment"], "attributes": changes}}
    return [w.send("PATCH", f"/shipments/{w.ids['shipment']}", body)]


@recipe("PATCH", "/shipments/{id}/stop_tracking")
def _(w: World) -> list[httpx.Response]:
    stopped = w.send("PATCH", f"/shipments/{w.ids['shipment_2']}/stop_tracking")
    w.send("PATCH", f"/shipments/{w.ids['shipment_2']}/resume_tracking")
    return [stopped]


@recipe("PATCH", "/shipments/{id}/resume_tracking")
def _(w: World) -> list[httpx.Response]:
    w.send("PATCH", f"/shipments/{w.ids['shipment_2']}/stop_tracking")
    return [w.send("PATCH", f"/shipments/{w.ids['shipment_2']}/resume_tracking")]


# -- tracking requests -------------------------------------------------------------------------


@recipe("POST", "/tracking_requests", 201, 422)
def _(w: World) -> list[httpx.Response]:
    attributes = {"request_type": "bill_of_lading", "request_number": fresh("TEST"), "scac": "TEST"}
    created = w.send("POST", "/tracking_requests", document("tracking_request", attributes))
    unknown = {**attributes, "scac": "ZZZZ"}
    refused = w.send("POST", "/tracking_requests", document("tracking_request", unknown))
    return [created, refused]


@recipe("GET", "/tracking_requests")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/tracking_requests"), w.get("/tracking_requests", include="tracked_object")]


@recipe("POST", "/tracking_requests/infer_number", 200, 200, 422)
def _(w: World) -> list[httpx.Response]:
    url = "/tracking_requests/infer_number"
    return [
        w.send("POST", url, {"number": "MSKU 123456-5"}),
        w.send("POST", url, {"number": "MAEU221876618"}),
        w.send("POST", url, {"number": ""}),
    ]


@recipe("GET", "/tracking_requests/{id}", 200, 200, 404)
def _(w: World) -> list[httpx.Response]:
    url = f"/tracking_requests/{w.ids['request']}"
    return [w.get(url), w.get(url, include="tracked_object"), w.get(url, w.other_key)]


@recipe("PATCH", "/tracking_requests/{id}")
def _(w: World) -> list[httpx.Response]:
    key = w.ids["TEST-TR-AWAITING"]
    body = {"data": {"type": "tracking_request", "id": key, "attributes": {"ref_number": "R-9"}}}
    return [w.send("PATCH", f"/tracking_requests/{key}", body)]


def _field(slug: str, value: object) -> dict[str, object]:
    return document("custom_field", {"api_slug": slug, "value": value})


@recipe("GET", "/tracking_requests/{tracking_request_id}/custom_fields")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"/tracking_requests/{w.ids['request']}/custom_fields")]


@recipe("POST", "/tracking_requests/{tracking_request_id}/custom_fields")
def _(w: World) -> list[httpx.Response]:
    url = f"/tracking_requests/{w.ids['container_request']}/custom_fields"
    return [w.send("POST", url, _field("cost_center", 7))]


@recipe("PATCH", "/tracking_requests/{tracking_request_id}/custom_fields/{api_slug}")
def _(w: World) -> list[httpx.Response]:
    url = f"/tracking_requests/{w.ids['request']}/custom_fields/cost_center"
    return [w.send("PATCH", url, document("custom_field", {"value": 43}))]


@recipe("DELETE", "/tracking_requests/{tracking_request_id}/custom_fields/{api_slug}")
def _(w: World) -> list[httpx.Response]:
    url = f"/tracking_requests/{w.ids['TEST-TR-FAILED']}/custom_fields"
    w.made("POST", url, _field("cost_center", 1))
    return [w.send("DELETE", f"{url}/cost_center")]


# -- webhooks and notifications ----------------------------------------------------------------


def _hook(w: World) -> str:
    attributes = {"url": "http://127.0.0.1:9/other", "events": ["container.updated"]}
    return str(w.made("POST", "/webhooks", document("webhook", attributes))["id"])


@recipe("GET", "/webhooks/{id}", 200, 404)
def _(w: World) -> list[httpx.Response]:
    return [
        w.get(f"/webhooks/{w.ids['webhook']}"),
        w.get(f"/webhooks/{w.ids['webhook']}", w.other_key),
    ]


@recipe("PATCH", "/webhooks/{id}")
def _(w: World) -> list[httpx.Response]:
    key = _hook(w)
    changes = {"active": False, "headers": [{"name": "X-Tenant", "value": "compat"}]}
    body = {"data": {"type": "webhook", "id": key, "attributes": changes}}
    return [w.send("PATCH", f"/webhooks/{key}", body)]


@recipe("DELETE", "/webhooks/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.send("DELETE", f"/webhooks/{_hook(w)}")]


@recipe("GET", "/webhooks")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/webhooks")]


@recipe("POST", "/webhooks")
def _(w: World) -> list[httpx.Response]:
    attributes = {"url": "http://127.0.0.1:9/new", "events": ["tracking_request.failed"]}
    return [w.send("POST", "/webhooks", document("webhook", attributes))]


@recipe("GET", "/webhooks/events")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/webhooks/events")]


@recipe("GET", "/webhook_notifications/{id}")
def _(w: World) -> list[httpx.Response]:
    url = f"/webhook_notifications/{w.ids['notification']}"
    return [w.get(url, include="webhook,reference_object"), w.get(url)]


@recipe("GET", "/webhook_notifications")
def _(w: World) -> list[httpx.Response]:
    return [
        w.get("/webhook_notifications", include="webhook,reference_object", **{"page[size]": 100})
    ]


@recipe("GET", "/webhook_notifications/examples")
def _(w: World) -> list[httpx.Response]:
    return [
        w.get("/webhook_notifications/examples"),
        w.get("/webhook_notifications/examples", event="container.created"),
    ]


@recipe("GET", "/webhooks/ips")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/webhooks/ips")]


@recipe("POST", "/webhooks/trigger", 200, 422)
def _(w: World) -> list[httpx.Response]:
    with receiving() as receiver:
        body = {"url": f"{receiver.url}/trial", "event": "tracking_request.succeeded"}
        sent = w.send("POST", "/webhooks/trigger", body)
    refused = w.send("POST", "/webhooks/trigger", {"url": "ftp://example.com/x", "event": "x"})
    return [sent, refused]


# -- containers --------------------------------------------------------------------------------


@recipe("GET", "/containers")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/containers", include="shipment")]


@recipe("PATCH", "/containers")  # erratum 4: the operation is /containers/{id}
def _(w: World) -> list[httpx.Response]:
    key = w.ids["container_2"]
    body = {"data": {"type": "container", "id": key, "attributes": {"ref_numbers": ["C-2"]}}}
    return [w.send("PATCH", f"/containers/{key}", body)]


@recipe("GET", "/containers/{id}")
def _(w: World) -> list[httpx.Response]:
    include = "shipment,pod_terminal,pickup_facility,transport_events"
    return [w.get(f"/containers/{w.ids['container']}", include=include)]


@recipe("GET", "/containers/{id}/raw_events")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"/containers/{w.ids['container']}/raw_events")]


@recipe("GET", "/containers/{id}/transport_events")
def _(w: World) -> list[httpx.Response]:
    url = f"/containers/{w.ids['container']}/transport_events"
    return [w.get(url, include=EVENT_INCLUDES)]


@recipe("GET", "/containers/{id}/map_geojson", 200, 403, 404)
def _(w: World) -> list[httpx.Response]:
    url = f"/containers/{w.ids['container']}/map_geojson"
    return [w.get(url), w.get(url, w.plain_key), w.get(url, w.other_key)]


@recipe("PATCH", "/containers/{id}/refresh", 200, 429)
def _(w: World) -> list[httpx.Response]:
    url = f"/containers/{w.ids['container']}/refresh"
    answers = [w.send("PATCH", url) for _ in range(11)]  # ten a minute
    w.clock.advance(61)
    return [answers[0], answers[-1]]


# -- reference data ----------------------------------------------------------------------------


@recipe("GET", "/shipping_lines")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/shipping_lines", **{"page[size]": 100})]


@recipe("GET", "/shipping_lines/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"/shipping_lines/{w.ids['shipping_line']}")]


@recipe("GET", "/metro_areas/{id}")
def _(w: World) -> list[httpx.Response]:
    found = w.get("/metro_areas/USLAX")
    return [found, w.get(f"/metro_areas/{found.json()['data']['id']}")]


@recipe("GET", "/ports/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"/ports/{w.ids['port']}"), w.get("/ports/NLRTM")]


@recipe("GET", "/vessels/{id}")
def _(w: World) -> list[httpx.Response]:
    window = {"show_positions[from_timestamp]": "2026-12-13T00:00:00Z"}
    return [w.get(f"/vessels/{w.ids['vessel']}"), w.get(f"/vessels/{w.ids['vessel']}", **window)]


@recipe("GET", "/vessels/{imo}")
def _(w: World) -> list[httpx.Response]:
    imo = w.get(f"/vessels/{w.ids['vessel']}").json()["data"]["attributes"]["imo"]
    return [w.get(f"/vessels/{imo}", **{"show_positions[to_timestamp]": "2026-12-20T00:00:00Z"})]


def _voyage(w: World) -> dict[str, str]:
    shipment = w.get(f"/shipments/{w.ids['shipment']}").json()["data"]["relationships"]
    return {
        "port_id": shipment["port_of_discharge"]["data"]["id"],
        "previous_port_id": shipment["port_of_lading"]["data"]["id"],
    }


@recipe("GET", "/vessels/{id}/future_positions", 200, 403)
def _(w: World) -> list[httpx.Response]:
    url = f"/vessels/{w.ids['vessel']}/future_positions"
    return [w.get(url, **_voyage(w)), w.get(url, w.plain_key, **_voyage(w))]


@recipe("GET", "/vessels/{id}/future_positions_with_coordinates", 200, 403)
def _(w: World) -> list[httpx.Response]:
    url = f"/vessels/{w.ids['vessel']}/future_positions_with_coordinates"
    start = {"latitude": "12.3", "longitude": "60.1"}
    return [w.get(url, **_voyage(w), **start), w.get(url, w.plain_key, **_voyage(w), **start)]


@recipe("GET", "/terminals/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"/terminals/{w.ids['terminal']}")]


# -- parties -----------------------------------------------------------------------------------


@recipe("GET", "/parties")
def _(w: World) -> list[httpx.Response]:
    return [w.get("/parties")]


@recipe("POST", "/parties", 201, 422)
def _(w: World) -> list[httpx.Response]:
    made = w.send("POST", "/parties", document("party", {"company_name": fresh("Party")}))
    return [made, w.send("POST", "/parties", document("party", {"company_name": " "}))]


@recipe("GET", "/parties/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"/parties/{w.ids['party']}")]


@recipe("PATCH", "/parties/{id}", 200, 422)
def _(w: World) -> list[httpx.Response]:
    key = w.made("POST", "/parties", document("party", {"company_name": fresh("Old")}))["id"]
    body = {"data": {"type": "party", "id": key, "attributes": {"company_name": "Renamed"}}}
    blank = {"data": {"type": "party", "id": key, "attributes": {"company_name": ""}}}
    return [w.send("PATCH", f"/parties/{key}", body), w.send("PATCH", f"/parties/{key}", blank)]


# -- custom field definitions and options ------------------------------------------------------

DEFINITIONS = "/custom_field_definitions"


def _definition(w: World) -> str:
    attributes = {
        "entity_type": "Container",
        "api_slug": fresh("tmp").lower().replace("-", "_"),
        "display_name": "Temporary",
        "data_type": "enum_multi",
    }
    return str(w.made("POST", DEFINITIONS, document("custom_field_definition", attributes))["id"])


@recipe("GET", "/custom_field_definitions")
def _(w: World) -> list[httpx.Response]:
    return [w.get(DEFINITIONS), w.get(DEFINITIONS, **{"filter[entity_type]": "Shipment"})]


@recipe("POST", "/custom_field_definitions")
def _(w: World) -> list[httpx.Response]:
    attributes = {
        "entity_type": "Shipment",
        "api_slug": fresh("due").lower().replace("-", "_"),
        "display_name": "Due",
        "data_type": "date",
        "default_value": "2027-01-31",
    }
    return [w.send("POST", DEFINITIONS, document("custom_field_definition", attributes))]


@recipe("GET", "/custom_field_definitions/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"{DEFINITIONS}/{w.ids['definition_container']}")]


@recipe("PATCH", "/custom_field_definitions/{id}")
def _(w: World) -> list[httpx.Response]:
    key = _definition(w)
    changes = {"display_name": "Handling", "description": "How to handle the box"}
    body = {"data": {"type": "custom_field_definition", "id": key, "attributes": changes}}
    return [w.send("PATCH", f"{DEFINITIONS}/{key}", body)]


@recipe("DELETE", "/custom_field_definitions/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.send("DELETE", f"{DEFINITIONS}/{_definition(w)}")]


def _options(w: World) -> str:
    return f"{DEFINITIONS}/{w.ids['definition_container']}/options"


@recipe("GET", "/custom_field_definitions/{definition_id}/options")
def _(w: World) -> list[httpx.Response]:
    return [w.get(_options(w))]


@recipe("POST", "/custom_field_definitions/{definition_id}/options")
def _(w: World) -> list[httpx.Response]:
    option = {"label": "Urgent", "value": fresh("urgent").lower(), "position": None}
    return [w.send("POST", _options(w), document("custom_field_option", option))]


@recipe("GET", "/custom_field_definitions/{definition_id}/options/{option_id}")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"{_options(w)}/{w.ids['option_high']}")]


@recipe("PATCH", "/custom_field_definitions/{definition_id}/options/{option_id}")
def _(w: World) -> list[httpx.Response]:
    key = w.ids["option_low"]
    body = {"data": {"type": "custom_field_option", "id": key, "attributes": {"position": 3}}}
    return [w.send("PATCH", f"{_options(w)}/{key}", body)]


@recipe("DELETE", "/custom_field_definitions/{definition_id}/options/{option_id}")
def _(w: World) -> list[httpx.Response]:
    option = {"label": "Gone", "value": fresh("gone").lower()}
    key = w.made("POST", _options(w), document("custom_field_option", option))["id"]
    return [w.send("DELETE", f"{_options(w)}/{key}")]


# -- custom field values -----------------------------------------------------------------------


def _on(kind: str, key: str, slug: str, value: object) -> dict[str, object]:
    body = _field(slug, value)
    body["data"]["relationships"] = {"entity": {"data": {"type": kind, "id": key}}}  # type: ignore[index]
    return body


@recipe("GET", "/custom_fields")
def _(w: World) -> list[httpx.Response]:
    return [
        w.get("/custom_fields"),
        w.get("/custom_fields", **{"filter[entity_type]": "Container"}),
    ]


@recipe("POST", "/custom_fields")
def _(w: World) -> list[httpx.Response]:
    return [
        w.send("POST", "/custom_fields", _on("container", w.ids["container_2"], "priority", "low"))
    ]


@recipe("GET", "/custom_fields/{id}")
def _(w: World) -> list[httpx.Response]:
    return [w.get(f"/custom_fields/{w.ids['custom_field']}")]


@recipe("PATCH", "/custom_fields/{id}")
def _(w: World) -> list[httpx.Response]:
    key = w.ids["custom_field"]
    body = {"data": {"type": "custom_field", "id": key, "attributes": {"value": "PO-78"}}}
    return [w.send("PATCH", f"/custom_fields/{key}", body)]


@recipe("DELETE", "/custom_fields/{id}")
def _(w: World) -> list[httpx.Response]:
    made = w.made("POST", "/custom_fields", _on("shipment", w.ids["shipment_2"], "po_number", "X"))
    return [w.send("DELETE", f"/custom_fields/{made['id']}")]


def _object_fields(kind: str, collection: str, key: str, slug: str, value: object) -> None:
    """Register the four recipes of one kind of object's custom fields."""
    base = f"/{collection}/{{{kind}_id}}/custom_fields"

    @recipe("GET", base)
    def _(w: World) -> list[httpx.Response]:
        return [w.get(f"/{collection}/{w.ids[key]}/custom_fields")]

    @recipe("POST", base)
    def _(w: World) -> list[httpx.Response]:
        return [w.send("POST", f"/{collection}/{w.ids[key]}/custom_fields", _field(slug, value))]

    @recipe("PATCH", base + "/{api_slug}")
    def _(w: World) -> list[httpx.Response]:
        given, changed = ("po_number", "PO-79") if kind == "shipment" else ("priority", "low")
        url = f"/{collection}/{w.ids[key]}/custom_fields/{given}"
        return [w.send("PATCH", url, document("custom_field", {"value": changed}))]

    @recipe("DELETE", base + "/{api_slug}")
    def _(w: World) -> list[httpx.Response]:
        url = f"/{collection}/{w.ids[key + '_2']}/custom_fields"
        w.made("POST", url, _field(slug, value))
        return [w.send("DELETE", f"{url}/{slug}")]


_object_fields("shipment", "shipments", "shipment", "carrier_ref", "CR-1")
_object_fields("container", "containers", "container", "door", "Door 4")


# -- search ------------------------------------------------------------------------------------


@recipe("GET", "/search", 200, 200, 400)
def _(w: World) -> list[httpx.Response]:
    return [
        w.get("/search", query="REF-"),
        w.get("/search", query="csqu 305438-3"),
        w.get("/search"),
    ]

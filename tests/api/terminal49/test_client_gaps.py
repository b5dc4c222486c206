"""Issue 30: what Terminal49's clients send and read that sealane did not yet answer as the
document has it. Each answer is checked against the document's schema for its operation and
status, then for what it does: a webhook without ``events``, a request's ``shipment_tags``,
notification documents that include only what the document allows, the end of a time filter,
``search`` of the shipping lines, ``include=shipment`` of a tracking request, and a port's
``city`` and ``state_abbr``."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from sealane.vocabulary.events import EVENT_NAMES
from tests.api.jsonapi_asserts import assert_error

from . import document as t49
from .test_conformance import conformance_problems
from .world import World, document, fresh

#: What the document's notification documents may include (its own list, without the interface
#: document's additions that ``document.INTERFACE_OVERRIDES`` holds for the conformance tests).
NOTIFICATION_INCLUDED = {
    "webhook",
    "tracking_request",
    "transport_event",
    "estimated_event",
    "container_updated_event",
}


def conforming(method: str, path: str, response: httpx.Response, status: int = 200) -> Any:
    """The body of ``response``, after checking its status and the document's schema."""
    assert response.status_code == status, response.text[:500]
    assert conformance_problems(method, path, response) == []
    return response.json()


def as_documented(method: str, path: str, body: Any) -> list[str]:
    """How ``body`` departs from the document's own 200 schema (no interface overrides)."""
    responses = t49.operation(method, path)["responses"]
    own = copy.deepcopy(responses["200"]["content"]["application/json"]["schema"])
    components = t49.response_schema(method, path, 200)
    assert components is not None
    schema = {**t49.to_json_schema(own), "components": components["components"]}
    return t49.problems(schema, body)


def new_request(w: World, **attributes: Any) -> httpx.Response:
    given = {"request_type": "bill_of_lading", "request_number": fresh("TEST"), "scac": "TEST"}
    body = document("tracking_request", {**given, **attributes})
    return w.send("POST", "/tracking_requests", body)


# -- 1. a webhook without events ---------------------------------------------------------------


def test_webhook_without_events__subscribed_to_every_event(world: World) -> None:
    attributes = {"url": "http://127.0.0.1:9/everything", "active": True}
    made = world.send("POST", "/webhooks", document("webhook", attributes))
    data = conforming("POST", "/webhooks", made, 201)["data"]
    assert data["attributes"]["events"] == list(EVENT_NAMES)
    read = conforming("GET", "/webhooks/{id}", world.get(f"/webhooks/{data['id']}"))
    assert read["data"]["attributes"]["events"] == list(EVENT_NAMES)
    try:
        assert new_request(world).status_code == 201
        world.tick()  # the request is looked up: its outcome is notified
        # The pass also looks up what the world's earlier tests left due, so this webhook (it
        # takes every event) may be notified of more than a page of events at one instant of
        # the test clock, listed in an order their ids decide: read every page.
        events: set[str] = set()
        for number in range(1, 100):
            query = {"filter[webhook]": data["id"], "page[size]": "100", "page[number]": number}
            page = world.get("/webhook_notifications", **query).json()
            events |= {n["attributes"]["event"] for n in page["data"]}
            if not page["links"].get("next"):
                break
        assert events & {"tracking_request.succeeded", "tracking_request.failed"}
    finally:
        world.send("DELETE", f"/webhooks/{data['id']}")


def test_webhook_with_only_a_url__active(world: World) -> None:
    made = world.send("POST", "/webhooks", document("webhook", {"url": "http://127.0.0.1:9/u"}))
    data = conforming("POST", "/webhooks", made, 201)["data"]
    assert data["attributes"]["active"] is True
    world.send("DELETE", f"/webhooks/{data['id']}")


@pytest.mark.parametrize("events", [[], None])
def test_webhook_with_no_events_on_purpose__422(world: World, events: Any) -> None:
    attributes = {"url": "http://127.0.0.1:9/none", "active": True, "events": events}
    refused = world.send("POST", "/webhooks", document("webhook", attributes))
    error = assert_error(refused, 422)
    assert error["source"] == {"pointer": "/data/attributes/events"}
    assert conformance_problems("POST", "/webhooks", refused) == []


# -- 2. shipment_tags of a tracking request ------------------------------------------------------


def test_request_shipment_tags__stored_echoed_and_given_to_the_shipment(world: World) -> None:
    made = new_request(world, shipment_tags=["camembert", "vip", "camembert"])
    created = conforming("POST", "/tracking_requests", made, 201)["data"]
    assert created["attributes"]["shipment_tags"] == ["camembert", "vip"]
    url = f"/tracking_requests/{created['id']}"
    read = conforming("GET", "/tracking_requests/{id}", world.get(url))["data"]
    assert read["attributes"]["shipment_tags"] == ["camembert", "vip"]
    found = world.get(f"/tracking_requests/{world.ids['request']}").json()["data"]
    assert found["attributes"]["shipment_tags"] == ["vip"]
    shipment = world.get(f"/shipments/{world.ids['shipment']}").json()["data"]
    assert "vip" in shipment["attributes"]["tags"]


def test_request_without_shipment_tags__an_empty_list(world: World) -> None:
    created = conforming("POST", "/tracking_requests", new_request(world), 201)["data"]
    assert created["attributes"]["shipment_tags"] == []


# -- 3. what a notification document includes ---------------------------------------------------


def _first_of_each_reference_type(w: World) -> list[dict[str, Any]]:
    listed = w.get("/webhook_notifications", **{"page[size]": 100}).json()["data"]
    kinds: dict[str, dict[str, Any]] = {}
    for notification in listed:
        kind = notification["relationships"]["reference_object"]["data"]["type"]
        kinds.setdefault(kind, notification)
    return list(kinds.values())


def test_notification__includes_only_what_the_document_allows(world: World) -> None:
    notifications = _first_of_each_reference_type(world)
    assert {"transport_event", "tracking_request"} <= {
        n["relationships"]["reference_object"]["data"]["type"] for n in notifications
    }
    for notification in notifications:
        url = f"/webhook_notifications/{notification['id']}"
        response = world.get(url, include="webhook,reference_object")
        body = conforming("GET", "/webhook_notifications/{id}", response)
        assert as_documented("GET", "/webhook_notifications/{id}", body) == []
        included = {(i["type"], i["id"]) for i in body["included"]}
        reference = notification["relationships"]["reference_object"]["data"]
        webhook = notification["relationships"]["webhook"]["data"]
        assert included == {
            (reference["type"], reference["id"]),
            (webhook["type"], webhook["id"]),
        }


def test_notification_list__includes_only_what_the_document_allows(world: World) -> None:
    response = world.get(
        "/webhook_notifications", include="webhook,reference_object", **{"page[size]": 100}
    )
    body = conforming("GET", "/webhook_notifications", response)
    assert {i["type"] for i in body["included"]} <= NOTIFICATION_INCLUDED


# -- 4. the ends of the time filters of tracking requests ---------------------------------------


def _stamp(moment: datetime, offset: timedelta) -> str:
    shown = moment.astimezone(timezone(offset)).isoformat()
    return shown.replace("+00:00", "Z") if not offset else shown


@pytest.fixture(scope="module")
def stamped(world: World) -> dict[str, str]:
    """A request made a quarter of a second into a second (so stored with a fraction of one)."""
    world.clock.advance(0.25)
    data = conforming("POST", "/tracking_requests", new_request(world), 201)["data"]
    assert world.clock.now().microsecond
    return {"id": data["id"], "number": data["attributes"]["request_number"]}


OFFSETS = [timedelta(0), timedelta(hours=5, minutes=30), timedelta(hours=-3)]
SECOND = timedelta(seconds=1)


@pytest.mark.parametrize("field", ["created_at", "updated_at"])
@pytest.mark.parametrize("offset", OFFSETS, ids=["Z", "+05:30", "-03:00"])
@pytest.mark.parametrize(
    ("end", "shift", "listed"),
    [
        ("end", timedelta(0), True),
        ("end", -SECOND, False),
        ("end", SECOND, True),
        ("start", timedelta(0), True),
        ("start", SECOND, False),
        ("start", -SECOND, True),
    ],
    ids=["end-at", "end-before", "end-after", "start-at", "start-after", "start-before"],
)
def test_time_filter__both_ends_at_the_second_shown(
    world: World,
    stamped: dict[str, str],
    field: str,
    offset: timedelta,
    end: str,
    shift: timedelta,
    listed: bool,
) -> None:
    """A request shown as made at second S is made at or before S and at or after S."""
    read = world.get(f"/tracking_requests/{stamped['id']}").json()["data"]["attributes"]
    shown = datetime.fromisoformat(read[field])
    bound = _stamp(shown + shift, offset)
    params = {f"filter[{field}][{end}]": bound, "filter[request_number]": stamped["number"]}
    body = conforming("GET", "/tracking_requests", world.get("/tracking_requests", **params))
    assert [r["id"] for r in body["data"]] == ([stamped["id"]] if listed else [])


def test_time_filter__end_now_lists_every_request(world: World, stamped: dict[str, str]) -> None:
    every = world.get("/tracking_requests", **{"page[size]": 1}).json()["meta"]["total"]
    now = _stamp(world.clock.now().replace(microsecond=0), timedelta(hours=2))
    for field in ("created_at", "updated_at"):
        response = world.get("/tracking_requests", **{f"filter[{field}][end]": now})
        assert conforming("GET", "/tracking_requests", response)["meta"]["total"] == every


# -- 5. search of the shipping lines --------------------------------------------------------------


def _lines(w: World, **params: Any) -> list[dict[str, Any]]:
    response = w.get("/shipping_lines", **{"page[size]": 100}, **params)
    return list(conforming("GET", "/shipping_lines", response)["data"])


@pytest.mark.parametrize("term", ["TEST", "test", "es"])
def test_shipping_lines_search__scac_name_or_short_name(world: World, term: str) -> None:
    found = _lines(world, search=term)
    assert "TEST" in {line["attributes"]["scac"] for line in found}
    for line in found:
        attributes = line["attributes"]
        texts = (attributes["scac"], attributes["name"], attributes["short_name"] or "")
        assert any(term.lower() in text.lower() for text in texts), attributes


def test_shipping_lines_search__by_name(world: World) -> None:
    every = _lines(world)
    named = next(line for line in every if line["attributes"]["scac"] == "MAEU")
    word = named["attributes"]["name"].split()[0]
    assert "MAEU" in {line["attributes"]["scac"] for line in _lines(world, search=word)}
    assert len(_lines(world, search=word)) < len(every)


def test_shipping_lines_search__nothing_matches(world: World) -> None:
    assert _lines(world, search="no such carrier anywhere") == []


def test_shipping_lines_search__with_filter_search_both_apply(world: World) -> None:
    assert [line["attributes"]["scac"] for line in _lines(world, search="TEST")] != []
    assert _lines(world, search="TEST", **{"filter[search]": "no such carrier"}) == []


# -- 6. include=shipment of a tracking request --------------------------------------------------


def test_request_include_shipment__the_tracked_shipment(world: World) -> None:
    url = f"/tracking_requests/{world.ids['request']}"
    body = conforming("GET", "/tracking_requests/{id}", world.get(url, include="shipment"))
    tracked = body["data"]["relationships"]["tracked_object"]["data"]
    assert tracked == {"type": "shipment", "id": world.ids["shipment"]}
    assert [(i["type"], i["id"]) for i in body["included"]] == [("shipment", tracked["id"])]


def test_request_include_shipment__none_before_one_is_found(world: World) -> None:
    url = f"/tracking_requests/{world.ids['TEST-TR-FAILED']}"
    body = conforming("GET", "/tracking_requests/{id}", world.get(url, include="shipment"))
    assert body["data"]["relationships"]["tracked_object"]["data"] is None
    assert "included" not in body


def test_request_list_include_shipment(world: World) -> None:
    response = world.get("/tracking_requests", include="shipment", **{"page[size]": 100})
    body = conforming("GET", "/tracking_requests", response)
    included = {(i["type"], i["id"]) for i in body["included"]}
    assert ("shipment", world.ids["shipment"]) in included


def test_request_include_something_else__400(world: World) -> None:
    url = f"/tracking_requests/{world.ids['request']}"
    assert_error(world.get(url, include="shipments"), 400, parameter="include")


# -- 8. a port's city and state -----------------------------------------------------------------


def test_port__city_and_state_abbr(world: World) -> None:
    body = conforming("GET", "/ports/{id}", world.get(f"/ports/{world.ids['port']}"))
    attributes = body["data"]["attributes"]
    assert {"city", "state_abbr"} <= set(attributes)
    assert attributes["city"] is None or isinstance(attributes["city"], str)
    assert attributes["state_abbr"] is None or isinstance(attributes["state_abbr"], str)


def test_port__city_and_state_abbr_where_included(world: World) -> None:
    url = f"/shipments/{world.ids['shipment']}"
    body = conforming("GET", "/shipments/{id}", world.get(url, include="port_of_discharge"))
    [port] = [i for i in body["included"] if i["type"] == "port"]
    assert {"city", "state_abbr"} <= set(port["attributes"])

"""Every query parameter Terminal49's document declares is applied by sealane or refused with 400
and ``source.parameter``; none is silently ignored, and a parameter no document declares is 400.

The test walks the document: each (operation, parameter) must have a proof below, which shows
the parameter changes the answer (a filter that matches nothing empties a list, a page of one
holds one item, an include adds what it names) and that a malformed value is a 400 naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.api.jsonapi_asserts import assert_error

from . import document as t49
from .world import World

Url = Callable[[World], str]
#: Where each operation with query parameters is called (paths under /v2).
URLS: dict[tuple[str, str], Url] = {
    ("GET", "/shipments"): lambda w: "/shipments",
    ("GET", "/shipments/{id}"): lambda w: f"/shipments/{w.ids['shipment']}",
    ("GET", "/tracking_requests"): lambda w: "/tracking_requests",
    ("GET", "/tracking_requests/{id}"): lambda w: f"/tracking_requests/{w.ids['request']}",
    ("GET", "/webhooks"): lambda w: "/webhooks",
    ("GET", "/webhook_notifications/{id}"): (
        lambda w: f"/webhook_notifications/{w.ids['notification']}"
    ),
    ("GET", "/webhook_notifications"): lambda w: "/webhook_notifications",
    ("GET", "/webhook_notifications/examples"): lambda w: "/webhook_notifications/examples",
    ("GET", "/containers"): lambda w: "/containers",
    ("GET", "/containers/{id}"): lambda w: f"/containers/{w.ids['container']}",
    ("GET", "/containers/{id}/transport_events"): (
        lambda w: f"/containers/{w.ids['container']}/transport_events"
    ),
    ("GET", "/vessels/{id}"): lambda w: f"/vessels/{w.ids['vessel']}",
    ("GET", "/vessels/{imo}"): lambda w: f"/vessels/{_imo(w)}",
    ("GET", "/vessels/{id}/future_positions"): (
        lambda w: f"/vessels/{w.ids['vessel']}/future_positions"
    ),
    ("GET", "/vessels/{id}/future_positions_with_coordinates"): (
        lambda w: f"/vessels/{w.ids['vessel']}/future_positions_with_coordinates"
    ),
    ("GET", "/parties"): lambda w: "/parties",
    ("GET", "/custom_field_definitions"): lambda w: "/custom_field_definitions",
    ("GET", "/custom_fields"): lambda w: "/custom_fields",
    ("GET", "/search"): lambda w: "/search",
}


def _imo(w: World) -> str:
    return str(w.get(f"/vessels/{w.ids['vessel']}").json()["data"]["attributes"]["imo"])


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text[:500]
    return response.json()


# -- what each operation needs to answer at all (the required parameters) ------------------------


def _voyage(w: World) -> dict[str, str]:
    relationships = w.get(f"/shipments/{w.ids['shipment']}").json()["data"]["relationships"]
    return {
        "port_id": relationships["port_of_discharge"]["data"]["id"],
        "previous_port_id": relationships["port_of_lading"]["data"]["id"],
    }


BASE: dict[tuple[str, str], Callable[[World], dict[str, str]]] = {
    ("GET", "/vessels/{id}/future_positions"): _voyage,
    ("GET", "/vessels/{id}/future_positions_with_coordinates"): lambda w: {
        **_voyage(w),
        "latitude": "12.3",
        "longitude": "60.1",
    },
    ("GET", "/search"): lambda w: {"query": "TEST"},
}


# -- proofs: the parameter changes the answer ----------------------------------------------------

#: Shows a parameter is applied: (world, url, required parameters, (method, path)).
Proof = Callable[[World, str, dict[str, str], tuple[str, str]], None]
NOTHING = "zz-matches-nothing-zz"


def _page_size(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    whole = ok(w.get(url, **base))
    assert whole["meta"]["total"] >= 2, "two items at least, to see a page of one"
    assert len(ok(w.get(url, **base, **{"page[size]": "1"}))["data"]) == 1


def _page_number(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    first = ok(w.get(url, **base, **{"page[size]": "1", "page[number]": "1"}))["data"]
    second = ok(w.get(url, **base, **{"page[size]": "1", "page[number]": "2"}))["data"]
    assert first and second and first[0]["id"] != second[0]["id"]


def _include(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    """The first include the document lists adds resources (the full walk is in
    ``test_includes.py``)."""
    assert "included" not in ok(w.get(url, **base, include=""))
    names = documented_includes(*_op)
    assert names, _op
    body = ok(w.get(url, **base, include=",".join(names)))
    assert body.get("included"), body


def _status(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    every = ok(w.get(url, **base, **{"page[size]": "100"}))["data"]
    failed = ok(w.get(url, **base, **{"filter[status]": "failed"}))["data"]
    assert {item["attributes"]["status"] for item in failed} == {"failed"}
    assert len(failed) < len(every)


def _scac(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    assert ok(w.get(url, **base, **{"filter[scac]": "TEST"}))["data"]
    assert ok(w.get(url, **base, **{"filter[scac]": "MAEU"}))["data"] == []


def _time(name: str, empty_at: str) -> Proof:
    def prove(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
        assert ok(w.get(url, **base))["data"]
        assert ok(w.get(url, **base, **{name: empty_at}))["data"] == []

    return prove


def _stopped(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    every = ok(w.get(url, **base))["data"]
    assert all(s["attributes"]["line_tracking_stopped_at"] is None for s in every)
    assert ok(w.get(url, **base, **{"filter[tracking_stopped]": "false"}))["data"] == every
    assert ok(w.get(url, **base, **{"filter[tracking_stopped]": "true"}))["data"] == []


def _event(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    assert len(ok(w.get(url, **base))["data"]) > 1
    [only] = ok(w.get(url, **base, event="container.created"))["data"]
    assert only["attributes"]["event"] == "container.created"


def _positions(name: str, value: str) -> Proof:
    def prove(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
        assert "positions" not in ok(w.get(url, **base))["data"]["attributes"]
        positions = ok(w.get(url, **base, **{name: value}))["data"]["attributes"]["positions"]
        assert positions, "the vessel sailed in that window"

    return prove


def _changes(name: str, other: str, where: Callable[[Any], Any]) -> Proof:
    """Another valid value of a required parameter gives another answer."""

    def prove(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
        first = where(ok(w.get(url, **base)))
        second = where(ok(w.get(url, **{**base, name: other})))
        assert first != second

    return prove


def _looked_up(name: str) -> Proof:
    """An unknown port is refused naming the parameter (422): the value is read. (Which leg
    the previous port picks shows only when the start lies on that leg.)"""

    def prove(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
        ok(w.get(url, **base))
        error = assert_error(w.get(url, **{**base, name: "XXZZZ"}), 422)
        assert error["source"] == {"parameter": name}

    return prove


def _last_position(body: Any) -> Any:
    return body["data"]["attributes"]["positions"][-1]


def _first_position(body: Any) -> Any:
    return body["data"]["attributes"]["positions"][0]


def _only(name: str, value: str, attribute: str, expected: str) -> Proof:
    """Every item has ``attribute`` == ``expected`` with the filter, and some had not without."""

    def prove(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
        every = ok(w.get(url, **base, **{"page[size]": "100"}))["data"]
        some = ok(w.get(url, **base, **{name: value, "page[size]": "100"}))["data"]
        assert some and {item["attributes"][attribute] for item in some} == {expected}
        assert len(some) < len(every)

    return prove


def _entity_type(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    every = ok(w.get(url, **base, **{"page[size]": "100"}))["data"]
    some = ok(w.get(url, **base, **{"filter[entity_type]": "Container", "page[size]": "100"}))
    kinds = {item["relationships"]["entity"]["data"]["type"] for item in some["data"]}
    assert kinds == {"container"} and len(some["data"]) < len(every)


def _matching(name: str, value: Callable[[World], str]) -> Proof:
    """A value naming one object keeps the items about it, and drops the others."""

    def prove(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
        every = ok(w.get(url, **base, **{"page[size]": "100"}))["data"]
        some = ok(w.get(url, **base, **{name: value(w), "page[size]": "100"}))["data"]
        assert some and len(some) < len(every)
        assert ok(w.get(url, **base, **{name: NOTHING}))["data"] == []

    return prove


def _query(w: World, url: str, base: dict[str, str], _op: tuple[str, str]) -> None:
    found = ok(w.get(url, query="CSQU3054383"))["data"]
    assert found and found[0]["attributes"]["number"] == "CSQU3054383"
    assert ok(w.get(url, query=NOTHING))["data"] == []


#: (proof, malformed value or None when every text is valid but NUL) per parameter name;
#: operation-specific entries win over the name's.
PROOFS: dict[str, tuple[Proof, str | None]] = {
    "page[number]": (_page_number, "0"),
    "page[size]": (_page_size, "1000"),
    "include": (_include, "no_such_relation"),
    "q": (_matching("q", lambda w: "REF-A"), None),
    "number": (_matching("number", lambda w: "TEST-TR-SUCCEEDED"), None),
    "filter[tracking_stopped]": (_stopped, "maybe"),
    "filter[request_number]": (
        _matching("filter[request_number]", lambda w: "TEST-TR-FAILED"),
        None,
    ),
    "filter[status]": (_status, "lost"),
    "filter[scac]": (_scac, None),
    "filter[created_at][start]": (
        _time("filter[created_at][start]", "2099-01-01T00:00:00Z"),
        "soon",
    ),
    "filter[created_at][end]": (_time("filter[created_at][end]", "2000-01-01T00:00:00Z"), "soon"),
    "filter[updated_at][start]": (
        _time("filter[updated_at][start]", "2099-01-01T00:00:00Z"),
        "soon",
    ),
    "filter[updated_at][end]": (_time("filter[updated_at][end]", "2000-01-01T00:00:00Z"), "soon"),
    "event": (_event, "no.such.event"),
    "show_positions[from_timestamp]": (
        _positions("show_positions[from_timestamp]", "2026-12-13T00:00:00Z"),
        "yesterday",
    ),
    "show_positions[to_timestamp]": (
        _positions("show_positions[to_timestamp]", "2026-12-20T00:00:00Z"),
        "tomorrow",
    ),
    # A blank port is a port not given (taken from the vessel's voyage): malformed is a NUL.
    "port_id": (_changes("port_id", "NLRTM", _last_position), None),
    "previous_port_id": (_looked_up("previous_port_id"), None),
    "latitude": (_changes("latitude", "13.1", _first_position), "north"),
    "longitude": (_changes("longitude", "61.5", _first_position), "east"),
    "filter[entity_type]": (
        _only("filter[entity_type]", "Container", "entity_type", "Container"),
        "Vessel",
    ),
    "filter[data_type]": (_only("filter[data_type]", "enum", "data_type", "enum"), "xml"),
    "filter[display_name]": (
        _only("filter[display_name]", "prio", "display_name", "Priority"),
        None,
    ),
    "filter[entity_id]": (_matching("filter[entity_id]", lambda w: w.ids["shipment"]), None),
    "filter[definition_id]": (
        _matching("filter[definition_id]", lambda w: w.ids["definition_container"]),
        None,
    ),
    "query": (_query, None),
}
#: Where the same name means another thing.
OPERATION_PROOFS: dict[tuple[str, str, str], tuple[Proof, str | None]] = {
    ("GET", "/custom_fields", "filter[entity_type]"): (_entity_type, "Vessel"),
}


def documented_includes(method: str, path: str) -> list[str]:
    """The relationships of an operation's resource whose types its ``included`` lists."""
    schema = t49.operation(method, path)["responses"]["200"]["content"]["application/json"]
    properties = schema["schema"]["properties"]
    data = properties["data"]
    resource = data.get("items", data) if data.get("type") == "array" else data
    included = properties.get("included", {}).get("items", {})
    allowed = {_type_of(member) for member in included.get("anyOf", [included])} - {None}
    names = []
    for name, relationship in (
        _schema(resource)
        .get("properties", {})
        .get("relationships", {})
        .get("properties", {})
        .items()
    ):
        target = relationship.get("properties", {}).get("data", {})
        target = target.get("items", target)
        types = set(target.get("properties", {}).get("type", {}).get("enum", [name]))
        if types & allowed:
            names.append(name)
    return names


def _schema(node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref is None:
        return node
    found: dict[str, Any] = t49.corrected()["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    return found


def _type_of(member: dict[str, Any]) -> str | None:
    enum = _schema(member).get("properties", {}).get("type", {}).get("enum")
    return enum[0] if enum else None


def declared() -> list[tuple[str, str, str]]:
    """Every (method, path, parameter) of the document's shared operations."""
    return [
        (method, path, parameter["name"])
        for method, path in t49.operations()
        for parameter in t49.query_parameters(method, path)
    ]


def proof_of(method: str, path: str, name: str) -> tuple[Proof, str | None]:
    return OPERATION_PROOFS.get((method, path, name)) or PROOFS[name]


@pytest.mark.parametrize(
    ("method", "path", "name"), declared(), ids=[" ".join(d) for d in declared()]
)
def test_parameter__applied(world: World, method: str, path: str, name: str) -> None:
    proof, _ = proof_of(method, path, name)
    url = URLS[method, path](world)
    proof(world, url, BASE.get((method, path), lambda w: {})(world), (method, path))


@pytest.mark.parametrize(
    ("method", "path", "name"), declared(), ids=[" ".join(d) for d in declared()]
)
def test_parameter__malformed_is_400_naming_it(
    world: World, method: str, path: str, name: str
) -> None:
    _, malformed = proof_of(method, path, name)
    url = URLS[method, path](world)
    base = BASE.get((method, path), lambda w: {})(world)
    response = world.get(url, **{**base, name: malformed if malformed is not None else "a\x00b"})
    assert_error(response, 400, parameter=name)


@pytest.mark.parametrize(
    ("method", "path"),
    t49.operations(),
    ids=[f"{m} {p}" for m, p in t49.operations()],
)
def test_undeclared_parameter__400_naming_it(world: World, method: str, path: str) -> None:
    """``?zz_unknown=1`` on any shared operation, reads and writes alike."""
    url = _any_url(world, t49.sealane_path(method, path))
    if method == "GET":
        response = world.get(url, zz_unknown="1")
    else:
        response = world.send(method, f"{url}?zz_unknown=1", {"data": {}})
    assert_error(response, 400, code="unknown_parameter", parameter="zz_unknown")


def _any_url(w: World, path: str) -> str:
    """``path`` with placeholders (existing objects, where the route needs one)."""
    url = path
    for placeholder, key in (
        ("{definition_id}", "definition_container"),
        ("{option_id}", "option_high"),
        ("{tracking_request_id}", "request"),
        ("{shipment_id}", "shipment"),
        ("{container_id}", "container"),
        ("{api_slug}", "po_number"),
    ):
        url = url.replace(placeholder, w.ids.get(key, key))
    return url.replace("{id}", "some-id").replace("{imo}", "9400001")


def test_every_declared_parameter_has_a_proof() -> None:
    t49.require_document()
    missing = [d for d in declared() if d[2] not in PROOFS and d not in OPERATION_PROOFS]
    assert missing == []
    assert {(m, p) for m, p, _ in declared()} <= set(URLS)

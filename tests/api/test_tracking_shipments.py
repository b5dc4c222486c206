"""Shipments and containers through the HTTP API: reference numbers, filters, include, tracking."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane import get_port
from sealane.clock import ManualClock
from sealane.routing.ports import port_id
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from tests.store.conftest import BACKENDS, schema_url
from tests.toolkit import START, Keys, auth, make_app
from tests.tracking.support import (
    CONTAINER,
    DAY,
    HOUR,
    create_request,
    get_json,
    patch_json,
    tick,
    write_headers,
)

from .jsonapi_asserts import assert_error


def ids(body: dict[str, Any]) -> set[str]:
    return {item["id"] for item in body["data"]}


def included(body: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(item["type"], item["id"]): item for item in body.get("included", [])}


def related(resource: dict[str, Any], name: str) -> list[str]:
    data = resource["relationships"][name]["data"]
    if data is None:
        return []
    return [item["id"] for item in data] if isinstance(data, list) else [data["id"]]


# -- a module's fleet: four shipments found at START, two edited a day later ----------------------


@dataclass(frozen=True)
class Fleet:
    client: TestClient
    key: str
    #: request number -> shipment resource (as first found)
    shipments: dict[str, dict[str, Any]]
    #: every container resource by id (as first found)
    containers: dict[str, dict[str, Any]]
    #: ids of the shipment and the container whose ref_numbers were edited a day later
    edited_shipment: str
    edited_container: str


@pytest.fixture(scope="module", params=BACKENDS)
def fleet_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The fleet's database: a SQLite file, or a schema on the test PostgreSQL server (the
    filters compare text and JSON arrays, which the two databases do differently)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('fleet') / 'sealane.db'}"
        return
    server = request.getfixturevalue("postgres_url")
    with schema_url(server, request.getfixturevalue("postgres_admin")) as url:
        yield url


@pytest.fixture(scope="module")
def fleet(fleet_database: str) -> Iterator[Fleet]:
    clock = ManualClock(START)
    app = make_app(fleet_database, clock=clock, rate_limit_per_minute=100_000)
    with transaction(app.state.sealane.sessions) as session:
        key = create_account(session, "Fleet Co", routing=False, now=START).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        create_request(client, key, CONTAINER, request_type="container", ref_numbers=["PO-200"])
        for number, refs in (("BL0001", ["PO-100"]), ("BL0007", []), ("BL0008", ["PO-800"])):
            create_request(client, key, number, ref_numbers=refs)
        tick(app)
        requests = get_json(client, key, "/v2/tracking_requests", include="tracked_object")
        by_id = {s["id"]: s for s in requests["included"]}
        shipments = {
            r["attributes"]["request_number"]: by_id[related(r, "tracked_object")[0]]
            for r in requests["data"]
        }
        containers = {
            c["id"]: c
            for c in get_json(client, key, "/v2/containers", **{"page[size]": "100"})["data"]
        }
        clock.advance(DAY)
        edited_shipment = shipments["BL0007"]["id"]
        body = {"data": {"type": "shipment", "attributes": {"ref_numbers": ["S-7"]}}}
        patch_json(client, key, f"/v2/shipments/{edited_shipment}", body)
        edited_container = related(shipments["BL0001"], "containers")[-1]
        body = {"data": {"type": "container", "attributes": {"ref_numbers": ["PO-100", "C-1"]}}}
        patch_json(client, key, f"/v2/containers/{edited_container}", body)
        yield Fleet(client, key, shipments, containers, edited_shipment, edited_container)
    app.state.sealane.engine.dispose()


def shipment_ids(fleet: Fleet, **params: Any) -> set[str]:
    return ids(get_json(fleet.client, fleet.key, "/v2/shipments", **params))


def container_ids(fleet: Fleet, **params: Any) -> set[str]:
    params.setdefault("page[size]", "100")
    return ids(get_json(fleet.client, fleet.key, "/v2/containers", **params))


def containers_of(fleet: Fleet, number: str) -> set[str]:
    return set(related(fleet.shipments[number], "containers"))


def test_fleet__shipments_and_containers_exist(fleet: Fleet) -> None:
    assert len(fleet.shipments) == 4
    assert len(fleet.containers) == sum(len(containers_of(fleet, n)) for n in fleet.shipments)
    assert len(containers_of(fleet, "BL0001")) == 3
    numbers = {c["attributes"]["number"] for c in fleet.containers.values()}
    assert CONTAINER in numbers
    for shipment in fleet.shipments.values():
        assert shipment["attributes"]["shipping_line_scac"] == "TEST"
        attributes = shipment["attributes"]
        # once arrived, the estimate is the actual arrival (also when found after arrival)
        if attributes["pod_ata_at"] is not None:
            assert attributes["pod_eta_at"] == attributes["pod_ata_at"]


def test_fleet__reference_numbers_propagate(fleet: Fleet) -> None:
    for number, refs in (
        ("BL0001", ["PO-100"]),
        ("BL0008", ["PO-800"]),
        (CONTAINER, ["PO-200"]),
        ("BL0007", []),
    ):
        assert fleet.shipments[number]["attributes"]["ref_numbers"] == refs
        for container_id in containers_of(fleet, number):
            assert fleet.containers[container_id]["attributes"]["ref_numbers"] == refs


# -- filters ---------------------------------------------------------------------------------------


def statuses(fleet: Fleet) -> dict[str, str]:
    return {i: c["attributes"]["current_status"] for i, c in fleet.containers.items()}


def test_list_containers__filter_status(fleet: Fleet) -> None:
    found = statuses(fleet)
    assert {"on_ship", "picked_up"} <= set(found.values())
    for status in set(found.values()):
        expected = {i for i, s in found.items() if s == status}
        assert container_ids(fleet, **{"filter[status]": status}) == expected


def test_list_containers__filter_status_none_matching(fleet: Fleet) -> None:
    assert container_ids(fleet, **{"filter[status]": "on_rail"}) == set()


def test_list_shipments__filter_status(fleet: Fleet) -> None:
    found = statuses(fleet)
    for status in set(found.values()):
        expected = {
            s["id"]
            for s in fleet.shipments.values()
            if any(found[c] == status for c in related(s, "containers"))
        }
        assert shipment_ids(fleet, **{"filter[status]": status}) == expected


@pytest.mark.parametrize("url", ["/v2/shipments", "/v2/containers"])
@pytest.mark.parametrize("status", ["bogus", "ON_SHIP", "created"])
def test_list__filter_status_unknown(fleet: Fleet, url: str, status: str) -> None:
    response = fleet.client.get(url, params={"filter[status]": status}, headers=auth(fleet.key))
    assert_error(response, 400, code="invalid_parameter", parameter="filter[status]")


@pytest.mark.parametrize("locode", ["USSAV", "ussav", "Savannah", get_port("USSAV").id])
def test_list__filter_pod_locode(fleet: Fleet, locode: str) -> None:
    by_pod = {
        n
        for n, s in fleet.shipments.items()
        if s["attributes"]["port_of_discharge_locode"] == "USSAV"
    }
    assert by_pod == {CONTAINER}
    assert shipment_ids(fleet, **{"filter[pod_locode]": locode}) == {
        fleet.shipments[CONTAINER]["id"]
    }
    assert container_ids(fleet, **{"filter[pod_locode]": locode}) == containers_of(fleet, CONTAINER)


@pytest.mark.parametrize("url", ["/v2/shipments", "/v2/containers"])
def test_list__filter_pod_locode_too_long(fleet: Fleet, url: str) -> None:
    response = fleet.client.get(
        url, params={"filter[pod_locode]": "x" * 101}, headers=auth(fleet.key)
    )
    assert_error(response, 400, code="invalid_parameter", parameter="filter[pod_locode]")


@pytest.mark.parametrize("port", ["USSAVX", "Atlantis"])
def test_list__filter_pod_locode_naming_no_port_matches_nothing(fleet: Fleet, port: str) -> None:
    """Not a LOCODE, id or name of a port: taken as written, so no shipment has it."""
    assert shipment_ids(fleet, **{"filter[pod_locode]": port}) == set()
    assert container_ids(fleet, **{"filter[pod_locode]": port}) == set()


@pytest.mark.parametrize("scac", ["TEST", "test", "Sealane Test Carrier"])
def test_list__filter_shipping_line_scac(fleet: Fleet, scac: str) -> None:
    every = {s["id"] for s in fleet.shipments.values()}
    assert shipment_ids(fleet, **{"filter[shipping_line_scac]": scac}) == every
    assert container_ids(fleet, **{"filter[shipping_line_scac]": scac}) == set(fleet.containers)


def test_list__filter_shipping_line_scac_other(fleet: Fleet) -> None:
    assert shipment_ids(fleet, **{"filter[shipping_line_scac]": "MAEU"}) == set()
    assert container_ids(fleet, **{"filter[shipping_line_scac]": "MAEU"}) == set()


def test_list_shipments__filter_updated_at_start(fleet: Fleet) -> None:
    later = (START + timedelta(hours=12)).isoformat()
    assert shipment_ids(fleet, **{"filter[updated_at][start]": later}) == {fleet.edited_shipment}
    every = {s["id"] for s in fleet.shipments.values()}
    assert shipment_ids(fleet, **{"filter[updated_at][start]": START.isoformat()}) == every


def test_list_containers__filter_updated_at_start(fleet: Fleet) -> None:
    later = (START + timedelta(hours=12)).isoformat()
    assert container_ids(fleet, **{"filter[updated_at][start]": later}) == {fleet.edited_container}


@pytest.mark.parametrize("url", ["/v2/shipments", "/v2/containers"])
def test_list__filter_updated_at_bad_date(fleet: Fleet, url: str) -> None:
    response = fleet.client.get(
        url, params={"filter[updated_at][start]": "last week"}, headers=auth(fleet.key)
    )
    assert_error(response, 400, code="invalid_parameter", parameter="filter[updated_at][start]")


def test_list__filter_number_bill_of_lading(fleet: Fleet) -> None:
    assert shipment_ids(fleet, **{"filter[number]": "bl0001"}) == {fleet.shipments["BL0001"]["id"]}
    assert container_ids(fleet, **{"filter[number]": "BL0001"}) == containers_of(fleet, "BL0001")


def test_list__filter_number_booking(fleet: Fleet) -> None:
    booking = fleet.shipments["BL0008"]["attributes"]["booking_number"]
    assert shipment_ids(fleet, **{"filter[number]": booking}) == {fleet.shipments["BL0008"]["id"]}
    assert container_ids(fleet, **{"filter[number]": booking}) == containers_of(fleet, "BL0008")


@pytest.mark.parametrize("spelling", [CONTAINER, "csqu3054383", "CSQU 305438 3", "CSQU-305438-3"])
def test_list__filter_number_container(fleet: Fleet, spelling: str) -> None:
    (container_id,) = containers_of(fleet, CONTAINER)
    assert container_ids(fleet, **{"filter[number]": spelling}) == {container_id}
    assert shipment_ids(fleet, **{"filter[number]": spelling}) == {fleet.shipments[CONTAINER]["id"]}


def test_list__filter_number_one_container_of_many(fleet: Fleet) -> None:
    edited = fleet.containers[fleet.edited_container]["attributes"]["number"]
    assert container_ids(fleet, **{"filter[number]": edited}) == {fleet.edited_container}
    assert shipment_ids(fleet, **{"filter[number]": edited}) == {fleet.shipments["BL0001"]["id"]}


@pytest.mark.parametrize("ref", ["PO-800", "po-800"])
def test_list__filter_number_ref_number(fleet: Fleet, ref: str) -> None:
    assert shipment_ids(fleet, **{"filter[number]": ref}) == {fleet.shipments["BL0008"]["id"]}
    assert container_ids(fleet, **{"filter[number]": ref}) == containers_of(fleet, "BL0008")


def test_list__filter_number_ref_number_of_a_container_only(fleet: Fleet) -> None:
    assert container_ids(fleet, **{"filter[number]": "C-1"}) == {fleet.edited_container}
    assert shipment_ids(fleet, **{"filter[number]": "C-1"}) == {fleet.shipments["BL0001"]["id"]}


def test_list__filter_number_ref_number_of_the_shipment_only(fleet: Fleet) -> None:
    assert shipment_ids(fleet, **{"filter[number]": "S-7"}) == {fleet.edited_shipment}
    # a container matches its shipment's numbers too
    assert container_ids(fleet, **{"filter[number]": "S-7"}) == containers_of(fleet, "BL0007")


def test_list__filter_number_no_partial_match(fleet: Fleet) -> None:
    assert shipment_ids(fleet, **{"filter[number]": "PO-"}) == set()
    assert shipment_ids(fleet, **{"filter[number]": "BL000"}) == set()


def test_list_shipments__pagination_total(fleet: Fleet) -> None:
    body = get_json(fleet.client, fleet.key, "/v2/shipments", **{"page[size]": "1"})
    assert body["meta"]["total"] == 4
    assert len(body["data"]) == 1
    assert body["links"]["next"] is not None
    last = get_json(
        fleet.client, fleet.key, "/v2/shipments", **{"page[size]": "1", "page[number]": "4"}
    )
    assert "next" not in last["links"]
    assert len(last["data"]) == 1


def test_list_containers__pagination_total(fleet: Fleet) -> None:
    body = get_json(fleet.client, fleet.key, "/v2/containers", **{"page[size]": "2"})
    assert body["meta"]["total"] == len(fleet.containers)
    assert len(body["data"]) == 2
    pages = [
        ids(
            get_json(
                fleet.client,
                fleet.key,
                "/v2/containers",
                **{"page[size]": "2", "page[number]": str(n)},
            )
        )
        for n in range(1, len(fleet.containers) // 2 + 2)
    ]
    assert set().union(*pages) == set(fleet.containers)


def test_list_shipments__most_recently_updated_first(fleet: Fleet) -> None:
    body = get_json(fleet.client, fleet.key, "/v2/shipments")
    assert body["data"][0]["id"] == fleet.edited_shipment


# -- include ---------------------------------------------------------------------------------------


def get_shipment(fleet: Fleet, number: str, include: str | None = None) -> dict[str, Any]:
    params = {"include": include} if include else {}
    url = f"/v2/shipments/{fleet.shipments[number]['id']}"
    body: dict[str, Any] = get_json(fleet.client, fleet.key, url, **params)
    return body


def test_get_shipment__no_include(fleet: Fleet) -> None:
    body = get_shipment(fleet, "BL0001")
    assert "included" not in body
    assert set(related(body["data"], "containers")) == containers_of(fleet, "BL0001")


def test_get_shipment__include_containers(fleet: Fleet) -> None:
    body = get_shipment(fleet, "BL0001", "containers")
    assert set(included(body)) == {("container", c) for c in containers_of(fleet, "BL0001")}


def test_get_shipment__include_containers_transport_events(fleet: Fleet) -> None:
    body = get_shipment(fleet, "BL0001", "containers.transport_events")
    found = included(body)
    containers = [found[("container", c)] for c in containers_of(fleet, "BL0001")]
    events = {("transport_event", e) for c in containers for e in related(c, "transport_events")}
    assert events
    assert set(found) == {("container", c) for c in containers_of(fleet, "BL0001")} | events
    for key in events:
        assert found[key]["attributes"]["event"].startswith("container.transport.")


@pytest.mark.parametrize(
    ("include", "locode_attribute"),
    [
        ("port_of_lading", "port_of_lading_locode"),
        ("port_of_discharge", "port_of_discharge_locode"),
    ],
)
def test_get_shipment__include_port(fleet: Fleet, include: str, locode_attribute: str) -> None:
    body = get_shipment(fleet, CONTAINER, include)
    locode = body["data"]["attributes"][locode_attribute]
    assert related(body["data"], include) == [port_id(locode)]
    assert list(included(body)) == [("port", port_id(locode))]


def test_get_shipment__include_pod_terminal(fleet: Fleet) -> None:
    body = get_shipment(fleet, CONTAINER, "pod_terminal")
    (terminal_id,) = related(body["data"], "pod_terminal")
    assert list(included(body)) == [("terminal", terminal_id)]
    assert included(body)[("terminal", terminal_id)]["attributes"]["name"] == "Garden City Terminal"


def test_get_shipment__include_pod_vessel(fleet: Fleet) -> None:
    body = get_shipment(fleet, CONTAINER, "pod_vessel")
    (vessel_id,) = related(body["data"], "pod_vessel")
    vessel = included(body)[("vessel", vessel_id)]
    assert vessel["attributes"]["name"] == body["data"]["attributes"]["pod_vessel_name"]


def test_get_shipment__include_everything(fleet: Fleet) -> None:
    include = ",".join(
        (
            "containers",
            "containers.transport_events",
            "port_of_lading",
            "port_of_discharge",
            "pod_terminal",
            "pod_vessel",
        )
    )
    kinds = {kind for kind, _ in included(get_shipment(fleet, CONTAINER, include))}
    assert kinds == {"container", "transport_event", "port", "terminal", "vessel"}


@pytest.mark.parametrize("include", ["shipment", "transport_events", "containers.shipment"])
def test_get_shipment__unknown_include(fleet: Fleet, include: str) -> None:
    url = f"/v2/shipments/{fleet.shipments[CONTAINER]['id']}"
    response = fleet.client.get(url, params={"include": include}, headers=auth(fleet.key))
    assert_error(response, 400, code="unknown_include", parameter="include")


def get_container(fleet: Fleet, include: str | None = None) -> dict[str, Any]:
    (container_id,) = containers_of(fleet, CONTAINER)
    params = {"include": include} if include else {}
    body: dict[str, Any] = get_json(
        fleet.client, fleet.key, f"/v2/containers/{container_id}", **params
    )
    return body


def test_get_container__include_shipment(fleet: Fleet) -> None:
    body = get_container(fleet, "shipment")
    assert related(body["data"], "shipment") == [fleet.shipments[CONTAINER]["id"]]
    assert list(included(body)) == [("shipment", fleet.shipments[CONTAINER]["id"])]


def test_get_container__include_pod_terminal(fleet: Fleet) -> None:
    body = get_container(fleet, "pod_terminal")
    (terminal_id,) = related(body["data"], "pod_terminal")
    assert terminal_id == related(fleet.shipments[CONTAINER], "pod_terminal")[0]
    assert list(included(body)) == [("terminal", terminal_id)]


def test_get_container__include_transport_events(fleet: Fleet) -> None:
    body = get_container(fleet, "transport_events")
    events = related(body["data"], "transport_events")
    assert events
    assert list(included(body)) == [("transport_event", e) for e in events]


@pytest.mark.parametrize("include", ["containers", "vessel", "shipment.containers"])
def test_get_container__unknown_include(fleet: Fleet, include: str) -> None:
    (container_id,) = containers_of(fleet, CONTAINER)
    response = fleet.client.get(
        f"/v2/containers/{container_id}", params={"include": include}, headers=auth(fleet.key)
    )
    assert_error(response, 400, code="unknown_include", parameter="include")


def test_container_events__in_time_order(fleet: Fleet) -> None:
    for container_id in fleet.containers:
        url = f"/v2/containers/{container_id}/transport_events"
        body = get_json(fleet.client, fleet.key, url)
        times = [e["attributes"]["timestamp"] for e in body["data"]]
        assert times == sorted(times)
        assert body["meta"]["total"] == len(body["data"])
        expected = related(fleet.containers[container_id], "transport_events")
        assert [e["id"] for e in body["data"]] == expected


def test_container_events__first_steps_of_the_voyage(fleet: Fleet) -> None:
    (container_id,) = containers_of(fleet, CONTAINER)
    body = get_json(fleet.client, fleet.key, f"/v2/containers/{container_id}/transport_events")
    names = [e["attributes"]["event"].removeprefix("container.transport.") for e in body["data"]]
    assert names[:4] == ["empty_out", "full_in", "vessel_loaded", "vessel_departed"]
    assert body["data"][3]["attributes"]["location_locode"] == "CNSHA"


def test_container_events__unknown_container(fleet: Fleet) -> None:
    response = fleet.client.get(
        "/v2/containers/00000000-0000-0000-0000-000000000000/transport_events",
        headers=auth(fleet.key),
    )
    assert_error(response, 404, code="not_found")


# -- editing reference numbers (each test on its own app) ------------------------------------


def found_shipment(
    app: FastAPI, client: TestClient, key: str, number: str, **attrs: Any
) -> dict[str, Any]:
    """Create a request for ``number``, tick, and return its shipment (with containers)."""
    create_request(client, key, number, **attrs)
    tick(app)
    body = get_json(client, key, "/v2/shipments", **{"filter[number]": number})
    (shipment,) = body["data"]
    return dict(shipment)


def test_update_shipment__ref_numbers_only_on_the_shipment(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "BL0001", ref_numbers=["PO-1"])
    body = {
        "data": {"type": "shipment", "id": shipment["id"], "attributes": {"ref_numbers": ["S-1"]}}
    }
    data = patch_json(client, keys.routing, f"/v2/shipments/{shipment['id']}", body)["data"]
    assert data["attributes"]["ref_numbers"] == ["S-1"]
    for container_id in related(shipment, "containers"):
        container = get_json(client, keys.routing, f"/v2/containers/{container_id}")["data"]
        assert container["attributes"]["ref_numbers"] == ["PO-1"]
    request = get_json(client, keys.routing, "/v2/tracking_requests")["data"][0]
    assert request["attributes"]["ref_numbers"] == ["PO-1"]


def test_update_container__ref_numbers_only_on_that_container(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "BL0001", ref_numbers=["PO-1"])
    first, *others = related(shipment, "containers")
    assert others
    body = {"data": {"type": "container", "id": first, "attributes": {"ref_numbers": ["C-9"]}}}
    data = patch_json(client, keys.routing, f"/v2/containers/{first}", body)["data"]
    assert data["attributes"]["ref_numbers"] == ["C-9"]
    for container_id in others:
        container = get_json(client, keys.routing, f"/v2/containers/{container_id}")["data"]
        assert container["attributes"]["ref_numbers"] == ["PO-1"]
    again = get_json(client, keys.routing, f"/v2/shipments/{shipment['id']}")["data"]
    assert again["attributes"]["ref_numbers"] == ["PO-1"]


def test_update_shipment__read_only_attribute(app: FastAPI, client: TestClient, keys: Keys) -> None:
    shipment = found_shipment(app, client, keys.routing, "BL0001")
    body = {"data": {"type": "shipment", "attributes": {"pod_eta_at": "2027-01-01T00:00:00Z"}}}
    response = client.patch(
        f"/v2/shipments/{shipment['id']}", json=body, headers=write_headers(keys.routing)
    )
    error = assert_error(response, 422, code="read_only")
    assert error["source"] == {"pointer": "/data/attributes/pod_eta_at"}


def test_update_container__read_only_attribute(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "BL0001")
    container_id = related(shipment, "containers")[0]
    body = {"data": {"type": "container", "attributes": {"current_status": "delivered"}}}
    response = client.patch(
        f"/v2/containers/{container_id}", json=body, headers=write_headers(keys.routing)
    )
    error = assert_error(response, 422, code="read_only")
    assert error["source"] == {"pointer": "/data/attributes/current_status"}


def test_update_container__id_mismatch(app: FastAPI, client: TestClient, keys: Keys) -> None:
    shipment = found_shipment(app, client, keys.routing, "BL0001")
    container_id = related(shipment, "containers")[0]
    body = {"data": {"type": "container", "id": shipment["id"], "attributes": {"ref_numbers": []}}}
    response = client.patch(
        f"/v2/containers/{container_id}", json=body, headers=write_headers(keys.routing)
    )
    assert_error(response, 409, code="id_mismatch")


def test_update_shipment__ref_numbers_not_strings(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "BL0001")
    body = {"data": {"type": "shipment", "attributes": {"ref_numbers": [1, 2]}}}
    response = client.patch(
        f"/v2/shipments/{shipment['id']}", json=body, headers=write_headers(keys.routing)
    )
    error = assert_error(response, 422)
    assert error["source"] == {"pointer": "/data/attributes/ref_numbers"}


def test_list__filter_number_non_ascii_ref_number(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "BL0001", ref_numbers=["Réf-1"])
    body = get_json(client, keys.routing, "/v2/shipments", **{"filter[number]": "Réf-1"})
    assert ids(body) == {shipment["id"]}


# -- stop and resume tracking --------------------------------------------------------------------


def event_count(client: TestClient, key: str, shipment: dict[str, Any]) -> int:
    total = 0
    for container_id in related(shipment, "containers"):
        url = f"/v2/containers/{container_id}/transport_events"
        total += get_json(client, key, url)["meta"]["total"]
    return total


def request_status(client: TestClient, key: str) -> str:
    status: str = get_json(client, key, "/v2/tracking_requests")["data"][0]["attributes"]["status"]
    return status


def test_stop_tracking__no_new_events(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "TEST-TR-SUCCEEDED")
    before = event_count(client, keys.routing, shipment)
    clock.advance(HOUR)
    data = patch_json(client, keys.routing, f"/v2/shipments/{shipment['id']}/stop_tracking")["data"]
    assert data["attributes"]["line_tracking_stopped_at"] == "2026-11-21T13:00:00Z"
    assert request_status(client, keys.routing) == "tracking_stopped"
    for _ in range(5):
        clock.advance(3 * DAY)
        tick(app)
    assert event_count(client, keys.routing, shipment) == before
    statuses = [
        get_json(client, keys.routing, f"/v2/containers/{c}")["data"]["attributes"][
            "current_status"
        ]
        for c in related(shipment, "containers")
    ]
    assert set(statuses) == {"new"}


def test_stop_tracking__twice_is_harmless(app: FastAPI, client: TestClient, keys: Keys) -> None:
    shipment = found_shipment(app, client, keys.routing, "TEST-TR-SUCCEEDED")
    url = f"/v2/shipments/{shipment['id']}/stop_tracking"
    first = patch_json(client, keys.routing, url)["data"]
    second = patch_json(client, keys.routing, url)["data"]
    assert first["attributes"] == second["attributes"]
    assert request_status(client, keys.routing) == "tracking_stopped"


def test_stop_tracking__without_a_body_needs_no_content_type(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    """The operation has no body, so it has no media type to declare (issue 12, item 8)."""
    shipment = found_shipment(app, client, keys.routing, "TEST-TR-SUCCEEDED")
    response = client.patch(
        f"/v2/shipments/{shipment['id']}/stop_tracking", headers=auth(keys.routing)
    )
    assert response.status_code == 200, response.text[:300]
    assert request_status(client, keys.routing) == "tracking_stopped"


def test_stop_tracking__a_body_of_another_media_type_415(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "TEST-TR-SUCCEEDED")
    response = client.patch(
        f"/v2/shipments/{shipment['id']}/stop_tracking",
        headers={**auth(keys.routing), "Content-Type": "text/plain"},
        content=b"stop",
    )
    assert_error(response, 415, code="unsupported_media_type")


def test_resume_tracking__events_resume(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "TEST-TR-SUCCEEDED")
    patch_json(client, keys.routing, f"/v2/shipments/{shipment['id']}/stop_tracking")
    clock.advance(5 * DAY)
    tick(app)
    stopped = event_count(client, keys.routing, shipment)
    data = patch_json(client, keys.routing, f"/v2/shipments/{shipment['id']}/resume_tracking")[
        "data"
    ]
    assert data["attributes"]["line_tracking_stopped_at"] is None
    assert request_status(client, keys.routing) == "created"
    tick(app)
    assert event_count(client, keys.routing, shipment) > stopped
    clock.advance(2 * DAY)
    tick(app)
    statuses = {
        get_json(client, keys.routing, f"/v2/containers/{c}")["data"]["attributes"][
            "current_status"
        ]
        for c in related(shipment, "containers")
    }
    assert statuses == {"on_ship"}


def test_resume_tracking__not_stopped_is_harmless(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    shipment = found_shipment(app, client, keys.routing, "TEST-TR-SUCCEEDED")
    patch_json(client, keys.routing, f"/v2/shipments/{shipment['id']}/resume_tracking")
    assert request_status(client, keys.routing) == "created"


def test_stop_tracking__unknown_shipment(client: TestClient, keys: Keys) -> None:
    response = client.patch(
        "/v2/shipments/00000000-0000-0000-0000-000000000000/stop_tracking",
        headers=write_headers(keys.routing),
    )
    assert_error(response, 404, code="not_found")

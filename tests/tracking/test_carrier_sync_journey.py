"""The whole journey of one container, from the tracking request to the empty return, via the API.

MSKU0004824 (scac TEST) is a valid ISO 6346 number whose simulated voyage starts 1.4 hours before
the request, with nothing yet recorded: CNYTN -> MYTPP (transshipment) -> USLAX, one container.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from sealane.tracking.numbers import is_container_number
from tests.toolkit import START, Scenario, make_app

from .support import (
    HOUR,
    advance,
    containers_created,
    get_json,
    outbox,
)

NUMBER = "MSKU0004824"
T = "container.transport."
EVENTS = [
    ("empty_out", "CNYTN"),
    ("full_in", "CNYTN"),
    ("vessel_loaded", "CNYTN"),
    ("vessel_departed", "CNYTN"),
    ("transshipment_arrived", "MYTPP"),
    ("transshipment_discharged", "MYTPP"),
    ("transshipment_loaded", "MYTPP"),
    ("transshipment_departed", "MYTPP"),
    ("vessel_arrived", "USLAX"),
    ("vessel_berthed", "USLAX"),
    ("vessel_discharged", "USLAX"),
    ("available", "USLAX"),
    ("full_out", "USLAX"),
    ("empty_in", "USLAX"),
]
BEFORE_DISCHARGE = ["new", "on_ship", "awaiting_inland_transfer", "on_ship"]
AFTER_DISCHARGE = ["not_available", "available", "picked_up", "empty_returned"]


@dataclass(frozen=True)
class Journey:
    app: FastAPI
    client: TestClient
    key: str
    request_id: str
    container_id: str
    shipment_id: str
    #: the container's status after each tick, consecutive repeats dropped
    statuses: list[str]
    ticks: int


@pytest.fixture(scope="module")
def journey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journey]:
    path = tmp_path_factory.mktemp("journey") / "sealane.db"
    clock = ManualClock(START)
    app = make_app(path, clock=clock, rate_limit_per_minute=100_000)
    scenario = Scenario.on(app)
    key = scenario.account("Journey Co", routing=False).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        track = scenario.with_client(client).track
        request_id = track("Journey Co", NUMBER, request_type="container")
        scenario.tick()
        request = get_json(client, key, f"/v2/tracking_requests/{request_id}")["data"]
        shipment_id = request["relationships"]["tracked_object"]["data"]["id"]
        containers = get_json(client, key, "/v2/containers", **{"filter[number]": NUMBER})
        (container,) = containers["data"]
        statuses = [container["attributes"]["current_status"]]
        for ticks in itertools.count(1):
            advance(app, clock, 6 * HOUR)
            url = f"/v2/containers/{container['id']}"
            status = get_json(client, key, url)["data"]["attributes"]["current_status"]
            if status != statuses[-1]:
                statuses.append(status)
            if status == "empty_returned" or ticks > 400:
                break
        yield Journey(app, client, key, request_id, container["id"], shipment_id, statuses, ticks)


def events_of(journey: Journey) -> list[dict[str, Any]]:
    url = f"/v2/containers/{journey.container_id}/transport_events"
    data: list[dict[str, Any]] = get_json(journey.client, journey.key, url)["data"]
    return data


def container_of(journey: Journey) -> dict[str, Any]:
    url = f"/v2/containers/{journey.container_id}"
    data: dict[str, Any] = get_json(journey.client, journey.key, url)["data"]
    return data


def test_journey__number_is_valid() -> None:
    assert is_container_number(NUMBER)


def test_journey__statuses_in_order(journey: Journey) -> None:
    # grounded lasts 30 minutes after the discharge; a 6 h tick may or may not land in it
    assert journey.statuses in (
        BEFORE_DISCHARGE + AFTER_DISCHARGE,
        [*BEFORE_DISCHARGE, "grounded", *AFTER_DISCHARGE],
    )
    assert 100 < journey.ticks < 400


def test_journey__transport_events_in_order(journey: Journey) -> None:
    events = events_of(journey)
    found = [
        (e["attributes"]["event"].removeprefix(T), e["attributes"]["location_locode"])
        for e in events
    ]
    assert found == EVENTS
    times = [e["attributes"]["timestamp"] for e in events]
    assert times == sorted(times)
    assert all(t > "2026-11-21T12:00:00Z" for t in times)  # all after the request


def test_journey__vessels_and_terminal_on_events(journey: Journey) -> None:
    events = {e["attributes"]["event"].removeprefix(T): e for e in events_of(journey)}
    first = events["vessel_departed"]["relationships"]["vessel"]["data"]
    second = events["vessel_arrived"]["relationships"]["vessel"]["data"]
    assert first is not None and second is not None and first != second
    assert events["transshipment_arrived"]["relationships"]["vessel"]["data"] == first
    assert events["transshipment_departed"]["relationships"]["vessel"]["data"] == second
    assert events["empty_out"]["relationships"]["vessel"]["data"] is None
    pod = events["vessel_discharged"]["relationships"]["terminal"]["data"]
    assert pod is not None
    assert events["empty_out"]["relationships"]["terminal"]["data"] is None
    assert events["vessel_arrived"]["attributes"]["timezone"] == "America/Los_Angeles"
    assert events["empty_out"]["attributes"]["timezone"] == "Asia/Shanghai"
    voyages = {
        events[n]["attributes"]["voyage_number"] for n in ("vessel_loaded", "vessel_departed")
    }
    assert len(voyages) == 1 and None not in voyages


def test_journey__container_final_state(journey: Journey) -> None:
    attributes = container_of(journey)["attributes"]
    assert attributes["current_status"] == "empty_returned"
    moments = [
        attributes[name]
        for name in (
            "pod_arrived_at",
            "pod_discharged_at",
            "pod_full_out_at",
            "empty_terminated_at",
        )
    ]
    assert None not in moments
    assert moments == sorted(moments)
    at = {
        e["attributes"]["event"].removeprefix(T): e["attributes"]["timestamp"]
        for e in events_of(journey)
    }
    assert moments == [
        at["vessel_arrived"],
        at["vessel_discharged"],
        at["full_out"],
        at["empty_in"],
    ]
    assert attributes["empty_terminated_timezone"] == "America/Los_Angeles"
    assert attributes["available_for_pickup"] is True
    assert attributes["pickup_lfd"] is not None
    assert attributes["pickup_appointment_at"] is not None


def test_journey__shipment(journey: Journey) -> None:
    url = f"/v2/shipments/{journey.shipment_id}"
    attributes = get_json(journey.client, journey.key, url)["data"]["attributes"]
    at = {
        e["attributes"]["event"].removeprefix(T): e["attributes"]["timestamp"]
        for e in events_of(journey)
    }
    assert attributes["port_of_lading_locode"] == "CNYTN"
    assert attributes["port_of_discharge_locode"] == "USLAX"
    assert attributes["transshipment_locodes"] == ["MYTPP"]
    assert attributes["pol_atd_at"] == at["vessel_departed"]
    assert attributes["pod_ata_at"] == at["vessel_arrived"]
    assert attributes["pod_eta_at"] is not None
    assert attributes["line_tracking_stopped_at"] is None
    request = get_json(journey.client, journey.key, f"/v2/tracking_requests/{journey.request_id}")
    assert request["data"]["attributes"]["status"] == "created"


def test_journey__outbox_has_the_full_sequence(journey: Journey) -> None:
    ids = {e["id"]: e["attributes"]["event"] for e in events_of(journey)}
    rows = outbox(journey.app)
    transport = [row.event.removeprefix(T) for row in rows if row.reference_id in ids]
    assert transport == [name for name, _ in EVENTS]
    assert containers_created(journey.app)[journey.container_id] == 1
    updates = [row for row in rows if row.event == "container.updated"]
    assert len(updates) >= 3
    estimates = [row for row in rows if row.event == "shipment.estimated.arrival"]
    assert estimates
    request = [row.event for row in rows if row.reference_id == journey.request_id]
    assert request == ["tracking_request.succeeded"]
    positions = [row.id for row in rows]
    assert positions == sorted(positions)

"""Containers: raw events (the carrier's milestones, planned ones estimated), the new fields, a
refresh from the carrier limited to ten a minute, and what transport events include."""

from __future__ import annotations

from datetime import datetime, timedelta

from sealane.tracking.carriers.simulated import plan_voyage
from tests.api.jsonapi_asserts import assert_error
from tests.toolkit import START

from .world import World, document


def test_raw_events__past_then_estimated_with_stable_ids(world: World) -> None:
    # A number whose simulated voyage began 6.3 days before it is asked for: under way, so it
    # has a past and a plan (a random number's voyage may be entirely over).
    attributes = {
        "request_type": "bill_of_lading",
        "request_number": "TEST-RAW0010",
        "scac": "TEST",
    }
    made = world.made("POST", "/tracking_requests", document("tracking_request", attributes))
    world.tick()
    request = world.get(f"/tracking_requests/{made['id']}").json()["data"]
    shipment = world.get(f"/shipments/{request['relationships']['tracked_object']['data']['id']}")
    container = shipment.json()["data"]["relationships"]["containers"]["data"][0]["id"]
    first = world.get(f"/containers/{container}/raw_events").json()["data"]
    flags = [event["attributes"]["estimated"] for event in first]
    assert False in flags and True in flags, "a voyage under way has a past and a plan"
    assert flags == sorted(flags), "the past comes first"
    stamps = [event["attributes"]["timestamp"] for event in first]
    assert stamps == sorted(stamps)
    assert [e["attributes"]["index"] for e in first] == list(range(len(first)))
    again = world.get(f"/containers/{container}/raw_events").json()["data"]
    assert [e["id"] for e in again] == [e["id"] for e in first]
    berthed = [e for e in first if e["attributes"]["original_event"] == "Vessel berthed"]
    assert berthed and berthed[0]["attributes"]["event"] is None  # not a raw event name
    for event in first:
        estimated = event["attributes"]["estimated"]
        assert (event["attributes"]["estimated_at"] is not None) is estimated
        assert (event["attributes"]["actual_at"] is not None) is not estimated


def stamp(moment: datetime) -> str:
    """How the API writes an instant."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_container__new_fields(world: World) -> None:
    """Each field against what the simulated carrier planned for the world's bill of lading
    (asked for at START, its voyage anchored 12 hours before), not against another field."""
    data = world.get(f"/containers/{world.ids['container']}").json()["data"]
    attributes = data["attributes"]
    plan = plan_voyage("bill_of_lading", "TEST-TR-SUCCEEDED", START - timedelta(hours=12))
    [index] = [i for i, c in enumerate(plan.containers) if c.number == attributes["number"]]
    [lfd] = [
        u.changes["pickup_lfd"]
        for u in plan.updates
        if u.container == index and "pickup_lfd" in u.changes
    ]
    [arrived] = [
        e.at
        for e in plan.events
        if e.container == index
        and e.event == "container.transport.vessel_arrived"
        and e.locode == plan.port_of_discharge
    ]
    assert attributes["pickup_lfd"] == stamp(lfd)
    assert attributes["import_deadlines"] == {
        "pickup_lfd_terminal": stamp(lfd),
        "pickup_lfd_rail": None,
        "pickup_lfd_line": None,
    }
    assert attributes["pod_arrived_at"] == stamp(arrived)
    # The terminal was last checked by the shipment's last sync: the world's last tick (52 days
    # on) or a later refresh by another test.
    shipment = world.get(f"/shipments/{world.ids['shipment']}").json()["data"]["attributes"]
    assert attributes["terminal_checked_at"] == shipment["line_tracking_last_succeeded_at"]
    assert attributes["terminal_checked_at"] >= stamp(START + timedelta(days=52))
    facility = data["relationships"]["pickup_facility"]["data"]
    assert facility["type"] == "terminal"
    terminal = world.get(f"/terminals/{facility['id']}").json()["data"]["attributes"]
    assert terminal["port_code"] == plan.port_of_discharge
    assert data["relationships"]["pod_terminal"]["data"] == facility


def test_refresh__ten_a_minute_then_429_with_retry_after(world: World) -> None:
    world.clock.advance(61)
    url = f"/containers/{world.ids['container_2']}/refresh"
    answers = [world.send("PATCH", url) for _ in range(10)]
    assert [a.status_code for a in answers] == [200] * 10
    assert answers[0].json()["message"].startswith("container ")
    refused = world.send("PATCH", url)
    assert_error(refused, 429, code="rate_limited")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert world.get(f"/containers/{world.ids['container_2']}").status_code == 200  # only refresh
    world.clock.advance(61)
    assert world.send("PATCH", url).status_code == 200


def test_refresh__syncs_now(world: World) -> None:
    """A refresh asks the carrier at once: the shipment's last sync is the clock's time."""
    world.clock.advance(3600)
    world.send("PATCH", f"/containers/{world.ids['container']}/refresh")
    shipment = world.get(f"/shipments/{world.ids['shipment']}").json()["data"]["attributes"]
    assert shipment["line_tracking_last_succeeded_at"] == world.clock.now().strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )


def test_transport_events__include_location_and_vessel(world: World) -> None:
    body = world.get(
        f"/containers/{world.ids['container']}/transport_events", include="location,vessel"
    ).json()
    kinds = {item["type"] for item in body["included"]}
    assert kinds == {"port", "vessel"}
    locations = {e["relationships"]["location"]["data"]["id"] for e in body["data"]}
    assert locations <= {item["id"] for item in body["included"] if item["type"] == "port"}


def test_transport_events__unknown_include_400(world: World) -> None:
    response = world.get(f"/containers/{world.ids['container']}/transport_events", include="port")
    assert_error(response, 400, code="unknown_include", parameter="include")

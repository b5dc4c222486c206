"""The DCSA adapter through every lifecycle state against the test server, fault by fault.

Each test runs on SQLite and on PostgreSQL. Time moves on one manual clock shared with the
server, which shows each fixture event from its creation time on.
"""

from __future__ import annotations

from collections import Counter

from sqlalchemy.orm import Session, sessionmaker

from .dcsa_fixtures import BL, BOOKING, CONTAINERS, day, shipment_event
from .dcsa_server import Fault
from .dcsa_world import World, dcsa_world

BOX1, BOX2 = CONTAINERS
AT_DEPARTURE = {
    (box, name, "CNSHA"): 1
    for box in CONTAINERS
    for name in ("empty_out", "full_in", "vessel_loaded", "vessel_departed")
}
AT_TRANSSHIPMENT = {
    (box, name, "SGSIN"): 1
    for box in CONTAINERS
    for name in (
        "transshipment_arrived",
        "transshipment_discharged",
        "transshipment_loaded",
        "transshipment_departed",
    )
}
AT_DISCHARGE = {
    **{
        (box, name, "NLRTM"): 1
        for box in CONTAINERS
        for name in ("vessel_arrived", "vessel_discharged")
    },
    (BOX1, "full_out", "NLRTM"): 1,
    (BOX1, "empty_in", "NLRTM"): 1,
}


def created(world: World, number: str = BL, request_type: str = "bill_of_lading") -> str:
    request_id = world.request(number, request_type)
    world.service.tick()
    row = world.tracking_request(request_id)
    assert (row.status, row.failed_reason, row.is_retrying) == ("created", None, False)
    return request_id


def test_voyage__created_then_every_event_once_as_time_passes(
    sessions: sessionmaker[Session],
) -> None:
    with dcsa_world(sessions) as world:
        created(world)
        assert world.events() == AT_DEPARTURE
        assert world.estimates() == [day(32)]  # the planned arrival
        world.at(day(12))
        world.service.tick()
        assert world.events() == AT_DEPARTURE | AT_TRANSSHIPMENT
        assert world.estimates() == [day(32), day(33)]  # the estimate of day 5
        world.at(day(40))
        world.service.tick()
        world.service.tick()  # nothing new on a second pass
        assert world.events() == AT_DEPARTURE | AT_TRANSSHIPMENT | AT_DISCHARGE
        assert world.statuses() == {BOX1: "empty_returned", BOX2: "grounded"}
        assert world.estimates() == [day(32), day(33)]  # a 29 min change, then arrived
        outbox = world.outbox()
        assert outbox["container.transport.vessel_arrived"] == 2
        assert outbox["tracking_request.succeeded"] == 1
        assert outbox["container.created"] == 2


def test_booking_and_container_numbers__find_the_same_shipment(
    sessions: sessionmaker[Session],
) -> None:
    with dcsa_world(sessions) as world:
        created(world, BOOKING, "booking_number")
        created(world, BOX2, "container")
        events = world.events()
        assert events[(BOX2, "vessel_departed", "CNSHA")] == 2  # one per shipment found


def test_server_errors__retry_as_unreachable_then_created(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.SERVER_ERROR, times=3)  # every attempt of the first lookup
        request_id = world.request(BL)
        world.service.tick()
        row = world.tracking_request(request_id)
        assert (row.status, row.failed_reason, row.is_retrying, row.retry_count) == (
            "pending",
            "shipping_line_unreachable",
            True,
            1,
        )
        assert world.slept[:2] == [0.01, 0.02]  # the client's own backoff between attempts
        assert world.settle(request_id).status == "created"
        assert world.events() == AT_DEPARTURE


def test_timeouts__unreachable(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.TIMEOUT, times=3)
        request_id = world.request(BL)
        world.service.tick()
        row = world.tracking_request(request_id)
        assert (row.failed_reason, row.is_retrying) == ("shipping_line_unreachable", True)


def test_malformed_json__unrecognized_response(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.MALFORMED_JSON, times=1)
        request_id = world.request(BL)
        world.service.tick()
        row = world.tracking_request(request_id)
        assert (row.failed_reason, row.is_retrying) == ("unrecognized_response", True)
        assert world.settle(request_id).status == "created"


def test_cursor_loop__unrecognized_response(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.CURSOR_LOOP)
        request_id = world.request(BL)
        world.service.tick()
        row = world.tracking_request(request_id)
        assert (row.failed_reason, row.is_retrying) == ("unrecognized_response", True)
        assert len(world.state.requests) < 10  # the loop was noticed, not followed to the cap


def test_empty_first_page__the_next_pages_are_still_read(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.EMPTY_PAGE, times=1)
        created(world)
        assert world.events() == AT_DEPARTURE


def test_unknown_reference__not_found_after_the_retries(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        request_id = world.request("NOSUCHBL")
        world.service.tick()
        assert world.tracking_request(request_id).failed_reason == "not_found"
        row = world.settle(request_id)
        assert (row.status, row.failed_reason, row.is_retrying) == ("failed", "not_found", False)


def test_unknown_event_code__skipped_the_rest_recorded(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.UNKNOWN_CODE)
        created(world)
        assert world.events() == AT_DEPARTURE


def test_rate_limited__waits_retry_after_then_succeeds(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.RATE_LIMITED, times=1)
        created(world)
        assert 1.0 in world.slept


def test_booking_only__awaiting_manifest_until_vessels_are_planned(
    sessions: sessionmaker[Session],
) -> None:
    with dcsa_world(sessions, now=day(-2)) as world:
        world.state.events = [e for e in world.state.events if e["eventType"] == "SHIPMENT"]
        request_id = world.request(BOOKING, "booking_number")
        world.service.tick()
        assert world.tracking_request(request_id).status == "awaiting_manifest"
        from .dcsa_fixtures import shipment_events

        world.state.events = shipment_events()
        row = world.settle(request_id)
        assert row.status == "created"


def test_booking_voided__failed_booking_cancelled(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        world.state.events.append(shipment_event("bkg-void", "VOID", "BKG", day(0.5)))
        request_id = world.request(BOOKING, "booking_number")
        row = world.settle(request_id)
        assert (row.status, row.failed_reason) == ("failed", "booking_cancelled")


def test_error_during_a_sync__nothing_lost_nothing_twice(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        created(world)
        world.at(day(12))
        world.state.fail(Fault.SERVER_ERROR, times=3)
        report = world.service.tick()
        assert report.errors == 1
        assert world.events() == AT_DEPARTURE
        world.service.tick()
        assert world.events() == AT_DEPARTURE | AT_TRANSSHIPMENT


def test_events_served_twice__recorded_once(sessions: sessionmaker[Session]) -> None:
    """The server repeats the same events in a later page: one transport event each."""
    with dcsa_world(sessions) as world:
        world.state.events = world.state.events + world.state.events
        created(world)
        assert world.events() == AT_DEPARTURE
        assert Counter(world.outbox())["container.transport.vessel_loaded"] == 2

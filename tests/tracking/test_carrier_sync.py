"""Lifecycles through the tracking service: lookups, retries, statuses over a voyage, auto-stop."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from sealane.clock import ManualClock
from sealane.store.models import (
    Container,
    ContainerUpdatedEvent,
    EstimatedEvent,
    OutboxEvent,
    Shipment,
    TrackingRequest,
)
from sealane.tracking.carriers import ShipmentPlan
from sealane.tracking.carriers.simulated import HOLDS, plan_voyage
from sealane.tracking.lifecycle import RETRY_BACKOFF_S, TRACKING_WINDOW
from tests.toolkit import START, Keys, Scenario, make_app

from .support import (
    DAY,
    HOUR,
    advance,
    containers_created,
    create_request,
    get_json,
    outbox_counts,
    patch_json,
    retry_until_settled,
    run_until,
    stored_request,
    tick,
)

SUCCEEDED = "TEST-TR-SUCCEEDED"


def succeeded_plan() -> ShipmentPlan:
    """The plan the service finds for TEST-TR-SUCCEEDED requested at START."""
    return plan_voyage("bill_of_lading", SUCCEEDED, START - timedelta(hours=12))


def request_events(app: FastAPI, request_id: str) -> dict[str, int]:
    """Outbox events about one tracking request, with their counts."""
    return {
        event: count
        for (event, kind, ref), count in outbox_counts(app).items()
        if kind == "tracking_request" and ref == request_id
    }


# -- lookups -------------------------------------------------------------------------------------


def test_tick__succeeded_created_at_once(app: FastAPI, client: TestClient, keys: Keys) -> None:
    request_id = create_request(client, keys.routing, SUCCEEDED)["id"]
    assert request_events(app, request_id) == {}
    tick(app)
    row = stored_request(app, request_id)
    assert (row.status, row.is_retrying, row.retry_count) == ("created", False, 0)
    assert row.shipment_id is not None and row.next_attempt_at is None
    assert request_events(app, request_id) == {"tracking_request.succeeded": 1}
    created = containers_created(app)
    with app.state.sealane.sessions() as session:
        containers = session.scalars(
            select(Container.id).where(Container.shipment_id == row.shipment_id)
        ).all()
    assert len(containers) == len(succeeded_plan().containers)
    for container_id in containers:
        assert created[container_id] == 1


def test_tick__stopping_ends_the_pass_before_its_next_unit(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    """A pass asked to stop after its first lookup leaves the other due requests due and
    unclaimed (the next pass, in any worker, looks them up)."""
    ids = [create_request(client, keys.routing, f"TESTSTOP{k:04d}")["id"] for k in range(3)]
    asked = itertools.count()
    report = app.state.sealane.tracking.tick(lambda: next(asked) >= 1)
    assert (report.lookups, report.syncs) == (1, 0)
    statuses = sorted(stored_request(app, request_id).status for request_id in ids)
    assert statuses == ["created", "pending", "pending"]
    tick(app)
    assert {stored_request(app, request_id).status for request_id in ids} == {"created"}


def test_tick__awaiting_manifest_then_created(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, "TEST-TR-AWAITING")["id"]
    tick(app)
    row = stored_request(app, request_id)
    assert (row.status, row.is_retrying, row.shipment_id) == ("awaiting_manifest", False, None)
    assert row.next_attempt_at == START + timedelta(hours=2)
    assert request_events(app, request_id) == {"tracking_request.awaiting_manifest": 1}
    advance(app, clock, HOUR)
    assert stored_request(app, request_id).status == "awaiting_manifest"
    advance(app, clock, HOUR - 1)
    assert stored_request(app, request_id).status == "awaiting_manifest"
    advance(app, clock, 1)
    row = stored_request(app, request_id)
    assert (row.status, row.retry_count, row.failed_reason) == ("created", 0, None)
    assert request_events(app, request_id) == {
        "tracking_request.awaiting_manifest": 1,
        "tracking_request.succeeded": 1,
    }


def test_tick__awaiting_manifest_visible_in_the_api(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, "TEST-TR-AWAITING")["id"]
    tick(app)
    data = get_json(client, keys.routing, f"/v2/tracking_requests/{request_id}")["data"]
    assert data["attributes"]["status"] == "awaiting_manifest"
    assert data["relationships"]["tracked_object"] == {"data": None}


def test_tick__test_tr_failed_fails_at_the_first_lookup(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    """The documented test number reaches its state within one poll (no retrying)."""
    request_id = create_request(client, keys.routing, "TEST-TR-FAILED")["id"]
    tick(app)
    row = stored_request(app, request_id)
    assert (row.status, row.is_retrying, row.retry_count) == ("failed", False, 1)
    assert (row.failed_reason, row.next_attempt_at) == ("not_found", None)
    assert request_events(app, request_id) == {"tracking_request.failed": 1}


def test_tick__failed_after_retries(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, "TEST-TR-RETRYING")["id"]
    attempts = retry_until_settled(app, clock, request_id)
    *retrying, last = attempts
    assert len(retrying) == len(RETRY_BACKOFF_S)
    for count, (row, backoff) in enumerate(zip(retrying, RETRY_BACKOFF_S, strict=True), 1):
        assert (row.status, row.is_retrying, row.retry_count) == ("pending", True, count)
        assert row.failed_reason == "not_found"
        assert row.next_attempt_at is not None
        wait = (row.next_attempt_at - row.updated_at).total_seconds()
        assert backoff <= wait <= backoff * 1.1
    assert (last.status, last.is_retrying, last.retry_count) == ("failed", False, 5)
    assert (last.failed_reason, last.next_attempt_at) == ("not_found", None)
    assert request_events(app, request_id) == {"tracking_request.failed": 1}
    advance(app, clock, 10 * DAY)
    assert stored_request(app, request_id).retry_count == 5
    assert request_events(app, request_id) == {"tracking_request.failed": 1}


def test_tick__retrying_visible_in_the_api(app: FastAPI, client: TestClient, keys: Keys) -> None:
    request_id = create_request(client, keys.routing, "TEST-TR-RETRYING")["id"]
    tick(app)
    attributes = get_json(client, keys.routing, f"/v2/tracking_requests/{request_id}")["data"][
        "attributes"
    ]
    assert attributes["status"] == "pending"
    assert attributes["is_retrying"] is True
    assert attributes["retry_count"] == 1
    assert attributes["failed_reason"] == "not_found"


def test_tick__retry_not_before_its_time(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, "TEST-TR-FAILED")["id"]
    tick(app)
    tick(app)
    advance(app, clock, RETRY_BACKOFF_S[0] - 1)
    assert stored_request(app, request_id).retry_count == 1


def test_tick__flaky_retries_then_created(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, "TEST-TR-FLAKY")["id"]
    attempts = retry_until_settled(app, clock, request_id)
    assert attempts[0].is_retrying and attempts[0].failed_reason == "shipping_line_unreachable"
    last = attempts[-1]
    assert (last.status, last.is_retrying, last.failed_reason) == ("created", False, None)
    assert last.retry_count == len(attempts) - 1 >= 1
    assert clock.now() >= START + timedelta(hours=1)
    assert request_events(app, request_id) == {"tracking_request.succeeded": 1}


def test_tick__carrier_without_adapter_fails_retries_exhausted(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, "MAEU123456789", scac="MAEU")["id"]
    *retrying, last = retry_until_settled(app, clock, request_id)
    assert retrying
    assert {row.failed_reason for row in retrying} == {"shipping_line_unreachable"}
    assert all(row.is_retrying and row.status == "pending" for row in retrying)
    assert (last.status, last.failed_reason, last.is_retrying) == (
        "failed",
        "retries_exhausted",
        False,
    )
    assert request_events(app, request_id) == {"tracking_request.failed": 1}


# -- one voyage, ticked every six hours (shared by the tests below) --------------------------------


@dataclass(frozen=True)
class Voyage:
    app: FastAPI
    plan: ShipmentPlan
    shipment_id: str
    request_id: str
    #: container number -> statuses seen after each tick (consecutive repeats dropped)
    statuses: dict[str, list[str]]
    #: shipment pod_eta_at after each tick
    etas: list[datetime | None]


@pytest.fixture(scope="module")
def voyage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Voyage]:
    path = tmp_path_factory.mktemp("voyage") / "sealane.db"
    clock = ManualClock(START)
    app = make_app(path, clock=clock, rate_limit_per_minute=100_000)
    scenario = Scenario.on(app)
    scenario.account("Voyager", routing=False)
    plan = succeeded_plan()
    end = max(e.at for e in plan.events) + timedelta(hours=6)
    statuses: dict[str, list[str]] = {c.number: [] for c in plan.containers}
    etas = []
    with TestClient(app, raise_server_exceptions=False) as client:
        request_id = scenario.with_client(client).track("Voyager", SUCCEEDED)
        scenario.tick()
        for _ in itertools.chain([clock.now()], run_until(app, clock, end)):
            with app.state.sealane.sessions() as session:
                for container in session.scalars(select(Container)):
                    seen = statuses[container.number]
                    if not seen or seen[-1] != container.current_status:
                        seen.append(container.current_status)
                shipment = session.scalars(select(Shipment)).one()
                etas.append(shipment.pod_eta_at)
        yield Voyage(app, plan, shipment.id, request_id, statuses, etas)


ARRIVAL = ["new", "on_ship"]
DISCHARGE = ["not_available", "available", "picked_up", "empty_returned"]


def test_voyage__container_status_follows_the_events(voyage: Voyage) -> None:
    assert len(voyage.statuses) == 3
    for number, seen in voyage.statuses.items():
        # grounded lasts 30 minutes (until the terminal reports availability): a 6 h tick may
        # or may not land in it
        assert seen in (ARRIVAL + DISCHARGE, [*ARRIVAL, "grounded", *DISCHARGE]), number


def test_voyage__container_timestamps_from_the_events(voyage: Voyage) -> None:
    with voyage.app.state.sealane.sessions() as session:
        containers = {c.number: c for c in session.scalars(select(Container))}
    for index, planned in enumerate(voyage.plan.containers):
        container = containers[planned.number]
        at = {
            e.event.removeprefix("container.transport."): e.at
            for e in voyage.plan.events
            if e.container == index
        }
        assert container.pod_arrived_at == at["vessel_arrived"]
        assert container.pod_discharged_at == at["vessel_discharged"]
        assert container.pod_full_out_at == at["full_out"]
        assert container.empty_terminated_at == at["empty_in"]
        assert container.available_for_pickup is True and container.availability_known is True


def changesets(voyage: Voyage, number: str) -> list[dict[str, Any]]:
    """The container's terminal updates, without the event its creation refers to."""
    created = select(OutboxEvent.reference_id).where(OutboxEvent.event == "container.created")
    with voyage.app.state.sealane.sessions() as session:
        container = session.scalars(select(Container).where(Container.number == number)).one()
        rows = session.scalars(
            select(ContainerUpdatedEvent)
            .where(
                ContainerUpdatedEvent.container_id == container.id,
                ContainerUpdatedEvent.id.not_in(created),
            )
            .order_by(ContainerUpdatedEvent.timestamp)
        ).all()
    return [dict(row.changeset) for row in rows]


def test_voyage__changesets_are_before_after_pairs(voyage: Voyage) -> None:
    for number in voyage.statuses:
        for changeset in changesets(voyage, number):
            assert changeset
            for name, pair in changeset.items():
                assert isinstance(pair, list) and len(pair) == 2, name
                assert pair[0] != pair[1], name


def test_voyage__changesets_availability_and_last_free_day(voyage: Voyage) -> None:
    for number in voyage.statuses:
        discharged, available, appointment, *fees = changesets(voyage, number)
        assert discharged["available_for_pickup"] == [None, False]
        assert available["available_for_pickup"] == [False, True]
        before, lfd = available["pickup_lfd"]
        assert before is None and lfd.endswith("T23:59:00Z")
        assert appointment["pickup_appointment_at"][0] is None
        assert set(appointment) == {"pickup_appointment_at"}
        for fee in fees:
            assert fee["fees_at_pod_terminal"][0] == []


def test_voyage__changesets_holds(voyage: Voyage) -> None:
    held = 0
    for number in voyage.statuses:
        discharged, available, *_ = changesets(voyage, number)
        if "holds_at_pod_terminal" in discharged:
            held += 1
            assert discharged["holds_at_pod_terminal"] == [[], list(HOLDS)]
            assert available["holds_at_pod_terminal"] == [list(HOLDS), []]
        else:
            assert "holds_at_pod_terminal" not in available
    assert held >= 1


def test_voyage__estimates_move_toward_the_arrival(voyage: Voyage) -> None:
    arrival = voyage.plan.legs[-1].arrive_at
    with voyage.app.state.sealane.sessions() as session:
        estimates = session.scalars(
            select(EstimatedEvent)
            .where(EstimatedEvent.shipment_id == voyage.shipment_id)
            .order_by(EstimatedEvent.created_at)
        ).all()
        shipment = session.get(Shipment, voyage.shipment_id)
        assert shipment is not None
    assert len(estimates) >= 2
    assert {e.event for e in estimates} == {"shipment.estimated.arrival"}
    assert all(e.location_locode == "BEANR" for e in estimates)
    assert all(e.created_at < arrival for e in estimates)
    values = [e.estimated_timestamp for e in estimates]
    assert all(abs(b - a) >= timedelta(hours=2) for a, b in itertools.pairwise(values))
    assert abs(values[-1] - arrival) < abs(values[0] - arrival)
    assert shipment.pod_ata_at == arrival
    assert shipment.pod_eta_at == arrival  # the estimate settles on the actual arrival


def test_voyage__shipment_eta_converges(voyage: Voyage) -> None:
    arrival = voyage.plan.legs[-1].arrive_at
    errors = [abs(eta - arrival) for eta in voyage.etas if eta is not None]
    assert errors[-1] < errors[0]
    assert errors[-1] <= timedelta(hours=4)


def test_voyage__request_still_created(voyage: Voyage) -> None:
    assert stored_request(voyage.app, voyage.request_id).status == "created"


# -- automatic stop ------------------------------------------------------------------------------


def test_tick__tracking_stops_56_days_after_arrival(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, SUCCEEDED)["id"]
    tick(app)
    arrival = succeeded_plan().legs[-1].arrive_at
    advance(app, clock, (arrival + TRACKING_WINDOW - clock.now()).total_seconds() - 1)
    assert stored_request(app, request_id).status == "created"
    advance(app, clock, 1)
    row = stored_request(app, request_id)
    assert row.status == "tracking_stopped"
    assert request_events(app, request_id) == {
        "tracking_request.succeeded": 1,
        "tracking_request.tracking_stopped": 1,
    }
    with app.state.sealane.sessions() as session:
        shipment = session.get(Shipment, row.shipment_id)
        assert shipment is not None
        assert shipment.tracking_stopped_at == arrival + TRACKING_WINDOW
        assert shipment.pod_ata_at == arrival
    advance(app, clock, 30 * DAY)
    assert request_events(app, request_id)["tracking_request.tracking_stopped"] == 1


def test_tick__only_due_requests_are_looked_up(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    failing = create_request(client, keys.routing, "TEST-TR-RETRYING")["id"]
    tick(app)
    clock.advance(60)
    found = create_request(client, keys.routing, SUCCEEDED)["id"]
    report = app.state.sealane.tracking.tick()
    assert report.lookups == 1
    assert stored_request(app, failing).retry_count == 1
    assert stored_request(app, found).status == "created"
    with app.state.sealane.sessions() as session:
        statuses = dict(session.execute(select(TrackingRequest.id, TrackingRequest.status)).all())
    assert statuses == {failing: "pending", found: "created"}


# -- robustness and repeated status changes (bugs pinned) ---------------------------------------


class ExplodingCarrier:
    """A carrier adapter whose every call raises (a bug in an integration, a bad answer)."""

    scacs = frozenset({"MAEU"})

    def lookup(self, *args: object, **kwargs: object) -> Any:
        raise RuntimeError("carrier integration failed")

    def snapshot(self, *args: object, **kwargs: object) -> Any:
        raise RuntimeError("carrier integration failed")


def test_tick__one_failing_lookup_does_not_stop_the_others(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    app.state.sealane.tracking.carriers["MAEU"] = ExplodingCarrier()
    create_request(client, keys.routing, "MAEU123", scac="MAEU")
    clock.advance(60)
    healthy = create_request(client, keys.plain, SUCCEEDED)["id"]
    report = app.state.sealane.tracking.tick()
    assert report.errors == 1
    assert stored_request(app, healthy).status == "created"


def test_stop_tracking__second_stop_has_its_own_event(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    request_id = create_request(client, keys.routing, SUCCEEDED)["id"]
    tick(app)
    shipment_id = stored_request(app, request_id).shipment_id
    for action in ("stop_tracking", "resume_tracking", "stop_tracking"):
        patch_json(client, keys.routing, f"/v2/shipments/{shipment_id}/{action}")
    assert stored_request(app, request_id).status == "tracking_stopped"
    assert request_events(app, request_id)["tracking_request.tracking_stopped"] == 2


def test_resume_tracking__after_the_window_follows_it_a_window_more(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    # a resume past the 56-day window used to last until the next pass, doing nothing
    request_id = create_request(client, keys.routing, SUCCEEDED)["id"]
    tick(app)
    shipment_id = stored_request(app, request_id).shipment_id
    advance(app, clock, 100 * DAY)
    assert stored_request(app, request_id).status == "tracking_stopped"
    patch_json(client, keys.routing, f"/v2/shipments/{shipment_id}/resume_tracking")
    assert stored_request(app, request_id).status == "created"
    tick(app)
    advance(app, clock, 55 * DAY)
    assert stored_request(app, request_id).status == "created"
    advance(app, clock, 2 * DAY)
    assert stored_request(app, request_id).status == "tracking_stopped"
    assert request_events(app, request_id)["tracking_request.tracking_stopped"] == 2

"""The demo's history, tracked from the simulated carrier's lines, shows what it is meant to:
every lane's figures are those of the voyages the carrier planned (the seeded truth, worked out
from the plans, not from what was recorded), lines differ as their habits say, ports differ in
waiting, on SQLite and PostgreSQL, and another account sees none of it."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from sealane.service.core.paging import PageRequest
from sealane.service.reliability.estimates import estimate_errors
from sealane.service.reliability.inputs import LaneQuery, Window
from sealane.service.reliability.lanes import LaneReliability, lane_reliability
from sealane.service.reliability.ports import port_reliability
from sealane.store.models import TrackingRequest
from sealane.tracking.carriers import SimulatedCarrier
from sealane.tracking.carriers.simulated_lines import LANES, LINES
from sealane.tracking.history import TAG, seed_history

from ..conftest import World, make_world

SHIPMENTS = 200
#: The reliability figures' default on-time tolerance.
TOLERANCE = timedelta(days=1)

pytestmark = pytest.mark.slow  # 200 voyages tracked over months, on each database


@pytest.fixture(scope="module")
def world(module_database: str) -> Iterator[World]:
    made = make_world(module_database)
    tracking = made.runtime.tracking
    added = seed_history(tracking, made.routing.account_id, made.clock.now(), shipments=SHIPMENTS)
    assert added == SHIPMENTS
    assert seed_history(tracking, made.routing.account_id, made.clock.now()) == 0  # once
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


def lanes_of(world: World) -> dict[str, LaneReliability]:
    page = lane_reliability(world.runtime.context, world.routing, LaneQuery(), PageRequest(1, 100))
    return {lane.key: lane for lane in page.items}


def truth(world: World) -> dict[str, Counter[str]]:
    """Per lane (``SCAC-POL-POD``), what the carrier's plans say of the history's requests:
    shipments arrived by now, on time against the estimate given at the request, containers,
    rolled containers and transshipped ones."""
    carrier, now = SimulatedCarrier(), world.clock.now()
    with world.runtime.sessions() as session:
        asked = session.execute(
            select(TrackingRequest.request_number, TrackingRequest.created_at).where(
                TrackingRequest.account_id == world.routing.account_id,
                TrackingRequest.tags.is_not(None),
            )
        ).all()
    found: dict[str, Counter[str]] = defaultdict(Counter)
    for number, at in asked:
        plan = carrier.lookup("bill_of_lading", number, requested_at=at, now=at).plan  # type: ignore[union-attr]
        arrived = plan.legs[-1].arrive_at
        if arrived > now:
            continue
        first_eta: datetime | None = carrier.snapshot(
            ("bill_of_lading", number, plan.epoch), at
        ).pod_eta
        assert first_eta is not None
        lane = found[f"{plan.scac}-{plan.port_of_lading}-{plan.port_of_discharge}"]
        containers = len(plan.containers)
        lane["shipments"] += 1
        lane["on_time"] += abs(arrived - first_eta) <= TOLERANCE
        lane["containers"] += containers
        lane["rolled"] += containers if plan.missed is not None else 0
        lane["transshipped"] += containers if len(plan.legs) > 1 else 0
    return found


def test_history__every_lane_as_the_carrier_planned_it(world: World) -> None:
    lanes, expected = lanes_of(world), truth(world)
    assert set(lanes) == set(expected)
    assert len(lanes) == len(LINES) * len(LANES)  # every line on every lane
    for key, lane in lanes.items():
        got = Counter(
            shipments=lane.shipments,
            on_time=lane.on_time,
            containers=lane.containers,
            rolled=lane.rolled,
            transshipped=lane.transshipped,
        )
        assert +got == +expected[key], key
        assert lane.eta_known == lane.shipments  # a first ETA for every one


def share(lanes: list[LaneReliability], part: str, whole: str) -> float:
    return sum(getattr(lane, part) for lane in lanes) / sum(getattr(lane, whole) for lane in lanes)


def test_history__lines_differ_as_their_habits_say(world: World) -> None:
    found: dict[str, list[LaneReliability]] = defaultdict(list)
    for lane in lanes_of(world).values():
        found[lane.carrier_scac].append(lane)
    on_time = {scac: share(lanes, "on_time", "eta_known") for scac, lanes in found.items()}
    rolled = {scac: share(lanes, "rolled", "containers") for scac, lanes in found.items()}
    late = {
        scac: sum((lane.drift.mean_h or 0.0) * lane.drift.n for lane in lanes)
        / sum(lane.drift.n for lane in lanes)
        for scac, lanes in found.items()
    }
    # Atlas keeps to its first ETA best; Egret runs latest and rolls more cargo than Atlas
    assert on_time["TSTA"] > max(on_time[scac] for scac in ("TSTC", "TSTD", "TSTE"))
    assert late["TSTE"] > late["TSTC"] > late["TSTA"]
    assert rolled["TSTE"] > rolled["TSTA"]
    assert sum(lane.transit.median_h is not None for lane in found["TSTA"]) >= 3


def test_history__estimates_drift_towards_the_arrival(world: World) -> None:
    """A late line's estimates, recorded on the way, are late by less as the arrival nears."""
    errors = estimate_errors(world.runtime.context, world.routing, LaneQuery.of(carrier="TSTE"))

    def mean_error_h(days: range) -> float:
        points = [point for point in errors if point.days_before in days]
        return sum(p.mean_error_h * p.n for p in points) / sum(p.n for p in points)

    far, near = mean_error_h(range(15, 60)), mean_error_h(range(0, 4))
    assert far > 24.0  # a day late and more, weeks out
    assert far > 2 * abs(near)


def test_history__ports_differ_in_waiting(world: World) -> None:
    context, caller = world.runtime.context, world.routing
    rotterdam = port_reliability(context, caller, "NLRTM", Window())
    los_angeles = port_reliability(context, caller, "USLAX", Window())
    assert rotterdam.waiting.median_h is not None and los_angeles.waiting.median_h is not None
    assert los_angeles.waiting.median_h > 2 * rotterdam.waiting.median_h
    waited = [day for day in los_angeles.days if day.waiting.n]
    assert len(waited) in (30, 31)  # calls over the last 30 days (a day's hours may cross)
    assert los_angeles.dwell.n > 10


def test_history__another_account_has_none_of_it(world: World) -> None:
    page = lane_reliability(world.runtime.context, world.plain, LaneQuery(), PageRequest())
    assert page.total == 0


def test_history__tagged_as_history(world: World) -> None:
    with world.runtime.sessions() as session:
        tags = session.scalars(
            select(TrackingRequest.tags).where(
                TrackingRequest.account_id == world.routing.account_id
            )
        ).all()
    assert len(tags) == SHIPMENTS and all(TAG in found for found in tags)

"""The demo's seeded history shows what it is meant to: carriers that differ in on-time share,
drift and rolled cargo, ports that differ in waiting, the same figures on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sealane.service.core.paging import PageRequest
from sealane.service.reliability.inputs import LaneQuery, Window
from sealane.service.reliability.lanes import LaneReliability, lane_reliability
from sealane.service.reliability.ports import port_reliability
from sealane.store.database import transaction
from sealane.store.history import CARRIERS, LANES, seed_history

from ..conftest import World, make_world


@pytest.fixture(scope="module")
def world(module_database: str) -> Iterator[World]:
    made = make_world(module_database)
    with transaction(made.runtime.sessions) as session:
        added = seed_history(session, made.routing.account_id, made.clock.now())
        assert added == 300
        assert seed_history(session, made.routing.account_id, made.clock.now()) == 0  # once
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


def by_carrier(world: World) -> dict[str, list[LaneReliability]]:
    page = lane_reliability(world.runtime.context, world.routing, LaneQuery(), PageRequest(1, 100))
    assert page.total == len(CARRIERS) * len(LANES)
    found: dict[str, list[LaneReliability]] = {}
    for lane in page.items:
        found.setdefault(lane.carrier_scac, []).append(lane)
    return found


def share(lanes: list[LaneReliability], part: str, whole: str) -> float:
    return sum(getattr(lane, part) for lane in lanes) / sum(getattr(lane, whole) for lane in lanes)


def test_history__carriers_differ_as_their_habits_say(world: World) -> None:
    found = by_carrier(world)
    on_time = {scac: share(lanes, "on_time", "eta_known") for scac, lanes in found.items()}
    rolled = {scac: share(lanes, "rolled", "containers") for scac, lanes in found.items()}
    late = {
        scac: sum((lane.drift.mean_h or 0.0) * lane.drift.n for lane in lanes)
        / sum(lane.drift.n for lane in lanes)
        for scac, lanes in found.items()
    }
    # MAEU keeps to its first ETA best; ONEY runs latest and rolls the most cargo
    assert on_time["MAEU"] > max(on_time[scac] for scac in ("HLCU", "MSCU", "CMDU", "ONEY"))
    assert late["ONEY"] > late["MSCU"] > late["MAEU"]
    assert rolled["ONEY"] > rolled["MAEU"]
    assert all(lane.transit.median_h is not None for lane in found["MAEU"])


def test_history__ports_differ_in_waiting(world: World) -> None:
    context, caller = world.runtime.context, world.routing
    rotterdam = port_reliability(context, caller, "NLRTM", Window())
    los_angeles = port_reliability(context, caller, "USLAX", Window())
    assert rotterdam.waiting.median_h is not None and los_angeles.waiting.median_h is not None
    assert los_angeles.waiting.median_h > 2 * rotterdam.waiting.median_h
    waited = [day for day in los_angeles.days if day.waiting.n]
    assert len(waited) in (30, 31)  # calls over the last 30 days (a day's hours may cross)
    assert los_angeles.dwell.n > 20


def test_history__another_account_has_none_of_it(world: World) -> None:
    page = lane_reliability(world.runtime.context, world.plain, LaneQuery(), PageRequest())
    assert page.total == 0

"""Lane figures against values worked out by hand, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from sealane.service.core.errors import InvalidInput
from sealane.service.core.paging import PageRequest
from sealane.service.reliability.estimates import EstimateError, estimate_errors
from sealane.service.reliability.inputs import LaneQuery
from sealane.service.reliability.lanes import LaneReliability, lane_reliability
from sealane.service.reliability.spreads import Spread
from sealane.store.database import transaction

from ..conftest import World, make_world
from .seeding import T0, Voyage, seed

MAEU = [  # transit days 30, 31, 32, 33, 35, 40; drift (late) hours 0, 12, 30, -6, 48, 72
    Voyage("MAEU", "CNSHA", "NLRTM", 0, 30 * 24, 0, containers=2),
    Voyage("MAEU", "CNSHA", "NLRTM", 7, 31 * 24, 12, voyages=("001E", "002E")),
    Voyage("MAEU", "CNSHA", "NLRTM", 14, 32 * 24, 30, transshipped=True),
    Voyage("MAEU", "CNSHA", "NLRTM", 21, 33 * 24, -6, voyages=("003E", "003E")),
    Voyage("MAEU", "CNSHA", "NLRTM", 28, 35 * 24, 48),
    Voyage("MAEU", "CNSHA", "NLRTM", 35, 40 * 24, 72),
    Voyage("MAEU", "CNSHA", "NLRTM", 42, None),  # not arrived: not counted
]
MSCU = [
    Voyage("MSCU", "CNSHA", "NLRTM", 3, 28 * 24, 5),
    Voyage("MSCU", "CNSHA", "NLRTM", 10, 29 * 24, None),
]
#: Another account's shipments on the same lane: never counted.
STRANGER = [Voyage("MAEU", "CNSHA", "NLRTM", 1, 2 * 24, 500)] * 5


@pytest.fixture(scope="module")
def world(module_database: str) -> Iterator[World]:
    made = make_world(module_database)
    with transaction(made.runtime.sessions) as session:
        for voyage in MAEU + MSCU:
            seed(session, made.routing.account_id, voyage)
        for voyage in STRANGER:
            seed(session, made.plain.account_id, voyage)
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


def lanes(world: World, query: LaneQuery) -> list[LaneReliability]:
    page = lane_reliability(world.runtime.context, world.routing, query, PageRequest())
    return list(page.items)


def test_lane_reliability__hand_computed(world: World) -> None:
    maeu, _mscu = lanes(world, LaneQuery.of(port_of_lading="CNSHA"))
    assert maeu.key == "MAEU-CNSHA-NLRTM"
    assert maeu.shipments == 6
    # ranks 1.5, 3.5 and 5.5 of 720, 744, 768, 792, 840, 960
    assert maeu.transit == Spread(6, 780.0, 732.0, 900.0, 804.0)
    # -6, 0, 12, 30, 48, 72: median (12 + 30) / 2, P10 -6 + 0.5 x 6, P90 48 + 0.5 x 24
    assert maeu.drift == Spread(6, 21.0, -3.0, 60.0, 26.0)
    assert (maeu.eta_known, maeu.on_time, maeu.on_time_share) == (6, 3, 0.5)
    assert (maeu.containers, maeu.rolled, maeu.transshipped) == (7, 1, 1)
    assert maeu.rolled_share == round(1 / 7, 6)
    assert maeu.tolerance_h == 24.0


def test_lane_reliability__small_sample_has_no_percentiles(world: World) -> None:
    (mscu,) = lanes(world, LaneQuery.of(carrier="mscu"))
    assert mscu.shipments == 2
    assert mscu.transit == Spread(2, mean_h=684.0)
    assert mscu.drift == Spread(1, mean_h=5.0)
    assert (mscu.eta_known, mscu.on_time) == (1, 1)


def test_lane_reliability__tolerance(world: World) -> None:
    (maeu,) = lanes(world, LaneQuery.of(carrier="MAEU", tolerance_days=2))
    assert (maeu.on_time, maeu.on_time_share) == (5, round(5 / 6, 6))


def test_lane_reliability__window_of_arrival(world: World) -> None:
    # arrivals: day 30, 38, 46, 54, 63, 75 (MAEU); since day 46 until day 63 keeps 46 and 54
    query = LaneQuery.of(
        carrier="MAEU", since=T0 + timedelta(days=46), until=T0 + timedelta(days=63)
    )
    (maeu,) = lanes(world, query)
    assert maeu.shipments == 2
    assert maeu.transit == Spread(2, mean_h=(32 + 33) * 24 / 2)


def test_lane_reliability__another_account_sees_only_its_own(world: World) -> None:
    page = lane_reliability(world.runtime.context, world.plain, LaneQuery(), PageRequest())
    (theirs,) = page.items
    assert theirs.shipments == 5
    assert theirs.transit == Spread(5, 48.0, 48.0, 48.0, 48.0)


def test_lane_reliability__paged(world: World) -> None:
    page = lane_reliability(world.runtime.context, world.routing, LaneQuery(), PageRequest(2, 1))
    assert page.total == 2
    assert [lane.key for lane in page.items] == ["MSCU-CNSHA-NLRTM"]


def test_lane_reliability__no_match(world: World) -> None:
    assert lanes(world, LaneQuery.of(port_of_discharge="DEHAM")) == []


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"carrier": "M-AEU"}, "carrier"),
        ({"port_of_lading": "Nowhere at all"}, "port_of_lading"),
        ({"tolerance_days": 31}, "tolerance_days"),
        ({"since": T0, "until": T0}, "until"),
    ],
)
def test_lane_query__bad_input(options: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        LaneQuery.of(**options)  # type: ignore[arg-type]
    assert raised.value.field == field


def test_estimate_errors__by_whole_days_before_arrival(world: World) -> None:
    found = estimate_errors(world.runtime.context, world.routing, LaneQuery.of(carrier="MAEU"))
    # two shipments with two estimates each, recorded at departure and an hour later: 31 days
    # (744 h, 743 h) and 33 days (792 h, 791 h) before arrival; the second estimate a day later
    assert found == (
        EstimateError("MAEU", 30, 1, -12.0),
        EstimateError("MAEU", 31, 1, 12.0),
        EstimateError("MAEU", 32, 1, -30.0),
        EstimateError("MAEU", 33, 1, -6.0),
    )
    assert estimate_errors(world.runtime.context, world.plain, LaneQuery()) == ()


def test_lane_reliability__page_past_the_end_keeps_the_total(world: World) -> None:
    page = lane_reliability(world.runtime.context, world.routing, LaneQuery(), PageRequest(5, 1))
    assert (page.items, page.total) == ((), 2)

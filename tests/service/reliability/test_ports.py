"""Port dwell and anchorage waiting by day against values worked out by hand, on SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest

from sealane.service.core.errors import ObjectNotFound
from sealane.service.reliability.inputs import Window
from sealane.service.reliability.ports import port_reliability
from sealane.service.reliability.spreads import Spread
from sealane.store.database import transaction

from ..conftest import World, make_world
from .seeding import seed_call, seed_dwell

DAY1 = datetime(2026, 7, 1, tzinfo=UTC)
DAY2 = DAY1 + timedelta(days=1)


@pytest.fixture(scope="module")
def world(module_database: str) -> Iterator[World]:
    made = make_world(module_database)
    mine, theirs = made.routing.account_id, made.plain.account_id
    with transaction(made.runtime.sessions) as session:
        for k, dwell_h in enumerate((30, 10, 50, 20, 40)):
            seed_dwell(session, mine, "NLRTM", DAY1 + timedelta(hours=k), dwell_h)
        seed_dwell(session, mine, "NLRTM", DAY2 + timedelta(hours=23, minutes=59), 100)
        seed_dwell(session, mine, "BEANR", DAY1, 7)  # another port
        seed_dwell(session, theirs, "NLRTM", DAY1, 1000)  # another account
        for k, wait_h in enumerate((6, 2, 4)):
            seed_call(session, "NLRTM", DAY1 + timedelta(hours=3 * k), wait_h)
        seed_call(session, "NLRTM", DAY1, 50, seen=False)  # its wait is not known
        seed_call(session, "NLRTM", DAY1, None)  # not berthed yet
        seed_call(session, "NLRTM", DAY2 + timedelta(hours=23, minutes=30), 8)
        seed_call(session, "BEANR", DAY1, 9)
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


def test_port_reliability__by_day_hand_computed(world: World) -> None:
    port = port_reliability(world.runtime.context, world.routing, "nlrtm", Window())
    assert port.locode == "NLRTM"
    day1, day2 = port.days
    assert day1.day == date(2026, 7, 1)
    # 10, 20, 30, 40, 50: ranks 1.4, 3 and 4.6
    assert day1.dwell == Spread(5, 30.0, 14.0, 46.0, 30.0)
    assert day1.waiting == Spread(3, mean_h=4.0)
    assert day2.day == date(2026, 7, 2)
    assert (day2.dwell, day2.waiting) == (Spread(1, mean_h=100.0), Spread(1, mean_h=8.0))
    # 10, 20, 30, 40, 50, 100: ranks 1.5, 3.5 and 5.5
    assert port.dwell == Spread(6, 35.0, 15.0, 75.0, round(250 / 6, 6))
    assert port.waiting == Spread(4, mean_h=5.0)


def test_port_reliability__window(world: World) -> None:
    port = port_reliability(world.runtime.context, world.routing, "NLRTM", Window(since=DAY2))
    assert [day.day for day in port.days] == [date(2026, 7, 2)]
    assert port.dwell.n == 1 and port.waiting.n == 1


def test_port_reliability__another_account_sees_its_dwell_and_the_shared_calls(
    world: World,
) -> None:
    port = port_reliability(world.runtime.context, world.plain, "NLRTM", Window())
    assert port.dwell == Spread(1, mean_h=1000.0)
    assert port.waiting == Spread(4, mean_h=5.0)


@pytest.mark.parametrize("key", ["", "not a port", "X" * 100])
def test_port_reliability__not_a_port(world: World, key: str) -> None:
    with pytest.raises(ObjectNotFound):
        port_reliability(world.runtime.context, world.routing, key, Window())

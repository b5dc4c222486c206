"""The shipment list's arrival window and arrival order, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import select

from sealane.service.core.errors import InvalidInput
from sealane.service.core.paging import PageRequest
from sealane.service.tracking import pages
from sealane.service.tracking.browse import ArrivalWindow, ShipmentOrder, filter_choices
from sealane.service.tracking.filters import TrackingFilter
from sealane.service.tracking.requests import NewTrackingRequest, create_request
from sealane.service.tracking.shipments import list_shipments
from sealane.store.database import transaction
from sealane.store.models import Shipment

from ..conftest import World, make_world

#: Days from now of each shipment's ETA and ATA (None: not known / not arrived).
SCHEDULE = {
    "TESTWIN0001": (3, None),
    "TESTWIN0002": (10, None),
    "TESTWIN0003": (-2, None),  # overdue: not "arriving within"
    "TESTWIN0004": (-5, -4),  # arrived
    "TESTWIN0005": (None, None),
    "TESTWIN0006": (3, None),  # same ETA as 0001: the id breaks the tie
}


@pytest.fixture(scope="module")
def world(module_database: str) -> Iterator[World]:
    made = make_world(module_database)
    for number in SCHEDULE:
        new = NewTrackingRequest.of(
            {"request_type": "bill_of_lading", "request_number": number, "scac": "TEST"}
        )
        create_request(made.runtime.context, made.routing, new)
    made.runtime.tracking.tick()
    now = made.clock.now()
    with transaction(made.runtime.sessions) as session:
        for row in session.scalars(select(Shipment)):
            eta, ata = SCHEDULE[row.bill_of_lading_number or ""]
            row.pod_eta_at = None if eta is None else now + timedelta(days=eta)
            row.pod_ata_at = None if ata is None else now + timedelta(days=ata)
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


def numbers(world: World, **options: object) -> list[str]:
    page = list_shipments(
        world.runtime.context,
        world.routing,
        TrackingFilter(),
        PageRequest(1, 50),
        **options,  # type: ignore[arg-type]
    )
    return [s.bill_of_lading_number or "" for s in page.items]


def test_arriving_within__not_arrived_and_due_in_the_window(world: World) -> None:
    assert sorted(numbers(world, arriving=ArrivalWindow(7))) == ["TESTWIN0001", "TESTWIN0006"]
    assert sorted(numbers(world, arriving=ArrivalWindow(30))) == [
        "TESTWIN0001",
        "TESTWIN0002",
        "TESTWIN0006",
    ]


def test_arriving_within__keeps_no_counted_statement(world: World) -> None:
    """A window's query is built per request (it moves with the clock): it must not push the
    kept lists' statements out of the cache of counted statements."""
    numbers(world)  # a kept query
    before = pages._kept_by_offset.cache_info().currsize
    for days in (7, 30, 7):
        numbers(world, arriving=ArrivalWindow(days))
    assert pages._kept_by_offset.cache_info().currsize == before


def test_order__arrival_soonest_first_unknown_last(world: World) -> None:
    found = numbers(world, order=ShipmentOrder.ARRIVAL)
    tied = sorted(
        ["TESTWIN0001", "TESTWIN0006"],
        key=lambda n: next(
            s.id
            for s in list_shipments(
                world.runtime.context, world.routing, TrackingFilter(number=n), PageRequest(1, 1)
            ).items
        ),
    )
    assert found == ["TESTWIN0004", "TESTWIN0003", *tied, "TESTWIN0002", "TESTWIN0005"]


def test_order__arrival_latest_first_unknown_still_last(world: World) -> None:
    found = numbers(world, order=ShipmentOrder.ARRIVAL_DESC)
    assert found[0] == "TESTWIN0002" and found[-1] == "TESTWIN0005"


def test_order__pages_do_not_overlap(world: World) -> None:
    pages = [
        list_shipments(
            world.runtime.context,
            world.routing,
            TrackingFilter(),
            PageRequest(n, 2),
            order=ShipmentOrder.ARRIVAL,
        ).items
        for n in (1, 2, 3)
    ]
    ids = [s.id for page in pages for s in page]
    assert len(ids) == len(set(ids)) == 6


def test_arriving_within__only_the_callers_shipments(world: World) -> None:
    page = list_shipments(
        world.runtime.context,
        world.plain,
        TrackingFilter(),
        PageRequest(1, 50),
        arriving=ArrivalWindow(30),
    )
    assert page.total == 0


@pytest.mark.parametrize("days", [0, -1, 367])
def test_arrival_window__out_of_range(days: int) -> None:
    with pytest.raises(InvalidInput) as caught:
        ArrivalWindow(days)
    assert caught.value.field == "arriving_within_days"


def test_filter_choices__the_accounts_carriers_and_ports(world: World) -> None:
    choices = filter_choices(world.runtime.context, world.routing)
    assert [scac for scac, _ in choices.carriers] == ["TEST"]
    assert choices.ports_of_discharge
    assert filter_choices(world.runtime.context, world.plain).carriers == ()

"""Simultaneous identical tracking requests: exactly one is stored, the others are duplicates.

The check before the insert cannot see a request that another transaction has not committed
yet; the unique index over open requests is what guarantees it, on both databases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from sqlalchemy import func, select

from sealane.service.core.errors import InvalidInput
from sealane.service.tracking import requests as tracking_requests
from sealane.service.tracking import shipments
from sealane.service.tracking.requests import NewTrackingRequest
from sealane.store.models import TrackingRequest

from ..conftest import World, make_world

CONTAINER = "CSQU3054383"


@pytest.fixture
def db_world(module_database: str) -> Iterator[World]:
    world = make_world(module_database)
    yield world
    world.runtime.stop()
    world.runtime.engine.dispose()


def create_all(world: World, documents: list[dict[str, str]]) -> Counter[str]:
    """Create every document at once from its own thread; count the outcomes."""
    start = Barrier(len(documents))

    def create(attributes: dict[str, str]) -> str:
        new = NewTrackingRequest.of(attributes)
        start.wait(timeout=30)
        try:
            tracking_requests.create_request(world.runtime.context, world.plain, new)
        except InvalidInput as error:
            return error.code
        return "created"

    with ThreadPoolExecutor(max_workers=len(documents)) as pool:
        return Counter(pool.map(create, documents))


def stored(world: World, number: str) -> int:
    with world.runtime.sessions() as session:
        query = select(func.count()).where(
            func.upper(TrackingRequest.request_number) == number.upper()
        )
        return int(session.scalar(query) or 0)


def test_create__twenty_at_once_one_stored(db_world: World) -> None:
    document = {"request_type": "bill_of_lading", "request_number": "MAEU900001", "scac": "TEST"}
    outcomes = create_all(db_world, [document] * 20)
    assert outcomes == {"created": 1, "duplicate": 19}
    assert stored(db_world, "MAEU900001") == 1


def test_create__one_container_spelled_four_ways_one_stored(db_world: World) -> None:
    spellings = [CONTAINER, CONTAINER.lower(), "CSQU 305438 3", "CSQU-305438-3"]
    documents = [
        {"request_type": "container", "request_number": spelling, "scac": "TEST"}
        for spelling in spellings
        for _ in range(5)
    ]
    outcomes = create_all(db_world, documents)
    assert outcomes == {"created": 1, "duplicate": 19}
    assert stored(db_world, CONTAINER) == 1


def test_create__bill_of_lading_differing_in_case_is_a_duplicate(db_world: World) -> None:
    ctx = db_world.runtime.context
    first = {"request_type": "bill_of_lading", "request_number": "abc123", "scac": "TEST"}
    tracking_requests.create_request(ctx, db_world.plain, NewTrackingRequest.of(first))
    with pytest.raises(InvalidInput) as raised:
        second = NewTrackingRequest.of({**first, "request_number": "ABC123"})
        tracking_requests.create_request(ctx, db_world.plain, second)
    assert (raised.value.code, raised.value.field) == ("duplicate", "request_number")


def test_create__same_number_in_another_account_is_not_a_duplicate(db_world: World) -> None:
    ctx = db_world.runtime.context
    new = NewTrackingRequest.of(
        {"request_type": "bill_of_lading", "request_number": "SHARED1", "scac": "TEST"}
    )
    tracking_requests.create_request(ctx, db_world.plain, new)
    tracking_requests.create_request(ctx, db_world.routing, new)
    assert stored(db_world, "SHARED1") == 2


def test_resume__refused_when_the_number_was_asked_again_meanwhile(db_world: World) -> None:
    ctx = db_world.runtime.context
    new = NewTrackingRequest.of(
        {"request_type": "bill_of_lading", "request_number": "TESTRESUME1", "scac": "TEST"}
    )
    first = tracking_requests.create_request(ctx, db_world.plain, new)
    db_world.runtime.tracking.tick()
    shipment_id = tracking_requests.get_request(ctx, db_world.plain, first.id).shipment_id
    assert shipment_id is not None
    shipments.set_tracking(ctx, db_world.plain, shipment_id, stop=True)
    tracking_requests.create_request(ctx, db_world.plain, new)  # allowed: the first is stopped
    with pytest.raises(InvalidInput) as raised:
        shipments.set_tracking(ctx, db_world.plain, shipment_id, stop=False)
    assert raised.value.code == "duplicate"
    assert tracking_requests.get_request(ctx, db_world.plain, first.id).status == "tracking_stopped"

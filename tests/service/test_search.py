"""Deep-link resolution and search: the interface document's five rules, case and separators,
the caller's account only, and a stable "first" (newest first)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sealane.service import search
from sealane.service.access.gatekeeper import Caller
from sealane.service.core.errors import InvalidInput
from sealane.service.core.paging import PageRequest
from sealane.service.search import HitKind, ResolutionKind
from sealane.service.tracking import requests as tracking_requests
from sealane.service.tracking import shipments
from sealane.service.tracking.filters import TrackingFilter
from sealane.service.tracking.records import ShipmentRecord
from sealane.service.tracking.requests import NewTrackingRequest

from .conftest import World, make_world
from .test_statement_counts import counting

CONTAINER = "CSQU3054383"


def track(
    world: World, caller: Caller, number: str, kind: str = "bill_of_lading", **more: object
) -> str:
    new = NewTrackingRequest.of(
        {"request_type": kind, "request_number": number, "scac": "TEST", **more}
    )
    return tracking_requests.create_request(world.runtime.context, caller, new).id


def shipment_of(world: World, caller: Caller, number: str) -> ShipmentRecord:
    page = shipments.list_shipments(
        world.runtime.context,
        caller,
        TrackingFilter(number=number),
        PageRequest(1, 5),
        ("containers",),
    )
    [found] = page.items
    return found


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """Account ``plain``: a container request (ref PO-9 on shipment and container), then two
    BLs sharing the text ALPHA (the second tracked an hour later); ``routing`` tracks the same
    container number in its own account."""
    world = make_world(f"sqlite:///{Path(tmp_path_factory.mktemp('search')) / 's.db'}")
    track(world, world.plain, CONTAINER, "container", ref_numbers=["PO-9"])
    track(world, world.plain, "BL-ALPHA-1", ref_numbers=["ORDER-77"])
    world.runtime.tracking.tick()
    world.clock.advance(3600)
    track(world, world.plain, "BL-ALPHA-2")
    track(world, world.plain, "TEST-TR-AWAITING", ref_numbers=["WAIT-1"])
    track(world, world.routing, CONTAINER, "container")
    world.runtime.tracking.tick()
    yield world
    world.runtime.stop()
    world.runtime.engine.dispose()


def resolve(world: World, text: str, caller: Caller | None = None) -> search.Resolution:
    return search.resolve(world.runtime.context, caller or world.plain, text)


@pytest.mark.parametrize("text", [CONTAINER, "csqu3054383", "CSQU 305438-3", " csqu-305438 3 "])
def test_resolve__exact_container_any_case_and_separators(fleet: World, text: str) -> None:
    shipment = shipment_of(fleet, fleet.plain, CONTAINER)
    container = next(c for c in shipment.containers or () if c.number == CONTAINER)
    found = resolve(fleet, text)
    assert (found.kind, found.shipment_id, found.container_id) == (
        ResolutionKind.CONTAINER,
        shipment.id,
        container.id,
    )


def test_resolve__exact_bill_of_lading_any_case(fleet: World) -> None:
    shipment = shipment_of(fleet, fleet.plain, "BL-ALPHA-1")
    found = resolve(fleet, "bl-alpha-1")
    assert (found.kind, found.shipment_id, found.container_id) == (
        ResolutionKind.SHIPMENT,
        shipment.id,
        None,
    )


def test_resolve__exact_booking_number(fleet: World) -> None:
    shipment = shipment_of(fleet, fleet.plain, "BL-ALPHA-1")
    assert shipment.booking_number
    found = resolve(fleet, shipment.booking_number.lower())
    assert (found.kind, found.shipment_id) == (ResolutionKind.SHIPMENT, shipment.id)


def test_resolve__shipment_reference_number(fleet: World) -> None:
    shipment = shipment_of(fleet, fleet.plain, "BL-ALPHA-1")
    assert resolve(fleet, "order-77") == search.Resolution(
        ResolutionKind.SHIPMENT, "order-77", shipment.id
    )


def test_resolve__container_reference_number_gives_its_shipment(fleet: World) -> None:
    """PO-9 is on the container too; an exact reference number leads to the shipment."""
    shipment = shipment_of(fleet, fleet.plain, CONTAINER)
    found = resolve(fleet, "PO-9")
    assert (found.kind, found.shipment_id, found.container_id) == (
        ResolutionKind.SHIPMENT,
        shipment.id,
        None,
    )


def test_resolve__partial_container(fleet: World) -> None:
    shipment = shipment_of(fleet, fleet.plain, CONTAINER)
    container = next(c for c in shipment.containers or () if c.number == CONTAINER)
    found = resolve(fleet, "3054-38")
    assert (found.kind, found.shipment_id, found.container_id) == (
        ResolutionKind.PARTIAL_CONTAINER,
        shipment.id,
        container.id,
    )


def test_resolve__partial_shipment_newest_first(fleet: World) -> None:
    newest = shipment_of(fleet, fleet.plain, "BL-ALPHA-2")
    found = resolve(fleet, "alpha")
    assert (found.kind, found.shipment_id) == (ResolutionKind.PARTIAL_SHIPMENT, newest.id)
    assert resolve(fleet, "alpha") == found  # the same answer every time


def test_resolve__no_match_keeps_the_query(fleet: World) -> None:
    assert resolve(fleet, " nothing-like-it ") == search.Resolution(
        ResolutionKind.NONE, "nothing-like-it"
    )


def test_resolve__only_the_callers_account(fleet: World) -> None:
    """The other account tracks the same container: each finds its own."""
    mine = resolve(fleet, CONTAINER)
    theirs = resolve(fleet, CONTAINER, fleet.routing)
    assert mine.container_id != theirs.container_id
    assert resolve(fleet, "BL-ALPHA-1", fleet.routing).kind is ResolutionKind.NONE


def test_resolve__exact_container_before_anything_else(fleet: World) -> None:
    """A text that is both a container number and part of another number is the container."""
    assert resolve(fleet, CONTAINER).kind is ResolutionKind.CONTAINER


@pytest.mark.parametrize("text", ["", "   ", "x" * 101, "a\x00b"])
def test_resolve__bad_text_names_q(fleet: World, text: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        resolve(fleet, text)
    assert raised.value.field == "q"


def test_search__shipments_then_containers_then_open_requests(fleet: World) -> None:
    hits = search.search(fleet.runtime.context, fleet.plain, "-")
    kinds = [hit.kind for hit in hits]
    assert kinds == sorted(
        kinds, key=[HitKind.SHIPMENT, HitKind.CONTAINER, HitKind.TRACKING_REQUEST].index
    )
    requests = [hit for hit in hits if hit.kind is HitKind.TRACKING_REQUEST]
    assert [hit.number for hit in requests] == ["TEST-TR-AWAITING"]  # the found ones are shipments


def test_search__exact_first(fleet: World) -> None:
    hits = search.search(fleet.runtime.context, fleet.plain, "BL-ALPHA-1")
    assert hits[0].number == "BL-ALPHA-1" and hits[0].exact
    assert all(not hit.exact for hit in hits[1:])


def test_search__container_by_spaced_number(fleet: World) -> None:
    [hit] = [
        h
        for h in search.search(fleet.runtime.context, fleet.plain, "csqu 305438 3")
        if h.kind is HitKind.CONTAINER
    ]
    assert (hit.number, hit.exact, hit.status) == (CONTAINER, True, hit.status)
    assert hit.port_of_discharge_name


def test_search__limit(fleet: World) -> None:
    assert len(search.search(fleet.runtime.context, fleet.plain, "-", limit=1)) == 1
    with pytest.raises(InvalidInput):
        search.search(fleet.runtime.context, fleet.plain, "-", limit=0)


def test_search__statements_do_not_grow_with_the_hits(fleet: World) -> None:
    """One query per kind of hit and one for the containers' count, however many match."""
    with counting(fleet) as statements:
        hits = search.search(fleet.runtime.context, fleet.plain, "-", limit=100)
    assert len(hits) >= 6
    assert len(statements) <= 4

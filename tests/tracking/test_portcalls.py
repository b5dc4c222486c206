"""The tracking sync keeps each container's port calls (route locations): one row per call of
every voyage the simulated carrier plans, estimates until the events give the actual times.
Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from itertools import pairwise

import pytest
from sqlalchemy import select

from sealane.store.models import Container, RouteLocation, TransportEvent, Vessel
from sealane.tracking.carriers.base import PlannedLeg
from sealane.tracking.portcalls import planned_estimates
from tests.service.conftest import World, make_world
from tests.service.container_routes.routes_support import DIRECT, TRANSSHIPPED, plan_of, track
from tests.toolkit import START

#: Three containers on CNNGB -> AEJEA -> USLAX (asserted below).
THREE_CONTAINERS = "TEST-TR-ROUTE01"


@pytest.fixture
def world(database_url: str) -> Iterator[World]:
    made = make_world(database_url)
    for number in (TRANSSHIPPED, DIRECT, THREE_CONTAINERS):
        track(made, number)
    made.runtime.tracking.tick()
    yield made
    made.runtime.stop()
    made.runtime.engine.dispose()


def calls(world: World, number: str) -> dict[str, list[RouteLocation]]:
    """Each container's rows by container number, in sequence order."""
    with world.runtime.sessions() as session:
        rows = session.execute(
            select(Container.number, RouteLocation)
            .join(RouteLocation, RouteLocation.container_id == Container.id)
            .where(Container.number.in_([c.number for c in plan_of(number).containers]))
            .order_by(Container.number, RouteLocation.sequence)
        ).all()
    found: dict[str, list[RouteLocation]] = {}
    for container_number, row in rows:
        found.setdefault(container_number, []).append(row)
    return found


def vessel_imo(world: World, vessel_id: str | None) -> str | None:
    with world.runtime.sessions() as session:
        vessel = session.get(Vessel, vessel_id) if vessel_id else None
        return vessel.imo if vessel else None


def advance(world: World, to: datetime) -> None:
    world.clock.advance((to - world.clock.now()).total_seconds())
    world.runtime.tracking.tick()


@pytest.mark.parametrize("number", [TRANSSHIPPED, DIRECT, THREE_CONTAINERS])
def test_sync__one_row_per_call_of_every_container(world: World, number: str) -> None:
    plan = plan_of(number)
    ports = [plan.legs[0].origin, *(leg.destination for leg in plan.legs)]
    found = calls(world, number)
    assert sorted(found) == sorted(c.number for c in plan.containers)
    for rows in found.values():
        assert [r.port_locode for r in rows] == ports
        assert [r.sequence for r in rows] == list(range(1, len(ports) + 1))
        for leg, (origin, destination) in zip(plan.legs, pairwise(rows), strict=True):
            assert vessel_imo(world, origin.outbound_vessel_id) == leg.vessel_imo
            assert origin.outbound_vessel_id == destination.inbound_vessel_id
            assert origin.outbound_voyage_number == destination.inbound_voyage_number
            assert origin.outbound_voyage_number == leg.voyage_number
            assert (origin.outbound_mode, destination.inbound_mode) == ("vessel", "vessel")
            assert origin.outbound_scac == destination.inbound_scac == "TEST"
            # Not departed: the carrier's estimate, never before the planned departure.
            assert origin.outbound_etd_at is not None and origin.outbound_etd_at >= leg.depart_at
            assert destination.inbound_eta_at is not None
        assert rows[0].outbound_etd_at == plan.legs[0].depart_at
        assert rows[0].inbound_mode is rows[0].inbound_vessel_id is rows[0].inbound_eta_at is None
        assert rows[-1].outbound_mode is rows[-1].outbound_vessel_id is None
        assert rows[-1].terminal_id is not None and rows[0].terminal_id is None
        assert {r.created_at for r in rows} == {r.updated_at for r in rows} == {START}


def test_sync__three_containers_plan_is_the_one_described() -> None:
    plan = plan_of(THREE_CONTAINERS)
    assert [leg.origin for leg in plan.legs] == ["CNNGB", "AEJEA"] and len(plan.containers) == 3


def test_sync__actual_times_replace_estimates(world: World) -> None:
    legs = plan_of(TRANSSHIPPED).legs
    advance(world, legs[0].arrive_at + timedelta(hours=1))
    (rows,) = calls(world, TRANSSHIPPED).values()
    assert (rows[0].outbound_atd_at, rows[0].outbound_etd_at) == (legs[0].depart_at, None)
    assert (rows[1].inbound_ata_at, rows[1].inbound_eta_at) == (legs[0].arrive_at, None)
    assert rows[1].outbound_atd_at is None and rows[1].outbound_etd_at is not None
    assert rows[2].inbound_ata_at is None and rows[2].inbound_eta_at is not None
    assert rows[0].updated_at == world.clock.now()


def test_sync__rows_left_alone_while_nothing_changes(world: World) -> None:
    """Before departure the carrier's estimates stand still: a later sync writes nothing."""
    advance(world, START + timedelta(hours=5))
    for rows in calls(world, TRANSSHIPPED).values():
        assert {r.updated_at for r in rows} == {START}


def test_sync__an_arrival_recorded_by_another_source_is_the_actual(world: World) -> None:
    """An arrival event written outside the carrier's plan (as AIS does) dates the call at the
    next sync, before the carrier reports anything."""
    legs = plan_of(DIRECT).legs
    seen_at = legs[0].arrive_at - timedelta(hours=3)
    with world.runtime.sessions.begin() as session:
        container = session.scalars(
            select(Container).where(Container.number == plan_of(DIRECT).containers[0].number)
        ).one()
        session.add(
            TransportEvent(
                account_id=container.account_id,
                shipment_id=container.shipment_id,
                container_id=container.id,
                event="container.transport.vessel_arrived",
                sequence=-1,
                timestamp=seen_at,
                location_locode="BEANR",
                data_source="ais",
                created_at=seen_at,
            )
        )
    advance(world, seen_at + timedelta(hours=1))
    (rows,) = calls(world, DIRECT).values()
    assert (rows[1].inbound_ata_at, rows[1].inbound_eta_at) == (seen_at, None)
    assert rows[0].outbound_atd_at == legs[0].depart_at


def test_planned_estimates__from_the_legs_when_the_carrier_states_none() -> None:
    legs: tuple[PlannedLeg, ...] = plan_of(TRANSSHIPPED).legs
    estimates = planned_estimates(legs)
    assert [e.arrival_at for e in estimates] == [None, legs[0].arrive_at, legs[1].arrive_at]
    assert [e.departure_at for e in estimates] == [legs[0].depart_at, legs[1].depart_at, None]

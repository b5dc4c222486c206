"""The container route and map use cases, with simulated containers put at each phase of their
voyage by the manual clock: not departed, on the first leg, at the transshipment port, mid
Pacific on the last leg, delivered; one route with a transshipment and one without."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event

import sealane
from sealane.service.access.gatekeeper import Caller
from sealane.service.container_routes import reading as routes
from sealane.service.container_routes.map_features import map_features
from sealane.service.container_routes.records import ContainerRoute, MapFeatures, Phase
from sealane.service.core.errors import FeatureDisabled, ObjectNotFound
from sealane.service.tracking.requests import get_request
from sealane.service.tracking.shipments import get_shipment
from tests.toolkit import START

from ..conftest import World, make_world
from .routes_support import (
    DIRECT,
    TRANSSHIPPED,
    advance_to,
    apart_m,
    assert_joined,
    assert_rfc7946_lines,
    kinds,
    phase_times,
    plan_of,
    track,
)


@dataclass(frozen=True)
class Seen:
    """A container's route and map as the use cases gave them at one phase."""

    route: ContainerRoute
    map: MapFeatures

    @property
    def geojson(self) -> dict[str, Any]:
        return self.map.to_geojson()

    def features(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.map.features if f["properties"]["feature_type"] == kind]


@dataclass(frozen=True)
class Journey:
    world: World
    containers: dict[str, str]
    seen: dict[tuple[str, str], Seen]


@pytest.fixture(scope="module")
def journey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journey]:
    """Both containers followed from the request to delivery, ticking every hour for the half
    day before each look so the vessels' positions are recorded."""
    world = make_world(f"sqlite:///{tmp_path_factory.mktemp('routes') / 'sealane.db'}")
    ctx, tick = world.runtime.context, world.runtime.tracking.tick
    requests = {number: track(world, number) for number in (TRANSSHIPPED, DIRECT)}
    tick()
    containers = {}
    for number, request_id in requests.items():
        shipment_id = get_request(ctx, world.routing, request_id).shipment_id
        assert shipment_id is not None
        (containers[number],) = get_shipment(ctx, world.routing, shipment_id).container_ids
    seen = {}
    for phase, when in phase_times(TRANSSHIPPED).items():
        advance_to(world.clock, when, tick, hourly_for_s=12 * 3600)
        for number, container_id in containers.items():
            seen[number, phase] = Seen(
                routes.container_route(ctx, world.routing, container_id, routes.INCLUDES),
                routes.container_map(ctx, world.routing, container_id),
            )
    yield Journey(world, containers, seen)
    world.runtime.stop()
    world.runtime.engine.dispose()


PHASES = list(phase_times(TRANSSHIPPED))
ALL_SEEN = [(TRANSSHIPPED, phase) for phase in PHASES] + [(DIRECT, phase) for phase in PHASES]


def test_fixture__plans_are_the_ones_described() -> None:
    transshipped, direct = plan_of(TRANSSHIPPED), plan_of(DIRECT)
    assert [leg.origin for leg in transshipped.legs] == ["VNSGN", "SGSIN"]
    assert transshipped.port_of_discharge == "USLGB" and len(transshipped.containers) == 1
    assert [(leg.origin, leg.destination) for leg in direct.legs] == [("VNSGN", "BEANR")]
    assert len(direct.containers) == 1
    assert PHASES == ["not_departed", "first_leg", "transshipment", "last_leg", "delivered"]


# -- the route -------------------------------------------------------------------------------


def test_route__transshipment_calls_in_order_with_their_legs(journey: Journey) -> None:
    route = journey.seen[TRANSSHIPPED, "not_departed"].route
    plan = plan_of(TRANSSHIPPED)
    assert [c.port_locode for c in route.locations] == ["VNSGN", "SGSIN", "USLGB"]
    assert [c.sequence for c in route.locations] == [1, 2, 3]
    pol, ts, pod = route.locations
    assert (pol.inbound_mode, pol.outbound_mode) == (None, "vessel")
    assert (ts.inbound_mode, ts.outbound_mode) == ("vessel", "vessel")
    assert (pod.inbound_mode, pod.outbound_mode) == ("vessel", None)
    assert pol.outbound_voyage_number == ts.inbound_voyage_number == plan.legs[0].voyage_number
    assert ts.outbound_voyage_number == pod.inbound_voyage_number == plan.legs[1].voyage_number
    assert pol.outbound_vessel is not None and pol.outbound_vessel.imo == plan.legs[0].vessel_imo
    assert ts.outbound_vessel is not None and ts.outbound_vessel.imo == plan.legs[1].vessel_imo
    assert pol.outbound_vessel_id == ts.inbound_vessel_id != ts.outbound_vessel_id
    assert {c.inbound_scac for c in route.locations[1:]} == {"TEST"}
    assert pod.terminal is not None and pod.terminal.port_locode == "USLGB"
    assert pol.terminal_id is None and ts.terminal_id is None
    assert route.shipment is not None and route.shipment.id == route.shipment_id
    assert route.id == routes.route_id(route.container_id)


def test_route__without_transshipment_two_calls(journey: Journey) -> None:
    route = journey.seen[DIRECT, "last_leg"].route
    assert [c.port_locode for c in route.locations] == ["VNSGN", "BEANR"]
    pol, pod = route.locations
    assert pol.outbound_vessel_id == pod.inbound_vessel_id is not None
    assert pol.outbound_atd_at == plan_of(DIRECT).legs[0].depart_at
    assert pod.inbound_ata_at is None and pod.inbound_eta_at is not None


def test_route__estimates_replaced_by_actuals_as_the_voyage_goes(journey: Journey) -> None:
    legs = plan_of(TRANSSHIPPED).legs
    before = journey.seen[TRANSSHIPPED, "not_departed"].route.locations
    assert [c.outbound_etd_at for c in before[:2]] == [legs[0].depart_at, legs[1].depart_at]
    assert all(c.outbound_atd_at is None and c.inbound_ata_at is None for c in before)
    at_hub = journey.seen[TRANSSHIPPED, "transshipment"].route.locations
    assert (at_hub[0].outbound_atd_at, at_hub[0].outbound_etd_at) == (legs[0].depart_at, None)
    assert (at_hub[1].inbound_ata_at, at_hub[1].inbound_eta_at) == (legs[0].arrive_at, None)
    assert at_hub[1].outbound_atd_at is None and at_hub[1].outbound_etd_at is not None
    done = journey.seen[TRANSSHIPPED, "delivered"].route.locations
    assert [c.inbound_ata_at for c in done[1:]] == [legs[0].arrive_at, legs[1].arrive_at]
    assert all(c.inbound_eta_at is None and c.outbound_etd_at is None for c in done)
    assert done[-1].updated_at > before[-1].updated_at
    assert [c.id for c in done] == [c.id for c in before]  # the same rows, updated


def test_route__feature_off_is_refused_before_the_container_is_looked_up(
    journey: Journey,
) -> None:
    ctx, plain = journey.world.runtime.context, journey.world.plain
    for use_case in (routes.container_route, routes.container_map):
        with pytest.raises(FeatureDisabled) as refused:
            use_case(ctx, plain, journey.containers[DIRECT])
        assert refused.value.code == "routing_disabled"


def test_route__another_accounts_container_is_not_found(journey: Journey) -> None:
    ctx = journey.world.runtime.context
    stranger = Caller("another-account", True)
    for use_case in (routes.container_route, routes.container_map):
        for container_id in (journey.containers[DIRECT], "no-such-container", "x" * 500):
            with pytest.raises(ObjectNotFound):
                use_case(ctx, stranger, container_id)


def test_route__statements_do_not_grow_with_the_calls(journey: Journey) -> None:
    """Every include, two calls or three: the same handful of statements."""
    world = journey.world
    counts = []
    for number in (DIRECT, TRANSSHIPPED):
        statements: list[str] = []

        def record(*args: Any, found: list[str] = statements) -> None:
            found.append(str(args[2]))

        event.listen(world.runtime.engine, "before_cursor_execute", record)
        try:
            routes.container_route(
                world.runtime.context, world.routing, journey.containers[number], routes.INCLUDES
            )
        finally:
            event.remove(world.runtime.engine, "before_cursor_execute", record)
        counts.append(len(statements))
    assert counts[0] == counts[1] <= 12


# -- the map ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("number", "phase"), ALL_SEEN)
def test_map__pieces_join_within_a_metre(journey: Journey, number: str, phase: str) -> None:
    seen = journey.seen[number, phase]
    assert_joined(seen.geojson)
    assert_rfc7946_lines(seen.geojson)


@pytest.mark.parametrize("number", [TRANSSHIPPED, DIRECT])
def test_map__not_departed_ports_and_estimated_legs_only(journey: Journey, number: str) -> None:
    seen = journey.seen[number, "not_departed"]
    assert seen.map.phase is Phase.NOT_DEPARTED
    assert {f["properties"]["feature_type"] for f in seen.map.features} == {
        "port",
        "estimated_full_legs",
    }
    ports = seen.features("port")
    assert [p["properties"]["label"] for p in ports] == (
        ["POL", "TS1", "POD"] if number == TRANSSHIPPED else ["POL", "POD"]
    )
    etd = plan_of(number).legs[0].depart_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert ports[0]["properties"]["outbound_etd_at"] == etd


def test_map__first_leg_vessel_partial_leg_then_full_leg(journey: Journey) -> None:
    seen = journey.seen[TRANSSHIPPED, "first_leg"]
    assert seen.map.phase is Phase.AT_SEA
    assert kinds(seen.geojson) == [
        "port", "past_vessel_locations", "current_vessel", "estimated_partial_leg",
        "port", "estimated_full_legs", "port",
    ]  # fmt: skip
    (vessel,) = seen.features("current_vessel")
    props = vessel["properties"]
    leg = plan_of(TRANSSHIPPED).legs[0]
    assert (props["vessel_name"], props["vessel_imo"]) == (leg.vessel_name, leg.vessel_imo)
    assert props["voyage_number"] == leg.voyage_number
    assert props["departure_port_atd"] == leg.depart_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert props["arrival_port_label"] == "TS1"
    assert props["vessel_location_speed"] == pytest.approx(leg.speed_kn)
    when = journey.seen[TRANSSHIPPED, "first_leg"].map
    assert when.container_id == journey.containers[TRANSSHIPPED]


def test_map__track_sailed_from_recorded_positions(journey: Journey) -> None:
    """Twelve hourly positions were recorded before the look: the track runs through them as
    reported; the stretch before the first one is the sea lane, marked estimated."""
    seen = journey.seen[TRANSSHIPPED, "last_leg"]
    past = [
        f for f in seen.features("past_vessel_locations") if f["properties"]["ports_sequence"] == 2
    ]
    flags = [f["properties"]["estimated"] for f in past]
    assert flags[0] is True and flags[-1] is False
    reported = [
        p for f in past if not f["properties"]["estimated"] for p in f["geometry"]["coordinates"]
    ]
    assert len(reported) >= 12
    assert all(f["properties"]["vessel_id"] == past[0]["properties"]["vessel_id"] for f in past)
    (vessel,) = seen.features("current_vessel")
    assert past[-1]["geometry"]["coordinates"][-1] == vessel["geometry"]["coordinates"]
    first_leg = [
        f for f in seen.features("past_vessel_locations") if f["properties"]["ports_sequence"] == 1
    ]
    assert first_leg and any(not f["properties"]["estimated"] for f in first_leg)


def test_map__last_leg_mid_pacific_split_at_the_antimeridian(journey: Journey) -> None:
    seen = journey.seen[TRANSSHIPPED, "last_leg"]
    assert seen.map.phase is Phase.AT_SEA
    assert kinds(seen.geojson) == [
        "port", "past_vessel_locations", "port", "past_vessel_locations", "current_vessel",
        "estimated_partial_leg", "port",
    ]  # fmt: skip
    lines = [
        f["geometry"]["coordinates"]
        for f in seen.map.features
        if f["geometry"]["type"] == "LineString"
    ]
    on_meridian = [line for line in lines if abs(line[-1][0]) == 180.0]
    assert len(on_meridian) == 1  # one crossing: the part after it starts on the other side
    after = lines[lines.index(on_meridian[0]) + 1]
    assert after[0] == [-on_meridian[0][-1][0], on_meridian[0][-1][1]]


def test_map__at_transshipment_port_no_vessel(journey: Journey) -> None:
    seen = journey.seen[TRANSSHIPPED, "transshipment"]
    assert seen.map.phase is Phase.IN_PORT
    assert kinds(seen.geojson) == [
        "port", "past_vessel_locations", "port", "estimated_full_legs", "port",
    ]  # fmt: skip
    hub = seen.features("port")[1]["properties"]
    arrived = plan_of(TRANSSHIPPED).legs[0].arrive_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert (hub["inbound_ata_at"], hub["inbound_eta_at"]) == (arrived, None)
    assert hub["outbound_etd_at"] is not None and hub["outbound_atd_at"] is None


@pytest.mark.parametrize("number", [TRANSSHIPPED, DIRECT])
def test_map__delivered_has_no_estimated_leg_nor_vessel(journey: Journey, number: str) -> None:
    seen = journey.seen[number, "delivered"]
    assert seen.map.phase is Phase.DELIVERED
    assert {f["properties"]["feature_type"] for f in seen.map.features} == {
        "port",
        "past_vessel_locations",
    }
    pod = seen.features("port")[-1]["properties"]
    arrived = plan_of(number).legs[-1].arrive_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert (pod["inbound_ata_at"], pod["inbound_eta_at"]) == (arrived, None)


def test_map__ports_on_the_engine_registry(journey: Journey) -> None:
    seen = journey.seen[TRANSSHIPPED, "first_leg"]
    for feature, call in zip(seen.features("port"), seen.route.locations, strict=True):
        port = sealane.get_port(call.port_locode)
        assert feature["geometry"]["coordinates"] == [port.lon, port.lat]
        assert feature["properties"]["location_id"] == port.id
        assert feature["properties"]["updated_at"] is not None


def test_map__vessel_where_it_was_last_seen(journey: Journey) -> None:
    seen = journey.seen[DIRECT, "last_leg"]
    (vessel,) = seen.features("current_vessel")
    record = seen.route.locations[0].outbound_vessel
    assert record is not None and record.longitude is not None and record.latitude is not None
    assert apart_m(vessel["geometry"]["coordinates"], [record.longitude, record.latitude]) < 1.0
    props = vessel["properties"]
    assert props["vessel_location_heading"] == pytest.approx(record.navigational_heading_degrees)
    assert props["arrival_port_predicted_eta"] is not None
    seen_at = record.position_timestamp
    assert seen_at is not None
    assert props["vessel_location_timestamp"] == seen_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert timedelta(0) <= phase_times(TRANSSHIPPED)["last_leg"] - seen_at < timedelta(hours=1)


def test_map__no_calls_yet_is_an_empty_collection() -> None:
    """A container whose route has no calls stored yet maps to no features."""
    empty = ContainerRoute("r", "c", "s", START, START, ())
    found = map_features(empty, {})
    assert (found.phase, found.features) == (Phase.UNKNOWN, ())

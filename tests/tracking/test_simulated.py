"""The simulated carrier (SCAC TEST): deterministic plans, real ports, timed legs, lookups."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

import sealane
from sealane.routing.geodesy import distance_m
from sealane.routing.landmask import default_landmask
from sealane.routing.ports import registry
from sealane.tracking.carriers import (
    AwaitingManifest,
    Found,
    ShipmentPlan,
    SimulatedCarrier,
    UnknownNumber,
    Unreachable,
)
from sealane.tracking.carriers.simulated import plan_voyage
from sealane.tracking.carriers.simulated_sailing import to_minute
from sealane.tracking.numbers import is_container_number

START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
T = "container.transport."
#: Container numbers (valid ISO 6346) and bills of lading used across the tests.
WITH_TRANSSHIPMENT = "CSQU3054383"  # CNSHA -> SGSIN -> USSAV
WITHOUT_TRANSSHIPMENT = "TCLU1234568"  # JPYOK -> BEANR
BILLS = tuple(f"BL{k:04d}" for k in range(40))
#: The order of one container's events; the transshipment block appears once per hub.
BEFORE_HUB = ("empty_out", "full_in", "vessel_loaded", "vessel_departed")
AT_HUB = (
    "transshipment_arrived",
    "transshipment_discharged",
    "transshipment_loaded",
    "transshipment_departed",
)
AFTER_HUB = (
    "vessel_arrived",
    "vessel_berthed",
    "vessel_discharged",
    "available",
    "full_out",
    "empty_in",
)
#: The Suez Canal is narrower than the land mask's arc-minute cells.
SUEZ = (32.2, 29.9, 32.7, 31.3)


def plan(number: str, request_type: str = "bill_of_lading") -> ShipmentPlan:
    return plan_voyage(request_type, number, START)


def container_events(the_plan: ShipmentPlan, index: int) -> list[str]:
    return [e.event.removeprefix(T) for e in the_plan.events if e.container == index]


# -- determinism ---------------------------------------------------------------------------------


def test_plan_voyage__deterministic() -> None:
    uncached = plan_voyage.__wrapped__  # type: ignore[attr-defined]
    first = uncached("container", WITH_TRANSSHIPMENT, START)
    again = uncached("container", WITH_TRANSSHIPMENT, START)
    assert first == again
    assert first == plan(WITH_TRANSSHIPMENT, "container")


def test_lookup__same_number_and_time_same_plan() -> None:
    carrier = SimulatedCarrier()
    one = carrier.lookup("bill_of_lading", "BL0007", requested_at=START, now=START)
    two = carrier.lookup("bill_of_lading", "BL0007", requested_at=START, now=START + timedelta(1))
    assert isinstance(one, Found) and isinstance(two, Found)
    assert one.plan == two.plan


def test_lookup__epoch_up_to_45_days_before_the_request() -> None:
    for number in BILLS:
        result = SimulatedCarrier().lookup("bill_of_lading", number, requested_at=START, now=START)
        assert isinstance(result, Found)
        assert START - timedelta(days=45) <= result.plan.epoch <= START


def test_plan_voyage__different_numbers_differ() -> None:
    plans = [plan(number) for number in BILLS]
    for one, two in itertools.combinations(plans[:10], 2):
        assert one != two
        assert one.bill_of_lading_number != two.bill_of_lading_number
    assert len({(p.port_of_lading, p.port_of_discharge) for p in plans}) > 5


def test_plan_voyage__different_epoch_shifts_the_timeline() -> None:
    later = plan_voyage("bill_of_lading", "BL0003", START + timedelta(days=1))
    early = plan("BL0003")
    shifts = {b.at - a.at for a, b in zip(early.events, later.events, strict=True)}
    assert shifts == {timedelta(days=1)}


# -- containers and ports ------------------------------------------------------------------------


def test_plan_voyage__one_to_three_valid_containers() -> None:
    counts = set()
    for number in BILLS:
        containers = plan(number).containers
        counts.add(len(containers))
        assert all(is_container_number(c.number) for c in containers)
        assert len({c.number for c in containers}) == len(containers)
    assert counts == {1, 2, 3}


@pytest.mark.parametrize("number", [WITH_TRANSSHIPMENT, WITHOUT_TRANSSHIPMENT, "MSKU9070323"])
def test_plan_voyage__container_request_first_container(number: str) -> None:
    assert plan(number, "container").containers[0].number == number


def test_plan_voyage__container_request_normalised_number() -> None:
    assert plan("csqu 305438-3", "container").containers[0].number == "CSQU3054383"


@pytest.mark.parametrize("request_type", ["bill_of_lading", "booking_number"])
def test_plan_voyage__requested_number_is_the_shipment_number(request_type: str) -> None:
    found = plan("ABC123", request_type)
    if request_type == "bill_of_lading":
        assert found.bill_of_lading_number == "ABC123"
    else:
        assert found.booking_number == "ABC123"


def test_plan_voyage__real_ports() -> None:
    for number in BILLS:
        found = plan(number)
        locodes = {found.port_of_lading, found.port_of_discharge, *found.transshipments}
        locodes |= {e.locode for e in found.events}
        for locode in locodes:
            assert sealane.get_port(locode).locode == locode
        assert found.legs[0].origin == found.port_of_lading
        assert found.legs[-1].destination == found.port_of_discharge


def test_plan_voyage__transshipment_present() -> None:
    found = plan(WITH_TRANSSHIPMENT, "container")
    assert found.transshipments == ("SGSIN",)
    assert [(leg.origin, leg.destination) for leg in found.legs] == [
        ("CNSHA", "SGSIN"),
        ("SGSIN", "USSAV"),
    ]


def test_plan_voyage__transshipment_absent() -> None:
    found = plan(WITHOUT_TRANSSHIPMENT, "container")
    assert found.transshipments == ()
    assert len(found.legs) == 1


def test_plan_voyage__transshipment_about_a_third_of_the_time() -> None:
    share = sum(bool(plan(number).transshipments) for number in BILLS) / len(BILLS)
    assert 0.1 < share < 0.6


def test_plan_voyage__vessels_have_valid_imo_numbers() -> None:
    for number in BILLS[:10]:
        for leg in plan(number).legs:
            imo = leg.vessel_imo
            weighted = sum(int(d) * w for d, w in zip(imo[:6], range(7, 1, -1), strict=True))
            assert len(imo) == 7 and weighted % 10 == int(imo[6])


# -- events --------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", BILLS[:20])
def test_plan_voyage__event_order_per_container(number: str) -> None:
    found = plan(number)
    expected = [*BEFORE_HUB, *AT_HUB * len(found.transshipments), *AFTER_HUB]
    for index in range(len(found.containers)):
        assert container_events(found, index) == expected
        times = [e.at for e in found.events if e.container == index]
        assert times == sorted(times)


def test_plan_voyage__events_sorted_by_time() -> None:
    for number in BILLS:
        times = [e.at for e in plan(number).events]
        assert times == sorted(times)


def test_plan_voyage__vessel_events_at_leg_times() -> None:
    found = plan(WITH_TRANSSHIPMENT, "container")
    by_name = {e.event.removeprefix(T): e for e in found.events}
    first, second = found.legs
    assert by_name["vessel_departed"].at == first.depart_at
    assert by_name["transshipment_arrived"].at == first.arrive_at
    assert by_name["transshipment_departed"].at == second.depart_at
    assert by_name["vessel_arrived"].at == second.arrive_at
    assert by_name["transshipment_arrived"].locode == "SGSIN"
    assert by_name["vessel_arrived"].locode == "USSAV"


@pytest.mark.parametrize("number", BILLS[:12])
def test_plan_voyage__sailing_time_is_sea_distance_over_speed(number: str) -> None:
    for leg in plan(number).legs:
        distance_nm = sealane.route(leg.origin, leg.destination).distance_nm
        assert leg.distance_nm == pytest.approx(distance_nm, rel=0.01)
        hours = (leg.arrive_at - leg.depart_at).total_seconds() / 3600
        assert hours == pytest.approx(distance_nm / leg.speed_kn, rel=0.01)
        assert 10.0 < leg.speed_kn < 20.0


def test_plan_voyage__legs_follow_each_other() -> None:
    for number in BILLS:
        legs = plan(number).legs
        for inbound, outbound in itertools.pairwise(legs):
            assert inbound.destination == outbound.origin
            assert inbound.arrive_at < outbound.depart_at


# -- lookups of the special numbers ---------------------------------------------------------------


def lookup(number: str, after: timedelta) -> object:
    return SimulatedCarrier().lookup(
        "bill_of_lading", number, requested_at=START, now=START + after
    )


@pytest.mark.parametrize("after", [timedelta(0), timedelta(days=3), timedelta(days=300)])
def test_lookup__test_tr_failed_not_found(after: timedelta) -> None:
    assert lookup("TEST-TR-FAILED", after) == UnknownNumber("not_found", final=True)


@pytest.mark.parametrize("after", [timedelta(0), timedelta(days=30)])
def test_lookup__test_tr_retrying_not_found_to_retry(after: timedelta) -> None:
    assert lookup("TEST-TR-RETRYING", after) == UnknownNumber("not_found")


@pytest.mark.parametrize("after", [timedelta(0), timedelta(hours=1, minutes=59, seconds=59)])
def test_lookup__test_tr_awaiting_before_two_hours(after: timedelta) -> None:
    assert lookup("TEST-TR-AWAITING", after) == AwaitingManifest(START + timedelta(hours=2))


@pytest.mark.parametrize("after", [timedelta(hours=2), timedelta(days=1)])
def test_lookup__test_tr_awaiting_found_after_two_hours(after: timedelta) -> None:
    assert isinstance(lookup("TEST-TR-AWAITING", after), Found)


@pytest.mark.parametrize("after", [timedelta(0), timedelta(minutes=59)])
def test_lookup__test_tr_flaky_unreachable_first_hour(after: timedelta) -> None:
    assert lookup("TEST-TR-FLAKY", after) == Unreachable("shipping_line_unreachable")


def test_lookup__test_tr_flaky_found_after_an_hour() -> None:
    assert isinstance(lookup("TEST-TR-FLAKY", timedelta(hours=1)), Found)


def test_lookup__test_tr_succeeded_found_at_once() -> None:
    result = lookup("TEST-TR-SUCCEEDED", timedelta(0))
    assert isinstance(result, Found)
    assert result.plan.epoch == START - timedelta(hours=12)


def test_lookup__special_numbers_case_insensitive() -> None:
    assert lookup("test-tr-failed", timedelta(0)) == UnknownNumber("not_found", final=True)


# -- snapshots: events so far, estimate, vessel position ------------------------------------------


def test_snapshot__events_and_updates_up_to_now() -> None:
    found = plan("BL0002")
    now = found.legs[0].depart_at + timedelta(days=2)
    snap = SimulatedCarrier().snapshot(("bill_of_lading", "BL0002", START), now)
    assert snap.events == tuple(e for e in found.events if e.at <= now)
    assert snap.updates == ()
    assert snap.pod_ata is None


def eta_error_h(number: str, at: datetime) -> float:
    snap = SimulatedCarrier().snapshot(("bill_of_lading", number, START), at)
    return abs((snap.pod_eta - plan(number).legs[-1].arrive_at).total_seconds()) / 3600


@pytest.mark.parametrize("number", BILLS[:8])
def test_snapshot__eta_converges_on_the_final_leg(number: str) -> None:
    last = plan(number).legs[-1]
    at = [last.depart_at + (last.arrive_at - last.depart_at) * f for f in (0.1, 0.5, 0.9, 0.99)]
    errors = [eta_error_h(number, moment) for moment in at]
    assert errors[1] < errors[0]
    assert errors[2] < errors[1]
    assert errors[3] < 3.0


@pytest.mark.parametrize("number", BILLS[:8])
def test_snapshot__eta_is_the_arrival_once_arrived(number: str) -> None:
    last = plan(number).legs[-1]
    for at in (last.arrive_at, last.arrive_at + timedelta(days=30)):
        snap = SimulatedCarrier().snapshot(("bill_of_lading", number, START), at)
        assert snap.pod_eta == last.arrive_at
        assert snap.pod_ata == last.arrive_at


def test_snapshot__eta_before_departure_at_nominal_speed() -> None:
    found = plan(WITHOUT_TRANSSHIPMENT, "container")
    leg = found.legs[0]
    snap = SimulatedCarrier().snapshot(("container", WITHOUT_TRANSSHIPMENT, START), START)
    assert snap.pod_eta == leg.depart_at + timedelta(hours=leg.distance_nm / leg.nominal_speed_kn)


@pytest.mark.parametrize("number", BILLS[:8])
def test_snapshot__estimates_at_sea_in_whole_minutes_and_still_within_one(number: str) -> None:
    """A carrier states its estimate at sea to the minute: seconds later, with the vessel sailing
    on at other than its nominal speed, the estimates it states are the same, and so is the
    position it reports (taken at the minute)."""
    leg = plan(number).legs[0]
    at = leg.depart_at + (leg.arrive_at - leg.depart_at) / 3
    at = at.replace(second=0, microsecond=0)
    snaps = [
        SimulatedCarrier().snapshot(("bill_of_lading", number, START), at + timedelta(seconds=s))
        for s in (0, 5, 10)
    ]
    first = snaps[0].call_estimates
    at_sea = first[1].arrival_at
    assert at_sea is not None and at_sea == to_minute(at_sea) and at_sea > at
    assert all(snap.call_estimates == first for snap in snaps)
    assert all(snap.vessel_position == snaps[0].vessel_position for snap in snaps)
    assert snaps[0].vessel_position is not None


def test_snapshot__no_vessel_position_outside_legs() -> None:
    found = plan(WITH_TRANSSHIPMENT, "container")
    first, second = found.legs
    carrier = SimulatedCarrier()
    key = ("container", WITH_TRANSSHIPMENT, START)
    for at in (first.depart_at - timedelta(hours=1), first.arrive_at, second.arrive_at):
        assert carrier.snapshot(key, at).vessel_position is None
    assert carrier.snapshot(key, first.arrive_at + timedelta(hours=1)).vessel_position is None


def positions(number: str, steps: int = 20) -> list[tuple[object, float, float, float, float]]:
    """(leg, fraction, lon, lat, heading) at evenly spaced moments inside every leg."""
    found = plan(number)
    carrier = SimulatedCarrier()
    out = []
    for index, leg in enumerate(found.legs):
        for step in range(1, steps):
            fraction = step / steps
            at = leg.depart_at + (leg.arrive_at - leg.depart_at) * fraction
            where = carrier.snapshot(("bill_of_lading", number, START), at).vessel_position
            assert where is not None
            assert where[0] == index
            assert where[4] == leg.speed_kn
            out.append((leg, fraction, where[1], where[2], where[3]))
    return out


@pytest.mark.parametrize("number", BILLS[:10])
def test_snapshot__vessel_position_between_origin_and_destination(number: str) -> None:
    for leg, fraction, lon, lat, heading in positions(number):
        origin, destination = sealane.get_port(leg.origin), sealane.get_port(leg.destination)
        length_m = sealane.route(leg.origin, leg.destination).distance_m
        # the path sailed so far is at least the straight line, and so is the path to go
        assert distance_m(origin.lon, origin.lat, lon, lat) <= fraction * length_m + 1_000
        rest = distance_m(lon, lat, destination.lon, destination.lat)
        assert rest <= (1 - fraction) * length_m + 1_000
        assert -180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0
        assert 0.0 <= heading < 360.0


def at_sea(lon: float, lat: float) -> bool:
    """Not on land, or near a port, or in the Suez Canal (narrower than a land mask cell)."""
    if not default_landmask().is_land(lon, lat):
        return True
    port = registry().nearest(lon, lat)
    if distance_m(lon, lat, port.lon, port.lat) <= 30_000:
        return True
    return SUEZ[0] <= lon <= SUEZ[2] and SUEZ[1] <= lat <= SUEZ[3]


@pytest.mark.parametrize("number", BILLS[:10])
def test_snapshot__vessel_position_at_sea(number: str) -> None:
    on_land = [
        (leg.origin, leg.destination, round(fraction, 2), lon, lat)
        for leg, fraction, lon, lat, _ in positions(number)
        if not at_sea(lon, lat)
    ]
    assert on_land == []


def test_snapshot__vessel_position_never_on_an_island() -> None:
    # Regression: the unrepaired searoute network ran CNSHA -> USSAV over Isla Guadalupe
    # (-118.30, 29.12) at about 58 % of the leg (issue 13).
    found = plan("BL0006")
    leg = found.legs[0]
    assert (leg.origin, leg.destination) == ("CNSHA", "USSAV")
    at = leg.depart_at + (leg.arrive_at - leg.depart_at) * (115 / 200)
    where = SimulatedCarrier().snapshot(("bill_of_lading", "BL0006", START), at).vessel_position
    assert where is not None
    assert at_sea(where[1], where[2])

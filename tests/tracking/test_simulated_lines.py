"""The simulated carrier's lines: their numbers sail their lanes, late as their habits draw it,
rolled with estimates that name the missed sailing until the carrier says so."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from sealane.tracking.carriers import Found, SimulatedCarrier
from sealane.tracking.carriers.simulated_lines import (
    FASTEST,
    LANES,
    LINES,
    ROLL,
    ROLL_NOTICE,
    line_of,
)
from sealane.tracking.carriers.simulated_voyage import habits_of, plan_voyage

ASKED = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
CARRIER = SimulatedCarrier()
NUMBERS = tuple(f"{line.scac}{k:07d}" for line in LINES for k in range(40))


def lookup(number: str) -> Found:
    found = CARRIER.lookup("bill_of_lading", number, requested_at=ASKED, now=ASKED)
    assert isinstance(found, Found)
    return found


def first_eta(number: str) -> datetime:
    plan = lookup(number).plan
    eta = CARRIER.snapshot(("bill_of_lading", number, plan.epoch), ASKED).pod_eta
    assert eta is not None
    return eta


def test_lines__answered_by_the_simulated_carrier() -> None:
    assert {line.scac for line in LINES} < CARRIER.scacs
    assert line_of("TEST-TR-SUCCEEDED") is None and line_of("tsta123") is LINES[0]


@pytest.mark.parametrize("number", NUMBERS[::7])
def test_line_number__sails_its_lines_lanes_booked_at_the_request(number: str) -> None:
    plan = lookup(number).plan
    assert plan.scac == number[:4]
    assert (plan.port_of_lading, plan.port_of_discharge) in {(o, d) for o, d, _ in LANES}
    assert plan.epoch == ASKED - timedelta(hours=12)
    assert plan.legs[0].depart_at > ASKED  # found before it sails: the first ETA is the booking's


@pytest.mark.parametrize("number", NUMBERS[::5])
def test_line_number__arrives_as_late_as_its_habits_drew(number: str) -> None:
    plan = lookup(number).plan
    habits = habits_of(line_of(number), number, plan.port_of_discharge)
    last = plan.legs[-1]
    nominal_h = last.distance_nm / last.nominal_speed_kn
    late_h = max(habits.late_h, (FASTEST - 1.0) * nominal_h)
    if plan.missed is None:
        drift_h = (last.arrive_at - first_eta(number)).total_seconds() / 3600
        assert drift_h == pytest.approx(late_h, abs=0.05)  # the estimates are to the minute


def test_lines__differ_as_their_habits_say() -> None:
    """Over 40 numbers each, the lines' mean lateness keeps their habits' order."""
    late: dict[str, float] = {}
    for line in LINES:
        numbers = [n for n in NUMBERS if n.startswith(line.scac)]
        late[line.scac] = sum(
            (lookup(n).plan.legs[-1].arrive_at - first_eta(n)).total_seconds() / 3600
            for n in numbers
        ) / len(numbers)
    assert late["TSTA"] < late["TSTC"] < late["TSTE"]


def test_rolled_number__estimates_name_the_missed_sailing_until_told() -> None:
    number = next(n for n in NUMBERS if lookup(n).plan.missed is not None)
    plan = lookup(number).plan
    missed = plan.missed
    assert missed is not None
    assert plan.legs[0].depart_at == missed.depart_at + ROLL
    assert missed.announced_at == missed.depart_at - ROLL_NOTICE
    key = ("bill_of_lading", number, plan.epoch)
    before = CARRIER.snapshot(key, missed.announced_at - timedelta(minutes=1))
    after = CARRIER.snapshot(key, missed.announced_at)
    assert before.pod_voyage_number == missed.voyage_number != plan.legs[-1].voyage_number
    assert after.pod_voyage_number is None  # the last leg's, as for any plan
    assert before.pod_eta is not None and after.pod_eta is not None
    assert after.pod_eta - before.pod_eta == ROLL  # the next sailing, a week later


def test_test_carrier_numbers__sail_as_planned() -> None:
    """The test carrier's own numbers are not a line's: no roll, no habits."""
    plan = plan_voyage("bill_of_lading", "BL0001", ASKED)
    assert plan.scac == "TEST" and plan.missed is None
    assert habits_of(None, "BL0001", plan.port_of_discharge).late_h == 0.0

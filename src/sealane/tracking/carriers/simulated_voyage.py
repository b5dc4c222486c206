"""The simulated carrier's voyages: the whole plan behind a number, seeded by the number itself.

Real ports of lading and discharge, one or two vessels (a transshipment about a third of the
time), one to three containers, and every gate, vessel and terminal event of each container at a
time computed from the engine's sea distance and a realistic speed. A number of one of the
simulated lines (:mod:`.simulated_lines`) sails that line's lanes, late, rolled and transshipped
as the line's habits draw it.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from ...routing.routes import route
from ..numbers import container_check_digit, imo_check_digit, normalize_container_number
from .base import (
    MissedSailing,
    PlannedContainer,
    PlannedEvent,
    PlannedLeg,
    PlannedUpdate,
    ShipmentPlan,
)
from .simulated_lines import FASTEST, LANES, ROLL, ROLL_NOTICE, LineHabits, line_of

T = "container.transport."
ORIGINS = ("CNSHA", "CNNGB", "CNYTN", "CNTAO", "KRPUS", "HKHKG", "CNXMN", "TWKHH", "JPYOK", "VNSGN")
DESTINATIONS = (
    "NLRTM",
    "BEANR",
    "DEHAM",
    "DEBRV",
    "GBFXT",
    "USLAX",
    "USLGB",
    "USNYC",
    "USSAV",
    "GRPIR",
)
HUBS = ("SGSIN", "MYTPP", "LKCMB", "AEJEA", "ESALG", "MYPKG")
NAMES = ("Aurora", "Meridian", "Halcyon", "Solstice", "Zephyr", "Tidewater", "Cassiopeia", "Orion")
SIZES = (("22G1", 20, "standard"), ("42G1", 40, "standard"), ("45G1", 40, "high_cube"))
HOLDS = ({"name": "customs", "status": "hold", "description": "Awaiting customs release"},)


def seeded(number: str) -> random.Random:
    """A random generator seeded by ``number``: the same number gives the same voyage."""
    return random.Random(int.from_bytes(hashlib.sha256(number.encode()).digest()[:8], "big"))


@dataclass(frozen=True, slots=True)
class Habits:
    """What a line's habits drew for one voyage: hours late against the first ETA (the last
    leg sails slower or faster to make them), and whether the cargo is rolled."""

    late_h: float = 0.0
    rolled: bool = False


#: The test carrier's own numbers sail as planned.
AS_PLANNED = Habits()


def habits_of(line: LineHabits | None, number: str, pod: str) -> Habits:
    """The lateness and roll of ``number``'s voyage to ``pod``, drawn from its line's habits
    (and the lane's congestion) by a generator of its own, seeded by the number."""
    if line is None:
        return AS_PLANNED
    rng = seeded(number + "/habits")
    congestion = next(hours for _, lane_pod, hours in LANES if lane_pod == pod)
    late_h = rng.gauss(line.late_mean_h + congestion * rng.random(), line.late_sd_h)
    return Habits(late_h, rng.random() < line.roll_chance)


@lru_cache(maxsize=4096)
def plan_voyage(request_type: str, number: str, epoch: datetime) -> ShipmentPlan:
    """The whole timeline of the shipment behind ``number``, starting at ``epoch``."""
    rng = seeded(number)
    line = line_of(number)
    if line is None:
        pol, pod = rng.choice(ORIGINS), rng.choice(DESTINATIONS)
    else:
        pol, pod, _ = rng.choice(LANES)
    chance = 0.35 if line is None else line.transship_chance
    hub = rng.choice([h for h in HUBS if h not in (pol, pod)]) if rng.random() < chance else None
    stops = [pol, hub, pod] if hub else [pol, pod]
    containers = _containers(rng, request_type, number)
    habits = habits_of(line, number, pod)
    booked = epoch + timedelta(days=rng.uniform(2.0, 4.0))
    depart = booked + ROLL if habits.rolled else booked
    legs = []
    for i, (origin, destination) in enumerate(itertools.pairwise(stops)):
        nominal = rng.uniform(15.0, 19.0)
        actual = nominal * rng.uniform(0.9, 1.04)
        distance = route(origin, destination).distance_nm
        if line is not None:  # the line's lateness is made on its last leg
            hours = distance / nominal
            last = i == len(stops) - 2
            actual = distance / max(hours * FASTEST, hours + habits.late_h) if last else nominal
        arrive = depart + timedelta(hours=distance / actual)
        legs.append(_leg(rng, i, origin, destination, depart, arrive, distance, actual, nominal))
        depart = arrive + timedelta(days=rng.uniform(2.0, 5.0))  # transshipment dwell
    events, updates = _timeline(rng, epoch, legs, len(containers))
    prefix = "TEST" if request_type != "bill_of_lading" else ""
    bl = number if request_type == "bill_of_lading" else f"{prefix}{rng.randrange(10**9, 10**10)}"
    booking = number if request_type == "booking_number" else f"BK{rng.randrange(10**8, 10**9)}"
    return ShipmentPlan(
        scac="TEST" if line is None else line.scac,
        bill_of_lading_number=bl,
        booking_number=booking,
        port_of_lading=pol,
        port_of_discharge=pod,
        transshipments=(hub,) if hub else (),
        legs=tuple(legs),
        containers=containers,
        events=events,
        updates=updates,
        terminal_choice=rng.randrange(1000),
        epoch=epoch,
        missed=_missed(legs[-1].voyage_number, booked) if habits.rolled else None,
    )


def _missed(voyage_number: str, depart_at: datetime) -> MissedSailing:
    """The sailing before the one numbered ``voyage_number``, leaving at ``depart_at``."""
    serial = int(voyage_number[:3])
    earlier = serial - 1 if serial > 100 else serial + 1
    return MissedSailing(f"{earlier}{voyage_number[3:]}", depart_at, depart_at - ROLL_NOTICE)


def _leg(
    rng: random.Random,
    index: int,
    origin: str,
    destination: str,
    depart: datetime,
    arrive: datetime,
    distance: float,
    actual: float,
    nominal: float,
) -> PlannedLeg:
    serial = f"{rng.randrange(900000):06d}"
    imo = f"9{serial[:5]}"
    return PlannedLeg(
        vessel_name=f"TEST {rng.choice(NAMES)} {rng.randrange(1, 99)}",
        vessel_imo=f"{imo}{imo_check_digit(imo)}",
        vessel_mmsi=f"{rng.randrange(200, 775)}{rng.randrange(10**6):06d}",
        voyage_number=f"{rng.randrange(100, 999)}{'EW'[index % 2]}",
        origin=origin,
        destination=destination,
        depart_at=depart,
        arrive_at=arrive,
        distance_nm=distance,
        speed_kn=actual,
        nominal_speed_kn=nominal,
    )


def _containers(rng: random.Random, request_type: str, number: str) -> tuple[PlannedContainer, ...]:
    count = rng.randint(1, 3)
    numbers = []
    if request_type == "container":
        numbers.append(normalize_container_number(number))
    while len(numbers) < count:
        first_ten = f"TSTU{rng.randrange(10**6):06d}"
        numbers.append(f"{first_ten}{container_check_digit(first_ten)}")
    found = []
    for value in numbers:
        _kind, length, height = rng.choice(SIZES)
        found.append(
            PlannedContainer(
                number=value,
                seal_number=f"SL{rng.randrange(10**7):07d}",
                equipment_type="dry",
                equipment_length=length,
                equipment_height=height,
                weight_in_lbs=rng.randrange(8_000, 52_000, 10),
            )
        )
    return tuple(found)


def _timeline(
    rng: random.Random, epoch: datetime, legs: list[PlannedLeg], containers: int
) -> tuple[tuple[PlannedEvent, ...], tuple[PlannedUpdate, ...]]:
    """Gate, vessel and terminal events of every container, in time order."""
    events: list[PlannedEvent] = []
    updates: list[PlannedUpdate] = []
    first, last = legs[0], legs[-1]
    for c in range(containers):
        steps: list[tuple[str, datetime, str, int | None]] = [
            ("empty_out", epoch + timedelta(hours=rng.uniform(0, 6)), first.origin, None),
            ("full_in", epoch + timedelta(days=rng.uniform(0.5, 1.5)), first.origin, None),
            (
                "vessel_loaded",
                first.depart_at - timedelta(hours=rng.uniform(4, 10)),
                first.origin,
                0,
            ),
            ("vessel_departed", first.depart_at, first.origin, 0),
        ]
        for i, (inbound, outbound) in enumerate(itertools.pairwise(legs)):
            hub = inbound.destination
            steps += [
                ("transshipment_arrived", inbound.arrive_at, hub, i),
                (
                    "transshipment_discharged",
                    inbound.arrive_at + timedelta(hours=rng.uniform(6, 18)),
                    hub,
                    i,
                ),
                (
                    "transshipment_loaded",
                    outbound.depart_at - timedelta(hours=rng.uniform(4, 10)),
                    hub,
                    i + 1,
                ),
                ("transshipment_departed", outbound.depart_at, hub, i + 1),
            ]
        arrived = last.arrive_at
        discharged = arrived + timedelta(hours=rng.uniform(10, 30))
        available = discharged + timedelta(hours=rng.uniform(12, 48))
        picked_up = available + timedelta(days=rng.uniform(1, 4))
        final = len(legs) - 1
        steps += [
            ("vessel_arrived", arrived, last.destination, final),
            (
                "vessel_berthed",
                arrived + timedelta(hours=rng.uniform(2, 8)),
                last.destination,
                final,
            ),
            ("vessel_discharged", discharged, last.destination, final),
            ("available", available, last.destination, None),
            ("full_out", picked_up, last.destination, None),
            ("empty_in", picked_up + timedelta(days=rng.uniform(3, 8)), last.destination, None),
        ]
        for sequence, (name, at, locode, leg) in enumerate(steps):
            source = (
                "terminal"
                if name in ("available", "full_out", "empty_in", "full_in")
                else "shipping_line"
            )
            events.append(PlannedEvent(c, sequence, T + name, at, locode, leg, source))
        updates += _terminal_updates(rng, c, discharged, available, picked_up)
    events.sort(key=lambda e: (e.at, e.container, e.sequence))
    updates.sort(key=lambda u: (u.at, u.container))
    return tuple(events), tuple(updates)


def _terminal_updates(
    rng: random.Random,
    container: int,
    discharged: datetime,
    available: datetime,
    picked_up: datetime,
) -> list[PlannedUpdate]:
    """Holds, availability, last free day, fees and the pickup appointment at the terminal."""
    hold = rng.random() < 0.5
    lfd = (available + timedelta(days=4)).replace(hour=23, minute=59, second=0, microsecond=0)
    found = [
        PlannedUpdate(
            container,
            discharged + timedelta(minutes=30),
            {"available_for_pickup": False, "holds_at_pod_terminal": list(HOLDS) if hold else []},
        ),
        PlannedUpdate(
            container,
            available,
            {"available_for_pickup": True, "holds_at_pod_terminal": [], "pickup_lfd": lfd},
        ),
        PlannedUpdate(
            container,
            available + (picked_up - available) / 2,
            {"pickup_appointment_at": picked_up - timedelta(hours=1)},
        ),
    ]
    if picked_up > lfd:
        fee = {
            "type": "demurrage",
            "amount": round(rng.uniform(150, 400), 2),
            "currency_code": "USD",
        }
        found.append(
            PlannedUpdate(container, lfd + timedelta(minutes=1), {"fees_at_pod_terminal": [fee]})
        )
    return found

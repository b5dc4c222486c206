"""A shipment's DCSA events read as the carrier interface's plan: legs, containers, events, ETA.

Vessel legs come from the TRANSPORT events: a departure (DEPA) from one call followed by an
arrival (ARRI) of the same vessel at the next; the first leg's origin is the port of lading,
the last leg's destination the port of discharge, the ports between are transshipments. Each
call's time is its actual event, else the newest estimate, else the newest plan.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from ...routing.errors import RoutingError
from ...routing.routes import route
from ...tracking.carriers.base import PlannedContainer, PlannedEvent, PlannedLeg, ShipmentPlan
from .events import DcsaEvent, TransportCall
from .mapping import Role, cancels_booking, is_known, sealane_event

SEA = ("VESSEL", "BARGE")
#: Equipment size (first ISO 6346 size-type character) in feet, and height (second).
LENGTHS = {"2": 20, "4": 40, "L": 45, "M": 48}
HIGH_CUBE = frozenset("5ENS")
KINDS = {"G": "dry", "R": "reefer", "U": "open_top", "P": "flat_rack", "T": "tank"}


@dataclass
class Timeline:
    """What the events say; ``plan`` is None while no vessel leg is known."""

    plan: ShipmentPlan | None
    events: tuple[PlannedEvent, ...] = ()
    pod_eta: datetime | None = None
    pod_ata: datetime | None = None
    cancelled: bool = False
    #: Events skipped, by reason (``unknown_code``, ``unrelated_container``, ...).
    skipped: Counter[str] = field(default_factory=Counter)


@dataclass
class _Call:
    call: TransportCall
    events: list[DcsaEvent] = field(default_factory=list)

    def time_of(self, code: str) -> datetime | None:
        """The call's DEPA or ARRI time: actual, else newest estimate, else newest plan."""
        for classifier in ("ACT", "EST", "PLN"):
            found = [e for e in self.events if e.code == code and e.classifier == classifier]
            if found:
                return max(found, key=lambda e: e.created_at).at
        return None


def sequence_of(event_id: str) -> int:
    """A stable positive number for an eventID: the tracking engine's key of the event row."""
    return int(hashlib.sha256(event_id.encode()).hexdigest()[:7], 16)


def build_timeline(
    scac: str, request_type: str, number: str, events: list[DcsaEvent], epoch: datetime
) -> Timeline:
    """The plan and the actual events of the shipment the ``events`` belong to."""
    skipped: Counter[str] = Counter()
    known = []
    for event in events:
        if is_known(event):
            known.append(event)
        else:
            skipped["unknown_code"] += 1
    if any(cancels_booking(e) for e in known):
        return Timeline(None, cancelled=True, skipped=skipped)
    legs = _legs(known)
    if not legs:
        return Timeline(None, skipped=skipped)
    containers = _containers(request_type, number, known)
    plan = _plan(scac, request_type, number, known, legs, containers, epoch)
    planned = _planned_events(known, legs, containers, skipped)
    pod = legs[-1].destination
    arrivals = [e for e in known if e.event_type == "TRANSPORT" and e.code == "ARRI"]
    at_pod = [e for e in arrivals if e.call is not None and e.call.locode == pod]
    actual = [e.at for e in at_pod if e.classifier == "ACT"]
    estimates = sorted(
        (e for e in at_pod if e.classifier in ("EST", "PLN")),
        key=lambda e: (e.classifier == "EST", e.created_at),
    )
    return Timeline(
        plan,
        events=planned,
        pod_eta=estimates[-1].at if estimates else None,
        pod_ata=min(actual) if actual else None,
        skipped=skipped,
    )


def _legs(events: list[DcsaEvent]) -> list[PlannedLeg]:
    calls: dict[str, _Call] = {}
    for event in events:
        if event.event_type == "TRANSPORT" and event.call and event.call.mode in SEA:
            calls.setdefault(event.call.id, _Call(event.call)).events.append(event)
    ordered = sorted(calls.values(), key=_call_order)
    legs = []
    for a, b in itertools.pairwise(ordered):
        depart, arrive = a.time_of("DEPA"), b.time_of("ARRI")
        same_vessel = a.call.vessel_imo is not None and a.call.vessel_imo == b.call.vessel_imo
        if not (same_vessel and depart and arrive and a.call.locode and b.call.locode):
            continue
        if a.call.locode == b.call.locode:
            continue
        legs.append(_leg(a.call, b.call, depart, arrive))
    return legs


def _call_order(call: _Call) -> tuple[datetime, int]:
    times = [t for t in (call.time_of("ARRI"), call.time_of("DEPA")) if t is not None]
    return (min(times), call.call.sequence or 0)


def _leg(a: TransportCall, b: TransportCall, depart: datetime, arrive: datetime) -> PlannedLeg:
    assert a.locode is not None and b.locode is not None
    try:
        distance = route(a.locode, b.locode).distance_nm
    except RoutingError:  # a place the engine does not know: no distance, no speed
        distance = 0.0
    hours = max((arrive - depart).total_seconds() / 3600.0, 1e-6)
    return PlannedLeg(
        vessel_name=a.vessel_name or b.vessel_name or f"IMO {a.vessel_imo}",
        vessel_imo=a.vessel_imo or "",
        vessel_mmsi=None,
        voyage_number=a.voyage or b.voyage or "",
        origin=a.locode,
        destination=b.locode,
        depart_at=depart,
        arrive_at=arrive,
        distance_nm=distance,
        speed_kn=distance / hours,
        nominal_speed_kn=distance / hours,
    )


def _containers(
    request_type: str, number: str, events: list[DcsaEvent]
) -> tuple[PlannedContainer, ...]:
    codes: dict[str, str | None] = {}
    if request_type == "container":
        codes[number.upper()] = None
    for event in sorted(events, key=lambda e: e.created_at):
        if event.equipment:
            codes[event.equipment] = event.iso_code or codes.get(event.equipment)
    return tuple(_container(n, iso) for n, iso in codes.items())


def _container(number: str, iso: str | None) -> PlannedContainer:
    code = (iso or "").upper()
    return PlannedContainer(
        number=number[:11],
        seal_number="",
        equipment_type=KINDS.get(code[2:3], "dry"),
        equipment_length=LENGTHS.get(code[:1], 40),
        equipment_height="high_cube" if code[1:2] in HIGH_CUBE else "standard",
        weight_in_lbs=0,
    )


def _plan(
    scac: str,
    request_type: str,
    number: str,
    events: list[DcsaEvent],
    legs: list[PlannedLeg],
    containers: tuple[PlannedContainer, ...],
    epoch: datetime,
) -> ShipmentPlan:
    refs = set().union(*(e.refs for e in events)) if events else set()
    bl = number if request_type == "bill_of_lading" else _ref(refs, "TRD")
    booking = number if request_type == "booking_number" else _ref(refs, "BKG")
    return ShipmentPlan(
        scac=scac,
        bill_of_lading_number=bl,
        booking_number=booking,
        port_of_lading=legs[0].origin,
        port_of_discharge=legs[-1].destination,
        transshipments=tuple(leg.origin for leg in legs[1:]),
        legs=tuple(legs),
        containers=containers,
        events=(),
        updates=(),
        terminal_choice=0,
        epoch=epoch,
    )


def _ref(refs: set[str], kind: str) -> str:
    found = sorted(r.split(":", 1)[1] for r in refs if r.startswith(f"{kind}:"))
    return found[0] if found else ""


def _planned_events(
    events: list[DcsaEvent],
    legs: list[PlannedLeg],
    containers: tuple[PlannedContainer, ...],
    skipped: Counter[str],
) -> tuple[PlannedEvent, ...]:
    index = {c.number: i for i, c in enumerate(containers)}
    out = []
    for event in events:
        if not event.actual or event.event_type == "SHIPMENT" or event.call is None:
            continue
        locode = event.call.locode
        role = _role(locode, legs)
        name = sealane_event(event, role)
        if name is None or locode is None:
            skipped["no_sealane_event"] += 1
            continue
        leg = _leg_index(event, legs)
        if event.event_type == "TRANSPORT":
            targets = list(range(len(containers)))
        elif event.equipment in index:
            targets = [index[event.equipment]]
        else:
            skipped["unrelated_container"] += 1
            continue
        for c in targets:
            out.append(PlannedEvent(c, sequence_of(event.event_id), name, event.at, locode, leg))
    out.sort(key=lambda e: (e.at, e.container, e.sequence))
    return tuple(out)


def _role(locode: str | None, legs: list[PlannedLeg]) -> Role:
    if locode == legs[0].origin:
        return Role.ORIGIN
    if locode == legs[-1].destination:
        return Role.DESTINATION
    if locode in {leg.origin for leg in legs[1:]}:
        return Role.TRANSSHIPMENT
    return Role.ELSEWHERE


def _leg_index(event: DcsaEvent, legs: list[PlannedLeg]) -> int | None:
    """The leg an event belongs to: departing or loading at its origin, arriving or
    discharging at its destination (None for gate and inland events)."""
    locode = event.call.locode if event.call else None
    outbound = event.code in ("DEPA", "LOAD")
    for i, leg in enumerate(legs):
        if (outbound and leg.origin == locode) or (not outbound and leg.destination == locode):
            return i if event.code in ("DEPA", "LOAD", "ARRI", "DISC") else None
    return None

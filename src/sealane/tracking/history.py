"""Months of tracked voyages for the demo, so its reliability figures mean something.

The demo account asks to track bills of lading of the simulated carrier's lines
(:mod:`.carriers.simulated_lines`) on days spread over the past months, and the tracking service
looks each one up and follows it at those past times, as its poller would have: every event,
every arrival estimate the carrier stated on the way (late, rolled, transshipped as the line's
habits drew the voyage) and the actual times are recorded by the service's own code. The
voyages still at sea go on being tracked live. The demo runs this on a thread of its own while
it serves (:class:`sealane.demo.DemoHistory`). The vessels' AIS port calls of the last 30 days
at the lanes' ports of discharge (with their wait at anchor) are written beside them: AIS, not
the carrier, reports those. The same ``seed`` gives the same history.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.database import transaction
from ..store.models import Shipment, TrackingRequest, Vessel, VesselPortCall
from .carrier_sync import TrackingService
from .carriers.simulated_lines import LANES, LINES
from .poller import never

TAG = "history"
#: The vessels of the history's AIS port calls are named this and a number.
HISTORY_VESSEL = "Sealane History"
HISTORY_VESSEL_1 = f"{HISTORY_VESSEL} 1"
#: How often the history's shipments are synced while tracked (the live poller syncs more
#: often; an estimate is recorded when it moves by an hour or more either way).
EVERY = timedelta(days=4)
#: After the arrival, the terminal's events (discharge to the empty's return) come within two
#: weeks: they are synced in one step, then the tracking window's end stops tracking.
AFTER_ARRIVAL = timedelta(days=14)
#: Requests are made this many days before the history's end, at most and at least.
OLDEST_DAYS, NEWEST_DAYS = 220.0, 20.0
#: Mean anchorage wait (hours) at each lane's port of discharge.
WAITING_H = {"NLRTM": 6.0, "DEHAM": 10.0, "USLAX": 30.0, "USLGB": 26.0, "USNYC": 14.0}


def history_number(scac: str, n: int) -> str:
    """The history's ``n``-th bill of lading of the line ``scac``."""
    return f"{scac}H{n:06d}"


def seed_history(
    service: TrackingService,
    account_id: str,
    now: datetime,
    *,
    shipments: int = 200,
    seed: int = 44,
    stopping: Callable[[], bool] = never,
) -> int:
    """Have the account track ``shipments`` bills of lading of the simulated lines, requested
    20 to 220 days before ``now`` and followed by ``service`` up to ``now`` (a transaction
    each), and add the AIS port calls of the last 30 days. What the account tracks already is
    left as it is, so an interrupted history is finished by the next call; once ``stopping()``,
    it ends before the next shipment. Returns the shipments added."""
    rng = random.Random(seed)
    with service.sessions() as session:
        mine = TrackingRequest.account_id == account_id
        held = set(
            session.scalars(
                select(TrackingRequest.request_number).where(
                    mine, TrackingRequest.request_number.like("TST_H%")
                )
            )
        )
        has_calls = session.scalar(select(Vessel.id).where(Vessel.name == HISTORY_VESSEL_1))
    added = 0
    for n in range(shipments):
        line = rng.choice(LINES)
        asked = now - timedelta(days=rng.uniform(NEWEST_DAYS, OLDEST_DAYS))
        number = history_number(line.scac, n)
        if number in held:
            continue
        if stopping():
            return added
        with transaction(service.sessions) as session:  # one shipment's unit of work
            _track(service, session, account_id, number, asked, now)
        added += 1
    if has_calls is None:
        with transaction(service.sessions) as session:
            _port_calls(session, random.Random(seed), now)
    return added


def _track(
    service: TrackingService,
    session: Session,
    account_id: str,
    number: str,
    asked: datetime,
    now: datetime,
) -> None:
    """Ask to track ``number`` at ``asked``, and follow it until its tracking stops or ``now``."""
    request = TrackingRequest(
        account_id=account_id,
        request_type="bill_of_lading",
        request_number=number,
        scac=number[:4],
        ref_numbers=[f"PO-{number[4:]}"],
        tags=[TAG],
        shipment_tags=[TAG],
        next_attempt_at=asked,
        created_at=asked,
        updated_at=asked,
    )
    session.add(request)
    session.flush()
    service.attempt(session, request.id, asked)
    shipment = session.get(Shipment, request.shipment_id)
    assert shipment is not None, request.failed_reason  # every line's number is found
    at = asked
    while at < now and shipment.tracking_stopped_at is None:
        at = min(at + (EVERY if shipment.pod_ata_at is None else AFTER_ARRIVAL), now)
        service.sync(session, shipment, at)


def _port_calls(session: Session, rng: random.Random, now: datetime) -> None:
    """Three to seven calls a day over the last 30 days at each lane's port of discharge, each
    vessel waiting at anchor for a time drawn around the port's mean, with a congested spell."""
    vessels = []
    for k in range(12):
        vessel = Vessel(name=f"{HISTORY_VESSEL} {k + 1}")
        session.add(vessel)
        vessels.append(vessel)
    session.flush()
    for locode in dict.fromkeys(pod for _, pod, _ in LANES):
        wait_h = WAITING_H[locode]
        for day in range(30, 0, -1):
            surge = 1.8 if 8 <= day <= 14 else 1.0
            for _ in range(rng.randint(3, 7)):
                arrived = now - timedelta(days=day, hours=rng.uniform(0.0, 24.0))
                wait = rng.gammavariate(2.0, wait_h * surge / 2.0)
                session.add(
                    VesselPortCall(
                        vessel_id=rng.choice(vessels).id,
                        locode=locode,
                        arrived_at=arrived,
                        arrival_seen=True,
                        berthed_at=arrived + timedelta(hours=wait),
                        departed_at=arrived + timedelta(hours=wait + rng.uniform(18.0, 40.0)),
                    )
                )

"""A seeded history of completed voyages for the demo, so its reliability figures mean something.

Several carriers on several lanes, each carrier with its own habits (how late it runs against its
first ETA, how widely, how often it rolls cargo to the next sailing, how often it transships) and
each lane its own congestion; every shipment with its containers, the arrival estimates it received
on the way (converging on the actual arrival), discharge and pickup times, and the vessels' AIS
port calls at the ports of discharge with their wait at anchor. Times come from the engine's
sea distance at a service speed; the same ``seed`` gives the same history.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..routing.routes import route
from .models import Container, EstimatedEvent, Shipment, TransportEvent, Vessel, VesselPortCall

TAG = "history"
SERVICE_SPEED_KN = 17.0


@dataclass(frozen=True, slots=True)
class CarrierHabits:
    """How a carrier runs: mean and spread of its lateness against its first ETA (hours), and
    the chance a shipment is rolled to the next sailing or transshipped."""

    scac: str
    late_mean_h: float
    late_sd_h: float
    roll_chance: float
    transship_chance: float


CARRIERS = (
    CarrierHabits("MAEU", 4.0, 14.0, 0.03, 0.15),
    CarrierHabits("HLCU", 10.0, 20.0, 0.05, 0.25),
    CarrierHabits("MSCU", 22.0, 32.0, 0.09, 0.35),
    CarrierHabits("CMDU", 30.0, 40.0, 0.12, 0.45),
    CarrierHabits("ONEY", 45.0, 55.0, 0.15, 0.30),
)
#: Lanes and their extra congestion delay at the port of discharge (hours, mean).
LANES = (
    ("CNSHA", "NLRTM", 6.0),
    ("CNSHA", "DEHAM", 10.0),
    ("CNNGB", "USLAX", 30.0),
    ("KRPUS", "USLGB", 24.0),
    ("CNYTN", "USNYC", 18.0),
)
#: Mean container dwell (hours) and anchorage wait (hours) per port of discharge.
PORTS = {
    "NLRTM": (60.0, 6.0),
    "DEHAM": (75.0, 10.0),
    "USLAX": (110.0, 30.0),
    "USLGB": (100.0, 26.0),
    "USNYC": (90.0, 14.0),
}
HUBS = ("SGSIN", "MYTPP", "LKCMB")
ROLL = timedelta(days=7)


def seed_history(
    session: Session, account_id: str, now: datetime, *, shipments: int = 300, seed: int = 44
) -> int:
    """Add ``shipments`` completed voyages (arrived 2 to 180 days before ``now``) to the
    account, and the AIS port calls of the last 30 days at each port of discharge; none when
    the account has a history already. Returns the shipments added."""
    mine = Shipment.account_id == account_id
    if session.scalar(select(Shipment.id).where(mine, Shipment.carrier_number.like("HIST%"))):
        return 0
    rng = random.Random(seed)
    hours = {(pol, pod): route(pol, pod).distance_nm / SERVICE_SPEED_KN for pol, pod, _ in LANES}
    for n in range(shipments):
        carrier = rng.choice(CARRIERS)
        pol, pod, congestion = rng.choice(LANES)
        arrived = now - timedelta(days=rng.uniform(2.0, 180.0))
        lane = (pol, pod, congestion)
        _voyage(session, rng, account_id, n, carrier, lane, hours[pol, pod], arrived)
    _port_calls(session, rng, now)
    return shipments


def _voyage(
    session: Session,
    rng: random.Random,
    account_id: str,
    n: int,
    carrier: CarrierHabits,
    lane: tuple[str, str, float],
    sailing_h: float,
    arrived: datetime,
) -> None:
    """One completed shipment with its containers and estimates."""
    pol, pod, congestion = lane
    late_h = rng.gauss(carrier.late_mean_h + congestion * rng.random(), carrier.late_sd_h)
    rolled = rng.random() < carrier.roll_chance
    departed = arrived - timedelta(hours=max(sailing_h * 0.85, sailing_h + late_h))
    planned = departed - ROLL if rolled else departed
    first_eta = planned + timedelta(hours=sailing_h)
    voyage = f"{rng.randrange(100, 999)}W"
    shipment = Shipment(
        account_id=account_id,
        bill_of_lading_number=f"HIST{n:06d}",
        shipping_line_scac=carrier.scac,
        port_of_lading_locode=pol,
        port_of_discharge_locode=pod,
        transshipment_locodes=[],
        pod_voyage_number=voyage,
        pol_etd_at=planned,
        pol_atd_at=departed,
        pod_eta_at=arrived,
        pod_ata_at=arrived,
        pod_original_eta_at=first_eta,
        tracking_stopped_at=arrived + timedelta(days=1),
        tracking_stopped_reason="past_arrival_window",
        tags=[TAG],
        carrier_request_type="bill_of_lading",
        carrier_number=f"HIST{n:06d}",
        carrier_epoch=planned - timedelta(days=3),
        created_at=planned - timedelta(days=3),
        updated_at=arrived + timedelta(days=1),
    )
    session.add(shipment)
    session.flush()
    _estimates(session, rng, shipment, first_eta, voyage, rolled)
    transshipped = rng.random() < carrier.transship_chance
    dwell_h = PORTS[pod][0]
    for c in range(rng.randint(1, 2)):
        discharged = arrived + timedelta(hours=rng.uniform(8.0, 30.0))
        container = Container(
            account_id=account_id,
            shipment_id=shipment.id,
            number=f"HSTU{n:05d}{c}",
            equipment_type="dry",
            equipment_length=40,
            equipment_height="high_cube",
            weight_in_lbs=rng.randrange(8_000, 52_000, 10),
            current_status="empty_returned",
            pod_arrived_at=arrived,
            pod_discharged_at=discharged,
            pod_full_out_at=discharged + timedelta(hours=rng.gammavariate(4.0, dwell_h / 4.0)),
            created_at=shipment.created_at,
            updated_at=shipment.updated_at,
        )
        session.add(container)
        session.flush()
        if transshipped:
            session.add(
                TransportEvent(
                    account_id=account_id,
                    shipment_id=shipment.id,
                    container_id=container.id,
                    event="container.transport.transshipment_arrived",
                    sequence=1,
                    timestamp=departed + (arrived - departed) / 2,
                    location_locode=rng.choice(HUBS),
                    data_source="shipping_line",
                    created_at=departed + (arrived - departed) / 2,
                )
            )


def _estimates(
    session: Session,
    rng: random.Random,
    shipment: Shipment,
    first_eta: datetime,
    voyage: str,
    rolled: bool,
) -> None:
    """Arrival estimates every three days from booking to arrival, their error shrinking as the
    arrival nears; a rolled shipment's first estimates name the sailing it missed."""
    arrived = shipment.pod_ata_at
    start = shipment.created_at
    assert arrived is not None and shipment.pol_etd_at is not None
    missed = f"{int(voyage[:3]) - 1}W"
    error = first_eta - arrived
    at = start
    while at < arrived - timedelta(hours=12):
        left = (arrived - at) / (arrived - start)
        estimate = arrived + error * left + timedelta(hours=rng.gauss(0.0, 6.0) * left)
        session.add(
            EstimatedEvent(
                account_id=shipment.account_id,
                shipment_id=shipment.id,
                event="shipment.estimated.arrival",
                estimated_timestamp=first_eta if at == start else estimate,
                location_locode=shipment.port_of_discharge_locode,
                voyage_number=missed if rolled and at < shipment.pol_etd_at else voyage,
                data_source="shipping_line",
                created_at=at,
            )
        )
        at += timedelta(days=3)


def _port_calls(session: Session, rng: random.Random, now: datetime) -> None:
    """Three to seven calls a day over the last 30 days at each port of discharge, each vessel
    waiting at anchor for a time drawn around the port's mean, with a congested spell."""
    vessels = []
    for k in range(12):
        vessel = Vessel(name=f"Sealane History {k + 1}")
        session.add(vessel)
        vessels.append(vessel)
    session.flush()
    for locode, (_, wait_h) in PORTS.items():
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

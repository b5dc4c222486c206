"""Shipments, containers and events written straight into the store, with known times, so the
reliability figures can be checked against values worked out by hand."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from sealane.store.models import (
    Container,
    EstimatedEvent,
    Shipment,
    TransportEvent,
    Vessel,
    VesselPortCall,
)

#: Every seeded voyage departs at T0 plus its own offset (days).
T0 = datetime(2026, 6, 1, tzinfo=UTC)
_serial = itertools.count(1)


@dataclass(frozen=True)
class Voyage:
    """One shipment to seed: lane, departure (days after T0), transit and drift (hours)."""

    scac: str
    pol: str
    pod: str
    depart_day: float
    transit_h: float | None
    drift_h: float | None = None
    containers: int = 1
    #: Voyage numbers named by successive arrival estimates (two or more: rolled).
    voyages: tuple[str, ...] = ()
    transshipped: bool = False


def seed(session: Session, account_id: str, voyage: Voyage) -> Shipment:
    """The shipment of ``voyage`` with its containers and events, in ``account_id``."""
    number = next(_serial)
    departed = T0 + timedelta(days=voyage.depart_day)
    arrived = None if voyage.transit_h is None else departed + timedelta(hours=voyage.transit_h)
    first_eta = None
    if arrived is not None and voyage.drift_h is not None:
        first_eta = arrived - timedelta(hours=voyage.drift_h)
    shipment = Shipment(
        account_id=account_id,
        bill_of_lading_number=f"REL{number:07d}",
        shipping_line_scac=voyage.scac,
        port_of_lading_locode=voyage.pol,
        port_of_discharge_locode=voyage.pod,
        transshipment_locodes=[],
        pol_atd_at=departed,
        pod_ata_at=arrived,
        pod_eta_at=arrived or first_eta,
        pod_original_eta_at=first_eta,
        carrier_request_type="bill_of_lading",
        carrier_number=f"REL{number:07d}",
        carrier_epoch=departed,
        created_at=departed,
        updated_at=departed,
    )
    session.add(shipment)
    session.flush()
    for i, voyage_number in enumerate(voyage.voyages):
        session.add(
            EstimatedEvent(
                account_id=account_id,
                shipment_id=shipment.id,
                event="shipment.estimated.arrival",
                estimated_timestamp=(first_eta or departed) + timedelta(days=i),
                voyage_number=voyage_number,
                data_source="shipping_line",
                created_at=departed + timedelta(hours=i),
            )
        )
    for c in range(voyage.containers):
        container = Container(
            account_id=account_id,
            shipment_id=shipment.id,
            number=f"RELU{number:05d}{c}",
            equipment_type="dry",
            equipment_length=40,
            equipment_height="standard",
            weight_in_lbs=20000,
            created_at=departed,
            updated_at=departed,
        )
        session.add(container)
        session.flush()
        if voyage.transshipped:
            session.add(
                TransportEvent(
                    account_id=account_id,
                    shipment_id=shipment.id,
                    container_id=container.id,
                    event="container.transport.transshipment_arrived",
                    sequence=1,
                    timestamp=departed + timedelta(days=5),
                    location_locode="SGSIN",
                    data_source="shipping_line",
                    created_at=departed,
                )
            )
    session.flush()
    return shipment


def seed_dwell(
    session: Session, account_id: str, pod: str, discharged: datetime, dwell_h: float
) -> None:
    """A container discharged at ``pod`` and taken out full ``dwell_h`` hours later."""
    shipment = seed(session, account_id, Voyage("ZIMU", "KRPUS", pod, 0, 30 * 24, 0))
    container = session.scalars(select(Container).where(Container.shipment_id == shipment.id)).one()
    container.pod_discharged_at = discharged
    container.pod_full_out_at = discharged + timedelta(hours=dwell_h)
    session.flush()


def seed_call(
    session: Session,
    locode: str,
    arrived: datetime,
    wait_h: float | None,
    *,
    seen: bool = True,
) -> None:
    """A vessel's port call at ``locode``: it berths ``wait_h`` hours after entering the area
    (None: not yet); ``seen`` False for a vessel first seen inside the area."""
    vessel = Vessel(name=f"REL VESSEL {next(_serial)}")
    session.add(vessel)
    session.flush()
    session.add(
        VesselPortCall(
            vessel_id=vessel.id,
            locode=locode,
            arrived_at=arrived,
            arrival_seen=seen,
            berthed_at=None if wait_h is None else arrived + timedelta(hours=wait_h),
        )
    )
    session.flush()

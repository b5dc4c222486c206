"""Recording what a carrier's snapshot reports about a shipment, in the sync's transaction.

New transport events and terminal updates of its containers (each with its outbox row), the
arrival estimate and the sailing vessel's position. What is stored already is skipped, so syncing
the same snapshot again records nothing twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..clock import utc_iso
from ..routing.ports import get_port
from ..store.models import (
    Container,
    ContainerUpdatedEvent,
    Shipment,
    TransportEvent,
    Vessel,
    VesselPosition,
)
from .carriers.base import PlannedUpdate, Snapshot
from .changes import apply_event, record_arrival_estimate, time_zone_of
from .outbox import emit

#: A new arrival estimate is an event only when it moves by at least this much.
ETA_CHANGE = timedelta(hours=2)


def record_events(
    session: Session,
    shipment: Shipment,
    snapshot: Snapshot,
    containers: list[Container | None],
    vessels: list[Vessel],
    now: datetime,
) -> None:
    """Store the snapshot's transport events not stored yet, each put in the outbox and applied
    to its container; ``containers`` and ``vessels`` are indexed as in the snapshot's plan."""
    seen = set()
    by_ais = set()  # an event AIS recorded first is not recorded again from the carrier
    for row in session.execute(
        select(
            TransportEvent.container_id,
            TransportEvent.sequence,
            TransportEvent.event,
            TransportEvent.location_locode,
            TransportEvent.data_source,
        ).where(TransportEvent.shipment_id == shipment.id)
    ):
        seen.add((row[0], row[1]))
        if row[4] == "ais":
            by_ais.add((row[0], row[2], row[3]))
    for planned in snapshot.events:
        container = containers[planned.container]
        if container is None or (container.id, planned.sequence) in seen:
            continue
        if (container.id, planned.event, planned.locode) in by_ais:
            continue
        leg = snapshot.plan.legs[planned.leg] if planned.leg is not None else None
        at_pod = planned.locode == shipment.port_of_discharge_locode
        event = TransportEvent(
            account_id=shipment.account_id,
            shipment_id=shipment.id,
            container_id=container.id,
            event=planned.event,
            sequence=planned.sequence,
            voyage_number=leg.voyage_number if leg else None,
            timestamp=planned.at,
            timezone=time_zone_of(planned.locode),
            location_locode=planned.locode,
            vessel_id=vessels[planned.leg].id if planned.leg is not None else None,
            terminal_id=shipment.pod_terminal_id if at_pod else None,
            data_source=planned.data_source,
            created_at=now,
        )
        session.add(event)
        session.flush()
        emit(session, shipment.account_id, planned.event, "transport_event", event.id, now)
        apply_event(container, planned.event, planned.at, now)
        shipment.updated_at = now


def record_updates(
    session: Session,
    shipment: Shipment,
    updates: tuple[PlannedUpdate, ...],
    containers: list[Container | None],
    now: datetime,
) -> None:
    """Apply the terminal's updates of the containers not stored yet and keep each with its
    changeset (attribute -> [before, after]); one that changed something goes in the outbox."""
    recorded = {
        (row[0], row[1])
        for row in session.execute(
            select(ContainerUpdatedEvent.container_id, ContainerUpdatedEvent.timestamp).where(
                ContainerUpdatedEvent.container_id.in_([c.id for c in containers if c is not None])
            )
        )
    }
    for update in updates:
        container = containers[update.container]
        if container is None or (container.id, update.at) in recorded:
            continue
        changeset = {}
        for name, after in update.changes.items():
            before = getattr(container, name)
            if before != after:
                changeset[name] = [_json(before), _json(after)]
                setattr(container, name, after)
        if "available_for_pickup" in update.changes:
            container.availability_known = True
            if container.current_status in ("grounded", "available", "not_available"):
                ready = bool(update.changes["available_for_pickup"])
                container.current_status = "available" if ready else "not_available"
        record = ContainerUpdatedEvent(
            account_id=shipment.account_id,
            container_id=container.id,
            terminal_id=container.pod_terminal_id,
            changeset=changeset,
            timestamp=update.at,
            timezone=get_port(shipment.port_of_discharge_locode).time_zone,
            data_source="terminal",
            created_at=now,
        )
        session.add(record)
        session.flush()
        if changeset:
            emit(
                session,
                shipment.account_id,
                "container.updated",
                "container_updated_event",
                record.id,
                now,
            )
        container.updated_at = now
        shipment.updated_at = now


def record_estimate(
    session: Session,
    shipment: Shipment,
    snapshot: Snapshot,
    vessels: list[Vessel],
    now: datetime,
) -> None:
    """Keep the carrier's arrival estimate at the port of discharge until the vessel has arrived
    (an estimate event only when it moves by :data:`ETA_CHANGE`)."""
    if snapshot.pod_ata is not None or snapshot.pod_eta is None:
        return
    record_arrival_estimate(
        session,
        shipment,
        snapshot.pod_eta,
        vessel_id=vessels[-1].id,
        voyage_number=snapshot.pod_voyage_number or snapshot.plan.legs[-1].voyage_number,
        data_source="shipping_line",
        threshold=ETA_CHANGE,
        now=now,
    )


def move_vessel(session: Session, snapshot: Snapshot, vessels: list[Vessel], now: datetime) -> None:
    """Report the sailing vessel's position (at most one stored position per hour), dated when
    the carrier says it was taken (else ``now``). A position already held is left as it is, so
    the same report again changes nothing."""
    if snapshot.vessel_position is None:
        return
    leg, lon, lat, heading, knots = snapshot.vessel_position
    at = snapshot.vessel_position_at or now
    vessel = vessels[leg]
    last = session.scalar(
        select(func.max(VesselPosition.timestamp)).where(VesselPosition.vessel_id == vessel.id)
    )
    vessel.longitude, vessel.latitude = lon, lat
    vessel.navigational_heading_degrees, vessel.nautical_speed_knots = heading, knots
    vessel.position_timestamp = at
    if last is None or at - last >= timedelta(hours=1):
        session.add(
            VesselPosition(
                vessel_id=vessel.id,
                latitude=lat,
                longitude=lon,
                speed_knots=knots,
                heading_degrees=heading,
                timestamp=at,
            )
        )


def _json(value: Any) -> Any:
    return utc_iso(value) if isinstance(value, datetime) else value

"""Raw event records of a container from its milestones: ids that stay the same from one read
to the next, port and vessel of each milestone."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...routing.ports import get_port
from ...store.models import Container, TransportEvent, Vessel
from ...tracking.carriers.base import PlannedLeg
from ...tracking.raw_events import RawMilestone
from ...vocabulary.events import TRANSPORT
from .records import RawEventRecord

#: Namespace of raw event ids (uuid5 of the container id and the milestone's sequence).
RAW_EVENT_NAMESPACE = uuid.UUID("5b0d8a52-7f6e-4c3a-9d1e-0c4a7e2f9b61")


def recorded_milestones(session: Session, container_id: str) -> list[RawMilestone]:
    """The container's recorded transport events as milestones (all in the past)."""
    query = (
        select(TransportEvent)
        .where(TransportEvent.container_id == container_id)
        .order_by(TransportEvent.timestamp, TransportEvent.sequence, TransportEvent.id)
    )
    return [
        RawMilestone(
            sequence=row.sequence,
            name=row.event.removeprefix(TRANSPORT),
            at=row.timestamp,
            estimated=False,
            locode=row.location_locode or "",
            leg=None,
        )
        for row in session.scalars(query)
        if row.location_locode
    ]


def raw_event_records(
    session: Session,
    container: Container,
    found: Sequence[RawMilestone],
    legs: Sequence[PlannedLeg] | None,
) -> list[RawEventRecord]:
    """A record per milestone; ``legs`` (the carrier's plan) name the vessel of each."""
    imos = {legs[m.leg].vessel_imo for m in found if legs is not None and m.leg is not None}
    vessels = (
        {v.imo: v.id for v in session.scalars(select(Vessel).where(Vessel.imo.in_(sorted(imos))))}
        if imos
        else {}
    )
    records = []
    for index, milestone in enumerate(found):
        leg = legs[milestone.leg] if legs is not None and milestone.leg is not None else None
        port = get_port(milestone.locode)
        records.append(
            RawEventRecord(
                id=str(uuid.uuid5(RAW_EVENT_NAMESPACE, f"{container.id}/{milestone.sequence}")),
                event=milestone.normalized,
                original_event=milestone.wording,
                timestamp=milestone.at,
                estimated=milestone.estimated,
                timezone=port.time_zone,
                location=port,
                vessel_name=leg.vessel_name if leg else None,
                vessel_imo=leg.vessel_imo if leg else None,
                vessel_id=vessels.get(leg.vessel_imo) if leg else None,
                voyage_number=leg.voyage_number if leg else None,
                index=index,
                created_at=container.created_at,
            )
        )
    return records

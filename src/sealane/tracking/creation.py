"""A shipment found at its carrier: the shipment and container rows, their tags and custom field
values given with the tracking request, and one ``container.created`` event per container."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..routing.ports import get_port
from ..store.models import (
    Container,
    ContainerUpdatedEvent,
    CustomField,
    CustomFieldDefinition,
    Shipment,
    Terminal,
    TrackingRequest,
    Vessel,
)
from ..vocabulary.statuses import ContainerStatus
from .carriers.base import ShipmentPlan
from .numbers import normalize_container_number
from .outbox import emit


def create_shipment(
    session: Session, request: TrackingRequest, plan: ShipmentPlan, now: datetime
) -> Shipment:
    """The shipment of ``plan`` with its containers, owned by the request's account."""
    terminals = session.scalars(
        select(Terminal)
        .where(Terminal.port_locode == plan.port_of_discharge)
        .order_by(Terminal.name)
    ).all()
    terminal = terminals[plan.terminal_choice % len(terminals)] if terminals else None
    final = plan.legs[-1]
    shipment = Shipment(
        account_id=request.account_id,
        bill_of_lading_number=plan.bill_of_lading_number,
        booking_number=plan.booking_number,
        ref_numbers=list(request.ref_numbers),
        tags=list(request.shipment_tags or ()),
        shipping_line_scac=plan.scac,
        port_of_lading_locode=plan.port_of_lading,
        port_of_discharge_locode=plan.port_of_discharge,
        transshipment_locodes=list(plan.transshipments),
        pod_vessel_id=vessel_for(
            session, final.vessel_name, final.vessel_imo, final.vessel_mmsi
        ).id,
        pod_voyage_number=final.voyage_number,
        pod_terminal_id=terminal.id if terminal else None,
        pol_etd_at=plan.legs[0].depart_at,
        carrier_request_type=request.request_type,
        carrier_number=request.request_number,
        carrier_epoch=plan.epoch,
        created_at=now,
        updated_at=now,
    )
    session.add(shipment)
    session.flush()
    containers = [
        _container(session, request, shipment, planned, now) for planned in plan.containers
    ]
    _initial_custom_fields(session, request, shipment, containers, now)
    return shipment


def _container(
    session: Session, request: TrackingRequest, shipment: Shipment, planned: Any, now: datetime
) -> Container:
    """A new container row and its ``container.created`` event.

    The event's reference object is a container-updated event with an empty changeset (the
    container is new, nothing has changed yet), a type every client of the interface knows.
    """
    container = Container(
        account_id=request.account_id,
        shipment_id=shipment.id,
        number=planned.number,
        seal_number=planned.seal_number,
        equipment_type=planned.equipment_type,
        equipment_length=planned.equipment_length,
        equipment_height=planned.equipment_height,
        weight_in_lbs=planned.weight_in_lbs,
        current_status=ContainerStatus.NEW.value,
        ref_numbers=list(request.ref_numbers),
        pod_terminal_id=shipment.pod_terminal_id,
        fees_at_pod_terminal=[],
        holds_at_pod_terminal=[],
        availability_known=False,
        created_at=now,
        updated_at=now,
    )
    session.add(container)
    session.flush()
    created = ContainerUpdatedEvent(
        account_id=request.account_id,
        container_id=container.id,
        terminal_id=container.pod_terminal_id,
        changeset={},
        timestamp=now,
        timezone=get_port(shipment.port_of_discharge_locode).time_zone,
        data_source="terminal",
        created_at=now,
    )
    session.add(created)
    session.flush()
    emit(
        session, request.account_id, "container.created", "container_updated_event", created.id, now
    )
    return container


def _initial_custom_fields(
    session: Session,
    request: TrackingRequest,
    shipment: Shipment,
    containers: list[Container],
    now: datetime,
) -> None:
    """Store the custom field values the request gave (checked when it was made) on the new
    shipment and on its containers (those whose number matches, or all when none was given)."""
    given: dict[str, Any] = dict(request.initial_custom_fields or {})
    wanted = [*given.get("shipment", ()), *given.get("containers", ())]
    if not wanted:
        return
    ids = {item["definition_id"] for item in wanted}
    alive = set(
        session.scalars(select(CustomFieldDefinition.id).where(CustomFieldDefinition.id.in_(ids)))
    )
    targets: list[tuple[str, str, dict[str, Any]]] = [
        ("shipment", shipment.id, item) for item in given.get("shipment", ())
    ]
    for item in given.get("containers", ()):
        number = item.get("number")
        for container in containers:
            if number is None or normalize_container_number(number) == container.number:
                targets.append(("container", container.id, item))
    chosen = {(item["definition_id"], key): (kind, item["value"]) for kind, key, item in targets}
    for (definition_id, entity_id), (entity_type, value) in chosen.items():
        if definition_id in alive:
            session.add(
                CustomField(
                    account_id=request.account_id,
                    definition_id=definition_id,
                    entity_type=entity_type,
                    entity_id=entity_id,
                    value=value,
                    created_at=now,
                    updated_at=now,
                )
            )
    session.flush()


def vessel_for(session: Session, name: str, imo: str, mmsi: str | None) -> Vessel:
    """The vessel with ``imo``, created on first sight."""
    vessel = session.scalar(select(Vessel).where(Vessel.imo == imo))
    if vessel is None:
        vessel = Vessel(name=name, imo=imo, mmsi=mmsi)
        session.add(vessel)
        session.flush()
    return vessel

"""One database row of what an account tracks to its record: the only place that knows both
shapes (reference data and webhooks have their converters alike, in their own packages).

A row is a mapped object (what a command just changed) or a plain result row of the same table
(what a query read without building objects, several times faster): both name their values
alike.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from ...routing.ports import get_port
from ...store.models import (
    Container,
    ContainerUpdatedEvent,
    EstimatedEvent,
    Party,
    Shipment,
    ShippingLine,
    TrackingRequest,
    TransportEvent,
)
from ...vocabulary.vessels import VesselRecord
from ..reference.records import TerminalRecord
from .records import (
    ContainerRecord,
    ContainerUpdatedEventRecord,
    EstimatedEventRecord,
    PartyRecord,
    ShipmentRecord,
    TrackingRequestRecord,
    TransportEventRecord,
)


def tracking_request_record(
    row: TrackingRequest | Row[Any], shipment: ShipmentRecord | None = None
) -> TrackingRequestRecord:
    """The record of a tracking request row."""
    return TrackingRequestRecord(
        id=row.id,
        request_number=row.request_number,
        request_type=row.request_type,
        scac=row.scac,
        status=row.status,
        failed_reason=row.failed_reason,
        is_retrying=row.is_retrying,
        retry_count=row.retry_count,
        ref_numbers=tuple(row.ref_numbers or ()),
        tags=tuple(row.tags or ()),
        shipment_id=row.shipment_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        shipment=shipment,
        customer_id=row.customer_id,
        shipment_tags=tuple(row.shipment_tags or ()),
    )


def shipment_record(
    row: Shipment | Row[Any],
    *,
    container_ids: tuple[str, ...],
    vessel: VesselRecord | None,
    line: ShippingLine | Row[Any] | None,
    customer_name: str | None = None,
    containers: tuple[ContainerRecord, ...] | None = None,
    terminal: TerminalRecord | None = None,
) -> ShipmentRecord:
    """The record of a shipment row with what the loader found for it."""
    return ShipmentRecord(
        id=row.id,
        bill_of_lading_number=row.bill_of_lading_number,
        booking_number=row.booking_number,
        ref_numbers=tuple(row.ref_numbers or ()),
        shipping_line_scac=row.shipping_line_scac,
        shipping_line_name=line.name if line is not None else None,
        port_of_lading=get_port(row.port_of_lading_locode),
        port_of_discharge=get_port(row.port_of_discharge_locode),
        transshipment_locodes=tuple(row.transshipment_locodes or ()),
        pod_vessel=vessel,
        pod_voyage_number=row.pod_voyage_number,
        pod_terminal_id=row.pod_terminal_id,
        pol_etd_at=row.pol_etd_at,
        pol_atd_at=row.pol_atd_at,
        pod_eta_at=row.pod_eta_at,
        pod_ata_at=row.pod_ata_at,
        tracking_stopped_at=row.tracking_stopped_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
        container_ids=container_ids,
        tags=tuple(row.tags or ()),
        normalized_number=row.carrier_number,
        shipping_line_short_name=line.short_name if line is not None else None,
        customer_name=customer_name,
        tracking_stopped_reason=row.tracking_stopped_reason,
        pod_original_eta_at=row.pod_original_eta_at,
        line_tracking_last_attempted_at=row.line_tracking_last_attempted_at,
        line_tracking_last_succeeded_at=row.line_tracking_last_succeeded_at,
        containers=containers,
        pod_terminal=terminal,
    )


def container_record(
    row: Container | Row[Any],
    *,
    parent: Shipment | Row[Any] | None,
    event_ids: tuple[str, ...],
    events: tuple[TransportEventRecord, ...] | None = None,
    shipment: ShipmentRecord | None = None,
    terminal: TerminalRecord | None = None,
) -> ContainerRecord:
    """The record of a container row with what the loader found for it (``parent``: its
    shipment's row, which gives the port of discharge and when the carrier was last asked)."""
    synced = parent.line_tracking_last_succeeded_at if parent is not None else None
    return ContainerRecord(
        id=row.id,
        number=row.number,
        shipment_id=row.shipment_id,
        seal_number=row.seal_number,
        equipment_type=row.equipment_type,
        equipment_length=row.equipment_length,
        equipment_height=row.equipment_height,
        weight_in_lbs=row.weight_in_lbs,
        current_status=row.current_status,
        ref_numbers=tuple(row.ref_numbers or ()),
        pod_terminal_id=row.pod_terminal_id,
        fees_at_pod_terminal=tuple(row.fees_at_pod_terminal or ()),
        holds_at_pod_terminal=tuple(row.holds_at_pod_terminal or ()),
        pickup_lfd=row.pickup_lfd,
        pickup_appointment_at=row.pickup_appointment_at,
        availability_known=row.availability_known,
        available_for_pickup=row.available_for_pickup,
        pod_arrived_at=row.pod_arrived_at,
        pod_discharged_at=row.pod_discharged_at,
        pod_full_out_at=row.pod_full_out_at,
        empty_terminated_at=row.empty_terminated_at,
        created_at=row.created_at,
        updated_at=row.updated_at,
        pod_rail_loaded_at=row.pod_rail_loaded_at,
        pod_rail_departed_at=row.pod_rail_departed_at,
        ind_rail_unloaded_at=row.ind_rail_unloaded_at,
        ind_ata_at=row.ind_ata_at,
        terminal_checked_at=synced if row.pod_arrived_at is not None else None,
        shipment_last_tracking_request_at=(
            parent.line_tracking_last_attempted_at if parent is not None else None
        ),
        port_of_discharge=get_port(parent.port_of_discharge_locode) if parent else None,
        event_ids=event_ids,
        events=events,
        shipment=shipment,
        pod_terminal=terminal,
    )


def transport_event_record(
    row: TransportEvent | Row[Any],
    *,
    shipment: ShipmentRecord | None = None,
    container: ContainerRecord | None = None,
    vessel: VesselRecord | None = None,
    terminal: TerminalRecord | None = None,
) -> TransportEventRecord:
    """The record of a transport event row, with the related records asked for."""
    return TransportEventRecord(
        id=row.id,
        event=row.event,
        shipment_id=row.shipment_id,
        container_id=row.container_id,
        voyage_number=row.voyage_number,
        timestamp=row.timestamp,
        timezone=row.timezone,
        location_locode=row.location_locode,
        vessel_id=row.vessel_id,
        terminal_id=row.terminal_id,
        data_source=row.data_source,
        created_at=row.created_at,
        shipment=shipment,
        container=container,
        vessel=vessel,
        terminal=terminal,
    )


def estimated_event_record(row: EstimatedEvent | Row[Any]) -> EstimatedEventRecord:
    """The record of an estimated event row."""
    return EstimatedEventRecord(
        id=row.id,
        event=row.event,
        shipment_id=row.shipment_id,
        estimated_timestamp=row.estimated_timestamp,
        location_locode=row.location_locode,
        timezone=row.timezone,
        voyage_number=row.voyage_number,
        vessel_id=row.vessel_id,
        data_source=row.data_source,
        created_at=row.created_at,
    )


def container_updated_event_record(
    row: ContainerUpdatedEvent | Row[Any],
) -> ContainerUpdatedEventRecord:
    """The record of a container-updated event row."""
    return ContainerUpdatedEventRecord(
        id=row.id,
        container_id=row.container_id,
        terminal_id=row.terminal_id,
        changeset=dict(row.changeset),
        timestamp=row.timestamp,
        timezone=row.timezone,
        data_source=row.data_source,
    )


def party_record(row: Party | Row[Any]) -> PartyRecord:
    """The record of a party row."""
    return PartyRecord(row.id, row.company_name, row.created_at, row.updated_at)

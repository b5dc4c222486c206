"""Resource objects of tracking: tracking requests, shipments, containers and their events."""

from __future__ import annotations

from typing import Any

from ..routing.ports import get_port, port_id
from ..store.models import (
    Container,
    ContainerUpdatedEvent,
    EstimatedEvent,
    Shipment,
    ShippingLine,
    TrackingRequest,
    TransportEvent,
    Vessel,
)
from .jsonapi import resource, to_one
from .resources import iso


def to_many(type_: str, ids: list[str]) -> dict[str, Any]:
    """A to-many relationship object."""
    return {"data": [{"type": type_, "id": id_} for id_ in ids]}


def tracking_request_resource(request: TrackingRequest, base_url: str) -> dict[str, Any]:
    """A ``tracking_request`` resource."""
    return resource(
        "tracking_request",
        request.id,
        {
            "request_number": request.request_number,
            "request_type": request.request_type,
            "scac": request.scac,
            "status": request.status,
            "failed_reason": request.failed_reason,
            "is_retrying": request.is_retrying,
            "retry_count": request.retry_count,
            "ref_numbers": list(request.ref_numbers or []),
            "tags": list(request.tags or []),
            "created_at": iso(request.created_at),
            "updated_at": iso(request.updated_at),
        },
        relationships={"tracked_object": to_one("shipment", request.shipment_id)},
        links={"self": f"{base_url}/tracking_requests/{request.id}"},
    )


def _port(locode: str | None) -> tuple[str | None, str | None]:
    if not locode:
        return None, None
    port = get_port(locode)
    return port.name, port.time_zone


def shipment_resource(
    shipment: Shipment,
    base_url: str,
    *,
    container_ids: list[str],
    vessel: Vessel | None,
    line: ShippingLine | None,
) -> dict[str, Any]:
    """A ``shipment`` resource with its ports, terminal and containers."""
    pol_name, pol_tz = _port(shipment.port_of_lading_locode)
    pod_name, pod_tz = _port(shipment.port_of_discharge_locode)
    return resource(
        "shipment",
        shipment.id,
        {
            "created_at": iso(shipment.created_at),
            "updated_at": iso(shipment.updated_at),
            "bill_of_lading_number": shipment.bill_of_lading_number,
            "booking_number": shipment.booking_number,
            "ref_numbers": list(shipment.ref_numbers or []),
            "shipping_line_scac": shipment.shipping_line_scac,
            "shipping_line_name": line.name if line else None,
            "port_of_lading_locode": shipment.port_of_lading_locode,
            "port_of_lading_name": pol_name,
            "port_of_discharge_locode": shipment.port_of_discharge_locode,
            "port_of_discharge_name": pod_name,
            "transshipment_locodes": list(shipment.transshipment_locodes or []),
            "pod_vessel_name": vessel.name if vessel else None,
            "pod_vessel_imo": vessel.imo if vessel else None,
            "pod_voyage_number": shipment.pod_voyage_number,
            "destination_locode": None,
            "destination_name": None,
            "destination_timezone": None,
            "destination_ata_at": None,
            "destination_eta_at": None,
            "pol_etd_at": iso(shipment.pol_etd_at),
            "pol_atd_at": iso(shipment.pol_atd_at),
            "pol_timezone": pol_tz,
            "pod_eta_at": iso(shipment.pod_eta_at),
            "pod_ata_at": iso(shipment.pod_ata_at),
            "pod_timezone": pod_tz,
            "line_tracking_stopped_at": iso(shipment.tracking_stopped_at),
        },
        relationships={
            "port_of_lading": to_one("port", port_id(shipment.port_of_lading_locode)),
            "port_of_discharge": to_one("port", port_id(shipment.port_of_discharge_locode)),
            "pod_terminal": to_one("terminal", shipment.pod_terminal_id),
            "pod_vessel": to_one("vessel", shipment.pod_vessel_id),
            "destination": {"data": None},
            "containers": to_many("container", container_ids),
        },
        links={"self": f"{base_url}/shipments/{shipment.id}"},
    )


def container_resource(
    container: Container,
    base_url: str,
    *,
    pod_locode: str | None,
    event_ids: list[str] | None = None,
) -> dict[str, Any]:
    """A ``container`` resource."""
    _, pod_tz = _port(pod_locode)
    relationships: dict[str, Any] = {
        "shipment": to_one("shipment", container.shipment_id),
        "pod_terminal": to_one("terminal", container.pod_terminal_id),
    }
    if event_ids is not None:
        relationships["transport_events"] = to_many("transport_event", event_ids)
    return resource(
        "container",
        container.id,
        {
            "number": container.number,
            "seal_number": container.seal_number,
            "created_at": iso(container.created_at),
            "updated_at": iso(container.updated_at),
            "equipment_type": container.equipment_type,
            "equipment_length": container.equipment_length,
            "equipment_height": container.equipment_height,
            "weight_in_lbs": container.weight_in_lbs,
            "fees_at_pod_terminal": list(container.fees_at_pod_terminal or []),
            "holds_at_pod_terminal": list(container.holds_at_pod_terminal or []),
            "pickup_lfd": iso(container.pickup_lfd),
            "pickup_appointment_at": iso(container.pickup_appointment_at),
            "availability_known": container.availability_known,
            "available_for_pickup": container.available_for_pickup,
            "pod_arrived_at": iso(container.pod_arrived_at),
            "pod_discharged_at": iso(container.pod_discharged_at),
            "final_destination_full_out_at": None,
            "pod_full_out_at": iso(container.pod_full_out_at),
            "empty_terminated_at": iso(container.empty_terminated_at),
            "pod_timezone": pod_tz,
            "final_destination_timezone": None,
            "empty_terminated_timezone": pod_tz if container.empty_terminated_at else None,
            "current_status": container.current_status,
            "ref_numbers": list(container.ref_numbers or []),
        },
        relationships=relationships,
        links={"self": f"{base_url}/containers/{container.id}"},
    )


def transport_event_resource(event: TransportEvent, base_url: str) -> dict[str, Any]:
    """A ``transport_event`` resource."""
    return resource(
        "transport_event",
        event.id,
        {
            "event": event.event,
            "voyage_number": event.voyage_number,
            "timestamp": iso(event.timestamp),
            "timezone": event.timezone,
            "location_locode": event.location_locode,
            "created_at": iso(event.created_at),
            "data_source": event.data_source,
        },
        relationships={
            "shipment": to_one("shipment", event.shipment_id),
            "container": to_one("container", event.container_id),
            "location": to_one(
                "port", port_id(event.location_locode) if event.location_locode else None
            ),
            "vessel": to_one("vessel", event.vessel_id),
            "terminal": to_one("terminal", event.terminal_id),
        },
    )


def estimated_event_resource(event: EstimatedEvent, base_url: str) -> dict[str, Any]:
    """An ``estimated_event`` resource."""
    return resource(
        "estimated_event",
        event.id,
        {
            "created_at": iso(event.created_at),
            "estimated_timestamp": iso(event.estimated_timestamp),
            "event": event.event,
            "location_locode": event.location_locode,
            "timezone": event.timezone,
            "voyage_number": event.voyage_number,
            "data_source": event.data_source,
        },
        relationships={
            "shipment": to_one("shipment", event.shipment_id),
            "port": to_one(
                "port", port_id(event.location_locode) if event.location_locode else None
            ),
            "vessel": to_one("vessel", event.vessel_id),
        },
    )


def container_updated_event_resource(event: ContainerUpdatedEvent, base_url: str) -> dict[str, Any]:
    """A ``container_updated_event`` resource."""
    return resource(
        "container_updated_event",
        event.id,
        {
            "changeset": event.changeset,
            "timestamp": iso(event.timestamp),
            "timezone": event.timezone,
            "data_source": event.data_source,
        },
        relationships={
            "container": to_one("container", event.container_id),
            "terminal": to_one("terminal", event.terminal_id),
        },
    )

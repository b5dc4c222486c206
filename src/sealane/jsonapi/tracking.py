"""Resource objects of tracking: tracking requests, shipments, containers and their events."""

from __future__ import annotations

from typing import Any

from ..clock import utc_iso
from ..routing.ports import port_id
from ..service.tracking.records import (
    ContainerRecord,
    ContainerUpdatedEventRecord,
    EstimatedEventRecord,
    RawEventRecord,
    ShipmentRecord,
    TrackingRequestRecord,
    TransportEventRecord,
)
from .objects import resource, to_many, to_one


def tracking_request_resource(request: TrackingRequestRecord, base_url: str) -> dict[str, Any]:
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
            "ref_numbers": list(request.ref_numbers),
            "tags": list(request.tags),
            "shipment_tags": list(request.shipment_tags),
            "created_at": utc_iso(request.created_at),
            "updated_at": utc_iso(request.updated_at),
        },
        relationships={
            "tracked_object": to_one("shipment", request.shipment_id),
            "customer": to_one("party", request.customer_id),
        },
        links={"self": f"{base_url}/tracking_requests/{request.id}"},
    )


def shipment_resource(shipment: ShipmentRecord, base_url: str) -> dict[str, Any]:
    """A ``shipment`` resource with its ports, terminal and containers."""
    pol, pod, vessel = shipment.port_of_lading, shipment.port_of_discharge, shipment.pod_vessel
    return resource(
        "shipment",
        shipment.id,
        {
            "created_at": utc_iso(shipment.created_at),
            "updated_at": utc_iso(shipment.updated_at),
            "bill_of_lading_number": shipment.bill_of_lading_number,
            "normalized_number": shipment.normalized_number,
            "booking_number": shipment.booking_number,
            "ref_numbers": list(shipment.ref_numbers),
            "tags": list(shipment.tags),
            "shipping_line_scac": shipment.shipping_line_scac,
            "shipping_line_name": shipment.shipping_line_name,
            "shipping_line_short_name": shipment.shipping_line_short_name,
            "customer_name": shipment.customer_name,
            "port_of_lading_locode": pol.locode,
            "port_of_lading_name": pol.name,
            "port_of_discharge_locode": pod.locode,
            "port_of_discharge_name": pod.name,
            "transshipment_locodes": list(shipment.transshipment_locodes),
            "pod_vessel_name": vessel.name if vessel else None,
            "pod_vessel_imo": vessel.imo if vessel else None,
            "pod_voyage_number": shipment.pod_voyage_number,
            "destination_locode": None,
            "destination_name": None,
            "destination_timezone": None,
            "destination_ata_at": None,
            "destination_eta_at": None,
            "pol_etd_at": utc_iso(shipment.pol_etd_at),
            "pol_atd_at": utc_iso(shipment.pol_atd_at),
            "pol_timezone": pol.time_zone,
            "pod_eta_at": utc_iso(shipment.pod_eta_at),
            "pod_original_eta_at": utc_iso(shipment.pod_original_eta_at),
            "pod_ata_at": utc_iso(shipment.pod_ata_at),
            "pod_timezone": pod.time_zone,
            "line_tracking_last_attempted_at": utc_iso(shipment.line_tracking_last_attempted_at),
            "line_tracking_last_succeeded_at": utc_iso(shipment.line_tracking_last_succeeded_at),
            "line_tracking_stopped_at": utc_iso(shipment.tracking_stopped_at),
            "line_tracking_stopped_reason": shipment.tracking_stopped_reason,
        },
        relationships={
            "port_of_lading": to_one("port", pol.id),
            "port_of_discharge": to_one("port", pod.id),
            "pod_terminal": to_one("terminal", shipment.pod_terminal_id),
            "pod_vessel": to_one("vessel", vessel.id if vessel else None),
            # No inland leg is tracked yet: nothing lies beyond the port of discharge.
            "destination": {"data": None},
            "destination_terminal": {"data": None},
            "line_tracking_stopped_by_user": {"data": None},
            "containers": to_many("container", shipment.container_ids),
        },
        links={"self": f"{base_url}/shipments/{shipment.id}"},
    )


def container_resource(container: ContainerRecord, base_url: str) -> dict[str, Any]:
    """A ``container`` resource."""
    pod_tz = container.port_of_discharge.time_zone if container.port_of_discharge else None
    return resource(
        "container",
        container.id,
        {
            "number": container.number,
            "seal_number": container.seal_number,
            "created_at": utc_iso(container.created_at),
            "updated_at": utc_iso(container.updated_at),
            "equipment_type": container.equipment_type,
            "equipment_length": container.equipment_length,
            "equipment_height": container.equipment_height,
            "weight_in_lbs": container.weight_in_lbs,
            "fees_at_pod_terminal": list(container.fees_at_pod_terminal),
            "holds_at_pod_terminal": list(container.holds_at_pod_terminal),
            "pickup_lfd": utc_iso(container.pickup_lfd),
            # Last free days come from the terminal; the line's and the railway's are not read.
            "import_deadlines": {
                "pickup_lfd_terminal": utc_iso(container.pickup_lfd),
                "pickup_lfd_rail": None,
                "pickup_lfd_line": None,
            },
            "pickup_appointment_at": utc_iso(container.pickup_appointment_at),
            "availability_known": container.availability_known,
            "available_for_pickup": container.available_for_pickup,
            "pod_arrived_at": utc_iso(container.pod_arrived_at),
            "pod_discharged_at": utc_iso(container.pod_discharged_at),
            "final_destination_full_out_at": None,
            "pod_full_out_at": utc_iso(container.pod_full_out_at),
            "pod_full_out_chassis_number": None,
            "location_at_pod_terminal": None,
            "terminal_checked_at": utc_iso(container.terminal_checked_at),
            "pod_last_tracking_request_at": utc_iso(container.terminal_checked_at),
            "shipment_last_tracking_request_at": utc_iso(
                container.shipment_last_tracking_request_at
            ),
            "pod_rail_carrier_scac": None,
            "ind_rail_carrier_scac": None,
            "pod_rail_loaded_at": utc_iso(container.pod_rail_loaded_at),
            "pod_rail_departed_at": utc_iso(container.pod_rail_departed_at),
            "ind_eta_at": None,
            "ind_ata_at": utc_iso(container.ind_ata_at),
            "ind_rail_unloaded_at": utc_iso(container.ind_rail_unloaded_at),
            "ind_facility_lfd_on": None,
            "empty_terminated_at": utc_iso(container.empty_terminated_at),
            "pod_timezone": pod_tz,
            "final_destination_timezone": None,
            "empty_terminated_timezone": pod_tz if container.empty_terminated_at else None,
            "current_status": container.current_status,
            "ref_numbers": list(container.ref_numbers),
        },
        relationships={
            "shipment": to_one("shipment", container.shipment_id),
            "pod_terminal": to_one("terminal", container.pod_terminal_id),
            # Containers are picked up at the terminal of the port of discharge (no inland legs).
            "pickup_facility": to_one("terminal", container.pod_terminal_id),
            "transport_events": to_many("transport_event", container.event_ids),
        },
        links={"self": f"{base_url}/containers/{container.id}"},
    )


def _port(locode: str | None) -> dict[str, Any]:
    return to_one("port", port_id(locode) if locode else None)


def transport_event_resource(event: TransportEventRecord, base_url: str) -> dict[str, Any]:
    """A ``transport_event`` resource."""
    return resource(
        "transport_event",
        event.id,
        {
            "event": event.event,
            "voyage_number": event.voyage_number,
            "timestamp": utc_iso(event.timestamp),
            "timezone": event.timezone,
            "location_locode": event.location_locode,
            "created_at": utc_iso(event.created_at),
            "data_source": event.data_source,
        },
        relationships={
            "shipment": to_one("shipment", event.shipment_id),
            "container": to_one("container", event.container_id),
            "location": _port(event.location_locode),
            "vessel": to_one("vessel", event.vessel_id),
            "terminal": to_one("terminal", event.terminal_id),
        },
    )


def raw_event_resource(event: RawEventRecord, base_url: str) -> dict[str, Any]:
    """A ``raw_event`` resource: a milestone as the carrier states it."""
    stamp, day = utc_iso(event.timestamp), event.timestamp.date().isoformat()
    return resource(
        "raw_event",
        event.id,
        {
            "event": event.event,
            "original_event": event.original_event,
            "timestamp": stamp,
            "estimated": event.estimated,
            "actual_on": None if event.estimated else day,
            "estimated_on": day if event.estimated else None,
            "actual_at": None if event.estimated else stamp,
            "estimated_at": stamp if event.estimated else None,
            "timezone": event.timezone,
            "created_at": utc_iso(event.created_at),
            "location_name": event.location.name,
            "location_locode": event.location.locode,
            "vessel_name": event.vessel_name,
            "vessel_imo": event.vessel_imo,
            "index": event.index,
            "voyage_number": event.voyage_number,
        },
        relationships={
            "location": to_one("port", event.location.id),
            "vessel": to_one("vessel", event.vessel_id),
        },
    )


def estimated_event_resource(event: EstimatedEventRecord, base_url: str) -> dict[str, Any]:
    """An ``estimated_event`` resource."""
    return resource(
        "estimated_event",
        event.id,
        {
            "created_at": utc_iso(event.created_at),
            "estimated_timestamp": utc_iso(event.estimated_timestamp),
            "event": event.event,
            "location_locode": event.location_locode,
            "timezone": event.timezone,
            "voyage_number": event.voyage_number,
            "data_source": event.data_source,
        },
        relationships={
            "shipment": to_one("shipment", event.shipment_id),
            "port": _port(event.location_locode),
            "vessel": to_one("vessel", event.vessel_id),
        },
    )


def container_updated_event_resource(
    event: ContainerUpdatedEventRecord, base_url: str
) -> dict[str, Any]:
    """A ``container_updated_event`` resource."""
    return resource(
        "container_updated_event",
        event.id,
        {
            "changeset": event.changeset,
            "timestamp": utc_iso(event.timestamp),
            "timezone": event.timezone,
            "data_source": event.data_source,
        },
        relationships={
            "container": to_one("container", event.container_id),
            "terminal": to_one("terminal", event.terminal_id),
        },
    )

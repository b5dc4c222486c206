"""Example webhook notifications: for each event, a notification as a webhook would receive it,
about an example shipment (Shanghai to Los Angeles, one container) that exists nowhere.

The records are built here and rendered by the same code as real notifications, so an example
has exactly the shape of a delivery. Ids are uuid5 values, the same on every call.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from ...routing.ports import get_port
from ...tracking.catalog import reference_type
from ...vocabulary.events import EVENT_NAMES
from ...vocabulary.vessels import VesselRecord
from ..core.errors import InvalidInput
from ..reference.records import TerminalRecord
from ..tracking.records import (
    ContainerRecord,
    ContainerUpdatedEventRecord,
    EstimatedEventRecord,
    ShipmentRecord,
    TrackingRequestRecord,
    TransportEventRecord,
)
from .records import NotificationRecord, Reference

EXAMPLE_NAMESPACE = uuid.UUID("3f0c2e7a-91d4-5b8e-a6c1-7d2f4e9b0a35")
#: When the example voyage's notification was sent.
AT = datetime(2026, 3, 2, 14, 30, tzinfo=UTC)
POL, POD = get_port("CNSHA"), get_port("USLAX")


def _id(*parts: str) -> str:
    return str(uuid.uuid5(EXAMPLE_NAMESPACE, "/".join(parts)))


def notification_examples(event: str | None = None) -> list[NotificationRecord]:
    """One example notification per event (only ``event``'s when given; it must be one)."""
    if event is not None and event not in EVENT_NAMES:
        raise InvalidInput(f"{event[:80]!r} is not an event name", field="event")
    return [_example(name) for name in EVENT_NAMES if event in (None, name)]


def _example(event: str) -> NotificationRecord:
    kind = reference_type(event)
    reference = _REFERENCES[kind](event)
    return NotificationRecord(
        id=_id("notification", event),
        event=event,
        webhook_id=_id("webhook"),
        delivery_status="pending",
        reference_type=kind,
        reference_id=_reference_id(reference),
        created_at=AT,
        log_ids=(),
        reference=reference,
    )


def _reference_id(reference: Reference) -> str:
    found = (
        reference.tracking_request
        or reference.transport_event
        or reference.estimated_event
        or reference.container_updated_event
    )
    assert found is not None
    return found.id


_VESSEL = VesselRecord(
    _id("vessel"), "EXAMPLE TRADER", "9811234", "636092111", None, None, 18.5, 72.0, AT
)
_TERMINAL = TerminalRecord(
    id=_id("terminal"),
    name="Example Container Terminal",
    port_locode=POD.locode,
    firms_code=None,
    smdg_code=None,
    operator=None,
    lon=POD.lon,
    lat=POD.lat,
    country=POD.country_name,
)
_SHIPMENT = ShipmentRecord(
    id=_id("shipment"),
    bill_of_lading_number="EXAMPLE0000001",
    booking_number="EXAMPLEBK01",
    ref_numbers=("PO-1001",),
    shipping_line_scac="TEST",
    shipping_line_name="Sealane Test Carrier",
    port_of_lading=POL,
    port_of_discharge=POD,
    transshipment_locodes=(),
    pod_vessel=_VESSEL,
    pod_voyage_number="512E",
    pod_terminal_id=_TERMINAL.id,
    pol_etd_at=AT - timedelta(days=16),
    pol_atd_at=AT - timedelta(days=16),
    pod_eta_at=AT - timedelta(hours=6),
    pod_ata_at=AT - timedelta(hours=6),
    tracking_stopped_at=None,
    created_at=AT - timedelta(days=20),
    updated_at=AT,
    container_ids=(_id("container"),),
    tags=(),
    normalized_number="EXAMPLE0000001",
    shipping_line_short_name="Test",
    customer_name=None,
    tracking_stopped_reason=None,
    pod_original_eta_at=AT - timedelta(days=1),
    line_tracking_last_attempted_at=AT,
    line_tracking_last_succeeded_at=AT,
)
_CONTAINER = ContainerRecord(
    id=_id("container"),
    number="TSTU0000011",
    shipment_id=_SHIPMENT.id,
    seal_number="SL0000001",
    equipment_type="dry",
    equipment_length=40,
    equipment_height="high_cube",
    weight_in_lbs=21_000,
    current_status="on_ship",
    ref_numbers=("PO-1001",),
    pod_terminal_id=_TERMINAL.id,
    fees_at_pod_terminal=(),
    holds_at_pod_terminal=(),
    pickup_lfd=None,
    pickup_appointment_at=None,
    availability_known=False,
    available_for_pickup=None,
    pod_arrived_at=AT - timedelta(hours=6),
    pod_discharged_at=None,
    pod_full_out_at=None,
    empty_terminated_at=None,
    created_at=AT - timedelta(days=20),
    updated_at=AT,
    pod_rail_loaded_at=None,
    pod_rail_departed_at=None,
    ind_rail_unloaded_at=None,
    ind_ata_at=None,
    terminal_checked_at=AT,
    shipment_last_tracking_request_at=AT,
    port_of_discharge=POD,
    event_ids=(),
)


def _tracking_request(event: str) -> Reference:
    status = {
        "tracking_request.succeeded": "created",
        "tracking_request.failed": "failed",
        "tracking_request.awaiting_manifest": "awaiting_manifest",
        "tracking_request.tracking_stopped": "tracking_stopped",
    }[event]
    found = status in ("created", "tracking_stopped")
    request = TrackingRequestRecord(
        id=_id("tracking_request", event),
        request_number=_SHIPMENT.normalized_number,
        request_type="bill_of_lading",
        scac="TEST",
        status=status,
        failed_reason="not_found" if status == "failed" else None,
        is_retrying=False,
        retry_count=0,
        ref_numbers=_SHIPMENT.ref_numbers,
        tags=(),
        shipment_id=_SHIPMENT.id if found else None,
        created_at=AT - timedelta(minutes=5),
        updated_at=AT,
    )
    return Reference(tracking_request=request, shipment=_SHIPMENT if found else None)


def _transport_event(event: str) -> Reference:
    at_pod = not event.endswith(("_loaded", "_departed", "empty_out", "full_in"))
    port = POD if at_pod else POL
    on_vessel = "vessel_" in event or "feeder_" in event or "transshipment_" in event
    record = TransportEventRecord(
        id=_id("transport_event", event),
        event=event,
        shipment_id=_SHIPMENT.id,
        container_id=_CONTAINER.id,
        voyage_number=_SHIPMENT.pod_voyage_number if on_vessel else None,
        timestamp=AT - timedelta(hours=1),
        timezone=port.time_zone,
        location_locode=port.locode,
        vessel_id=_VESSEL.id if on_vessel else None,
        terminal_id=_TERMINAL.id if at_pod else None,
        data_source="shipping_line",
        created_at=AT,
    )
    return Reference(
        transport_event=record,
        shipment=_SHIPMENT,
        container=_CONTAINER,
        port=port,
        terminal=_TERMINAL if at_pod else None,
    )


def _estimated_event(event: str) -> Reference:
    record = EstimatedEventRecord(
        id=_id("estimated_event", event),
        event=event,
        shipment_id=_SHIPMENT.id,
        estimated_timestamp=AT + timedelta(days=2),
        location_locode=POD.locode,
        timezone=POD.time_zone,
        voyage_number=_SHIPMENT.pod_voyage_number,
        vessel_id=_VESSEL.id,
        data_source="shipping_line",
        created_at=AT,
    )
    return Reference(estimated_event=record, shipment=_SHIPMENT, port=POD)


def _container_updated_event(event: str) -> Reference:
    changesets: dict[str, dict[str, object]] = {
        "container.created": {},
        "container.updated": {
            "available_for_pickup": [False, True],
            "holds_at_pod_terminal": [
                [{"name": "customs", "status": "hold", "description": "Awaiting customs release"}],
                [],
            ],
        },
        "container.pod_terminal_changed": {"pod_terminal": [None, _TERMINAL.name]},
    }
    changeset = changesets[event]
    record = ContainerUpdatedEventRecord(
        id=_id("container_updated_event", event),
        container_id=_CONTAINER.id,
        terminal_id=_TERMINAL.id,
        changeset=dict(changeset),
        timestamp=AT,
        timezone=POD.time_zone,
        data_source="terminal",
    )
    return Reference(
        container_updated_event=record, shipment=_SHIPMENT, container=_CONTAINER, terminal=_TERMINAL
    )


_REFERENCES = {
    "tracking_request": _tracking_request,
    "transport_event": _transport_event,
    "estimated_event": _estimated_event,
    "container_updated_event": _container_updated_event,
}

"""Read models of what an account tracks: tracking requests, the shipments they found, their
containers and events, the parties they are for, and the positions vessels reported."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...routing.ports import Port
from ...vocabulary.vessels import VesselRecord
from ..reference.records import TerminalRecord


@dataclass(frozen=True, slots=True)
class TransportEventRecord:
    """Something that happened to a container at a place and time."""

    id: str
    event: str
    shipment_id: str
    container_id: str
    voyage_number: str | None
    timestamp: datetime
    timezone: str | None
    location_locode: str | None
    vessel_id: str | None
    terminal_id: str | None
    data_source: str
    created_at: datetime
    #: Related objects, present when asked for.
    shipment: ShipmentRecord | None = None
    container: ContainerRecord | None = None
    vessel: VesselRecord | None = None
    terminal: TerminalRecord | None = None


@dataclass(frozen=True, slots=True)
class EstimatedEventRecord:
    """An estimate about a shipment (its arrival at the port of discharge)."""

    id: str
    event: str
    shipment_id: str
    estimated_timestamp: datetime
    location_locode: str | None
    timezone: str | None
    voyage_number: str | None
    vessel_id: str | None
    data_source: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ContainerUpdatedEventRecord:
    """A change of terminal-side facts of a container: attribute -> [before, after]."""

    id: str
    container_id: str
    terminal_id: str | None
    changeset: dict[str, Any]
    timestamp: datetime
    timezone: str | None
    data_source: str


@dataclass(frozen=True, slots=True)
class ContainerRecord:
    """A container with its event ids; ``events``, ``shipment`` and ``pod_terminal`` when asked."""

    id: str
    number: str
    shipment_id: str
    seal_number: str | None
    equipment_type: str
    equipment_length: int
    equipment_height: str
    weight_in_lbs: int
    current_status: str
    ref_numbers: tuple[str, ...]
    pod_terminal_id: str | None
    fees_at_pod_terminal: tuple[dict[str, Any], ...]
    holds_at_pod_terminal: tuple[dict[str, Any], ...]
    pickup_lfd: datetime | None
    pickup_appointment_at: datetime | None
    availability_known: bool
    available_for_pickup: bool | None
    pod_arrived_at: datetime | None
    pod_discharged_at: datetime | None
    pod_full_out_at: datetime | None
    empty_terminated_at: datetime | None
    created_at: datetime
    updated_at: datetime
    pod_rail_loaded_at: datetime | None
    pod_rail_departed_at: datetime | None
    ind_rail_unloaded_at: datetime | None
    ind_ata_at: datetime | None
    #: When the terminal's facts were last read (the shipment's last sync once the container
    #: has arrived at the port of discharge), and when its shipment was last asked about.
    terminal_checked_at: datetime | None
    shipment_last_tracking_request_at: datetime | None
    #: The shipment's port of discharge (its time zone is the container's ``pod_timezone``).
    port_of_discharge: Port | None
    event_ids: tuple[str, ...]
    events: tuple[TransportEventRecord, ...] | None = None
    shipment: ShipmentRecord | None = None
    pod_terminal: TerminalRecord | None = None


@dataclass(frozen=True, slots=True)
class ShipmentRecord:
    """A shipment with its ports, vessel and carrier; ``containers`` and more when asked."""

    id: str
    bill_of_lading_number: str | None
    booking_number: str | None
    ref_numbers: tuple[str, ...]
    shipping_line_scac: str
    shipping_line_name: str | None
    port_of_lading: Port
    port_of_discharge: Port
    transshipment_locodes: tuple[str, ...]
    pod_vessel: VesselRecord | None
    pod_voyage_number: str | None
    pod_terminal_id: str | None
    pol_etd_at: datetime | None
    pol_atd_at: datetime | None
    pod_eta_at: datetime | None
    pod_ata_at: datetime | None
    tracking_stopped_at: datetime | None
    created_at: datetime
    updated_at: datetime
    container_ids: tuple[str, ...]
    tags: tuple[str, ...]
    #: The number the carrier is asked about (normalised), its short name, the customer.
    normalized_number: str
    shipping_line_short_name: str | None
    customer_name: str | None
    tracking_stopped_reason: str | None
    pod_original_eta_at: datetime | None
    line_tracking_last_attempted_at: datetime | None
    line_tracking_last_succeeded_at: datetime | None
    containers: tuple[ContainerRecord, ...] | None = None
    pod_terminal: TerminalRecord | None = None


@dataclass(frozen=True, slots=True)
class TrackingRequestRecord:
    """A tracking request; ``shipment`` is its tracked object when asked."""

    id: str
    request_number: str
    request_type: str
    scac: str
    status: str
    failed_reason: str | None
    is_retrying: bool
    retry_count: int
    ref_numbers: tuple[str, ...]
    tags: tuple[str, ...]
    shipment_id: str | None
    created_at: datetime
    updated_at: datetime
    shipment: ShipmentRecord | None = None
    customer_id: str | None = None
    #: The tags the request gives its shipment when it is found.
    shipment_tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PartyRecord:
    """A company an account tracks shipments for."""

    id: str
    company_name: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class RawEventRecord:
    """A milestone of a container as its carrier states it (``estimated`` when still ahead)."""

    id: str
    event: str | None
    original_event: str
    timestamp: datetime
    estimated: bool
    timezone: str | None
    location: Port
    vessel_name: str | None
    vessel_imo: str | None
    vessel_id: str | None
    voyage_number: str | None
    index: int
    created_at: datetime

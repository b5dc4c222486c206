"""Read models returned by the application layer: plain frozen values, loaded once per request.

Shells render these; they never see a database row, so nothing they touch can run a query. A
related object is ``None`` (or an empty tuple) when it was not asked for; relationship ids are
always filled, since every rendering of an object names what it points to.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..routing.ports import Port
from ..store.vessels import VesselRecord

__all__ = [
    "ContainerRecord",
    "ContainerUpdatedEventRecord",
    "EstimatedEventRecord",
    "MetroAreaRecord",
    "NotificationLogRecord",
    "NotificationRecord",
    "PartyRecord",
    "RawEventRecord",
    "RecordedPosition",
    "ShipmentRecord",
    "ShippingLineRecord",
    "TerminalRecord",
    "TrackingRequestRecord",
    "TransportEventRecord",
    "VesselRecord",
    "WebhookRecord",
]


@dataclass(frozen=True, slots=True)
class ShippingLineRecord:
    """An ocean carrier."""

    id: str
    scac: str
    name: str
    short_name: str
    bill_of_lading_prefixes: tuple[str, ...]
    #: Other SCACs a tracking request may name this carrier by.
    alternative_scacs: tuple[str, ...] = ()
    #: ISO 6346 owner codes of the carrier's own containers, and its booking number format.
    container_owner_codes: tuple[str, ...] = ()
    booking_number_pattern: str = ""
    bill_of_lading_tracking_support: bool = False
    booking_number_tracking_support: bool = False
    container_number_tracking_support: bool = False

    @property
    def supported_request_types(self) -> frozenset[str]:
        """The tracking request types the carrier's tracking supports."""
        flags = (
            ("bill_of_lading", self.bill_of_lading_tracking_support),
            ("booking_number", self.booking_number_tracking_support),
            ("container", self.container_number_tracking_support),
        )
        return frozenset(name for name, supported in flags if supported)


@dataclass(frozen=True, slots=True)
class TerminalRecord:
    """A container terminal at a port."""

    id: str
    name: str
    port_locode: str
    firms_code: str | None
    smdg_code: str | None
    operator: str | None
    lon: float
    lat: float
    nickname: str | None = None
    street: str | None = None
    city: str | None = None
    state: str | None = None
    state_abbr: str | None = None
    zip: str | None = None
    #: Country name of the terminal's port.
    country: str | None = None


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


@dataclass(frozen=True, slots=True)
class RecordedPosition:
    """A position a vessel reported: degrees WGS84, knots, degrees from true north."""

    longitude: float
    latitude: float
    heading_degrees: float | None
    speed_knots: float | None
    timestamp: datetime


@dataclass(frozen=True, slots=True)
class MetroAreaRecord:
    """The metropolitan area named by a UN/LOCODE, with its own id (uuid5 of the LOCODE)."""

    id: str
    port: Port


@dataclass(frozen=True, slots=True)
class WebhookRecord:
    """A webhook subscription; shells show ``secret`` only where the interface says so."""

    id: str
    url: str
    active: bool
    events: tuple[str, ...]
    secret: str
    headers: tuple[dict[str, str], ...]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class NotificationLogRecord:
    """One delivery attempt of a notification."""

    id: str
    notification_id: str
    attempt: int
    attempted_at: datetime
    status_code: int | None
    duration_ms: float
    error: str | None
    response_excerpt: str | None


@dataclass(frozen=True, slots=True)
class NotificationRecord:
    """A webhook notification with what was asked for: webhook, reference object, logs."""

    id: str
    event: str
    webhook_id: str
    delivery_status: str
    reference_type: str
    reference_id: str
    created_at: datetime
    log_ids: tuple[str, ...]
    webhook: WebhookRecord | None = None
    logs: tuple[NotificationLogRecord, ...] | None = None
    reference: Reference | None = None


@dataclass(frozen=True, slots=True)
class Reference:
    """A notification's reference object and the objects it names (each present when known)."""

    tracking_request: TrackingRequestRecord | None = None
    transport_event: TransportEventRecord | None = None
    estimated_event: EstimatedEventRecord | None = None
    container_updated_event: ContainerUpdatedEventRecord | None = None
    shipment: ShipmentRecord | None = None
    container: ContainerRecord | None = None
    port: Port | None = None
    terminal: TerminalRecord | None = None

"""SQLAlchemy models. Ids are uuid strings so SQLite and PostgreSQL store them alike."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
    func,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def new_id() -> str:
    """A fresh random uuid as a string."""
    return str(uuid.uuid4())


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite drops the zone on its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored; give a UTC time")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base of every table."""


class Account(Base):
    """A customer account: owns keys and everything tracked; features switch paid parts on."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    routing_enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    #: May write vessel positions (``POST /v2/vessel_positions``): they are shared by every
    #: account, so this is granted on its own, not with the routing feature.
    ingest_enabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    api_keys: Mapped[list[ApiKey]] = relationship(back_populates="account")


class ApiKey(Base):
    """An API key, stored as the SHA-256 of the secret; ``prefix`` identifies it to humans."""

    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    prefix: Mapped[str] = mapped_column(String(16))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    account: Mapped[Account] = relationship(back_populates="api_keys")


class BrowserSession(Base):
    """A signed-in browser of the web app, under the API key it signed in with.

    Only the SHA-256 of the session id is stored (the id itself is in the browser's signed
    cookie), so a copy of the table signs nobody in; revoking the key ends its sessions.
    """

    __tablename__ = "web_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    api_key_id: Mapped[str] = mapped_column(
        ForeignKey("api_keys.id", ondelete="CASCADE"), index=True
    )
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class ShippingLine(Base):
    """An ocean carrier, keyed by its SCAC."""

    __tablename__ = "shipping_lines"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    scac: Mapped[str] = mapped_column(String(4), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    short_name: Mapped[str] = mapped_column(String(100))
    bill_of_lading_prefixes: Mapped[str] = mapped_column(String(200), default="")
    #: Other SCACs accepted for this carrier in tracking requests (pipe-separated).
    alternative_scacs: Mapped[str] = mapped_column(String(200), default="")
    #: ISO 6346 owner codes of the carrier's own equipment (pipe-separated), for inference.
    container_owner_codes: Mapped[str] = mapped_column(String(200), default="")
    #: A regular expression matching the carrier's booking numbers ("" when none is known).
    booking_number_pattern: Mapped[str] = mapped_column(String(200), default="")
    bill_of_lading_tracking_support: Mapped[bool] = mapped_column(Boolean, default=False)
    booking_number_tracking_support: Mapped[bool] = mapped_column(Boolean, default=False)
    container_number_tracking_support: Mapped[bool] = mapped_column(Boolean, default=False)


class Terminal(Base):
    """A container terminal at a port (ports themselves come from the engine's registry)."""

    __tablename__ = "terminals"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    port_locode: Mapped[str] = mapped_column(String(5), index=True)
    firms_code: Mapped[str | None] = mapped_column(String(8), nullable=True, index=True)
    smdg_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    operator: Mapped[str | None] = mapped_column(String(200), nullable=True)
    lon: Mapped[float] = mapped_column(Float)
    lat: Mapped[float] = mapped_column(Float)
    nickname: Mapped[str | None] = mapped_column(String(100), nullable=True)
    street: Mapped[str | None] = mapped_column(String(200), nullable=True)
    city: Mapped[str | None] = mapped_column(String(100), nullable=True)
    state: Mapped[str | None] = mapped_column(String(100), nullable=True)
    state_abbr: Mapped[str | None] = mapped_column(String(8), nullable=True)
    zip: Mapped[str | None] = mapped_column(String(16), nullable=True)


class Vessel(Base):
    """A ship, with its latest reported position denormalised for fast reads."""

    __tablename__ = "vessels"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200), index=True)
    imo: Mapped[str | None] = mapped_column(String(16), unique=True, nullable=True)
    mmsi: Mapped[str | None] = mapped_column(String(16), nullable=True)
    latitude: Mapped[float | None] = mapped_column(Float, nullable=True)
    longitude: Mapped[float | None] = mapped_column(Float, nullable=True)
    nautical_speed_knots: Mapped[float | None] = mapped_column(Float, nullable=True)
    navigational_heading_degrees: Mapped[float | None] = mapped_column(Float, nullable=True)
    position_timestamp: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    positions: Mapped[list[VesselPosition]] = relationship(
        back_populates="vessel", order_by="VesselPosition.timestamp"
    )


class VesselPosition(Base):
    """One reported (AIS-like) position of a vessel."""

    __tablename__ = "vessel_positions"
    __table_args__ = (Index("ix_vessel_positions_vessel_time", "vessel_id", "timestamp"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    vessel_id: Mapped[str] = mapped_column(ForeignKey("vessels.id", ondelete="CASCADE"))
    latitude: Mapped[float] = mapped_column(Float)
    longitude: Mapped[float] = mapped_column(Float)
    speed_knots: Mapped[float | None] = mapped_column(Float, nullable=True)
    heading_degrees: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Course over ground (AIS COG), degrees clockwise from true north; None when not reported.
    course_degrees: Mapped[float | None] = mapped_column(Float, nullable=True)
    timestamp: Mapped[datetime] = mapped_column(UTCDateTime())
    vessel: Mapped[Vessel] = relationship(back_populates="positions")


class VesselPortCall(Base):
    """A vessel's stay in a port area as AIS saw it, from ``arrived_at`` to ``departed_at``."""

    __tablename__ = "vessel_port_calls"
    __table_args__ = (Index("ix_vessel_port_calls_vessel_open", "vessel_id", "departed_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    vessel_id: Mapped[str] = mapped_column(ForeignKey("vessels.id", ondelete="CASCADE"))
    locode: Mapped[str] = mapped_column(String(5))
    arrived_at: Mapped[datetime] = mapped_column(UTCDateTime())
    departed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class FeedCheckpoint(Base):
    """How far an ingest source got, committed with the batch it covers (restarts resume there)."""

    __tablename__ = "feed_checkpoints"

    source: Mapped[str] = mapped_column(String(512), primary_key=True)
    #: Source-defined position: a byte offset for files.
    position: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CarrierEvent(Base):
    """A DCSA Track & Trace event as a carrier sent it (pushed or polled), kept once per eventID."""

    __tablename__ = "carrier_events"
    __table_args__ = (UniqueConstraint("scac", "event_id", name="uq_carrier_event"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    scac: Mapped[str] = mapped_column(String(4))
    event_id: Mapped[str] = mapped_column(String(100))
    payload: Mapped[dict[str, object]] = mapped_column(JSON)
    received_via: Mapped[str] = mapped_column(String(8))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CarrierEventRef(Base):
    """A reference a carrier event is filed under: ``TRD:<BL>``, ``BKG:<booking>``, ``EQ:<no>``."""

    __tablename__ = "carrier_event_refs"

    event_row_id: Mapped[int] = mapped_column(
        ForeignKey("carrier_events.id", ondelete="CASCADE"), primary_key=True
    )
    ref: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)


class TrackingRequest(Base):
    """A client's request to track a BL, booking or container number with a carrier."""

    __tablename__ = "tracking_requests"
    __table_args__ = (
        Index("ix_tracking_requests_account_number", "account_id", "request_number", "scac"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    request_type: Mapped[str] = mapped_column(String(32))
    request_number: Mapped[str] = mapped_column(String(64))
    scac: Mapped[str] = mapped_column(String(4))
    status: Mapped[str] = mapped_column(String(32), default="pending")
    failed_reason: Mapped[str | None] = mapped_column(String(64), nullable=True)
    is_retrying: Mapped[bool] = mapped_column(Boolean, default=False)
    retry_count: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), nullable=True, index=True
    )
    ref_numbers: Mapped[list[str]] = mapped_column(JSON, default=list)
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    #: Tags and custom field values given for the shipment, applied when it is found.
    shipment_tags: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    initial_custom_fields: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    customer_id: Mapped[str | None] = mapped_column(
        ForeignKey("parties.id", ondelete="SET NULL"), nullable=True
    )
    shipment_id: Mapped[str | None] = mapped_column(ForeignKey("shipments.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


#: Statuses of a tracking request that is still open (the same number cannot be asked again).
OPEN_REQUEST_STATUSES = ("pending", "awaiting_manifest", "created")
_OPEN = text("status IN ('pending', 'awaiting_manifest', 'created')")

#: One open request per account, carrier and number (case-insensitive), enforced by the
#: database so that simultaneous identical requests cannot both be stored.
Index(
    "uq_tracking_requests_open",
    TrackingRequest.account_id,
    TrackingRequest.scac,
    func.upper(TrackingRequest.request_number),
    unique=True,
    sqlite_where=_OPEN,
    postgresql_where=_OPEN,
)


class RateLimitCount(Base):
    """Admitted requests of a rate-limited key (an account, or an address failing to sign in)
    in one whole second of wall-clock time; every server process counts the same rows, and a
    window is the sum of at most its length in seconds of them, however busy the key."""

    __tablename__ = "rate_limit_counts"

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    #: The second, since the epoch (every process reads the same clock).
    second: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    count: Mapped[int] = mapped_column(Integer)


class Shipment(Base):
    """A shipment found at a carrier: ports, vessel and dates of its ocean leg(s)."""

    __tablename__ = "shipments"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    bill_of_lading_number: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    booking_number: Mapped[str | None] = mapped_column(String(64), nullable=True)
    ref_numbers: Mapped[list[str]] = mapped_column(JSON, default=list)
    shipping_line_scac: Mapped[str] = mapped_column(String(4))
    port_of_lading_locode: Mapped[str] = mapped_column(String(5))
    port_of_discharge_locode: Mapped[str] = mapped_column(String(5), index=True)
    transshipment_locodes: Mapped[list[str]] = mapped_column(JSON, default=list)
    pod_vessel_id: Mapped[str | None] = mapped_column(ForeignKey("vessels.id"), nullable=True)
    pod_voyage_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    pod_terminal_id: Mapped[str | None] = mapped_column(ForeignKey("terminals.id"), nullable=True)
    pol_etd_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pol_atd_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pod_eta_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pod_ata_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    tracking_stopped_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    tracking_stopped_reason: Mapped[str | None] = mapped_column(String(40), nullable=True)
    tags: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    #: The first arrival estimate the carrier gave.
    pod_original_eta_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: When the carrier was last asked about the shipment, and last answered.
    line_tracking_last_attempted_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), nullable=True
    )
    line_tracking_last_succeeded_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), nullable=True
    )
    #: How the carrier adapter finds this shipment again (request type, number, voyage epoch).
    carrier_request_type: Mapped[str] = mapped_column(String(32))
    carrier_number: Mapped[str] = mapped_column(String(64))
    carrier_epoch: Mapped[datetime] = mapped_column(UTCDateTime())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class Container(Base):
    """A container of a shipment, with its status derived from its events."""

    __tablename__ = "containers"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    shipment_id: Mapped[str] = mapped_column(
        ForeignKey("shipments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[str] = mapped_column(String(11), index=True)
    seal_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    equipment_type: Mapped[str] = mapped_column(String(16))
    equipment_length: Mapped[int] = mapped_column(Integer)
    equipment_height: Mapped[str] = mapped_column(String(16))
    weight_in_lbs: Mapped[int] = mapped_column(Integer)
    current_status: Mapped[str] = mapped_column(String(32), default="new")
    ref_numbers: Mapped[list[str]] = mapped_column(JSON, default=list)
    pod_terminal_id: Mapped[str | None] = mapped_column(ForeignKey("terminals.id"), nullable=True)
    fees_at_pod_terminal: Mapped[list[dict[str, object]]] = mapped_column(JSON, default=list)
    holds_at_pod_terminal: Mapped[list[dict[str, object]]] = mapped_column(JSON, default=list)
    pickup_lfd: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pickup_appointment_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    availability_known: Mapped[bool] = mapped_column(Boolean, default=False)
    available_for_pickup: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    pod_arrived_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pod_discharged_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pod_full_out_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    empty_terminated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: Rail moves, set by rail transport events (pod: from the port; ind: at the inland end).
    pod_rail_loaded_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    pod_rail_departed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    ind_rail_unloaded_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    ind_ata_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RouteLocation(Base):
    """One port call of a container's route: the port (and terminal where known), the vessel,
    voyage and carrier it arrives and leaves on, and when; the carrier's estimates until the
    container's events give the actual times (an actual clears its estimate)."""

    __tablename__ = "route_locations"
    __table_args__ = (
        UniqueConstraint("container_id", "sequence", name="uq_route_location_sequence"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    shipment_id: Mapped[str] = mapped_column(
        ForeignKey("shipments.id", ondelete="CASCADE"), index=True
    )
    container_id: Mapped[str] = mapped_column(ForeignKey("containers.id", ondelete="CASCADE"))
    #: Position in the route: 1 at the port of lading, the last at the port of discharge.
    sequence: Mapped[int] = mapped_column(Integer)
    port_locode: Mapped[str] = mapped_column(String(5))
    terminal_id: Mapped[str | None] = mapped_column(ForeignKey("terminals.id"), nullable=True)
    #: ``vessel`` or ``rail``; None where there is no inbound (outbound) leg or it is not known.
    inbound_mode: Mapped[str | None] = mapped_column(String(16), nullable=True)
    inbound_scac: Mapped[str | None] = mapped_column(String(4), nullable=True)
    inbound_vessel_id: Mapped[str | None] = mapped_column(ForeignKey("vessels.id"), nullable=True)
    inbound_voyage_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    inbound_eta_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    inbound_ata_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    outbound_mode: Mapped[str | None] = mapped_column(String(16), nullable=True)
    outbound_scac: Mapped[str | None] = mapped_column(String(4), nullable=True)
    outbound_vessel_id: Mapped[str | None] = mapped_column(ForeignKey("vessels.id"), nullable=True)
    outbound_voyage_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    outbound_etd_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    outbound_atd_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class TransportEvent(Base):
    """Something that happened to a container (gate, vessel, rail, availability)."""

    __tablename__ = "transport_events"
    __table_args__ = (
        UniqueConstraint(
            "container_id", "event", "location_locode", "sequence", name="uq_transport_event"
        ),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    shipment_id: Mapped[str] = mapped_column(
        ForeignKey("shipments.id", ondelete="CASCADE"), index=True
    )
    container_id: Mapped[str] = mapped_column(
        ForeignKey("containers.id", ondelete="CASCADE"), index=True
    )
    event: Mapped[str] = mapped_column(String(80))
    #: Position of the event in the carrier's plan (keeps repeated names at one place apart).
    sequence: Mapped[int] = mapped_column(Integer)
    voyage_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    timestamp: Mapped[datetime] = mapped_column(UTCDateTime())
    timezone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    location_locode: Mapped[str | None] = mapped_column(String(5), nullable=True)
    vessel_id: Mapped[str | None] = mapped_column(ForeignKey("vessels.id"), nullable=True)
    terminal_id: Mapped[str | None] = mapped_column(ForeignKey("terminals.id"), nullable=True)
    data_source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class EstimatedEvent(Base):
    """An estimate about a shipment (its arrival at the port of discharge)."""

    __tablename__ = "estimated_events"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    shipment_id: Mapped[str] = mapped_column(
        ForeignKey("shipments.id", ondelete="CASCADE"), index=True
    )
    event: Mapped[str] = mapped_column(String(80))
    estimated_timestamp: Mapped[datetime] = mapped_column(UTCDateTime())
    location_locode: Mapped[str | None] = mapped_column(String(5), nullable=True)
    timezone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    voyage_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    vessel_id: Mapped[str | None] = mapped_column(ForeignKey("vessels.id"), nullable=True)
    data_source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class ContainerUpdatedEvent(Base):
    """A change of terminal-side facts about a container, as a changeset of [before, after]."""

    __tablename__ = "container_updated_events"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    container_id: Mapped[str] = mapped_column(
        ForeignKey("containers.id", ondelete="CASCADE"), index=True
    )
    terminal_id: Mapped[str | None] = mapped_column(ForeignKey("terminals.id"), nullable=True)
    changeset: Mapped[dict[str, object]] = mapped_column(JSON)
    timestamp: Mapped[datetime] = mapped_column(UTCDateTime())
    timezone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    data_source: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class OutboxEvent(Base):
    """An event to be delivered to webhooks, written in the transaction that recorded it."""

    __tablename__ = "outbox_events"
    __table_args__ = (
        UniqueConstraint("event", "reference_type", "reference_id", name="uq_outbox_event"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    event: Mapped[str] = mapped_column(String(80))
    reference_type: Mapped[str] = mapped_column(String(40))
    reference_id: Mapped[str] = mapped_column(String(36))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    dispatched_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)


class Webhook(Base):
    """A subscription: ``events`` are POSTed, signed with ``secret``, to ``url``."""

    __tablename__ = "webhooks"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    url: Mapped[str] = mapped_column(String(2048))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    events: Mapped[list[str]] = mapped_column(JSON)
    secret: Mapped[str] = mapped_column(String(100))
    headers: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class WebhookNotification(Base):
    """One event for one webhook: a persisted delivery job (at least once)."""

    __tablename__ = "webhook_notifications"
    __table_args__ = (
        UniqueConstraint("webhook_id", "outbox_event_id", name="uq_notification_per_event"),
        Index("ix_webhook_notifications_due", "delivery_status", "next_attempt_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    webhook_id: Mapped[str] = mapped_column(
        ForeignKey("webhooks.id", ondelete="CASCADE"), index=True
    )
    outbox_event_id: Mapped[int] = mapped_column(ForeignKey("outbox_events.id", ondelete="CASCADE"))
    event: Mapped[str] = mapped_column(String(80))
    reference_type: Mapped[str] = mapped_column(String(40))
    reference_id: Mapped[str] = mapped_column(String(36))
    delivery_status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: A worker holds the job until this time; another worker may take it after (a crash).
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: The signed body, fixed when the notification is created (every retry sends the same).
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class WebhookNotificationLog(Base):
    """One delivery attempt of a notification."""

    __tablename__ = "webhook_notification_logs"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    notification_id: Mapped[str] = mapped_column(
        ForeignKey("webhook_notifications.id", ondelete="CASCADE"), index=True
    )
    attempt: Mapped[int] = mapped_column(Integer)
    attempted_at: Mapped[datetime] = mapped_column(UTCDateTime())
    status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    duration_ms: Mapped[float] = mapped_column(Float)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    response_excerpt: Mapped[str | None] = mapped_column(Text, nullable=True)


class Party(Base):
    """A company an account tracks shipments for (a tracking request's ``customer``)."""

    __tablename__ = "parties"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    company_name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CustomFieldDefinition(Base):
    """An account's own field on its shipments, containers or tracking requests."""

    __tablename__ = "custom_field_definitions"
    __table_args__ = (
        UniqueConstraint("account_id", "entity_type", "api_slug", name="uq_custom_field_slug"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: ``Shipment``, ``Container`` or ``TrackingRequest``.
    entity_type: Mapped[str] = mapped_column(String(20))
    api_slug: Mapped[str] = mapped_column(String(64))
    display_name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text, nullable=True)
    data_type: Mapped[str] = mapped_column(String(20))
    reference_type: Mapped[str | None] = mapped_column(String(64), nullable=True)
    validation: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    default_format: Mapped[str | None] = mapped_column(String(64), nullable=True)
    default_value: Mapped[object | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CustomFieldOption(Base):
    """One allowed value of an ``enum`` or ``enum_multi`` custom field."""

    __tablename__ = "custom_field_options"
    __table_args__ = (
        UniqueConstraint("definition_id", "value", name="uq_custom_field_option_value"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    definition_id: Mapped[str] = mapped_column(
        ForeignKey("custom_field_definitions.id", ondelete="CASCADE"), index=True
    )
    label: Mapped[str] = mapped_column(String(200))
    value: Mapped[str] = mapped_column(String(200))
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class CustomField(Base):
    """The value of a custom field on one shipment, container or tracking request."""

    __tablename__ = "custom_fields"
    __table_args__ = (
        UniqueConstraint("definition_id", "entity_id", name="uq_custom_field_per_entity"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    definition_id: Mapped[str] = mapped_column(
        ForeignKey("custom_field_definitions.id", ondelete="CASCADE"), index=True
    )
    #: ``shipment``, ``container`` or ``tracking_request``.
    entity_type: Mapped[str] = mapped_column(String(20))
    entity_id: Mapped[str] = mapped_column(String(36), index=True)
    value: Mapped[object | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())

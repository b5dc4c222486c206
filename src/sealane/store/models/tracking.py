"""Tracking requests, shipments, containers and the route locations of a shipment."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    func,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, UTCDateTime, new_id


class TrackingRequest(Base):
    """A client's request to track a BL, booking or container number with a carrier."""

    __tablename__ = "tracking_requests"
    __table_args__ = (
        Index("ix_tracking_requests_account_number", "account_id", "request_number", "scac"),
        # The list's order (newest first: the index read backwards), per account.
        Index("ix_tracking_requests_account_created", "account_id", "created_at", "id"),
        Index("ix_tracking_requests_shipment_id", "shipment_id"),
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


class Shipment(Base):
    """A shipment found at a carrier: ports, vessel and dates of its ocean leg(s)."""

    __tablename__ = "shipments"
    __table_args__ = (
        # The list's order (most recently updated first: the index read backwards), per account.
        Index("ix_shipments_account_updated", "account_id", "updated_at", "id"),
        # The list through a port of discharge filter (the web's and the API's), in its order.
        Index(
            "ix_shipments_account_pod_updated",
            "account_id",
            "port_of_discharge_locode",
            "updated_at",
            "id",
        ),
    )

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
    #: When tracking was last resumed: the arrival window runs from it when it is later.
    tracking_resumed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
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


_TRACKED = text("tracking_stopped_at IS NULL")

#: The shipments each vessel carries while they are tracked: what the AIS ingest reads for all
#: the vessels of a batch at once, without visiting the shipments no longer tracked (0018).
Index(
    "ix_shipments_pod_vessel_tracked",
    Shipment.pod_vessel_id,
    sqlite_where=_TRACKED,
    postgresql_where=_TRACKED,
)


class Container(Base):
    """A container of a shipment, with its status derived from its events."""

    __tablename__ = "containers"
    __table_args__ = (
        # The list's order (most recently updated first: the index read backwards), per account.
        Index("ix_containers_account_updated", "account_id", "updated_at", "id"),
        Index("ix_containers_account_number", "account_id", "number"),
    )

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


class ListStamp(Base):
    """The version of what list pages show: triggers on the tables a page reads bump it with
    every write (see migration ``0017_list_paging``), and a page kept under one version is true
    while it stays. Bookkeeping tables have no trigger, so their writes keep pages."""

    __tablename__ = "list_stamps"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    version: Mapped[int] = mapped_column(BigInteger)

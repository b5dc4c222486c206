"""Reference data: shipping lines, terminals, vessels with their positions and port calls, and
the carrier feeds' checkpoints and events."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, UTCDateTime, new_id


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
    # What the vessel reports of itself (AIS static data, the position feed's dimensions), read
    # by feeds.ais.statics: None where never reported or reported as "not available" (0011).
    call_sign: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: AIS ship and cargo type code (70-79 cargo, 80-89 tanker, ...).
    ship_type: Mapped[int | None] = mapped_column(Integer, nullable=True)
    length_m: Mapped[float | None] = mapped_column(Float, nullable=True)
    beam_m: Mapped[float | None] = mapped_column(Float, nullable=True)
    draught_m: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Who reported the dimensions last (``ais`` or ``position_feed``), and when.
    dimensions_source: Mapped[str | None] = mapped_column(String(16), nullable=True)
    dimensions_updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    reported_destination: Mapped[str | None] = mapped_column(String(64), nullable=True)
    reported_eta: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: Time of the latest static report stored (call sign, type, destination, ETA).
    static_updated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    positions: Mapped[list[VesselPosition]] = relationship(
        back_populates="vessel", order_by="VesselPosition.timestamp"
    )


class VesselPosition(Base):
    """One reported (AIS-like) position of a vessel."""

    __tablename__ = "vessel_positions"
    #: One point per vessel and time: concurrent identical batches store it once (0010).
    __table_args__ = (
        Index("uq_vessel_positions_vessel_time", "vessel_id", "timestamp", unique=True),
    )

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
    __table_args__ = (
        Index("ix_vessel_port_calls_vessel_open", "vessel_id", "departed_at"),
        Index("ix_vessel_port_calls_locode_arrived", "locode", "arrived_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    vessel_id: Mapped[str] = mapped_column(ForeignKey("vessels.id", ondelete="CASCADE"))
    locode: Mapped[str] = mapped_column(String(5))
    arrived_at: Mapped[datetime] = mapped_column(UTCDateTime())
    departed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: Whether AIS saw the vessel enter the area (not so for a vessel first seen inside it,
    #: whose ``arrived_at`` is only when it was first seen): only then is its wait known (0014).
    arrival_seen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: When the vessel first came within the berth radius of the port: the time from
    #: ``arrived_at`` to it is its wait at anchor (None until then).
    berthed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


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

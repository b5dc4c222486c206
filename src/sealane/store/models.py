"""SQLAlchemy models. Ids are uuid strings so SQLite and PostgreSQL store them alike."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    String,
    TypeDecorator,
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


class ShippingLine(Base):
    """An ocean carrier, keyed by its SCAC."""

    __tablename__ = "shipping_lines"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    scac: Mapped[str] = mapped_column(String(4), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    short_name: Mapped[str] = mapped_column(String(100))
    bill_of_lading_prefixes: Mapped[str] = mapped_column(String(200), default="")


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
    timestamp: Mapped[datetime] = mapped_column(UTCDateTime())
    vessel: Mapped[Vessel] = relationship(back_populates="positions")

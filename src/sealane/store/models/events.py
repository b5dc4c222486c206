"""Events of containers and shipments: transport events, estimates and container updates."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, UTCDateTime, new_id


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

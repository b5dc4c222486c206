"""The outbox of events, webhooks, and the notifications sent to them with their delivery log."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, UTCDateTime, new_id


class OutboxEvent(Base):
    """An event to be delivered to webhooks, written in the transaction that recorded it."""

    __tablename__ = "outbox_events"
    __table_args__ = (
        UniqueConstraint(
            "event", "reference_type", "reference_id", "occurrence", name="uq_outbox_event"
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    event: Mapped[str] = mapped_column(String(80))
    reference_type: Mapped[str] = mapped_column(String(40))
    reference_id: Mapped[str] = mapped_column(String(36))
    #: How many times this event happened to this object before (0: the first time), so an
    #: event that can recur (a request stopped again after a resume) is queued each time.
    occurrence: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
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

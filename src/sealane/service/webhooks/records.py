"""Read models of webhooks: subscriptions, their notifications and each delivery attempt."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ...routing.ports import Port
from ..reference.records import TerminalRecord
from ..tracking.records import (
    ContainerRecord,
    ContainerUpdatedEventRecord,
    EstimatedEventRecord,
    ShipmentRecord,
    TrackingRequestRecord,
    TransportEventRecord,
)


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

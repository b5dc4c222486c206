"""One database row of a webhook or of a delivery attempt to its record.

A row is a mapped object (what a command just changed) or a plain result row of the same table
(what a query read without building objects): both name their values alike.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from ...store.models import Webhook, WebhookNotificationLog
from .records import NotificationLogRecord, WebhookRecord


def webhook_record(row: Webhook | Row[Any]) -> WebhookRecord:
    """The record of a webhook row (secret included; shells decide whether to show it)."""
    return WebhookRecord(
        id=row.id,
        url=row.url,
        active=row.active,
        events=tuple(row.events),
        secret=row.secret,
        headers=tuple(dict(h) for h in row.headers or ()),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def notification_log_record(row: WebhookNotificationLog | Row[Any]) -> NotificationLogRecord:
    """The record of one delivery attempt."""
    return NotificationLogRecord(
        id=row.id,
        notification_id=row.notification_id,
        attempt=row.attempt,
        attempted_at=row.attempted_at,
        status_code=row.status_code,
        duration_ms=row.duration_ms,
        error=row.error,
        response_excerpt=row.response_excerpt,
    )

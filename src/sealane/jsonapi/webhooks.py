"""Resource objects of webhooks: subscriptions, notifications and delivery attempts."""

from __future__ import annotations

from typing import Any

from ..clock import utc_iso
from ..service.webhooks.records import NotificationLogRecord, NotificationRecord, WebhookRecord
from ..tracking.catalog import EventCategory
from .objects import resource, to_many, to_one


def webhook_resource(webhook: WebhookRecord, base_url: str) -> dict[str, Any]:
    """A ``webhook`` resource with its signing secret (only its owner ever reads one)."""
    attributes: dict[str, Any] = {
        "url": webhook.url,
        "active": webhook.active,
        "events": list(webhook.events),
        "secret": webhook.secret,
        "headers": [dict(header) for header in webhook.headers],
        "created_at": utc_iso(webhook.created_at),
        "updated_at": utc_iso(webhook.updated_at),
    }
    return resource(
        "webhook", webhook.id, attributes, links={"self": f"{base_url}/webhooks/{webhook.id}"}
    )


def event_category_resource(category: EventCategory) -> dict[str, Any]:
    """A ``webhook_event_category``: a group of events, each with what it means."""
    return resource(
        "webhook_event_category",
        category.key,
        {
            "name": category.name,
            "events": [{"name": name, "description": text} for name, text in category.events],
        },
    )


def log_resource(log: NotificationLogRecord) -> dict[str, Any]:
    """A ``webhook_notification_log`` resource: one delivery attempt."""
    return resource(
        "webhook_notification_log",
        log.id,
        {
            "attempt": log.attempt,
            "attempted_at": utc_iso(log.attempted_at),
            "status_code": log.status_code,
            "duration_ms": round(log.duration_ms, 3),
            "error": log.error,
            "response_excerpt": log.response_excerpt,
        },
        relationships={"webhook_notification": to_one("webhook_notification", log.notification_id)},
    )


def notification_resource(notification: NotificationRecord, base_url: str) -> dict[str, Any]:
    """A ``webhook_notification`` resource."""
    return resource(
        "webhook_notification",
        notification.id,
        {
            "id": notification.id,
            "event": notification.event,
            "delivery_status": notification.delivery_status,
            "created_at": utc_iso(notification.created_at),
        },
        relationships={
            "webhook": to_one("webhook", notification.webhook_id),
            "reference_object": to_one(notification.reference_type, notification.reference_id),
            "webhook_notification_logs": to_many("webhook_notification_log", notification.log_ids),
        },
        links={"self": f"{base_url}/webhook_notifications/{notification.id}"},
    )

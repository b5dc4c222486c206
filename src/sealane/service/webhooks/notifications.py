"""Webhook notifications: list and read them with their webhook, delivery logs and the object
each one is about (its reference object, and the shipment, container, port and terminal it names).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...store.models import Webhook, WebhookNotification, WebhookNotificationLog
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput
from ..core.paging import Page, PageRequest
from ..core.queries import fetch_page, owned
from ..tracking.loading import Loader
from .convert import notification_log_record, webhook_record
from .records import NotificationLogRecord, NotificationRecord
from .reference_objects import load_references

INCLUDES = ("webhook", "reference_object", "webhook_notification_logs")
DELIVERY_STATUSES = ("pending", "succeeded", "failed")


@dataclass(frozen=True, slots=True)
class NotificationFilter:
    """Filters of the notification list; None means any."""

    event: str | None = None
    delivery_status: str | None = None
    webhook_id: str | None = None

    def __post_init__(self) -> None:
        if self.delivery_status is not None and self.delivery_status not in DELIVERY_STATUSES:
            raise InvalidInput(
                "delivery_status is pending, succeeded or failed",
                field="delivery_status",
                code="invalid_parameter",
            )


def list_notifications(
    ctx: ServiceContext,
    caller: Caller,
    filters: NotificationFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> Page[NotificationRecord]:
    """The account's notifications, newest first."""
    query = select(WebhookNotification).where(WebhookNotification.account_id == caller.account_id)
    if filters.event is not None:
        query = query.where(WebhookNotification.event == filters.event)
    if filters.delivery_status is not None:
        query = query.where(WebhookNotification.delivery_status == filters.delivery_status)
    if filters.webhook_id is not None:
        query = query.where(WebhookNotification.webhook_id == filters.webhook_id)
    query = query.order_by(WebhookNotification.created_at.desc(), WebhookNotification.id)
    with ctx.reading() as session:
        total, rows = fetch_page(session, query, page)
        return Page(tuple(load_notifications(session, rows, includes)), total, page)


def get_notification(
    ctx: ServiceContext, caller: Caller, notification_id: str, includes: Collection[str] = ()
) -> NotificationRecord:
    """One of the account's notifications."""
    with ctx.reading() as session:
        row = owned(
            session, WebhookNotification, notification_id, caller.account_id, "webhook notification"
        )
        return load_notifications(session, [row], includes)[0]


def load_notifications(
    session: Session, rows: Sequence[WebhookNotification], includes: Collection[str] = ()
) -> list[NotificationRecord]:
    """Records of ``rows`` with what ``includes`` asks for, each relation read once."""
    logs = _logs_of(session, [row.id for row in rows])
    webhooks = {}
    if "webhook" in includes:
        found = Loader(session).rows(Webhook, Webhook.id, (row.webhook_id for row in rows))
        webhooks = {w.id: webhook_record(w) for w in found}
    references = (
        load_references(session, [(row.reference_type, row.reference_id) for row in rows])
        if "reference_object" in includes
        else {}
    )
    want_logs = "webhook_notification_logs" in includes
    return [
        NotificationRecord(
            id=row.id,
            event=row.event,
            webhook_id=row.webhook_id,
            delivery_status=row.delivery_status,
            reference_type=row.reference_type,
            reference_id=row.reference_id,
            created_at=row.created_at,
            log_ids=tuple(log.id for log in logs[row.id]),
            webhook=webhooks.get(row.webhook_id),
            logs=tuple(logs[row.id]) if want_logs else None,
            reference=references.get((row.reference_type, row.reference_id)),
        )
        for row in rows
    ]


def _logs_of(session: Session, ids: Sequence[str]) -> dict[str, list[NotificationLogRecord]]:
    found: dict[str, list[NotificationLogRecord]] = defaultdict(list)
    if ids:
        query = (
            select(WebhookNotificationLog)
            .where(WebhookNotificationLog.notification_id.in_(ids))
            .order_by(WebhookNotificationLog.attempt, WebhookNotificationLog.id)
        )
        for log in session.scalars(query):
            found[log.notification_id].append(notification_log_record(log))
    return found

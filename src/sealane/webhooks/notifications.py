"""From the outbox to notifications: one per event per active webhook that lists the event."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..store.claims import for_update_skip_locked
from ..store.models import OutboxEvent, Webhook, WebhookNotification

#: Renders the body of a notification (the JSON:API document with ``included``).
Renderer = Callable[[Session, WebhookNotification], bytes]


def fan_out(session: Session, now: datetime, render: Renderer, *, batch: int = 200) -> int:
    """Turn undispatched outbox rows into notifications; returns how many rows were handled.

    Runs in the caller's transaction: the notifications and the outbox row's ``dispatched_at``
    commit together, and concurrent dispatchers skip rows another one holds.
    """
    query = (
        select(OutboxEvent)
        .where(OutboxEvent.dispatched_at.is_(None))
        .order_by(OutboxEvent.id)
        .limit(batch)
    )
    rows = session.scalars(for_update_skip_locked(session, query)).all()
    webhooks: dict[str, list[Webhook]] = {}
    for row in rows:
        taken = session.execute(
            update(OutboxEvent)
            .where(OutboxEvent.id == row.id, OutboxEvent.dispatched_at.is_(None))
            .values(dispatched_at=now)
            .execution_options(synchronize_session=False)
        )
        if int(getattr(taken, "rowcount", 0)) != 1:
            continue  # another dispatcher took it
        if row.account_id not in webhooks:
            webhooks[row.account_id] = list(
                session.scalars(
                    select(Webhook).where(
                        Webhook.account_id == row.account_id, Webhook.active.is_(True)
                    )
                )
            )
        for webhook in webhooks[row.account_id]:
            if row.event not in webhook.events:
                continue
            notification = WebhookNotification(
                account_id=row.account_id,
                webhook_id=webhook.id,
                outbox_event_id=row.id,
                event=row.event,
                reference_type=row.reference_type,
                reference_id=row.reference_id,
                delivery_status="pending",
                attempts=0,
                next_attempt_at=now,
                payload="",
                created_at=now,
                updated_at=now,
            )
            session.add(notification)
            session.flush()
            notification.payload = render(session, notification).decode()
    return len(rows)

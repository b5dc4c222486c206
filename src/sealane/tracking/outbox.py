"""The outbox: events queued for webhooks in the same transaction that recorded them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import OutboxEvent


def emit(
    session: Session, account_id: str, event: str, ref_type: str, ref_id: str, now: datetime
) -> None:
    """Queue ``event`` about (``ref_type``, ``ref_id``) for webhooks, once."""
    exists = session.scalar(
        select(OutboxEvent.id).where(
            OutboxEvent.event == event,
            OutboxEvent.reference_type == ref_type,
            OutboxEvent.reference_id == ref_id,
        )
    )
    if exists is None:
        session.add(
            OutboxEvent(
                account_id=account_id,
                event=event,
                reference_type=ref_type,
                reference_id=ref_id,
                created_at=now,
            )
        )

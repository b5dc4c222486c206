"""The outbox: events queued for webhooks in the same transaction that recorded them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from ..store.models import OutboxEvent


def emit(
    session: Session,
    account_id: str,
    event: str,
    ref_type: str,
    ref_id: str,
    now: datetime,
    *,
    occurrence: int = 0,
) -> None:
    """Queue ``event`` about (``ref_type``, ``ref_id``) for webhooks, once per ``occurrence``
    (the database's unique key refuses a second row for the same one)."""
    exists = session.scalar(
        select(OutboxEvent.id).where(
            OutboxEvent.event == event,
            OutboxEvent.reference_type == ref_type,
            OutboxEvent.reference_id == ref_id,
            OutboxEvent.occurrence == occurrence,
        )
    )
    if exists is None:
        session.add(
            OutboxEvent(
                account_id=account_id,
                event=event,
                reference_type=ref_type,
                reference_id=ref_id,
                occurrence=occurrence,
                created_at=now,
            )
        )


def queue_new(session: Session, rows: Sequence[NewEvent], now: datetime) -> None:
    """Queue events about objects made in this transaction, in one statement: they can have no
    row yet, so none is looked for (:func:`emit` looks, once per event)."""
    if not rows:
        return
    session.execute(
        insert(OutboxEvent),
        [
            {
                "account_id": row.account_id,
                "event": row.event,
                "reference_type": row.ref_type,
                "reference_id": row.ref_id,
                "occurrence": 0,
                "created_at": now,
            }
            for row in rows
        ],
    )


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event for :func:`queue_new`: the account told, the event, what it is about."""

    account_id: str
    event: str
    ref_type: str
    ref_id: str


def occurrences(session: Session, event: str, ref_type: str, ref_id: str) -> int:
    """The occurrence number of the next ``event`` about (``ref_type``, ``ref_id``): one past
    the last queued (not a count, so it stays new if old rows are ever pruned), 0 for the
    first."""
    last = session.scalar(
        select(func.max(OutboxEvent.occurrence)).where(
            OutboxEvent.event == event,
            OutboxEvent.reference_type == ref_type,
            OutboxEvent.reference_id == ref_id,
        )
    )
    return 0 if last is None else int(last) + 1

"""Carriers' events kept in the database, once per (SCAC, eventID), filed under their references.

Pushed events land here; the adapter reads them with what it polls, so an event that arrives
by push and by poll, or twice by either, is one event. Two callbacks carrying the same event at
once both find it not kept yet; the insert skips a row the unique constraint already holds
(``ON CONFLICT DO NOTHING``, on SQLite and PostgreSQL alike), so the second counts it as kept
instead of failing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from ...store.models import CarrierEvent, CarrierEventRef
from .events import DcsaEvent


def store_events(
    session: Session,
    scac: str,
    events: Iterable[tuple[DcsaEvent, dict[str, Any]]],
    via: str,
    now: datetime,
) -> tuple[int, int]:
    """Keep each (parsed, raw) event not kept yet; returns (new, already kept)."""
    batch = {event.event_id: (event, raw) for event, raw in events}
    if not batch:
        return 0, 0
    kept = set(
        session.scalars(
            select(CarrierEvent.event_id).where(
                CarrierEvent.scac == scac, CarrierEvent.event_id.in_(sorted(batch))
            )
        )
    )
    new = 0
    for event_id, (event, raw) in batch.items():
        if event_id in kept:
            continue
        values = {
            "scac": scac,
            "event_id": event_id,
            "payload": raw,
            "received_via": via,
            "received_at": now,
        }
        row_id = session.scalar(_insert_new(session).values(values).returning(CarrierEvent.id))
        if row_id is None:  # kept meanwhile by a concurrent callback
            continue
        new += 1
        session.add_all(CarrierEventRef(event_row_id=row_id, ref=ref) for ref in sorted(event.refs))
    return new, len(batch) - new


def _insert_new(session: Session) -> Insert:
    """An insert of a carrier event that does nothing when (scac, event_id) is kept already."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(CarrierEvent).on_conflict_do_nothing(  # type: ignore[no-any-return]
        index_elements=["scac", "event_id"]
    )


def read_events(sessions: sessionmaker[Session], scac: str, refs: set[str]) -> list[dict[str, Any]]:
    """The raw events of ``scac`` filed under any of ``refs``, in the order they arrived."""
    if not refs:
        return []
    with sessions() as session:
        rows = session.scalars(
            select(CarrierEvent)
            .where(
                CarrierEvent.scac == scac,
                CarrierEvent.id.in_(
                    select(CarrierEventRef.event_row_id).where(
                        CarrierEventRef.ref.in_(sorted(refs))
                    )
                ),
            )
            .order_by(CarrierEvent.id)
        )
        return [dict(row.payload) for row in rows]

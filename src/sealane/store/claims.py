"""Row claiming that is safe with several worker processes: ``FOR UPDATE SKIP LOCKED`` where
the database has row locks (PostgreSQL).

Used by the tracking poller (one worker at a time per tracking request and per shipment) and by
webhook delivery (one worker per outbox row and per notification).
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

T = TypeVar("T", bound=Any)


def for_update_skip_locked(session: Session, query: Select[T]) -> Select[T]:
    """``query`` locking its rows and skipping rows locked by others (PostgreSQL).

    The lock lasts until the session's transaction ends, and the server drops it when the
    connection of a crashed worker goes away. On SQLite (which has no row locks, and whose
    driver starts a transaction only at the first write) this only narrows the candidates; a
    compare-and-set ``UPDATE`` or a re-check of the row must make each claim exclusive there.
    """
    if session.get_bind().dialect.name == "postgresql":
        return query.with_for_update(skip_locked=True)
    return query

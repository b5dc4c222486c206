"""Row claiming that is safe with several workers: ``FOR UPDATE SKIP LOCKED`` where supported."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

T = TypeVar("T", bound=Any)


def for_update_skip_locked(session: Session, query: Select[T]) -> Select[T]:
    """``query`` locking its rows and skipping rows locked by others (PostgreSQL).

    On SQLite (which has no row locks, and whose driver starts a transaction only at the first
    write) this only narrows the candidates; the compare-and-set ``UPDATE`` of each claim is
    what makes it exclusive on every backend.
    """
    if session.get_bind().dialect.name == "postgresql":
        return query.with_for_update(skip_locked=True)
    return query

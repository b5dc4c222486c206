"""Row claiming that is safe with several workers: ``FOR UPDATE SKIP LOCKED`` where supported."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

T = TypeVar("T", bound=Any)


def for_update_skip_locked(session: Session, query: Select[T]) -> Select[T]:
    """``query`` locking its rows and skipping rows locked by others (PostgreSQL).

    SQLite has one writer at a time, so the transaction itself serialises the claim there.
    """
    if session.get_bind().dialect.name == "postgresql":
        return query.with_for_update(skip_locked=True)
    return query

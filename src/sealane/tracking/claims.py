"""Claims of the tracking poller: one worker at a time per tracking request and per shipment.

Every worker process polling a database runs the same pass over the due requests and the
tracked shipments. Before its unit of work, a worker claims the row in that unit's transaction:

* on PostgreSQL the row is locked ``FOR UPDATE SKIP LOCKED``, so a row another worker is
  working on is skipped rather than waited for, and the lock goes when that transaction ends
  (or when the server sees a crashed worker's connection close);
* on every backend the claim is a compare-and-set ``UPDATE`` that re-checks the row is still
  due: a worker that read the list before another one finished the row leaves it alone, and on
  SQLite (no row locks) that first write takes the database's write lock for the unit.

A claim is held for one unit (one lookup, one sync), not across passes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TypeVar

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from ..store.claims import for_update_skip_locked
from ..store.database import transaction
from ..store.models import Shipment, TrackingRequest
from ..store.unavailable import DatabaseUnavailable
from ..vocabulary.statuses import RequestStatus

#: The statuses in which a request is looked up when its ``next_attempt_at`` comes.
DUE_STATUSES = (RequestStatus.PENDING.value, RequestStatus.AWAITING_MANIFEST.value)
#: Shipments :func:`stamp_attempts` names in one statement at most.
STAMPED_AT_ONCE = 500

T = TypeVar("T")


def claim_request(session: Session, request_id: str, now: datetime) -> TrackingRequest | None:
    """The request, claimed for this transaction, if it is still due at ``now`` and no other
    worker holds it; else None."""
    due = (
        TrackingRequest.id == request_id,
        TrackingRequest.status.in_(DUE_STATUSES),
        TrackingRequest.next_attempt_at <= now,
    )
    request = session.scalars(for_update_skip_locked(session, select(TrackingRequest).where(*due)))
    found = request.first()
    if found is None:
        return None
    taken = session.execute(
        update(TrackingRequest)
        .where(*due)
        .values(next_attempt_at=TrackingRequest.next_attempt_at)  # the claim itself, no change
        .execution_options(synchronize_session=False)
    )
    return found if int(getattr(taken, "rowcount", 0)) == 1 else None


def claim_shipment(session: Session, shipment_id: str, now: datetime) -> Shipment | None:
    """The shipment, claimed for this transaction, if it is still tracked, no other worker
    holds it and none has synced it at a later time than ``now``; else None.

    The claim stamps ``line_tracking_last_attempted_at`` with ``now`` (the sync does too).
    """
    due = (Shipment.id == shipment_id, *_unsynced_since(now))
    found = session.scalars(for_update_skip_locked(session, select(Shipment).where(*due))).first()
    if found is None:
        return None
    taken = session.execute(
        update(Shipment)
        .where(*due)
        .values(line_tracking_last_attempted_at=now)
        .execution_options(synchronize_session=False)
    )
    if int(getattr(taken, "rowcount", 0)) != 1:
        return None
    found.line_tracking_last_attempted_at = now
    return found


def stamp_attempts(
    session: Session, shipment_ids: Sequence[str], now: datetime, *, succeeded: bool
) -> None:
    """Stamp the shipments' ``line_tracking_last_attempted_at`` (and, when the carrier
    answered, ``line_tracking_last_succeeded_at``) with ``now``, those still tracked and synced
    at no later time only, as their claims would have."""
    times = {Shipment.line_tracking_last_attempted_at: now}
    if succeeded:
        times[Shipment.line_tracking_last_succeeded_at] = now
    for start in range(0, len(shipment_ids), STAMPED_AT_ONCE):
        batch = list(shipment_ids[start : start + STAMPED_AT_ONCE])
        session.execute(
            update(Shipment)
            .where(Shipment.id.in_(batch), *_unsynced_since(now))
            .values(times)
            .execution_options(synchronize_session=False)
        )


def _unsynced_since(now: datetime) -> tuple[ColumnElement[bool], ...]:
    """A shipment still tracked that no worker has synced at a later time than ``now``."""
    return (
        Shipment.tracking_stopped_at.is_(None),
        or_(
            Shipment.line_tracking_last_attempted_at.is_(None),
            Shipment.line_tracking_last_attempted_at <= now,
        ),
    )


def retried(sessions: sessionmaker[Session], work: Callable[[Session], T]) -> T:
    """``work`` in a transaction of its own, tried once more at once if it lost a race with
    another worker on a shared row (a unique key both inserted, a deadlock), or if its
    connection dropped: the second try sees the row the other one committed."""
    try:
        with transaction(sessions) as session:
            return work(session)
    except (IntegrityError, OperationalError, DatabaseUnavailable):
        with transaction(sessions) as session:
            return work(session)

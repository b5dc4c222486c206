"""Whether the service can serve (``/readyz``) and what work waits in its database (``/metrics``).

Both read the database only, in short read-only transactions, and turn a database that does not
answer into an answer (not ready; backlog unknown) rather than an error: a probe must always get
a reply it can act on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from ...store.migrate import head_revisions, stored_revisions
from ...store.models import OutboxEvent, TrackingRequest, WebhookNotification
from ...store.unavailable import DatabaseUnavailable
from ...tracking.claims import DUE_STATUSES
from .context import ServiceContext
from .metrics import Backlog

log = logging.getLogger("sealane.service")


@dataclass(frozen=True, slots=True)
class Readiness:
    """Whether the service is ready, and if not, why (a sentence for the operator)."""

    ready: bool
    reason: str
    #: The schema revisions found in the database, and the ones this install expects.
    revisions: tuple[str, ...] = ()
    head: tuple[str, ...] = ()


def readiness(ctx: ServiceContext) -> Readiness:
    """Ready when the database answers and its schema is at this install's migration head."""
    head = tuple(sorted(head_revisions()))
    try:
        with ctx.engine.connect() as connection:
            stored = tuple(sorted(stored_revisions(connection)))
    except (SQLAlchemyError, DatabaseUnavailable) as error:
        log.warning("readiness: the database did not answer: %s", error)
        return Readiness(False, "the database does not answer", head=head)
    if not stored:
        return Readiness(False, "the database schema has not been migrated", stored, head)
    if stored != head:
        found, wanted = ", ".join(stored), ", ".join(head)
        reason = f"the database schema is at {found}, not at the migration head {wanted}"
        return Readiness(False, reason, stored, head)
    return Readiness(True, "ready", stored, head)


def backlog(ctx: ServiceContext) -> Backlog:
    """The webhook queue, the undispatched outbox and the tracking poller's lag, now; all None
    when the database does not answer."""
    now = ctx.clock.now()
    try:
        with ctx.reading() as session:
            queue = session.scalar(
                select(func.count())
                .select_from(WebhookNotification)
                .where(WebhookNotification.delivery_status == "pending")
            )
            outbox = session.scalar(
                select(func.count())
                .select_from(OutboxEvent)
                .where(OutboxEvent.dispatched_at.is_(None))
            )
            oldest = session.scalar(
                select(func.min(TrackingRequest.next_attempt_at)).where(
                    TrackingRequest.status.in_(DUE_STATUSES),
                    TrackingRequest.next_attempt_at <= now,
                )
            )
    except (SQLAlchemyError, DatabaseUnavailable) as error:
        log.warning("metrics: the database did not answer: %s", error)
        return Backlog(None, None, None)
    return Backlog(int(queue or 0), int(outbox or 0), _lag_s(oldest, now))


def _lag_s(oldest_due: datetime | None, now: datetime) -> float:
    """Seconds ``now`` is past ``oldest_due`` (0 when nothing is due)."""
    if oldest_due is None:
        return 0.0
    return max((now - oldest_due).total_seconds(), 0.0)

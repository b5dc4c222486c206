"""How long vessel positions are kept (``SEALANE_POSITION_RETENTION_DAYS``), and the monthly
partitions made ahead of the positions that will need them: a background job of
``sealane worker`` (and of a one-process ``sealane serve``).

Each pass makes this month's and next month's partitions if missing (PostgreSQL), so the ingest
rarely has to, then removes the positions older than the retention: whole monthly partitions on
PostgreSQL, row by row on SQLite (:mod:`sealane.store.position_partitions`). Without a
retention, positions are kept for good.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from ...store.position_partitions import (
    Retention,
    drop_positions_before,
    ensure_months,
    month_of,
    next_month,
)
from ..core.context import ServiceContext

#: Seconds between two passes of the job: partitions are monthly, an hour is soon enough.
RETENTION_INTERVAL_S = 3600.0


def _never() -> bool:
    return False


class PositionRetention:
    """The job's passes (:meth:`tick`), for :class:`~sealane.tracking.poller.Poller`."""

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    def tick(self, stopping: Callable[[], bool] = _never) -> Retention | None:
        """One pass: next months' partitions made, then positions past the retention removed
        (None when positions are kept for good, or when asked to stop in between)."""
        now = self.ctx.clock.now()
        this_month = month_of(now.timestamp())
        with self.ctx.writing() as session:
            ensure_months(session.connection(), [this_month, next_month(this_month)])
        days = self.ctx.settings.position_retention_days
        if days is None or stopping():
            return None
        with self.ctx.writing() as session:
            return drop_positions_before(session.connection(), now - timedelta(days=days))

"""Keeping tracked objects in sync with carriers: request lookups, shipment syncs, the outbox.

Each unit of work (one request's lookup, one shipment's sync) is one transaction: the records it
creates and their outbox rows commit together or not at all, so a restart loses nothing and a
retry emits nothing twice (the outbox is unique per event and object). What a sync stores of the
carrier's snapshot is written by :mod:`.recording`. A sync that finds nothing new is rolled back
instead, and the pass stamps the attempt's times of all those shipments in one transaction.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from sqlalchemy import event, inspect, select
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker

from ..clock import Clock
from ..store.database import transaction
from ..store.models import Container, Shipment, TrackingRequest, Vessel
from ..vocabulary.statuses import RequestStatus
from .carriers.base import AwaitingManifest, CarrierAdapter, Found, Snapshot, UnknownNumber
from .changes import set_status, stop_tracking
from .claims import DUE_STATUSES, claim_request, claim_shipment, retried, stamp_attempts
from .creation import create_shipment, vessel_for
from .lifecycle import next_retry_at, window_ends_at
from .outbox import emit
from .poller import never
from .portcalls import sync_port_calls
from .recording import move_vessel, record_estimate, record_events, record_updates

__all__ = ["FINAL_REASONS", "TickReport", "TrackingService", "emit"]

log = logging.getLogger("sealane.tracking")
#: Reasons a request keeps as its failed_reason when its retries run out (others become
#: retries_exhausted): the carrier said so, it was not a passing failure.
FINAL_REASONS = frozenset({UnknownNumber().reason, "booking_cancelled"})


@dataclass
class TickReport:
    """What one pass of :meth:`TrackingService.tick` did."""

    lookups: int = 0
    syncs: int = 0
    errors: int = 0
    #: Requests and shipments left alone: another worker held them, or had just done them.
    skipped: int = 0


#: What a sync writes whatever the carrier reports: the times of the attempt.
_ATTEMPT_TIMES = frozenset({"line_tracking_last_attempted_at", "line_tracking_last_succeeded_at"})


class _NothingNew(Exception):
    """Raised out of a shipment's sync to roll its transaction back: the carrier reported
    nothing the database does not hold, so the attempt's times were all it would write; the
    pass writes those for all such shipments at once (:meth:`TrackingService._stamp_quiet`)."""

    def __init__(self, shipment_id: str, *, succeeded: bool) -> None:
        super().__init__(shipment_id)
        self.shipment_id = shipment_id
        self.succeeded = succeeded


class _News:
    """Whether a session's work changes anything besides the attempt's times of shipments:
    what its unit of work flushes, looked at before each flush and at the end, and any
    ``INSERT``, ``UPDATE`` or ``DELETE`` it executes (the claim's own comes before)."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._seen = False
        event.listen(session, "before_flush", self._flushing)
        event.listen(session, "do_orm_execute", self._executing)

    def _flushing(self, session: Session, *_: object) -> None:
        self._seen = self._seen or _changes_news(session)

    def _executing(self, state: ORMExecuteState) -> None:
        self._seen = self._seen or state.is_insert or state.is_update or state.is_delete

    def found(self) -> bool:
        """Whether anything besides the attempt's times was or is about to be written."""
        event.remove(self._session, "before_flush", self._flushing)
        event.remove(self._session, "do_orm_execute", self._executing)
        return self._seen or _changes_news(self._session)


def _changes_news(session: Session) -> bool:
    if session.new or session.deleted:
        return True
    for instance in session.dirty:
        state = inspect(instance)
        changed = {attribute.key for attribute in state.attrs if attribute.history.has_changes()}
        if changed - (_ATTEMPT_TIMES if isinstance(instance, Shipment) else frozenset()):
            return True
    return False


class TrackingService:
    """Runs lookups that are due and syncs every tracked shipment with its carrier."""

    def __init__(
        self, sessions: sessionmaker[Session], clock: Clock, carriers: Mapping[str, CarrierAdapter]
    ):
        self.sessions = sessions
        self.clock = clock
        self.carriers = dict(carriers)

    def tick(self, stopping: Callable[[], bool] = never) -> TickReport:
        """One pass at the clock's current time; each unit of work is its own transaction.

        Each unit first claims its row (:mod:`.claims`), so worker processes polling one
        database never work on the same request or shipment at once; a unit that lost a race
        for a shared row (a vessel two shipments bring) is tried once more at once. Once
        ``stopping()``, the pass ends before its next unit: what it did not reach stays due.
        """
        now = self.clock.now()
        report = TickReport()
        with self.sessions() as session:
            due = session.scalars(
                select(TrackingRequest.id).where(
                    TrackingRequest.status.in_(DUE_STATUSES), TrackingRequest.next_attempt_at <= now
                )
            ).all()
            active = session.scalars(
                select(Shipment.id).where(Shipment.tracking_stopped_at.is_(None))
            ).all()
        for request_id in due:
            if stopping():
                break
            try:
                done = retried(self.sessions, partial(self._lookup, request_id=request_id, now=now))
            except Exception:  # one broken lookup must not stop the others: count it, back off
                log.exception("lookup of tracking request %s failed", request_id)
                report.errors += 1
                with transaction(self.sessions) as session:
                    request = claim_request(session, request_id, now)
                    if request is not None:
                        self._failed_attempt(session, request, "internal_processing_error", now)
                done = True
            report.lookups += done
            report.skipped += not done
        quiet: list[_NothingNew] = []
        for shipment_id in active:
            if stopping():
                break
            try:
                done = retried(
                    self.sessions, partial(self._sync_due, shipment_id=shipment_id, now=now)
                )
            except _NothingNew as nothing:  # rolled back; its attempt is stamped below
                quiet.append(nothing)
                done = True
            except Exception:  # nothing of a failed sync is kept; the next pass tries again
                log.exception("sync of shipment %s failed", shipment_id)
                report.errors += 1
                self._attempted(shipment_id, now)
                done = True
            report.syncs += done
            report.skipped += not done
        self._stamp_quiet(quiet, now)
        return report

    def _lookup(self, session: Session, request_id: str, now: datetime) -> bool:
        """Claim the request and look it up; False when it was not ours to look up."""
        if claim_request(session, request_id, now) is None:
            return False
        self.attempt(session, request_id, now)
        return True

    def _sync_due(self, session: Session, shipment_id: str, now: datetime) -> bool:
        """Claim the shipment and sync it; False when it was not ours to sync. Raises
        :class:`_NothingNew` (rolling the unit back) when the carrier reported nothing new."""
        shipment = claim_shipment(session, shipment_id, now)
        if shipment is None:
            return False
        news = _News(session)
        self.sync(session, shipment, now)
        if not news.found():
            succeeded = shipment.line_tracking_last_succeeded_at == now
            raise _NothingNew(shipment_id, succeeded=succeeded)
        return True

    def _stamp_quiet(self, quiet: list[_NothingNew], now: datetime) -> None:
        """Stamp the attempt's times of the shipments whose syncs found nothing new, all in one
        transaction: a pass changes the database once for them instead of once each (every
        change makes the kept list pages that show those times be read again)."""
        if not quiet:
            return

        def stamp(session: Session) -> None:
            for succeeded in (True, False):
                found = [n.shipment_id for n in quiet if n.succeeded == succeeded]
                if found:
                    stamp_attempts(session, found, now, succeeded=succeeded)

        retried(self.sessions, stamp)

    # -- lookups ---------------------------------------------------------------------------

    def attempt(self, session: Session, request_id: str, now: datetime) -> None:
        """Ask the carrier about one due request and move it along its lifecycle."""
        request = session.get(TrackingRequest, request_id)
        if request is None:
            return
        adapter = self.carriers.get(request.scac)
        if adapter is None:
            self._failed_attempt(session, request, "shipping_line_unreachable", now)
            return
        result = adapter.lookup(
            request.request_type, request.request_number, requested_at=request.created_at, now=now
        )
        if isinstance(result, Found):
            shipment = create_shipment(session, request, result.plan, now)
            request.shipment_id = shipment.id
            request.failed_reason = None
            request.is_retrying = False
            request.next_attempt_at = None
            set_status(session, request, RequestStatus.CREATED, now)
            session.flush()
            self.sync(session, shipment, now)
        elif isinstance(result, AwaitingManifest):
            if request.status != RequestStatus.AWAITING_MANIFEST:
                set_status(session, request, RequestStatus.AWAITING_MANIFEST, now)
            request.next_attempt_at = result.retry_at
            request.updated_at = now
        else:
            final = isinstance(result, UnknownNumber) and result.final
            self._failed_attempt(session, request, result.reason, now, final=final)

    def _failed_attempt(
        self,
        session: Session,
        request: TrackingRequest,
        reason: str,
        now: datetime,
        *,
        final: bool = False,
    ) -> None:
        """Count a failed attempt: retry with backoff, or fail for good when retries run out
        (or at once when the carrier's answer is ``final``)."""
        request.retry_count += 1
        jitter = (
            int(hashlib.sha256(f"{request.id}/{request.retry_count}".encode()).hexdigest()[:4], 16)
            / 65536
        )
        retry_at = None if final else next_retry_at(now, request.retry_count, jitter)
        request.updated_at = now
        if retry_at is not None:
            request.is_retrying = True
            request.failed_reason = reason
            request.next_attempt_at = retry_at
            return
        request.is_retrying = False
        request.next_attempt_at = None
        request.failed_reason = reason if reason in FINAL_REASONS else "retries_exhausted"
        set_status(session, request, RequestStatus.FAILED, now)

    def _attempted(self, shipment_id: str, now: datetime) -> None:
        """Record a sync attempt that failed (its own work was rolled back)."""
        with transaction(self.sessions) as session:
            shipment = session.get(Shipment, shipment_id)
            if shipment is not None:
                shipment.line_tracking_last_attempted_at = now

    # -- syncing -----------------------------------------------------------------------------

    def sync(self, session: Session, shipment: Shipment, now: datetime) -> None:
        """Record what the carrier reports up to ``now``: events, terminal updates, ETA, vessel."""
        adapter = self.carriers.get(shipment.shipping_line_scac)
        if adapter is None:
            return
        shipment.line_tracking_last_attempted_at = now
        snapshot = adapter.snapshot(
            (shipment.carrier_request_type, shipment.carrier_number, shipment.carrier_epoch), now
        )
        shipment.line_tracking_last_succeeded_at = now
        containers = {
            c.number: c
            for c in session.scalars(select(Container).where(Container.shipment_id == shipment.id))
        }
        by_index = [containers.get(planned.number) for planned in snapshot.plan.containers]
        vessels = [
            vessel_for(session, leg.vessel_name, leg.vessel_imo, leg.vessel_mmsi)
            for leg in snapshot.plan.legs
        ]
        self._record_events(session, shipment, snapshot, by_index, vessels, now)
        record_updates(session, shipment, snapshot.updates, by_index, now)
        record_estimate(session, shipment, snapshot, vessels, now)
        sync_port_calls(session, shipment, snapshot, by_index, vessels, now)
        move_vessel(session, snapshot, vessels, now)
        if snapshot.plan.legs[0].depart_at <= now and shipment.pol_atd_at is None:
            shipment.pol_atd_at = snapshot.plan.legs[0].depart_at
        if snapshot.pod_ata is not None and shipment.pod_ata_at is None:
            shipment.pod_ata_at = snapshot.pod_ata
            shipment.pod_eta_at = snapshot.pod_ata  # the estimate settles on the actual arrival
            shipment.updated_at = now
        ends = window_ends_at(shipment.pod_ata_at, shipment.tracking_resumed_at)
        if ends is not None and now >= ends:
            stop_tracking(session, shipment, now, reason="past_arrival_window")

    def _record_events(
        self,
        session: Session,
        shipment: Shipment,
        snapshot: Snapshot,
        containers: list[Container | None],
        vessels: list[Vessel],
        now: datetime,
    ) -> None:
        """Store the snapshot's transport events not stored yet (:func:`.record_events`)."""
        record_events(session, shipment, snapshot, containers, vessels, now)

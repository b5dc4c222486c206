"""The tracking request state machine, and the retry schedule of failed lookups."""

from __future__ import annotations

from datetime import datetime, timedelta

from ..vocabulary.statuses import RequestStatus

#: Allowed moves: pending -> created | awaiting_manifest | failed; awaiting_manifest -> created |
#: failed; created -> tracking_stopped; tracking_stopped -> created (resumed).
TRANSITIONS: dict[RequestStatus, frozenset[RequestStatus]] = {
    RequestStatus.PENDING: frozenset(
        {RequestStatus.CREATED, RequestStatus.AWAITING_MANIFEST, RequestStatus.FAILED}
    ),
    RequestStatus.AWAITING_MANIFEST: frozenset({RequestStatus.CREATED, RequestStatus.FAILED}),
    RequestStatus.CREATED: frozenset({RequestStatus.TRACKING_STOPPED}),
    RequestStatus.TRACKING_STOPPED: frozenset({RequestStatus.CREATED}),
    RequestStatus.FAILED: frozenset(),
}

#: A request in one of these is still open: the same number and carrier cannot be asked again.
OPEN_STATUSES = (RequestStatus.PENDING, RequestStatus.AWAITING_MANIFEST, RequestStatus.CREATED)

#: Event emitted on entering each status (None: no event).
STATUS_EVENT = {
    RequestStatus.CREATED: "tracking_request.succeeded",
    RequestStatus.AWAITING_MANIFEST: "tracking_request.awaiting_manifest",
    RequestStatus.FAILED: "tracking_request.failed",
    RequestStatus.TRACKING_STOPPED: "tracking_request.tracking_stopped",
}

#: Seconds to wait before each retry of a failed lookup (with up to 10 % jitter added).
RETRY_BACKOFF_S = (300, 1_800, 7_200, 21_600)
#: Tracking stops this long after the shipment arrives at its port of discharge.
TRACKING_WINDOW = timedelta(days=56)
#: An awaiting-manifest request is looked up again this often.
MANIFEST_RECHECK = timedelta(hours=1)


class IllegalTransition(ValueError):
    """A status change the state machine does not allow."""


def check_transition(current: str, new: RequestStatus) -> RequestStatus:
    """``new`` if moving from ``current`` to it is allowed, else :class:`IllegalTransition`.

    >>> check_transition("pending", RequestStatus.CREATED)
    <RequestStatus.CREATED: 'created'>
    """
    if new not in TRANSITIONS[RequestStatus(current)]:
        raise IllegalTransition(f"a tracking request cannot go from {current} to {new.value}")
    return new


def next_retry_at(now: datetime, retry_count: int, jitter: float) -> datetime | None:
    """When to retry after ``retry_count`` failed attempts (None when retries are exhausted).

    ``jitter`` in [0, 1) spreads retries of many requests; 10 % of the delay at most.
    """
    if retry_count < 1:
        raise ValueError(f"retry_count counts failed attempts (>= 1), got {retry_count}")
    if retry_count > len(RETRY_BACKOFF_S):
        return None
    delay = RETRY_BACKOFF_S[retry_count - 1]
    return now + timedelta(seconds=delay * (1 + 0.1 * jitter))


def window_ends_at(arrived_at: datetime | None, resumed_at: datetime | None) -> datetime | None:
    """When tracking stops on its own: a :data:`TRACKING_WINDOW` after the arrival at the port
    of discharge, or after the last resume when that is later (a shipment resumed after its
    window is followed for a window more); None before it arrives.

    >>> from datetime import UTC
    >>> arrived = datetime(2026, 1, 1, tzinfo=UTC)
    >>> later = arrived + timedelta(days=100)
    >>> window_ends_at(arrived, None).date(), window_ends_at(arrived, later).date()
    (datetime.date(2026, 2, 26), datetime.date(2026, 6, 6))
    """
    if arrived_at is None:
        return None
    start = arrived_at if resumed_at is None or resumed_at < arrived_at else resumed_at
    return start + TRACKING_WINDOW

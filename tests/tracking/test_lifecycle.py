"""The tracking request state machine, the retry schedule, and container status after events."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from sealane.tracking.events import status_after
from sealane.tracking.lifecycle import (
    RETRY_BACKOFF_S,
    TRACKING_WINDOW,
    IllegalTransition,
    check_transition,
    next_retry_at,
    window_ends_at,
)
from sealane.vocabulary.events import EVENT_NAMES, TRANSPORT
from sealane.vocabulary.statuses import ContainerStatus, RequestStatus

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
S = RequestStatus
#: A tracking request's lifecycle: pending -> created | awaiting_manifest | failed;
#: awaiting_manifest -> created | failed; created -> tracking_stopped;
#: tracking_stopped -> created (resume).
ALLOWED = {
    (S.PENDING, S.CREATED),
    (S.PENDING, S.AWAITING_MANIFEST),
    (S.PENDING, S.FAILED),
    (S.AWAITING_MANIFEST, S.CREATED),
    (S.AWAITING_MANIFEST, S.FAILED),
    (S.CREATED, S.TRACKING_STOPPED),
    (S.TRACKING_STOPPED, S.CREATED),
}
PAIRS = list(itertools.product(RequestStatus, RequestStatus))


#: (arrived, resumed, window ends), days after NOW (None: not yet).
WINDOWS = [
    (None, None, None),
    (None, 3, None),  # resumed before it arrived: no window yet
    (10, None, 10 + TRACKING_WINDOW.days),
    (10, 3, 10 + TRACKING_WINDOW.days),  # resumed before the arrival: it runs from the arrival
    (10, 10, 10 + TRACKING_WINDOW.days),
    (10, 30, 30 + TRACKING_WINDOW.days),  # resumed within the window: a whole one from then
    (10, 100, 100 + TRACKING_WINDOW.days),  # resumed after it: a whole one from then
]


@pytest.mark.parametrize(("arrived", "resumed", "ends"), WINDOWS)
def test_window_ends_at__from_the_later_of_arrival_and_resume(
    arrived: int | None, resumed: int | None, ends: int | None
) -> None:
    def day(n: int | None) -> datetime | None:
        return None if n is None else NOW + timedelta(days=n)

    assert window_ends_at(day(arrived), day(resumed)) == day(ends)


@pytest.mark.parametrize(("current", "new"), sorted(ALLOWED))
def test_check_transition__allowed(current: RequestStatus, new: RequestStatus) -> None:
    assert check_transition(current.value, new) is new


@pytest.mark.parametrize(
    ("current", "new"), [pair for pair in PAIRS if pair not in ALLOWED], ids=str
)
def test_check_transition__disallowed(current: RequestStatus, new: RequestStatus) -> None:
    with pytest.raises(IllegalTransition, match=f"from {current.value} to {new.value}"):
        check_transition(current.value, new)


def test_check_transition__failed_is_final() -> None:
    assert not [new for (current, new) in ALLOWED if current is S.FAILED]


def test_check_transition__unknown_current_status() -> None:
    with pytest.raises(ValueError):
        check_transition("bogus", S.CREATED)


@pytest.mark.parametrize("jitter", [0.0, 0.5, 0.999])
def test_next_retry_at__backoff_grows(jitter: float) -> None:
    delays = []
    for retry_count in range(1, len(RETRY_BACKOFF_S) + 1):
        at = next_retry_at(NOW, retry_count, jitter)
        assert at is not None
        delays.append((at - NOW).total_seconds())
    assert delays == sorted(delays)
    assert len(set(delays)) == len(delays)


@pytest.mark.parametrize("retry_count", range(1, len(RETRY_BACKOFF_S) + 1))
def test_next_retry_at__delay_without_jitter(retry_count: int) -> None:
    expected = timedelta(seconds=RETRY_BACKOFF_S[retry_count - 1])
    assert next_retry_at(NOW, retry_count, 0.0) == NOW + expected


@pytest.mark.parametrize("retry_count", range(1, len(RETRY_BACKOFF_S) + 1))
def test_next_retry_at__jitter_at_most_ten_percent(retry_count: int) -> None:
    base = RETRY_BACKOFF_S[retry_count - 1]
    at = next_retry_at(NOW, retry_count, 0.999)
    assert at is not None
    assert base <= (at - NOW).total_seconds() <= base * 1.1


@pytest.mark.parametrize("retry_count", [len(RETRY_BACKOFF_S) + 1, len(RETRY_BACKOFF_S) + 5])
def test_next_retry_at__exhausted(retry_count: int) -> None:
    assert next_retry_at(NOW, retry_count, 0.3) is None


C = ContainerStatus
#: Every transport event and the status it gives (None: status unchanged).
STATUS_TABLE = {
    "empty_out": C.NEW,
    "full_in": C.NEW,
    "vessel_loaded": C.ON_SHIP,
    "vessel_departed": C.ON_SHIP,
    "transshipment_arrived": C.ON_SHIP,
    "transshipment_discharged": C.AWAITING_INLAND_TRANSFER,
    "transshipment_loaded": C.ON_SHIP,
    "transshipment_departed": C.ON_SHIP,
    "vessel_arrived": C.ON_SHIP,
    "vessel_berthed": C.ON_SHIP,
    "vessel_discharged": C.GROUNDED,
    "available": C.AVAILABLE,
    "full_out": C.PICKED_UP,
    "empty_in": C.EMPTY_RETURNED,
    "rail_loaded": C.ON_RAIL,
    "rail_departed": C.ON_RAIL,
    "rail_arrived": C.ON_RAIL,
    "rail_unloaded": C.AWAITING_INLAND_TRANSFER,
    "arrived_at_inland_destination": C.DELIVERED,
    "feeder_arrived": None,
    "feeder_discharged": None,
    "feeder_loaded": None,
    "feeder_departed": None,
    "estimated.arrived_at_inland_destination": None,
}


def test_status_table__covers_every_transport_event() -> None:
    transport = {e.removeprefix(TRANSPORT) for e in EVENT_NAMES if e.startswith(TRANSPORT)}
    assert transport == set(STATUS_TABLE)


@pytest.mark.parametrize(("name", "status"), STATUS_TABLE.items())
def test_status_after__every_transport_event(name: str, status: ContainerStatus | None) -> None:
    assert status_after(TRANSPORT + name) is status


@pytest.mark.parametrize(
    ("available", "status"),
    [(True, C.AVAILABLE), (False, C.NOT_AVAILABLE), (None, C.GROUNDED)],
)
def test_status_after__discharge_with_availability(
    available: bool | None, status: ContainerStatus
) -> None:
    assert status_after(TRANSPORT + "vessel_discharged", available=available) is status


@pytest.mark.parametrize("available", [True, False])
def test_status_after__availability_ignored_off_discharge(available: bool) -> None:
    event = TRANSPORT + "transshipment_discharged"
    assert status_after(event, available=available) is C.AWAITING_INLAND_TRANSFER
    assert status_after(TRANSPORT + "full_out", available=available) is C.PICKED_UP


@pytest.mark.parametrize("event", ["tracking_request.succeeded", "container.updated", "bogus"])
def test_status_after__not_a_transport_event(event: str) -> None:
    assert status_after(event) is None

"""The one time formatter: ISO 8601 UTC to the second, converting aware moments, taking naive
ones as UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from sealane.clock import utc_iso


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        (datetime(2026, 3, 1, tzinfo=UTC), "2026-03-01T00:00:00Z"),
        (datetime(2026, 3, 1, 0, 0, 59, 999_999, tzinfo=UTC), "2026-03-01T00:00:59Z"),
        (datetime(2026, 3, 1, 1, 30, tzinfo=timezone(timedelta(hours=2))), "2026-02-28T23:30:00Z"),
        (datetime(2026, 3, 1, 12, tzinfo=timezone(timedelta(hours=-5))), "2026-03-01T17:00:00Z"),
        (datetime(2026, 3, 1, 12), "2026-03-01T12:00:00Z"),
    ],
    ids=["utc", "microseconds dropped", "east of utc", "west of utc", "naive as utc"],
)
def test_utc_iso(moment: datetime, expected: str) -> None:
    assert utc_iso(moment) == expected


def test_utc_iso__none() -> None:
    assert utc_iso(None) is None


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        (datetime(1, 1, 1, tzinfo=UTC), "0001-01-01T00:00:00Z"),
        (datetime(999, 12, 31, 23, 59, 59), "0999-12-31T23:59:59Z"),
        (datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC), "9999-12-31T23:59:59Z"),
    ],
    ids=["year 1", "year 999", "year 9999"],
)
def test_utc_iso__years_zero_padded_to_four_digits(moment: datetime, expected: str) -> None:
    assert utc_iso(moment) == expected

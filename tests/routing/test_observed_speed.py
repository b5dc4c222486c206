"""The observed-speed rule (:mod:`sealane.routing.observed_speed`): the median speed over ground
of the last six hours' positions at sea and under way; port, anchorage, drifting and stale
positions left out."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from sealane import get_port
from sealane.routing.geodesy import MEAN_EARTH_RADIUS_M, unit_vectors
from sealane.routing.observed_speed import MIN_POSITIONS, PORT_RADIUS_M, near_port, observed_speed
from sealane.routing.ports import registry

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
#: Open water in the Arabian Sea, far from any port.
SEA = (60.1, 12.3)


def positions(
    speeds: list[float | None], *, at: tuple[float, float] = SEA, end: datetime = NOW
) -> tuple[list[datetime], list[float], list[float], list[float | None]]:
    """One position every 20 minutes up to ``end``, at ``at`` (nudged east a little each)."""
    n = len(speeds)
    times = [end - timedelta(minutes=20 * (n - 1 - i)) for i in range(n)]
    return times, [at[0] + 0.001 * i for i in range(n)], [at[1]] * n, list(speeds)


def test_observed__median_of_the_speeds_at_sea() -> None:
    seen = observed_speed(*positions([15.0, 16.0, 17.0, 16.5, 15.5]), now=NOW)
    assert seen is not None
    assert seen.knots == 16.0 and seen.positions == 5
    assert 0 < seen.variability < 0.1
    assert seen.until == NOW and seen.since == NOW - timedelta(minutes=80)


def test_observed__drifting_and_anchored_left_out() -> None:
    seen = observed_speed(*positions([0.2, 1.5, 2.9, 14.0, 14.0, 14.0, 0.0]), now=NOW)
    assert seen is not None and (seen.knots, seen.positions) == (14.0, 3)


def test_observed__port_area_left_out() -> None:
    """Fast positions inside Rotterdam's port area count for nothing: too few remain."""
    port = get_port("NLRTM")
    near = positions([20.0, 20.0, 20.0, 20.0], at=(port.lon, port.lat))
    assert observed_speed(*near, now=NOW) is None
    at_sea = positions([12.0, 12.0, 12.0], end=NOW - timedelta(hours=2))
    mixed = tuple(a + b for a, b in zip(near, at_sea, strict=True))
    order = sorted(range(7), key=lambda i: mixed[0][i])
    seen = observed_speed(*(tuple([column[i] for i in order] for column in mixed)), now=NOW)
    assert seen is not None and (seen.knots, seen.positions) == (12.0, 3)


def test_observed__only_the_last_six_hours() -> None:
    old = positions([25.0] * 5, end=NOW - timedelta(hours=7))
    assert observed_speed(*old, now=NOW) is None


def test_observed__too_few_positions() -> None:
    assert observed_speed(*positions([14.0] * (MIN_POSITIONS - 1)), now=NOW) is None
    assert observed_speed([], [], [], [], now=NOW) is None


def test_observed__implausible_speeds_left_out() -> None:
    seen = observed_speed(*positions([14.0, 14.0, 14.0, 95.0]), now=NOW)
    assert seen is not None and seen.positions == 3


def test_observed__speed_derived_where_none_reported() -> None:
    """Positions without a speed over ground take the speed from the one before: 0.1 degree of
    longitude at 12.3 N (about 5.86 nm) in 20 minutes is about 17.6 kn."""
    times = [NOW - timedelta(minutes=20 * (4 - i)) for i in range(5)]
    lons = [60.0 + 0.1 * i for i in range(5)]
    seen = observed_speed(times, lons, [12.3] * 5, [None] * 5, now=NOW)
    assert seen is not None and seen.positions == 4  # the first has no position before it
    assert seen.knots == pytest.approx(17.6, abs=0.1)


def test_near_port__as_measuring_every_port() -> None:
    """The latitude-band search finds what measuring against every port finds: random points,
    and points just inside and just outside 10 km of ports."""
    ports = registry().ports
    rng = np.random.default_rng(42)
    lons = list(rng.uniform(-180, 180, 300))
    lats = list(rng.uniform(-80, 80, 300))
    for port in ports[::40]:  # due north of a port by 9.9 and 10.1 km
        for metres in (9_900.0, 10_100.0):
            lons.append(port.lon)
            lats.append(min(port.lat + math.degrees(metres / MEAN_EARTH_RADIUS_M), 89.9))
    every = unit_vectors([p.lon for p in ports], [p.lat for p in ports])
    brute = (unit_vectors(lons, lats) @ every.T).max(axis=1) >= math.cos(
        PORT_RADIUS_M / MEAN_EARTH_RADIUS_M
    )
    found = near_port(np.array(lons), np.array(lats))
    assert found.tolist() == brute.tolist()
    sampled = len(ports[::40])  # each has a point 9.9 km due north, near it by construction
    assert sampled <= int(found.sum()) < sampled * 2 + 100

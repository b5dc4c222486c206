"""The time left to a port, by the route kept for a vessel: along it on its speed profile while
the vessel is on it, routed afresh once the vessel is off it."""

from __future__ import annotations

import numpy as np
import pytest

from sealane.feeds.ais.remaining import RemainingDistances
from sealane.routing.geodesy import from_unit_vectors, unit_vectors
from sealane.routing.routes import route

START = (-45.0, 35.0)  # the open North Atlantic
RED_SEA = (38.5, 20.0)  # bound north for Rotterdam: Suez (a slow zone and a wait) ahead
SPEED_KN = 15.0


def along(found_coordinates: np.ndarray, segment: int, fraction: float) -> tuple[float, float]:
    """The point ``fraction`` of the way along a segment of a route, on its great circle."""
    a, b = unit_vectors(
        found_coordinates[segment : segment + 2, 0], found_coordinates[segment : segment + 2, 1]
    )
    omega = np.arccos(np.clip(a @ b, -1.0, 1.0))
    point = (np.sin((1 - fraction) * omega) * a + np.sin(fraction * omega) * b) / np.sin(omega)
    lon, lat = from_unit_vectors(point[None, :])
    return float(lon[0]), float(lat[0])


@pytest.mark.parametrize("start", [START, RED_SEA])
def test_remaining__on_the_kept_route_is_its_rest_on_the_profile(
    start: tuple[float, float],
) -> None:
    remaining = RemainingDistances()
    first = route(start, "NLRTM")
    assert remaining.hours("v1", *start, "NLRTM", SPEED_KN) == pytest.approx(
        first.duration_h(SPEED_KN)
    )
    lon, lat = along(first.coordinates, 2, 0.5)
    kept = remaining.hours("v1", lon, lat, "NLRTM", SPEED_KN)
    fresh = route((lon, lat), "NLRTM")
    assert kept is not None
    assert kept < first.duration_h(SPEED_KN)
    # the rest of the route as the engine times it, its canal and waits included
    assert kept == pytest.approx(fresh.duration_h(SPEED_KN), rel=0.01)
    assert kept > fresh.distance_nm / SPEED_KN  # slower than open water all the way


def test_remaining__past_a_wait_no_longer_counts_it() -> None:
    """Once the vessel is beyond Suez's entrance on the kept route, its convoy wait is behind."""
    remaining = RemainingDistances()
    first = route(RED_SEA, "NLRTM")
    remaining.hours("v1", *RED_SEA, "NLRTM", SPEED_KN)
    profile = first.speed_profile(SPEED_KN)
    waits = np.flatnonzero(profile.speed_mps == 0.0)
    assert waits.size  # the route waits for a convoy
    after = int(profile.segment[waits[0]]) + 1  # a vertex beyond the wait's segment
    lon, lat = (float(x) for x in first.coordinates[after + 1])
    kept = remaining.hours("v1", lon, lat, "NLRTM", SPEED_KN)
    fresh = route((lon, lat), "NLRTM").duration_h(SPEED_KN)
    assert kept == pytest.approx(fresh, rel=0.02)


def test_remaining__off_the_kept_route_routes_again() -> None:
    remaining = RemainingDistances()
    remaining.hours("v1", *START, "NLRTM", SPEED_KN)
    off = (START[0] + 1.0, START[1] - 2.0)  # 120 miles away
    assert remaining.hours("v1", *off, "NLRTM", SPEED_KN) == pytest.approx(
        route(off, "NLRTM").duration_h(SPEED_KN)
    )
    # another vessel, another port: routes of their own
    assert remaining.hours("v2", *START, "USNYC", SPEED_KN) == pytest.approx(
        route(START, "USNYC").duration_h(SPEED_KN)
    )


def test_remaining__keeps_at_most_its_capacity() -> None:
    remaining = RemainingDistances(capacity=2)
    for vessel in ("v1", "v2", "v3"):
        remaining.hours(vessel, *START, "NLRTM", SPEED_KN)
    assert len(remaining) == 2

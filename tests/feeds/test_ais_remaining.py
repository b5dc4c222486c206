"""The distance left to a port, by the route kept for a vessel: along it while the vessel is on
it, routed afresh once the vessel is off it."""

from __future__ import annotations

import numpy as np
import pytest

from sealane.feeds.ais.remaining import RemainingDistances
from sealane.routing.geodesy import from_unit_vectors, unit_vectors
from sealane.routing.routes import route

START = (-45.0, 35.0)  # the open North Atlantic


def along(found_coordinates: np.ndarray, segment: int, fraction: float) -> tuple[float, float]:
    """The point ``fraction`` of the way along a segment of a route, on its great circle."""
    a, b = unit_vectors(
        found_coordinates[segment : segment + 2, 0], found_coordinates[segment : segment + 2, 1]
    )
    omega = np.arccos(np.clip(a @ b, -1.0, 1.0))
    point = (np.sin((1 - fraction) * omega) * a + np.sin(fraction * omega) * b) / np.sin(omega)
    lon, lat = from_unit_vectors(point[None, :])
    return float(lon[0]), float(lat[0])


def test_remaining__on_the_kept_route_is_its_rest_without_routing_again() -> None:
    distances = RemainingDistances()
    first = route(START, "NLRTM")
    assert distances.nm("v1", *START, "NLRTM") == pytest.approx(first.distance_nm)
    lon, lat = along(first.coordinates, 2, 0.5)
    kept = distances.nm("v1", lon, lat, "NLRTM")
    fresh = route((lon, lat), "NLRTM").distance_nm
    assert kept is not None
    assert kept < first.distance_nm
    assert kept == pytest.approx(fresh, rel=0.01)  # the rest of the route, as the engine has it


def test_remaining__off_the_kept_route_routes_again() -> None:
    distances = RemainingDistances()
    distances.nm("v1", *START, "NLRTM")
    off = (START[0] + 1.0, START[1] - 2.0)  # 120 miles away
    assert distances.nm("v1", *off, "NLRTM") == pytest.approx(route(off, "NLRTM").distance_nm)
    # another vessel, another port: routes of their own
    assert distances.nm("v2", *START, "USNYC") == pytest.approx(route(START, "USNYC").distance_nm)


def test_remaining__keeps_at_most_its_capacity() -> None:
    distances = RemainingDistances(capacity=2)
    for vessel in ("v1", "v2", "v3"):
        distances.nm(vessel, *START, "NLRTM")
    assert len(distances) == 2

"""Routes against real AIS tracks: Suez Canal transits of March 2021 (``tests/fixtures/ais``).

Each transit (a ship's fixes from north of Port Said's breakwaters to south of Port Tewfik, or
the other way, without a day's gap) is routed from its first fix to its last, and its fixes'
distances from the route and the lengths are held to golden bounds; every fix, in the canal or
its approaches, is a start ``future_positions`` takes.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

import sealane
from sealane.routing.geodesy import (
    GEOD,
    MEAN_EARTH_RADIUS_M,
    arc_normals,
    nearest_on_arcs,
    unit_vector,
    unit_vectors,
)

FIXES = Path(__file__).resolve().parents[1] / "fixtures/ais/suez_canal_2021-03.csv"
NORTH_OF, SOUTH_OF = 31.25, 29.95
T0 = datetime(2021, 3, 20, tzinfo=UTC)

#: Golden bounds over the transits (measured 146 m, 1,402 m, 3,524 m, 1.014 and 0.992-1.107).
MEDIAN_OFF_M = 250.0
MEDIAN_P95_M = 2_000.0
WORST_P95_M = 5_000.0
LENGTH_RATIO = (0.98, 1.12)


class Fix(NamedTuple):
    time: datetime
    lon: float
    lat: float


@cache
def fixes() -> dict[str, list[Fix]]:
    """The fixes per ship, in time order."""
    by_ship: dict[str, list[Fix]] = defaultdict(list)
    with FIXES.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            when = datetime.strptime(row["time"], "%Y-%m-%dT%H:%MZ")
            by_ship[row["vessel"]].append(Fix(when, float(row["lon"]), float(row["lat"])))
    return {ship: sorted(found) for ship, found in by_ship.items()}


@cache
def transits() -> list[list[Fix]]:
    """Each run of a ship's fixes from one end of the canal to the other."""
    found = []
    for track in fixes().values():
        start = None
        for i, fix in enumerate(track):
            if i and fix.time - track[i - 1].time > timedelta(days=1):
                start = None
            if fix.lat > NORTH_OF or fix.lat < SOUTH_OF:
                if start is not None and (fix.lat > NORTH_OF) != (track[start].lat > NORTH_OF):
                    found.append(track[start : i + 1])
                    start = None
                else:
                    start = i
    return found


class Fidelity(NamedTuple):
    median_m: float
    p95_m: float
    length_ratio: float


@cache
def fidelity() -> list[Fidelity]:
    """Per transit: its fixes' median and 95th-percentile distance from the route, and the
    route's length over the length sailed fix to fix."""
    measured = []
    for transit in transits():
        route = sealane.route((transit[0].lon, transit[0].lat), (transit[-1].lon, transit[-1].lat))
        c = route.coordinates
        a, b = unit_vectors(c[:-1, 0], c[:-1, 1]), unit_vectors(c[1:, 0], c[1:, 1])
        normals = arc_normals(a, b)
        off = [
            nearest_on_arcs(unit_vector(f.lon, f.lat), a, b, normals)[1] * MEAN_EARTH_RADIUS_M
            for f in transit
        ]
        lons, lats = np.array([f.lon for f in transit]), np.array([f.lat for f in transit])
        _, _, steps = GEOD.inv(lons[:-1], lats[:-1], lons[1:], lats[1:])
        ratio = route.distance_m / float(np.sum(steps))
        measured.append(Fidelity(float(np.median(off)), float(np.percentile(off, 95)), ratio))
    return measured


def test_fixture__transits_both_ways() -> None:
    runs = transits()
    assert len(runs) >= 90
    northbound = sum(run[0].lat < SOUTH_OF for run in runs)
    assert 20 <= northbound <= len(runs) - 20


def test_transits__fixes_lie_near_the_route() -> None:
    measured = fidelity()
    assert float(np.median([m.median_m for m in measured])) <= MEDIAN_OFF_M
    assert float(np.median([m.p95_m for m in measured])) <= MEDIAN_P95_M
    assert max(m.p95_m for m in measured) <= WORST_P95_M


def test_transits__route_as_long_as_the_sailing() -> None:
    ratios = [m.length_ratio for m in fidelity()]
    low, high = LENGTH_RATIO
    assert low <= min(ratios) and max(ratios) <= high
    assert 1.0 <= float(np.median(ratios)) <= 1.03


@pytest.mark.parametrize("band", ["canal", "approaches"])
def test_future_positions__every_fix_is_a_start(band: str) -> None:
    """No fix is refused as on land: in the canal (30.0-31.2 N, the Bitter Lakes and Lake
    Timsah among it) or in its approaches and anchorages."""
    taken = 0
    for track in fixes().values():
        for i, fix in enumerate(track):
            if (30.0 <= fix.lat <= 31.2) != (band == "canal"):
                continue
            ahead = track[min(i + 1, len(track) - 1)]
            previous, destination = (
                ("SAJED", "GRPIR") if ahead.lat >= fix.lat else ("GRPIR", "SAJED")
            )
            positions = sealane.future_positions(
                (fix.lon, fix.lat), previous, destination, start_time=T0, step_s=3600
            )
            assert (positions.lons[0], positions.lats[0]) == (fix.lon, fix.lat)
            taken += 1
    assert taken > 1_500

"""Routes against real AIS tracks: Suez Canal transits of March 2021 (``tests/fixtures/ais``).

Each transit (a ship's fixes from north of Port Said's breakwaters to south of Port Tewfik, or
the other way, without a day's gap) is routed from its first fix to its last, and its fixes'
distances from the route and the lengths are held to golden bounds; every fix, in the canal or
its approaches, is a start ``future_positions`` takes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

import numpy as np
import pytest

import sealane
from tests.fixtures.ais_tracks import SOUTH_OF, Fidelity, fidelity, fixes, ports_for, transits

T0 = datetime(2021, 3, 20, tzinfo=UTC)

#: Golden bounds over the transits (measured 146 m, 1,402 m, 3,524 m, 1.014 and 0.992-1.107).
MEDIAN_OFF_M = 250.0
MEDIAN_P95_M = 2_000.0
WORST_P95_M = 5_000.0
LENGTH_RATIO = (0.98, 1.12)


@cache
def measured() -> list[Fidelity]:
    """Every transit's fidelity to its route."""
    return [fidelity(run) for run in transits()]


def test_fixture__transits_both_ways() -> None:
    runs = transits()
    assert len(runs) >= 90
    northbound = sum(run[0].lat < SOUTH_OF for run in runs)
    assert 20 <= northbound <= len(runs) - 20


def test_transits__fixes_lie_near_the_route() -> None:
    found = measured()
    assert float(np.median([m.median_m for m in found])) <= MEDIAN_OFF_M
    assert float(np.median([m.p95_m for m in found])) <= MEDIAN_P95_M
    assert max(m.p95_m for m in found) <= WORST_P95_M


def test_transits__route_as_long_as_the_sailing() -> None:
    ratios = [m.route_m / m.sailed_m for m in measured()]
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
            previous, destination = ports_for(track, i)
            positions = sealane.future_positions(
                (fix.lon, fix.lat), previous, destination, start_time=T0, step_s=3600
            )
            assert (positions.lons[0], positions.lats[0]) == (fix.lon, fix.lat)
            taken += 1
    assert taken > 1_500

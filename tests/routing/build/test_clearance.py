"""A shortcut keeps a nautical mile of water abeam: one passing half a mile off Santa Barbara
Island (Channel Islands, California) is refused, one two miles off is not, and without the
clearance both pass (the shoreline alone is not crossed)."""

from __future__ import annotations

import numpy as np
import pytest

from sealane.routing.build.clearance import CLEARANCE_M, Clearance
from sealane.routing.build.coast import coastline
from sealane.routing.build.corridors import CorridorIndex, read_geojson
from sealane.routing.data import data_dir

#: The island's easternmost shore, by GSHHG (degrees), and a degree of longitude there in metres.
EAST_SHORE_LON = -119.0285
METRES_PER_DEG_LON = 111_320.0 * np.cos(np.radians(33.477))


def north_south(off_m: float, *, clearance_m: float = CLEARANCE_M) -> bool:
    """Whether a 39 km shortcut due north, ``off_m`` east of the island's shore, is clear."""
    lon = EAST_SHORE_LON + off_m / METRES_PER_DEG_LON
    corridors = CorridorIndex(read_geojson(data_dir() / "corridors.geojson"))
    clear = Clearance(
        np.array([lon, lon]), np.array([33.30, 33.65]), coastline(), corridors, clearance_m
    )
    return bool(clear.exact([(0, 1)])[0])


@pytest.mark.parametrize(("off_nm", "clear"), [(0.5, False), (0.9, False), (2.0, True)])
def test_exact__keeps_a_mile_off_an_island(off_nm: float, clear: bool) -> None:
    assert north_south(off_nm * 1852.0) is clear


def test_exact__without_clearance_only_the_shoreline_counts() -> None:
    assert north_south(0.5 * 1852.0, clearance_m=0.0)
    assert not north_south(-500.0, clearance_m=0.0)  # across the island itself


def test_exact__an_island_narrower_than_the_clearance_is_seen_between_the_offsets() -> None:
    """Regression: the shoreline was looked for only at the full clearance abeam, so land
    narrower than the clearance lying nearer was never sampled. With 20 km of clearance, a
    shortcut 10 km off the island (about 2 km across) passes it at half that distance."""
    assert not north_south(10_000.0, clearance_m=20_000.0)
    assert north_south(10_000.0, clearance_m=5_000.0)

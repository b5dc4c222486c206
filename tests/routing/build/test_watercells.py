"""The water cells: land cells of the GLOBE mask that GSHHG's full-resolution shoreline has
water in (the lakes of the Suez Canal), and none far inland; the shipped file agrees."""

from __future__ import annotations

import numpy as np

from sealane.routing.build.watercells import water_cells
from sealane.routing.data import data_dir
from sealane.routing.landmask import default_landmask
from sealane.routing.water import shoreline_water

#: The Great Bitter Lake, on the Suez Canal (west, south, east, north).
GREAT_BITTER_LAKE = (32.33, 30.26, 32.45, 30.38)
KANSAS = (-100.1, 39.9, -99.9, 40.1)


def test_water_cells__the_great_bitter_lake_is_water() -> None:
    keys = water_cells([GREAT_BITTER_LAKE], data_dir())
    assert keys.size > 50  # a lake about 10 by 13 km: dozens of one-minute cells
    assert np.all(np.diff(keys) > 0)


def test_water_cells__none_in_kansas() -> None:
    assert water_cells([KANSAS], data_dir()).size == 0


def test_shipped_water_cells__hold_the_lake_the_mask_calls_land() -> None:
    lake = (32.38, 30.32)  # ships wait at anchor here for the next convoy
    assert default_landmask().is_land(*lake)
    assert shoreline_water().holds(*lake)
    assert not shoreline_water().holds(-100.0, 40.0)

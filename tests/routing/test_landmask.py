"""Tests of the one arc-minute land mask: golden points, nearest sea, agreement with GLOBE."""

from __future__ import annotations

import numpy as np
import pytest
from pyproj import Geod

from sealane.routing.landmask import LandMask, SeaPoint, default_landmask, load_landmask

GEOD = Geod(ellps="WGS84")

# (name, lon, lat, is_land)
GOLDEN_POINTS = [
    ("paris", 2.35, 48.85, True),
    ("mid-atlantic", -40.0, 40.0, False),
    ("central-sahara", 10.0, 23.0, True),
    ("antarctic-interior", 30.0, -80.0, True),
    ("south-pole", 0.0, -90.0, True),
    ("north-pole", 0.0, 90.0, False),  # Arctic Ocean
    ("near-north-pole", 120.0, 89.99, False),
    ("central-pacific", -150.0, 0.0, False),
    ("antimeridian-east", 180.0, 0.0, False),
    ("antimeridian-west", -180.0, 0.0, False),
    ("fiji-viti-levu", 178.0, -17.8, True),
    ("english-channel", 0.0, 50.0, False),
    ("deep-inland-germany", 10.0, 50.0, True),
]


@pytest.mark.parametrize(
    ("name", "lon", "lat", "land"), GOLDEN_POINTS, ids=[row[0] for row in GOLDEN_POINTS]
)
def test_is_land__golden(name: str, lon: float, lat: float, land: bool) -> None:
    assert default_landmask().is_land(lon, lat) is land


def test_is_land__longitude_wraps() -> None:
    mask = default_landmask()
    for lon, lat in [(2.35, 48.85), (-40.0, 40.0), (178.0, -17.8)]:
        assert mask.is_land(lon + 360.0, lat) is mask.is_land(lon, lat)
        assert mask.is_land(lon - 360.0, lat) is mask.is_land(lon, lat)


def test_default_landmask__cached_and_shaped() -> None:
    mask = default_landmask()
    assert default_landmask() is mask
    assert isinstance(mask, LandMask)
    assert mask.per_deg == 60
    assert (mask.rows, mask.cols) == (180 * 60, 360 * 60)
    assert mask.row_ptr.size == mask.rows + 1
    assert np.all(np.diff(mask.row_ptr) >= 0)


def test_load_landmask__same_as_default() -> None:
    loaded = load_landmask()
    mask = default_landmask()
    np.testing.assert_array_equal(loaded.row_ptr, mask.row_ptr)
    np.testing.assert_array_equal(loaded.flips, mask.flips)


# --- nearest_sea ---------------------------------------------------------------------------------


def test_nearest_sea__at_sea_is_itself() -> None:
    assert default_landmask().nearest_sea(-40.0, 40.0, within_m=10_000) == SeaPoint(
        -40.0, 40.0, 0.0
    )


# (lon, lat) on land within a few km of the coast
COASTAL_LAND = [
    (4.6, 52.3),  # Dutch dunes
    (13.45, 43.6),  # Ancona, Adriatic
    (-0.1, 50.85),  # Brighton, English Channel
    (14.5, -24.0),  # Namib coast
]


@pytest.mark.parametrize(("lon", "lat"), COASTAL_LAND)
def test_nearest_sea__coastal_land_moved(lon: float, lat: float) -> None:
    mask = default_landmask()
    assert mask.is_land(lon, lat)
    sea = mask.nearest_sea(lon, lat, within_m=10_000)
    assert sea is not None
    assert not mask.is_land(sea.lon, sea.lat)
    _, _, moved = GEOD.inv(lon, lat, sea.lon, sea.lat)
    assert sea.moved_m == pytest.approx(moved, rel=1e-9)
    assert 0 < sea.moved_m <= 10_000


def test_nearest_sea__within_distance_respected() -> None:
    mask = default_landmask()
    far = mask.nearest_sea(4.6, 52.3, within_m=10_000)
    assert far is not None
    assert mask.nearest_sea(4.6, 52.3, within_m=far.moved_m * 0.5) is None


@pytest.mark.parametrize(("lon", "lat"), [(10.0, 50.0), (2.35, 48.85), (10.0, 23.0), (30.0, -80.0)])
def test_nearest_sea__far_inland_is_none(lon: float, lat: float) -> None:
    assert default_landmask().nearest_sea(lon, lat, within_m=10_000) is None


# --- agreement with global_land_mask (GLOBE) -----------------------------------------------------


@pytest.mark.slow  # imports GLOBE: ~6 s and ~1 GB while it decompresses
def test_is_land__agrees_with_global_land_mask() -> None:
    globe = pytest.importorskip("global_land_mask.globe")
    rng = np.random.default_rng(2026)
    lons = rng.uniform(-180.0, 180.0, 2_000)
    lats = np.degrees(np.arcsin(rng.uniform(-1.0, 1.0, 2_000)))  # uniform over the sphere
    mask = default_landmask()
    ours = np.array([mask.is_land(lon, lat) for lon, lat in zip(lons, lats, strict=True)])
    theirs = np.asarray(globe.is_land(lats, lons), dtype=bool)
    assert np.mean(ours == theirs) >= 0.99
    # A cell is land only when all of it is: the mask may call GLOBE land sea, never the reverse
    # (more than a handful of coastal cells).
    assert np.count_nonzero(ours & ~theirs) <= 5

"""Geodesy helpers: longitude wrapping and unwrapping, antimeridian splitting, segment lengths,
the compiled geodesic distance against pyproj."""

from __future__ import annotations

import numpy as np
import pytest

from sealane.routing.geodesy import (
    MEAN_EARTH_RADIUS_M,
    distance_m,
    from_unit_vectors,
    normalize_lon,
    segment_lengths_m,
    split_at_antimeridian,
    unit_vectors,
    unwrap_lons,
)

#: One degree of longitude on the WGS84 equator: a * pi / 180, a = 6378137 m.
EQUATOR_DEGREE_M = 111_319.490_793
LENGTH_TOL_M = 0.01


def test_mean_earth_radius__wgs84_r1() -> None:
    """IUGG's mean radius R1 = (2a + b) / 3 of WGS84 (a = 6378137 m, b = 6356752.314245 m),
    rounded to the decimetre."""
    r1_m = (2 * 6_378_137.0 + 6_356_752.314_245) / 3
    assert abs(MEAN_EARTH_RADIUS_M - r1_m) < 0.05


def array(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float64)


@pytest.mark.parametrize(
    ("lon", "expected"),
    [
        (0.0, 0.0),
        (179.5, 179.5),
        (180.0, -180.0),
        (-180.0, -180.0),
        (190.0, -170.0),
        (-190.0, 170.0),
        (360.0, 0.0),
        (540.0, -180.0),
        (-540.0, -180.0),
        (720.25, 0.25),
    ],
)
def test_normalize_lon__golden(lon: float, expected: float) -> None:
    assert float(normalize_lon(lon)) == pytest.approx(expected, abs=1e-12)


def test_normalize_lon__vectorised() -> None:
    out = normalize_lon([10.0, 350.0, -350.0])
    np.testing.assert_allclose(out, [10.0, -10.0, 10.0], atol=1e-12)


@pytest.mark.parametrize(
    ("lons", "expected"),
    [
        ([10.0, 20.0, 30.0], [10.0, 20.0, 30.0]),
        ([170.0, -170.0, -150.0], [170.0, 190.0, 210.0]),
        ([-170.0, 170.0, 150.0], [-170.0, -190.0, -210.0]),
        ([170.0, -170.0, 170.0], [170.0, 190.0, 170.0]),
        ([0.0, 179.0, -179.0, 0.0], [0.0, 179.0, 181.0, 360.0]),
    ],
)
def test_unwrap_lons__golden(lons: list[float], expected: list[float]) -> None:
    np.testing.assert_allclose(unwrap_lons(np.array(lons)), expected, atol=1e-12)


def test_unwrap_lons__empty() -> None:
    assert unwrap_lons(np.zeros(0)).size == 0


def test_split_at_antimeridian__no_crossing_is_one_part() -> None:
    parts = split_at_antimeridian(array(10.0, 20.0, 30.0), array(0.0, 5.0, 10.0))
    assert parts == [[[10.0, 0.0], [20.0, 5.0], [30.0, 10.0]]]


def test_split_at_antimeridian__west_to_east_crossing() -> None:
    parts = split_at_antimeridian(array(170.0, -170.0), array(0.0, 10.0))
    assert parts == [[[170.0, 0.0], [180.0, 5.0]], [[-180.0, 5.0], [-170.0, 10.0]]]


def test_split_at_antimeridian__east_to_west_crossing() -> None:
    parts = split_at_antimeridian(array(-170.0, 170.0), array(0.0, 10.0))
    assert parts == [[[-170.0, 0.0], [-180.0, 5.0]], [[180.0, 5.0], [170.0, 10.0]]]


def test_split_at_antimeridian__crossing_latitude_interpolated() -> None:
    parts = split_at_antimeridian(array(175.0, -165.0), array(10.0, 30.0))
    assert parts[0][-1] == pytest.approx([180.0, 15.0])
    assert parts[1][0] == pytest.approx([-180.0, 15.0])


def test_split_at_antimeridian__there_and_back_is_three_parts() -> None:
    parts = split_at_antimeridian(array(170.0, -170.0, 170.0), array(0.0, 10.0, 20.0))
    assert len(parts) == 3
    assert parts[1] == [[-180.0, 5.0], [-170.0, 10.0], [-180.0, 15.0]]


def test_split_at_antimeridian__starting_on_minus_180_does_not_split() -> None:
    parts = split_at_antimeridian(array(-180.0, -170.0), array(0.0, 10.0))
    assert parts == [[[-180.0, 0.0], [-170.0, 10.0]]]


def test_split_at_antimeridian__vertex_on_meridian_not_repeated() -> None:
    parts = split_at_antimeridian(array(170.0, -180.0, -170.0), array(0.0, 5.0, 10.0))
    for part in parts:
        steps = np.abs(np.diff(np.array(part), axis=0)).sum(axis=1)
        assert np.all(steps > 0.0), parts


def test_split_at_antimeridian__parts_never_jump() -> None:
    lons = array(150.0, 175.0, -175.0, -150.0, -178.0, 178.0, 160.0)
    lats = array(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    parts = split_at_antimeridian(lons, lats)
    assert len(parts) == 3
    for part in parts:
        lon = np.array(part)[:, 0]
        assert np.all(np.abs(lon) <= 180.0)
        assert np.all(np.abs(np.diff(lon)) < 180.0)


def test_segment_lengths_m__equator_degree() -> None:
    lengths = segment_lengths_m(array(0.0, 1.0, 2.0), array(0.0, 0.0, 0.0))
    np.testing.assert_allclose(lengths, [EQUATOR_DEGREE_M] * 2, rtol=0, atol=LENGTH_TOL_M)


def test_segment_lengths_m__across_antimeridian() -> None:
    (length,) = segment_lengths_m(array(179.5, -179.5), array(0.0, 0.0))
    assert length == pytest.approx(EQUATOR_DEGREE_M, abs=LENGTH_TOL_M)


def test_segment_lengths_m__single_point_is_empty() -> None:
    assert segment_lengths_m(array(5.0), array(5.0)).shape == (0,)


def test_distance_m__meridian_quadrant() -> None:
    # WGS84 meridian quadrant (equator to pole), 10,001,965.729 m.
    assert distance_m(0.0, 0.0, 0.0, 90.0) == pytest.approx(10_001_965.729, abs=LENGTH_TOL_M)


def test_unit_vectors__round_trip() -> None:
    lon, lat = array(-180.0, -45.5, 0.0, 179.25), array(-89.0, 10.0, 0.0, 60.0)
    back_lon, back_lat = from_unit_vectors(unit_vectors(lon, lat))
    np.testing.assert_allclose(back_lon, lon, atol=1e-9)
    np.testing.assert_allclose(back_lat, lat, atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(unit_vectors(lon, lat), axis=1), 1.0, atol=1e-15)


def pyproj_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    from pyproj import Geod

    return float(Geod(ellps="WGS84").inv(lon1, lat1, lon2, lat2)[2])


def test_distance_m__within_a_tenth_of_a_millimetre_of_pyproj_short_and_long() -> None:
    rng = np.random.default_rng(13)
    lon1 = rng.uniform(-180.0, 180.0, 3000)
    lat1 = np.degrees(np.arcsin(rng.uniform(-1.0, 1.0, 3000)))
    reach = rng.choice([1e-4, 0.05, 1.0, 20.0, 170.0], 3000)
    lon2 = lon1 + rng.uniform(-1.0, 1.0, 3000) * reach
    lat2 = np.clip(lat1 + rng.uniform(-1.0, 1.0, 3000) * reach, -90.0, 90.0)
    for a, b, c, d in zip(lon1, lat1, lon2, lat2, strict=True):
        assert distance_m(a, b, c, d) == pytest.approx(pyproj_m(a, b, c, d), abs=1e-4)


@pytest.mark.parametrize(
    "points",
    [
        (0.0, 0.0, 179.7, 0.0),  # nearly antipodal on the equator: Vincenty does not converge
        (5.0, 0.0, -175.0, 0.0),
        (0.0, -90.0, 0.0, 90.0),
        (-179.9, 10.0, 179.9, 10.0),
        (12.0, 40.0, 12.0, 40.0),
    ],
)
def test_distance_m__hard_cases_agree_with_pyproj(points: tuple[float, ...]) -> None:
    assert distance_m(*points) == pytest.approx(pyproj_m(*points), abs=1e-4)


def test_compiled_inverse__nan_where_it_does_not_converge() -> None:
    from sealane.routing._geodesic import inverse_m

    assert np.isnan(inverse_m(0.0, 0.0, 179.7, 0.0))
    assert inverse_m(0.0, 0.0, 1.0, 0.0) == pytest.approx(EQUATOR_DEGREE_M, abs=1e-3)


def test_route_between_ports__does_not_import_pyproj() -> None:
    """pyproj costs a cold start as much as numpy: a route between ports must not need it."""
    import subprocess
    import sys

    code = "import sys, sealane; sealane.route('CNSHA', 'NLRTM'); print('pyproj' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"

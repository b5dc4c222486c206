"""Tests of ``place_positions``: exact spacing along and across turns, short paths, and the
interpolated runs against the exact ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyproj import Geod

from sealane.routing import runs
from sealane.routing.placement import MIN_SEGMENT_M, Track, place_positions

GEOD = Geod(ellps="WGS84")
#: Deliberately divides none of the segment lengths used here.
STEP_M = 1_234.567


def polyline(points: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    coords = np.array(points, dtype=np.float64).reshape(-1, 2)
    if coords.shape[0] < 2:
        return coords, np.zeros(0)
    _, _, lengths = GEOD.inv(coords[:-1, 0], coords[:-1, 1], coords[1:, 0], coords[1:, 1])
    return coords, np.asarray(lengths, dtype=np.float64)


def place(points: list[tuple[float, float]], step_m: float = STEP_M) -> Track:
    coords, lengths = polyline(points)
    return place_positions(coords, lengths, step_m)


def gaps(track: Track) -> tuple[np.ndarray, np.ndarray]:
    azimuth, _, distance = GEOD.inv(
        track.lons[:-1], track.lats[:-1], track.lons[1:], track.lats[1:]
    )
    return np.asarray(azimuth) % 360.0, np.asarray(distance)


def angle_diff_deg(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs((a - b + 180.0) % 360.0 - 180.0)


RIGHT_ANGLE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]  # east along the equator, then north


def test_place_positions__right_angle_spacing_exact() -> None:
    track = place(RIGHT_ANGLE)
    _, distance = gaps(track)
    np.testing.assert_allclose(distance[:-1], STEP_M, rtol=1e-9)
    assert 0 < distance[-1] <= STEP_M
    # Start, one position per whole step, then the destination; cutting the corner gains
    # along-track distance, so less than the plain remainder is left for the last leg.
    _, lengths = polyline(RIGHT_ANGLE)
    assert track.lons.size == int(lengths.sum() // STEP_M) + 2
    assert track.final_m < lengths.sum() - (track.lons.size - 2) * STEP_M
    assert track.step_m == STEP_M


def test_place_positions__right_angle_corner() -> None:
    track = place(RIGHT_ANGLE)
    azimuth, distance = gaps(track)
    corner = int(np.argmax(track.lats > 1e-9)) - 1  # last position on the equator
    assert track.lats[corner] == pytest.approx(0.0, abs=1e-12)
    assert track.lons[corner + 1] == pytest.approx(1.0, abs=1e-12)  # next one is on the meridian
    assert distance[corner] == pytest.approx(STEP_M, rel=1e-9)
    assert track.headings_deg[corner] == pytest.approx(azimuth[corner], abs=1e-9)
    assert 0.0 < track.headings_deg[corner] < 90.0  # cutting the corner north-east
    assert track.headings_deg[corner - 1] == pytest.approx(90.0, abs=1e-9)
    assert track.headings_deg[corner + 1] == pytest.approx(0.0, abs=1e-9)


def test_place_positions__ends_and_headings() -> None:
    track = place(RIGHT_ANGLE)
    azimuth, _ = gaps(track)
    assert (track.lons[0], track.lats[0]) == (0.0, 0.0)
    assert (track.lons[-1], track.lats[-1]) == (1.0, 1.0)
    assert np.all(angle_diff_deg(track.headings_deg[:-1], azimuth) <= 1e-9)
    assert track.headings_deg[-1] == pytest.approx(0.0, abs=1e-9)  # arriving northwards
    _, _, last = GEOD.inv(track.lons[-2], track.lats[-2], 1.0, 1.0)
    assert track.final_m == pytest.approx(last, rel=1e-9)  # the last leg is on one segment


# (points, step_m, expected positions)
SHORT_PATHS = [
    ([(0.0, 0.0), (0.0001, 0.0)], 1_000.0, 2),  # 11 m, shorter than one step
    ([(0.0, 0.0), (0.001, 0.0), (0.001, 0.001)], 1_000.0, 2),  # 222 m with a turn
    ([(0.0, 0.0)], 1_000.0, 1),  # a single point
    ([(5.0, 5.0), (5.0, 5.0)], 1_000.0, 1),  # a zero-length segment
    ([(0.0, 0.0), (1e-9, 0.0)], 1_000.0, 1),  # 0.1 mm: merged away
]


@pytest.mark.parametrize(
    ("points", "step_m", "expected"),
    SHORT_PATHS,
    ids=["shorter-than-step", "short-with-turn", "single-point", "zero-length", "sub-millimetre"],
)
def test_place_positions__short_path(
    points: list[tuple[float, float]], step_m: float, expected: int
) -> None:
    track = place(points, step_m)
    assert track.lons.size == track.lats.size == track.headings_deg.size == expected
    assert (track.lons[0], track.lats[0]) == points[0]
    if expected == 1:
        assert track.final_m == 0.0
    else:
        assert (track.lons[-1], track.lats[-1]) == pytest.approx(points[-1], abs=1e-12)
        assert 0.0 < track.final_m < step_m


def test_place_positions__last_step_lands_on_the_destination_exactly() -> None:
    _, lengths = polyline([(0.0, 0.0), (1.0, 0.0)])
    track = place([(0.0, 0.0), (1.0, 0.0)], float(lengths[0]) / 10)  # ten whole steps
    assert track.final_m == 0.0
    assert track.lons.size == 11
    assert (track.lons[-1], track.lats[-1]) == (1.0, 0.0)


def test_place_positions__tiny_segment_merged() -> None:
    with_tiny = place([(0.0, 0.0), (0.5, 0.0), (0.5 + 1e-9, 0.0), (1.0, 0.0)], 1_000.0)
    without = place([(0.0, 0.0), (1.0, 0.0)], 1_000.0)
    _, lengths = polyline([(0.5, 0.0), (0.5 + 1e-9, 0.0)])
    assert lengths[0] < MIN_SEGMENT_M
    assert with_tiny.lons.size == without.lons.size
    np.testing.assert_allclose(with_tiny.lons, without.lons, atol=1e-12)
    np.testing.assert_allclose(with_tiny.lats, without.lats, atol=1e-12)
    np.testing.assert_allclose(with_tiny.headings_deg, without.headings_deg, atol=1e-9)


def test_place_positions__antimeridian_lons_normalised() -> None:
    track = place([(179.5, 10.0), (-179.5, 10.0)], 5_000.0)
    assert np.all((track.lons >= -180.0) & (track.lons < 180.0))
    _, distance = gaps(track)
    np.testing.assert_allclose(distance[:-1], 5_000.0, rtol=1e-9)
    assert track.lons[-1] == -179.5


def test_place_positions__westbound_across_the_antimeridian_never_180() -> None:
    # Interpolated positions a hair west of -180 must wrap to just below +180, never to 180.0.
    step = 111_319.49079327357 / 10  # a tenth of an equatorial degree
    track = place([(-179.5, 0.0), (179.0, 0.0)], step)
    assert np.all((track.lons >= -180.0) & (track.lons < 180.0))
    for seed in range(40):
        rng = np.random.default_rng(seed)
        start = (-179.0 - rng.uniform(0.0, 1.0), rng.uniform(-5.0, 5.0))
        track = place([start, (178.0, start[1])], step * rng.uniform(0.5, 2.0))
        assert np.all((track.lons >= -180.0) & (track.lons < 180.0))


def test_place_positions__many_vertices_within_one_step() -> None:
    # A zig-zag of 100 m legs sailed with 1 km steps: the positions skip whole segments.
    points = [(i * 0.001, 0.0005 * (i % 2)) for i in range(60)]
    track = place(points, 1_000.0)
    azimuth, distance = gaps(track)
    np.testing.assert_allclose(distance[:-1], 1_000.0, rtol=1e-9)
    assert np.all(angle_diff_deg(track.headings_deg[:-1], azimuth) <= 1e-9)
    assert (track.lons[-1], track.lats[-1]) == pytest.approx(points[-1], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    lon0=st.floats(-179.0, 179.0),
    lat0=st.floats(-70.0, 70.0),
    turns=st.lists(
        st.tuples(st.floats(0.0, 360.0), st.floats(10.0, 50_000.0)), min_size=1, max_size=8
    ),
    step_m=st.floats(50.0, 20_000.0),
)
def test_place_positions__spacing_property(
    lon0: float, lat0: float, turns: list[tuple[float, float]], step_m: float
) -> None:
    points = [(lon0, lat0)]
    for azimuth, length in turns:
        lon, lat, _ = GEOD.fwd(*points[-1], azimuth, length)
        points.append((float((lon + 180.0) % 360.0 - 180.0), float(lat)))
    track = place(points, step_m)
    assert (track.lons[0], track.lats[0]) == points[0]
    assert track.lons[-1] == pytest.approx(points[-1][0], abs=1e-9)
    assert track.lats[-1] == pytest.approx(points[-1][1], abs=1e-9)
    assert np.all((track.headings_deg >= 0.0) & (track.headings_deg < 360.0))
    if track.lons.size > 1:
        azimuth, distance = gaps(track)
        # Corner cuts are solved in a local plane: ~1e-6 relative error for 20 km steps.
        np.testing.assert_allclose(distance[:-1], step_m, rtol=1e-5)
        assert distance[-1] <= step_m * (1 + 1e-9)
        # Interpolated positions sit within ~1e-5 m of the geodesic: bearings agree to 1e-5 deg.
        assert np.all(angle_diff_deg(track.headings_deg[:-1], azimuth) <= 1e-5)


def test_place_positions__heading_of_almost_due_north_below_360() -> None:
    track = place([(0.0, 0.0), (-1e-16, 1.0)], 1_000.0)
    assert np.all(track.headings_deg < 360.0)


def exact_and_interpolated(
    points: list[tuple[float, float]], step_m: float
) -> tuple[Track, Track, np.ndarray]:
    """Both placements of one polyline, and the distance between their positions (metres)."""
    coords, lengths = polyline(points)
    fast = place_positions(coords, lengths, step_m)
    exact = place_positions(coords, lengths, step_m, exact=True)
    assert fast.lons.size == exact.lons.size
    assert fast.final_m == exact.final_m
    _, _, apart = GEOD.inv(fast.lons, fast.lats, exact.lons, exact.lats)
    return fast, exact, np.asarray(apart)


def zigzag(lon0: float, lat0: float, turns: list[tuple[float, float]]) -> list[tuple[float, float]]:
    points = [(lon0, lat0)]
    for azimuth, length in turns:
        lon, lat, _ = GEOD.fwd(*points[-1], azimuth, length)
        points.append((float((lon + 180.0) % 360.0 - 180.0), float(lat)))
    return points


@settings(max_examples=40, deadline=None)
@given(
    lon0=st.floats(-179.0, 179.0),
    lat0=st.floats(-78.0, 78.0),
    turns=st.lists(
        st.tuples(st.floats(0.0, 360.0), st.floats(1_000.0, 2_000_000.0)), min_size=1, max_size=5
    ),
    step_m=st.floats(100.0, 5_000.0),
)
def test_place_positions__interpolated_runs_match_exact(
    lon0: float, lat0: float, turns: list[tuple[float, float]], step_m: float
) -> None:
    points = zigzag(lon0, lat0, turns)
    fast, exact, apart = exact_and_interpolated(points, step_m)
    # The positions agree to a few millimetres (under a millimetre below 70 degrees), far below the
    # API's 1e-6 degree resolution; headings agree to a millionth of a degree.
    assert apart.max() <= 0.005
    assert angle_diff_deg(fast.headings_deg, exact.headings_deg).max() <= 1e-5
    if fast.lons.size > 2:
        _, distance = gaps(fast)
        np.testing.assert_allclose(distance[:-1], step_m, rtol=1e-5)


def test_place_positions__interpolation_error_below_a_millimetre_at_mid_latitudes() -> None:
    # Long runs (a great-circle crossing of the North Atlantic) with the API's one-minute steps.
    points = [(-5.5, 49.5), (-30.0, 52.0), (-52.0, 46.5)]
    fast, exact, apart = exact_and_interpolated(points, 555.6)
    assert fast.lons.size > 3_000
    assert apart.max() <= 1e-3
    assert angle_diff_deg(fast.headings_deg, exact.headings_deg).max() <= 1e-7


def test_place_positions__polar_runs_are_exact() -> None:
    points = [(20.0, 79.0), (60.0, 82.0), (100.0, 79.5)]  # beyond runs.POLAR_LAT
    fast, _, apart = exact_and_interpolated(points, 1_000.0)
    assert np.abs(fast.lats).max() > runs.POLAR_LAT
    assert apart.max() <= 1e-6


def test_place_positions__anchor_spacing_larger_than_step() -> None:
    # Steps longer than the anchor spacing: every position is an anchor, computed exactly.
    points = [(0.0, 10.0), (8.0, 14.0)]
    _, _, apart = exact_and_interpolated(points, runs.ANCHOR_SPACING_M * 1.5)
    assert apart.max() <= 1e-6

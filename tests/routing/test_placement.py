"""Tests of ``place_positions``: positions a whole number of steps along the track (against a
per-position pyproj oracle), short paths, and the interpolated runs against the exact ones."""

from __future__ import annotations

import math

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


def zigzag(lon0: float, lat0: float, turns: list[tuple[float, float]]) -> list[tuple[float, float]]:
    points = [(lon0, lat0)]
    for azimuth, length in turns:
        lon, lat, _ = GEOD.fwd(*points[-1], azimuth, length)
        points.append((float((lon + 180.0) % 360.0 - 180.0), float(lat)))
    return points


def along(points: list[tuple[float, float]], distances_m: np.ndarray) -> np.ndarray:
    """The oracle: the points ``distances_m`` metres along the polyline, one pyproj call each."""
    coords, lengths = polyline(points)
    cumulative = np.concatenate([[0.0], np.cumsum(lengths)])
    i = np.clip(np.searchsorted(cumulative, distances_m, side="right") - 1, 0, lengths.size - 1)
    azimuth, _, _ = GEOD.inv(coords[i, 0], coords[i, 1], coords[i + 1, 0], coords[i + 1, 1])
    lon, lat, _ = GEOD.fwd(coords[i, 0], coords[i, 1], azimuth, distances_m - cumulative[i])
    return np.stack([(np.asarray(lon) + 180.0) % 360.0 - 180.0, np.asarray(lat)], axis=1)


def off_oracle_m(track: Track, points: list[tuple[float, float]]) -> np.ndarray:
    """Metres between each position but the arrival and the point ``k * step_m`` along."""
    n = track.lons.size - (track.final_m > 0.0)
    expected = along(points, np.arange(n) * track.step_m)
    _, _, apart = GEOD.inv(track.lons[:n], track.lats[:n], expected[:, 0], expected[:, 1])
    return np.asarray(apart)


RIGHT_ANGLE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]  # east along the equator, then north


def test_place_positions__right_angle_positions_along_the_track() -> None:
    track = place(RIGHT_ANGLE)
    assert off_oracle_m(track, RIGHT_ANGLE).max() <= 1e-6
    _, lengths = polyline(RIGHT_ANGLE)
    whole = int(lengths.sum() // STEP_M)  # positions 0..whole, then the destination
    assert track.lons.size == whole + 2
    assert track.final_m == pytest.approx(lengths.sum() - whole * STEP_M, rel=1e-12)
    assert 0.0 < track.final_m <= STEP_M
    assert track.step_m == STEP_M


def test_place_positions__right_angle_corner_cut_by_the_chord() -> None:
    track = place(RIGHT_ANGLE)
    azimuth, distance = gaps(track)
    corner = int(np.argmax(track.lats > 1e-9)) - 1  # last position on the equator
    assert track.lats[corner] == pytest.approx(0.0, abs=1e-12)
    assert track.lons[corner + 1] == pytest.approx(1.0, abs=1e-12)  # next one is on the meridian
    # Straight steps are a step long; the one across the corner is the hypotenuse of its parts.
    straight = np.delete(distance[:-1], corner)
    np.testing.assert_allclose(straight, STEP_M, rtol=1e-9)
    _, lengths = polyline(RIGHT_ANGLE)
    before = lengths[0] - corner * STEP_M
    assert distance[corner] == pytest.approx(math.hypot(before, STEP_M - before), rel=1e-4)
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


def test_place_positions__whole_number_of_steps_ends_on_the_destination() -> None:
    _, lengths = polyline([(0.0, 0.0), (1.0, 0.0)])
    track = place([(0.0, 0.0), (1.0, 0.0)], float(lengths[0]) / 10)  # ten whole steps
    assert track.lons.size == 11
    assert track.final_m == pytest.approx(float(lengths[0]) / 10, rel=1e-9)  # the tenth step
    assert (track.lons[-1], track.lats[-1]) == (1.0, 0.0)


def test_place_positions__last_step_within_a_millimetre_put_on_the_destination() -> None:
    _, lengths = polyline([(0.0, 0.0), (1.0, 0.0)])
    track = place([(0.0, 0.0), (1.0, 0.0)], (float(lengths[0]) - 0.5 * MIN_SEGMENT_M) / 10)
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
    assert off_oracle_m(track, points).max() <= 1e-6
    assert np.all(distance <= 1_000.0 * (1 + 1e-9))  # chords across the zig-zags are shorter
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
    points = zigzag(lon0, lat0, turns)
    track = place(points, step_m)
    assert (track.lons[0], track.lats[0]) == points[0]
    assert track.lons[-1] == pytest.approx(points[-1][0], abs=1e-9)
    assert track.lats[-1] == pytest.approx(points[-1][1], abs=1e-9)
    assert np.all((track.headings_deg >= 0.0) & (track.headings_deg < 360.0))
    assert 0.0 <= track.final_m <= step_m
    if track.lons.size > 1:
        # Position k is k steps along the track: interpolated within a millimetre below 65
        # degrees of latitude, 3 mm by 75 (the accuracy ``runs`` documents) ...
        highest = max(abs(lat) for _, lat in points)
        assert off_oracle_m(track, points).max() <= (1e-3 if highest <= 65.0 else 3.5e-3)
        _, lengths = polyline(points)
        assert (track.lons.size - 1 - (track.final_m > 0)) * step_m + track.final_m == (
            pytest.approx(lengths.sum(), abs=2e-3)
        )
        # ... so a straight line between two positions is at most a step long.
        azimuth, distance = gaps(track)
        assert np.all(distance <= step_m * (1 + 1e-6))  # interpolation: micrometres
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
    assert off_oracle_m(exact, points).max() <= 1e-6


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

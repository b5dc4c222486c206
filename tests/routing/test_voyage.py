"""Tests of ``future_positions``: invariants, golden voyages, leg projection, bad inputs, land."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from pyproj import Geod

import sealane
from sealane.routing import placement, registry, runs
from sealane.routing.errors import (
    InvalidCoordinateError,
    InvalidSpeedError,
    InvalidTimeError,
    NoRouteError,
    OnLandError,
    UnknownPassageError,
    UnknownPortError,
)
from sealane.routing.landmask import default_landmask
from sealane.routing.positions import Positions
from sealane.routing.voyage import DEFAULT_SPEED_KN, future_positions

GEOD = Geod(ellps="WGS84")
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None)
T0 = datetime(2026, 1, 1, tzinfo=UTC)
METRES_PER_NM = 1852.0
#: Legs the property tests sample starts along (JPYOK -> USLGB crosses the antimeridian).
LEGS = [
    ("CNSHA", "NLRTM"),
    ("JPYOK", "USLGB"),
    ("SGSIN", "LKCMB"),
    ("USNYC", "NLRTM"),
    ("NLRTM", "BEANR"),
]
MAX_OFFSET_M = 20_000.0


@cache
def leg(previous: str, destination: str) -> sealane.Route:
    return sealane.route(previous, destination)


def point_along(route: sealane.Route, fraction: float) -> tuple[float, float]:
    """The point ``fraction`` of the way along ``route`` (by geodesic length)."""
    cumulative = np.concatenate([[0.0], np.cumsum(route.segment_m)])
    target = fraction * cumulative[-1]
    i = min(int(np.searchsorted(cumulative, target, side="right")) - 1, route.segment_m.size - 1)
    (lon1, lat1), (lon2, lat2) = route.coordinates[i], route.coordinates[i + 1]
    azimuth, _, _ = GEOD.inv(lon1, lat1, lon2, lat2)
    lon, lat, _ = GEOD.fwd(lon1, lat1, azimuth, target - cumulative[i])
    return float(lon), float(lat)


def offset(lon: float, lat: float, azimuth_deg: float, distance_m: float) -> tuple[float, float]:
    moved_lon, moved_lat, _ = GEOD.fwd(lon, lat, azimuth_deg, distance_m)
    return float((moved_lon + 180.0) % 360.0 - 180.0), float(moved_lat)


def step_m(speed_kn: float, step_s: float) -> float:
    return speed_kn * METRES_PER_NM / 3600.0 * step_s


def gaps(positions: Positions) -> tuple[np.ndarray, np.ndarray]:
    """Forward azimuths and geodesic distances between consecutive positions."""
    azimuth, _, distance = GEOD.inv(
        positions.lons[:-1], positions.lats[:-1], positions.lons[1:], positions.lats[1:]
    )
    return np.asarray(azimuth), np.asarray(distance)


def interval_ms(positions: Positions) -> np.ndarray:
    return np.diff(positions.times.astype(np.int64))


def angle_diff_deg(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs((a - b + 180.0) % 360.0 - 180.0)


def utc(moment: np.datetime64) -> datetime:
    return moment.astype("datetime64[ms]").item().replace(tzinfo=UTC)


class Start(NamedTuple):
    previous: str
    destination: str
    lon: float
    lat: float
    offset_m: float


@st.composite
def lane_starts(draw: st.DrawFn) -> Start:
    """A sea point within 20 km of a random point of one of ``LEGS``."""
    previous, destination = draw(st.sampled_from(LEGS))
    on_leg = point_along(leg(previous, destination), draw(st.floats(0.0, 1.0)))
    distance = draw(st.floats(0.0, MAX_OFFSET_M))
    lon, lat = offset(*on_leg, draw(st.floats(0.0, 360.0)), distance)
    assume(not default_landmask().is_land(lon, lat))
    return Start(previous, destination, lon, lat, distance)


def sail(start: Start, speed_kn: float, step_s: int) -> Positions:
    return future_positions(
        (start.lon, start.lat),
        start.previous,
        start.destination,
        speed_kn=speed_kn,
        step_s=step_s,
        start_time=T0,
    )


SPEEDS = st.floats(5.0, 25.0)
STEPS = st.sampled_from([30, 60, 300])


def along_route(route: sealane.Route, distances_m: np.ndarray) -> np.ndarray:
    """The oracle: the points ``distances_m`` metres along ``route``, one pyproj call each."""
    coords = route.coordinates
    _, _, lengths = GEOD.inv(coords[:-1, 0], coords[:-1, 1], coords[1:, 0], coords[1:, 1])
    cumulative = np.concatenate([[0.0], np.cumsum(lengths)])
    i = np.clip(np.searchsorted(cumulative, distances_m, side="right") - 1, 0, lengths.size - 1)
    azimuth, _, _ = GEOD.inv(coords[i, 0], coords[i, 1], coords[i + 1, 0], coords[i + 1, 1])
    lon, lat, _ = GEOD.fwd(coords[i, 0], coords[i, 1], azimuth, distances_m - cumulative[i])
    return np.stack([(np.asarray(lon) + 180.0) % 360.0 - 180.0, np.asarray(lat)], axis=1)


def profile_distances(positions: Positions, step_s: float) -> np.ndarray:
    """Metres along the route at each step before the arrival, on the route's speed profile:
    within each piece the distance grows at the piece's speed (none through a wait)."""
    profile = positions.route.speed_profile(positions.speed_kn)
    times = np.concatenate([[0.0], np.cumsum(profile.duration_s)])
    metres = np.concatenate([[0.0], np.cumsum(profile.length_m)])
    return np.interp(np.arange(len(positions) - 1) * step_s, times, metres)


def assert_track_invariants(positions: Positions, speed_kn: float, step_s: float) -> None:
    """Timing, spacing, headings and ranges that hold for every voyage (see the property tests)."""
    assert positions.lons.shape == positions.lats.shape == positions.headings_deg.shape
    assert np.all((positions.lons >= -180.0) & (positions.lons < 180.0))
    assert np.all((positions.lats >= -90.0) & (positions.lats <= 90.0))
    assert np.all((positions.headings_deg >= 0.0) & (positions.headings_deg < 360.0))
    if len(positions) < 2:
        return
    intervals = interval_ms(positions)
    assert np.all(intervals[:-1] == round(step_s * 1000))
    assert 0 < intervals[-1] <= round(step_s * 1000)
    # Position k is where the vessel is after k steps on the route's speed profile (the arrival
    # excluded): read off the profile's pieces, distance against time, one piece at a time.
    step = step_m(speed_kn, step_s)
    expected = along_route(positions.route, profile_distances(positions, step_s))
    _, _, off = GEOD.inv(positions.lons[:-1], positions.lats[:-1], expected[:, 0], expected[:, 1])
    assert np.max(off) <= 0.01
    azimuth, distance = gaps(positions)
    assert np.all(distance <= step * (1 + 1e-6))  # straight lines cut the corners
    # A bearing between points less than a metre apart is rounding noise (a start 4e-12 degrees
    # from its destination port gave one 0.013 degrees off).
    apart = distance > 1.0
    headings = positions.headings_deg[:-1][apart]
    assert np.all(angle_diff_deg(headings, azimuth[apart] % 360.0) <= 0.01)


# --- invariants (Hypothesis) ---------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(start=lane_starts(), speed_kn=SPEEDS, step_s=STEPS)
def test_future_positions__timestamps_one_step_apart(
    start: Start, speed_kn: float, step_s: int
) -> None:
    positions = sail(start, speed_kn, step_s)
    intervals = interval_ms(positions)
    assert positions.times.dtype == np.dtype("datetime64[ms]")
    assert utc(positions.times[0]) == T0
    if len(positions) == 1:  # a start on the port itself: a zero-length voyage
        assert positions.distance_remaining_nm < 1e-6
        return
    assert np.all(intervals[:-1] == step_s * 1000)
    assert 0 < intervals[-1] <= step_s * 1000
    # The arrival is timed by the route's speed profile (to the millisecond).
    arrival_s = positions.route.duration_h(speed_kn) * 3600.0
    assert abs((positions.eta - T0).total_seconds() - arrival_s) <= 0.002


@PROPERTY_SETTINGS
@given(start=lane_starts(), speed_kn=SPEEDS, step_s=STEPS)
def test_future_positions__first_is_start_last_is_port(
    start: Start, speed_kn: float, step_s: int
) -> None:
    positions = sail(start, speed_kn, step_s)
    port = sealane.get_port(start.destination)
    assert (positions.lons[0], positions.lats[0]) == (start.lon, start.lat)
    assert positions.lons[-1] == pytest.approx(port.lon, abs=1e-9)
    assert positions.lats[-1] == pytest.approx(port.lat, abs=1e-9)


@PROPERTY_SETTINGS
@given(start=lane_starts(), speed_kn=SPEEDS, step_s=STEPS)
@example(  # 0.4 um from the destination port: two positions, a bearing of rounding noise
    start=Start("SGSIN", "LKCMB", 79.83541699999637, 6.931250000000002, 0.0),
    speed_kn=5.0,
    step_s=30,
)
def test_future_positions__spacing_headings_and_ranges(
    start: Start, speed_kn: float, step_s: int
) -> None:
    assert_track_invariants(sail(start, speed_kn, step_s), speed_kn, step_s)


@PROPERTY_SETTINGS
@given(start=lane_starts(), speed_kn=SPEEDS, step_s=STEPS)
def test_future_positions__eta_length_and_distance(
    start: Start, speed_kn: float, step_s: int
) -> None:
    positions = sail(start, speed_kn, step_s)
    assert positions.eta == utc(positions.times[-1])
    assert positions.start_time == T0
    assert len(positions) == positions.lons.size == positions.times.size
    assert len(positions.timestamps()) == len(positions)
    assert positions.speed_kn == speed_kn
    assert positions.step_s == step_s
    leg_nm = leg(start.previous, start.destination).distance_nm
    # The leg's tail is measured anew from the start's projection: its segment lengths may sum
    # to the leg's own by a few parts in 1e10 more (a 4 mm excess seen on a 10,497 nm leg).
    bound = (leg_nm + start.offset_m / METRES_PER_NM) * (1 + 1e-9) + 1e-6
    assert positions.distance_remaining_nm <= bound
    assert positions.distance_remaining_nm >= 0.0


# --- golden voyages ------------------------------------------------------------------------------

# (start, previous, destination, speed_kn, remaining_nm, rel_tol, passages, source)
GOLDEN_VOYAGES: list[tuple[Any, ...]] = [
    (
        (60.1, 12.3),
        "CNSHA",
        "NLRTM",
        18.0,
        5_677,
        0.01,
        ("babalmandab", "suez", "gibraltar", "dover", "maas"),
        "regression value from the specification of future_positions (repaired network: the "
        "last miles follow the Nieuwe Waterweg, the maas corridor)",
    ),
    (
        (170.0, 40.0),
        "JPYOK",
        "USLGB",
        14.0,
        3_420,
        0.01,
        (),
        "regression value; great circle to Long Beach is 3,330 nm",
    ),
    (
        (5.0, 65.0),
        "NLRTM",
        "NOHFT",
        14.0,
        643,
        0.01,
        (),
        "regression value, Norwegian Sea (622 before the network's shortcuts: the leg now runs "
        "farther offshore, so the vessel rejoins it later)",
    ),
    (
        (-15.0, 62.0),
        "NLRTM",
        "ISREY",
        14.0,
        301,
        0.01,
        (),
        "regression value, to Reykjavik: joins the Rotterdam leg's shortcut west of the Pentland "
        "Firth (291 before the busiest-port training, 328 before the network's shortcuts)",
    ),
]


@pytest.mark.parametrize(
    ("start", "previous", "destination", "speed_kn", "remaining_nm", "rel_tol", "passages", "src"),
    GOLDEN_VOYAGES,
    ids=[f"{p}-{d}-from-{s[0]},{s[1]}" for s, p, d, *_ in GOLDEN_VOYAGES],
)
def test_future_positions__golden_voyage(
    start: tuple[float, float],
    previous: str,
    destination: str,
    speed_kn: float,
    remaining_nm: float,
    rel_tol: float,
    passages: tuple[str, ...],
    src: str,
) -> None:
    positions = future_positions(start, previous, destination, speed_kn=speed_kn, start_time=T0)
    assert positions.distance_remaining_nm == pytest.approx(remaining_nm, rel=rel_tol)
    assert positions.route.passages == passages
    port = sealane.get_port(destination)
    _, _, great_circle_m = GEOD.inv(*start, port.lon, port.lat)
    assert positions.distance_remaining_nm * METRES_PER_NM >= great_circle_m * (1 - 1e-9)
    hours = (positions.eta - T0).total_seconds() / 3600.0
    assert hours == pytest.approx(positions.route.duration_h(speed_kn), rel=0.005)
    assert_track_invariants(positions, speed_kn, 60.0)


def test_future_positions__gulf_of_aden_eta() -> None:
    positions = future_positions((60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18, start_time=T0)
    # 5,661 nm at 18 kn, and the Suez Canal at convoy speed with the convoy's expected wait.
    expected = T0 + timedelta(hours=5_661.1 / 18.0 + 16.28)
    assert abs((positions.eta - expected).total_seconds()) < 0.005 * 5_661.1 / 18.0 * 3600
    assert positions.route.passages == ("babalmandab", "suez", "gibraltar", "dover", "maas")
    assert "malacca" not in positions.route.passages


# --- projection onto the leg ---------------------------------------------------------------------


def leg_point_near_lon(previous: str, destination: str, lon: float) -> tuple[float, float]:
    coordinates = leg(previous, destination).coordinates
    i = int(np.argmin(np.abs(coordinates[:, 0] - lon)))
    return float(coordinates[i, 0]), float(coordinates[i, 1])


def is_leg_tail(route: sealane.Route, full: sealane.Route) -> bool:
    """Whether ``route`` is start -> point on ``full`` -> the rest of ``full``'s vertices."""
    rest = route.coordinates[2:]
    return rest.shape[0] >= 1 and np.array_equal(rest, full.coordinates[-rest.shape[0] :])


def test_future_positions__start_near_leg_uses_leg() -> None:
    on_leg = leg_point_near_lon("CNSHA", "NLRTM", 75.0)
    start = offset(*on_leg, 200.0, 5_000.0)
    assert not default_landmask().is_land(*start)
    positions = future_positions(start, "CNSHA", "NLRTM", start_time=T0)
    assert "malacca" not in positions.route.passages
    assert positions.route.passages[:2] == ("babalmandab", "suez")
    assert is_leg_tail(positions.route, leg("CNSHA", "NLRTM"))
    assert positions.distance_remaining_nm < leg("CNSHA", "NLRTM").distance_nm


def test_future_positions__start_far_from_leg_routed_on_its_own() -> None:
    start = (150.0, -40.0)  # Tasman Sea, thousands of nm from the Shanghai-Rotterdam leg
    positions = future_positions(start, "CNSHA", "NLRTM", start_time=T0)
    own = sealane.route(start, "NLRTM")
    np.testing.assert_array_equal(positions.route.coordinates, own.coordinates)
    assert positions.distance_remaining_nm == pytest.approx(own.distance_nm, rel=1e-12)
    assert (positions.lons[0], positions.lats[0]) == start


def test_future_positions__off_path_nm_respected() -> None:
    # About 47 nm south of the leg in the Arabian Sea: on the leg by default, alone at 10 nm.
    start = offset(*leg_point_near_lon("CNSHA", "NLRTM", 65.0), 180.0, 50 * METRES_PER_NM)
    on_leg = future_positions(start, "CNSHA", "NLRTM", start_time=T0)
    alone = future_positions(start, "CNSHA", "NLRTM", start_time=T0, off_path_nm=10)
    assert is_leg_tail(on_leg.route, leg("CNSHA", "NLRTM"))
    np.testing.assert_array_equal(
        alone.route.coordinates, sealane.route(start, "NLRTM").coordinates
    )
    assert not np.array_equal(alone.route.coordinates, on_leg.route.coordinates)


# --- antimeridian and high latitudes -------------------------------------------------------------


def test_future_positions__antimeridian_crossing() -> None:
    positions = future_positions((170.0, 40.0), "JPYOK", "USLGB", speed_kn=14, start_time=T0)
    assert np.all((positions.lons >= -180.0) & (positions.lons < 180.0))
    assert positions.lons.max() > 179.9 and positions.lons.min() < -179.9  # it crossed
    assert_track_invariants(positions, 14.0, 60.0)
    steps = np.abs(np.diff(positions.lons))
    assert np.count_nonzero(steps > 180.0) == 1  # one jump, at the crossing
    geometry = positions.to_geojson()["geometry"]
    assert geometry["type"] == "MultiLineString"
    assert len(geometry["coordinates"]) == 2
    for part in geometry["coordinates"]:
        assert all(-180.0 <= lon <= 180.0 for lon, _ in part)


@pytest.mark.parametrize(
    ("start", "previous", "destination", "allow_arctic"),
    [
        ((5.0, 65.0), "NLRTM", "NOHFT", False),
        ((15.0, 70.0), "NLRTM", "NOHFT", False),
        ((-15.0, 62.0), "NLRTM", "ISREY", False),
        ((-60.0, 74.0), "GLJUV", "GLNAQ", False),  # Baffin Bay to Qaanaaq, 77.5 N
        ((20.0, 75.0), "NOHFT", "RUDKS", True),  # Barents Sea to Dikson, Northeast Passage
        ((-65.0, -56.5), "ARUSH", "GSGRV", False),  # Drake Passage to South Georgia
    ],
    ids=["norwegian-sea", "off-tromso", "to-reykjavik", "baffin-bay", "kara-sea", "drake"],
)
def test_future_positions__high_latitude_invariants(
    start: tuple[float, float], previous: str, destination: str, allow_arctic: bool
) -> None:
    positions = future_positions(
        start, previous, destination, speed_kn=14, start_time=T0, allow_arctic=allow_arctic
    )
    port = sealane.get_port(destination)
    assert (positions.lons[0], positions.lats[0]) == start
    assert (positions.lons[-1], positions.lats[-1]) == pytest.approx(port.coordinates, abs=1e-9)
    assert np.all(interval_ms(positions)[:-1] == 60_000)
    assert_track_invariants(positions, 14.0, 60.0)


def test_future_positions__arctic_destination_closed_by_default() -> None:
    with pytest.raises(NoRouteError, match="allow_arctic"):
        future_positions((20.0, 75.0), "NOHFT", "RUDKS", start_time=T0)


# --- zero-length and one-step voyages ------------------------------------------------------------


@pytest.mark.parametrize("locode", ["NLRTM", "JPYOK"])
def test_future_positions__start_at_destination(locode: str) -> None:
    port = sealane.get_port(locode)
    positions = future_positions(port.coordinates, "CNSHA", locode, start_time=T0)
    assert len(positions) == 1
    assert (positions.lons[0], positions.lats[0]) == port.coordinates
    assert positions.eta == positions.start_time == T0
    assert positions.distance_remaining_nm == 0.0
    assert positions.route.passages == ()


def test_future_positions__start_within_one_step_of_destination() -> None:
    port = sealane.get_port("JPYOK")
    # 300 m back along the route's last leg, so the projection on the leg is the straight 300 m.
    last = sealane.route("CNSHA", "JPYOK").coordinates
    previous = next(p for p in last[::-1] if (p[0], p[1]) != (port.lon, port.lat))
    bearing, _, _ = GEOD.inv(port.lon, port.lat, previous[0], previous[1])
    start = offset(port.lon, port.lat, bearing, 300.0)
    positions = future_positions(start, "CNSHA", "JPYOK", speed_kn=14, start_time=T0)
    assert len(positions) == 2
    assert (positions.lons[0], positions.lats[0]) == start
    assert positions.lons[1] == pytest.approx(port.lon, abs=1e-9)
    assert positions.lats[1] == pytest.approx(port.lat, abs=1e-9)
    assert 0 < interval_ms(positions)[0] <= 60_000
    # Via its projection on the leg: at least the straight 300 m, not much more.
    assert 300.0 * (1 - 1e-9) <= positions.distance_remaining_nm * METRES_PER_NM <= 315.0


# --- regressions: ETA by route length --------------------------------------------------------


def test_future_positions__arrival_timed_by_route_length() -> None:
    """The ETA is the route's length at the speed, and it comes at most one step after the last
    position (the track turns near Rotterdam here)."""
    positions = future_positions(
        (-3.4, 49.2), "CNSHA", "NLRTM", speed_kn=10, step_s=300, start_time=T0
    )
    hours = positions.route.distance_nm / 10
    assert abs((positions.eta - T0).total_seconds() - hours * 3600) < 0.002
    assert np.all(interval_ms(positions)[:-1] == 300_000)
    assert 0 < interval_ms(positions)[-1] <= 300_000


def test_future_positions__no_minute_missing_before_arrival_gulf_of_aden() -> None:
    """Regression: the positions cut the corners (a step in a straight line) while the ETA was
    the route's length, so the last gap grew to 97.7 s (21:49:00 then 21:50:37.748). The
    times are now on the speed profile (Suez's convoy and its wait, the Maas)."""
    start = datetime(2026, 11, 21, 12, tzinfo=UTC)
    positions = future_positions((48.5, 12.3), "CNSHA", "NLRTM", speed_kn=18, start_time=start)
    assert positions.timestamps()[-3:] == [
        "2026-12-03T11:55:00Z",
        "2026-12-03T11:56:00Z",
        "2026-12-03T11:56:52Z",  # the arrival, 11:56:51.717, rounded up
    ]
    assert positions.eta == datetime(2026, 12, 3, 11, 56, 51, 717_000, tzinfo=UTC)
    assert np.all(interval_ms(positions)[:-1] == 60_000)
    assert interval_ms(positions)[-1] == 51_717


#: Ports the random legs of the gap property are drawn from (both oceans, the antimeridian,
#: canals, the Baltic and the Mediterranean).
#: Ports with a water approach (a port flagged inland has no route to draw a voyage on).
GAP_PORTS = [
    code
    for code in ["CNSHA", "NLRTM", "SGSIN", "USLGB", "JPYOK", "BRSSZ", "ZADUR", "USNYC", "GRPIR"]
    if not sealane.get_port(code).inland
]


@st.composite
def random_voyages(draw: st.DrawFn) -> tuple[Start, float, float]:
    """A sea start near a random point of a random leg, a speed in knots and a step in s."""
    previous, destination = draw(
        st.lists(st.sampled_from(GAP_PORTS), min_size=2, max_size=2, unique=True)
    )
    on_leg = point_along(leg(previous, destination), draw(st.floats(0.0, 1.0)))
    distance = draw(st.floats(0.0, MAX_OFFSET_M))
    lon, lat = offset(*on_leg, draw(st.floats(0.0, 360.0)), distance)
    assume(not default_landmask().is_land(lon, lat))
    speed_kn = draw(st.floats(3.0, 30.0))
    step_s = draw(st.sampled_from([30.0, 60.0, 90.5, 600.0, 3600.0]))
    return Start(previous, destination, lon, lat, distance), speed_kn, step_s


@PROPERTY_SETTINGS
@given(voyage=random_voyages())
def test_future_positions__every_gap_one_step_the_last_at_most_one(
    voyage: tuple[Start, float, float],
) -> None:
    start, speed_kn, step_s = voyage
    positions = future_positions(
        (start.lon, start.lat),
        start.previous,
        start.destination,
        speed_kn=speed_kn,
        step_s=step_s,
        start_time=T0,
    )
    intervals = interval_ms(positions)
    if len(positions) > 1:
        assert np.all(intervals[:-1] == round(step_s * 1000))
        assert 0 < intervals[-1] <= round(step_s * 1000)
    arrival_s = positions.route.duration_h(speed_kn) * 3600.0
    assert abs((positions.eta - T0).total_seconds() - arrival_s) <= 0.002


def test_future_positions__eta_independent_of_step() -> None:
    etas = [
        future_positions(
            (3.5, 51.65), "NLRTM", "BEANR", speed_kn=12, step_s=step, start_time=T0
        ).eta
        for step in (60, 3600)
    ]
    fine = future_positions((3.5, 51.65), "NLRTM", "BEANR", speed_kn=12, start_time=T0)
    expected_s = fine.route.duration_h(12) * 3600
    for eta in etas:
        assert (eta - T0).total_seconds() == pytest.approx(expected_s, rel=0.005)


def test_future_positions__exported_from_sealane() -> None:
    assert sealane.future_positions is future_positions
    assert sealane.Positions is Positions
    positions = sealane.future_positions((60.1, 12.3), "CNSHA", "NLRTM", start_time=T0)
    assert isinstance(positions, sealane.Positions)
    assert {"future_positions", "Positions"} <= set(sealane.__all__)


# --- speed, step and time inputs -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("speed_kn", "expected_kn"),
    [(None, DEFAULT_SPEED_KN), (0.5, 14.0), (0, 14.0), (-3, 14.0), (0.999, 14.0), (1, 1.0)],
    ids=["none", "half-knot", "zero", "negative", "just-under-one", "one"],
)
def test_future_positions__default_speed(speed_kn: float | None, expected_kn: float) -> None:
    positions = future_positions((4.0, 52.0), "NLRTM", "BEANR", speed_kn=speed_kn, start_time=T0)
    assert DEFAULT_SPEED_KN == 14.0
    assert positions.speed_kn == expected_kn
    _, distance = gaps(positions)
    assert distance[0] == pytest.approx(step_m(expected_kn, 60), rel=1e-3)


@pytest.mark.parametrize(
    "speed_kn",
    [math.nan, math.inf, -math.inf, "fast", True, False],
    ids=["nan", "inf", "minus-inf", "string", "true", "false"],
)
def test_future_positions__bad_speed(speed_kn: Any) -> None:
    with pytest.raises(InvalidSpeedError) as raised:
        future_positions((4.0, 52.0), "NLRTM", "BEANR", speed_kn=speed_kn, start_time=T0)
    assert raised.value.code == "invalid_speed"


@pytest.mark.parametrize(
    "step_s",
    [0, -60, 0.0, math.nan, math.inf, "60", None],
    ids=["zero", "negative", "zero-float", "nan", "inf", "string", "none"],
)
def test_future_positions__bad_step(step_s: Any) -> None:
    with pytest.raises(InvalidSpeedError):
        future_positions((4.0, 52.0), "NLRTM", "BEANR", step_s=step_s, start_time=T0)


def test_future_positions__bool_step() -> None:
    with pytest.raises(InvalidSpeedError):
        future_positions((4.0, 52.0), "NLRTM", "BEANR", step_s=True, start_time=T0)


@pytest.mark.parametrize(
    "start_time", ["2026-01-01", 0, 1767225600.0], ids=["string", "int", "float"]
)
def test_future_positions__bad_start_time(start_time: Any) -> None:
    with pytest.raises(InvalidTimeError) as raised:
        future_positions((4.0, 52.0), "NLRTM", "BEANR", start_time=start_time)
    assert raised.value.code == "invalid_time"


def test_future_positions__naive_start_time_is_utc() -> None:
    positions = future_positions((4.0, 52.0), "NLRTM", "BEANR", start_time=datetime(2026, 1, 1))
    assert positions.start_time == T0
    assert positions.timestamps()[0] == "2026-01-01T00:00:00Z"


def test_future_positions__aware_start_time_converted() -> None:
    plus_five = datetime(2026, 1, 1, 5, 0, tzinfo=timezone(timedelta(hours=5)))
    positions = future_positions((4.0, 52.0), "NLRTM", "BEANR", start_time=plus_five)
    assert positions.start_time == T0
    assert positions.start_time.utcoffset() == timedelta(0)
    assert positions.timestamps()[0] == "2026-01-01T00:00:00Z"


def test_future_positions__no_start_time_is_now() -> None:
    before = datetime.now(UTC)
    positions = future_positions((4.0, 52.0), "NLRTM", "BEANR")
    after = datetime.now(UTC)
    assert before - timedelta(milliseconds=1) <= positions.start_time <= after


# --- land starts ---------------------------------------------------------------------------------


def test_future_positions__deep_inland() -> None:
    with pytest.raises(OnLandError) as raised:
        future_positions((10.0, 50.0), "CNSHA", "NLRTM", start_time=T0)
    assert raised.value.code == "on_land"
    assert isinstance(raised.value, InvalidCoordinateError)


def test_future_positions__just_ashore_moved_to_sea() -> None:
    start = (14.5, -24.0)  # Namib coast, 4 km inland, 116 km from Walvis Bay
    mask = default_landmask()
    nearest_port = registry().nearest(*start)
    assert mask.is_land(*start)
    assert GEOD.inv(*start, nearest_port.lon, nearest_port.lat)[2] > 30_000
    positions = future_positions(start, "ZACPT", "NAWVB", start_time=T0)
    first = (float(positions.lons[0]), float(positions.lats[0]))
    assert first != start
    assert GEOD.inv(*start, *first)[2] <= 10_000
    assert not mask.is_land(*first)


def test_future_positions__berth_without_nearby_sea_accepted() -> None:
    rotterdam = sealane.get_port("NLRTM")
    assert default_landmask().is_land(rotterdam.lon, rotterdam.lat)
    positions = future_positions(rotterdam.coordinates, "NLRTM", "BEANR", start_time=T0)
    assert (positions.lons[0], positions.lats[0]) == rotterdam.coordinates


def test_future_positions__river_port_accepted_as_is() -> None:
    hamburg = sealane.get_port("DEHAM")
    positions = future_positions(hamburg.coordinates, "DEHAM", "NLRTM", start_time=T0)
    assert (positions.lons[0], positions.lats[0]) == hamburg.coordinates


def test_future_positions__at_river_port_destination() -> None:
    hamburg = sealane.get_port("DEHAM")
    positions = future_positions(hamburg.coordinates, "NLRTM", "DEHAM", start_time=T0)
    assert len(positions) == 1
    assert positions.distance_remaining_nm == 0.0


# --- other bad inputs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "destination"), [("XXXXX", "NLRTM"), ("CNSHA", "ZZZZZ")], ids=["prev", "dest"]
)
def test_future_positions__unknown_port(previous: str, destination: str) -> None:
    with pytest.raises(UnknownPortError):
        future_positions((60.1, 12.3), previous, destination, start_time=T0)


@pytest.mark.parametrize(
    "start",
    [(60.1, 95.0), (60.1, -90.5), (200.0, 12.3), (math.nan, 12.3), (60.1,), "not-a-port-x"],
    ids=["lat-95", "lat-minus-90.5", "lon-200", "lon-nan", "one-number", "bad-string"],
)
def test_future_positions__bad_start(start: Any) -> None:
    error = UnknownPortError if isinstance(start, str) else InvalidCoordinateError
    with pytest.raises(error):
        future_positions(start, "CNSHA", "NLRTM", start_time=T0)


def test_future_positions__unknown_passage() -> None:
    with pytest.raises(UnknownPassageError):
        future_positions((60.1, 12.3), "CNSHA", "NLRTM", avoid=["nope"], start_time=T0)


def test_future_positions__no_route() -> None:
    with pytest.raises(NoRouteError):
        future_positions((20.0, 35.0), "ITGOA", "NLRTM", avoid=["gibraltar", "suez"], start_time=T0)


def test_future_positions__avoid_changes_route() -> None:
    positions = future_positions((60.1, 12.3), "CNSHA", "NLRTM", avoid=["suez"], start_time=T0)
    assert "suez" not in positions.route.passages
    assert "good_hope" in positions.route.passages


# --- vectorised placement ------------------------------------------------------------------------


class CountingGeod:
    """Delegates to a Geod, counting calls per method name."""

    def __init__(self, geod: Geod) -> None:
        self.geod = geod
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.geod, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            return method(*args, **kwargs)

        return counted


def test_future_positions__geodesic_calls_do_not_grow_with_the_voyage(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counting = CountingGeod(placement.GEOD)
    monkeypatch.setattr(placement, "GEOD", counting)
    monkeypatch.setattr(runs, "GEOD", counting)
    positions = future_positions((60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18, start_time=T0)
    vertices = positions.route.coordinates.shape[0]
    assert len(positions) > 50 * vertices  # many more positions than vertices
    # Vectorised: segment lengths, all anchors, the headings across corners; a few scalar calls
    # only where several vertices fall within one step.
    assert counting.calls.get("fwd_intermediate", 0) == 0  # no polar run on this voyage
    assert sum(counting.calls.values()) <= 3 + vertices // 10


def test_future_positions__previous_port_inland_routes_the_start_on_its_own() -> None:
    """No sea leg leaves Duisburg (flagged inland): a vessel at sea that last called there is
    routed from where it is, as if off its leg (it used to be refused as on land, the leg being
    routed from the inland port's own coordinates)."""
    start = (3.5, 51.8)
    assert sealane.get_port("DEDUI").inland
    positions = sealane.future_positions(start, "DEDUI", "GBFXT", speed_kn=14)
    alone = sealane.route(start, "GBFXT")
    assert positions.route.distance_m == pytest.approx(alone.distance_m, abs=1.0)
    assert (positions.lons[0], positions.lats[0]) == start


def test_future_positions__destination_inland__no_route_naming_it() -> None:
    with pytest.raises(sealane.NoRouteError, match=r"DEDUI .*lies inland"):
        sealane.future_positions((3.5, 51.8), "GBFXT", "DEDUI", speed_kn=14)

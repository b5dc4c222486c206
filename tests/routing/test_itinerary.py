"""Tests of ``sealane.itinerary`` and its progress: legs, times, the split at the vessel, the
antimeridian, the not-departed and delivered ends, and one test per bad input."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from functools import cache
from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pyproj import Geod

import sealane
from sealane.routing.errors import (
    InvalidSpeedError,
    InvalidTimeError,
    OnLandError,
    RoutingError,
    UnknownPassageError,
    UnknownPortError,
)
from sealane.routing.itinerary import DEFAULT_DWELL_H
from sealane.routing.landmask import default_landmask

GEOD = Geod(ellps="WGS84")
T0 = datetime(2026, 3, 1, tzinfo=UTC)
FOUR_PORTS = ("CNSHA", "SGSIN", "ESALG", "NLRTM")
TRANS_PACIFIC = ("CNSHA", "JPYOK", "USLGB")
#: Where pieces of one itinerary must meet (metres).
JOIN_M = 1.0


@cache
def four_ports() -> sealane.Itinerary:
    return sealane.itinerary(FOUR_PORTS, speed_kn=18, departed_at=T0)


@cache
def trans_pacific() -> sealane.Itinerary:
    return sealane.itinerary(TRANS_PACIFIC, speed_kn=20, departed_at=T0)


def apart_m(a: Any, b: Any) -> float:
    """Geodesic metres between two (lon, lat) points (+180 and -180 are the same meridian)."""
    return float(GEOD.inv(float(a[0]), float(a[1]), float(b[0]), float(b[1]))[2])


def point_along(route: sealane.Route, fraction: float) -> tuple[float, float]:
    """The point ``fraction`` of the way along ``route``."""
    cumulative = np.concatenate([[0.0], np.cumsum(route.segment_m)])
    target = fraction * cumulative[-1]
    i = min(int(np.searchsorted(cumulative, target, side="right")) - 1, route.segment_m.size - 1)
    (lon1, lat1), (lon2, lat2) = route.coordinates[i], route.coordinates[i + 1]
    azimuth, _, _ = GEOD.inv(lon1, lat1, lon2, lat2)
    lon, lat, _ = GEOD.fwd(lon1, lat1, azimuth, target - cumulative[i])
    return float((lon + 180.0) % 360.0 - 180.0), float(lat)


def hours(moment: datetime | None, since: datetime) -> float:
    assert moment is not None
    return (moment - since).total_seconds() / 3600.0


# --- legs, distances and times -------------------------------------------------------------------


def test_itinerary__without_transshipment_is_the_route() -> None:
    trip = sealane.itinerary(["CNSHA", "NLRTM"], speed_kn=18, departed_at=T0)
    direct = sealane.route("CNSHA", "NLRTM")
    assert [call.label for call in trip.calls] == ["POL", "POD"]
    assert len(trip.legs) == 1
    np.testing.assert_array_equal(trip.legs[0].route.coordinates, direct.coordinates)
    assert trip.distance_nm == pytest.approx(direct.distance_nm, rel=1e-12)
    assert trip.dwell_h == (0.0, 0.0)
    assert trip.calls[0].arrival_at is None and trip.calls[-1].departure_at is None
    assert hours(trip.eta, T0) == pytest.approx(direct.duration_h(18), abs=1e-6)
    assert trip.duration_h == pytest.approx(direct.duration_h(18), rel=1e-12)
    # On the speed profile: longer than the length at 18 kn (Suez's convoy and its wait).
    assert trip.duration_h > direct.distance_nm / 18 + 9.0


def test_itinerary__with_transshipments_legs_and_times() -> None:
    trip = four_ports()
    assert [call.label for call in trip.calls] == ["POL", "TS1", "TS2", "POD"]
    assert [call.sequence for call in trip.calls] == [1, 2, 3, 4]
    assert [call.port.locode for call in trip.calls] == list(FOUR_PORTS)
    routes = [sealane.route(a, b) for a, b in pairwise(FOUR_PORTS)]
    for leg, direct in zip(trip.legs, routes, strict=True):
        np.testing.assert_array_equal(leg.route.coordinates, direct.coordinates)
    assert trip.distance_nm == pytest.approx(sum(r.distance_nm for r in routes), rel=1e-12)
    # Golden arithmetic: 18 kn at sea on each route's profile, a day at each of the two
    # transshipment ports.
    sailing_h = sum(r.duration_h(18) for r in routes)
    assert hours(trip.eta, T0) == pytest.approx(sailing_h + 2 * DEFAULT_DWELL_H, abs=1e-5)
    for i, leg in enumerate(trip.legs):
        assert leg.sequence == i + 1
        assert leg.departure_at == trip.calls[i].departure_at
        assert leg.arrival_at == trip.calls[i + 1].arrival_at
        assert hours(leg.arrival_at, leg.departure_at) == pytest.approx(leg.duration_h, abs=1e-6)
    for call in trip.calls[1:-1]:
        assert hours(call.departure_at, call.arrival_at) == DEFAULT_DWELL_H
    assert trip.legs[1].route.passages[-2:] == ("babalmandab", "suez")


def test_itinerary__per_leg_speeds_and_stays() -> None:
    trip = sealane.itinerary(FOUR_PORTS, speed_kn=[20, None, 0.5], dwell_h=[48, 0], departed_at=T0)
    assert [leg.speed_kn for leg in trip.legs] == [20.0, 14.0, 14.0]  # None and 0.5: service speed
    assert trip.dwell_h == (0.0, 48.0, 0.0, 0.0)
    assert trip.calls[2].departure_at == trip.calls[2].arrival_at
    sailing_h = sum(leg.route.duration_h(leg.speed_kn) for leg in trip.legs)
    assert hours(trip.eta, T0) == pytest.approx(sailing_h + 48, abs=1e-5)


def test_itinerary__untimed_without_departure() -> None:
    trip = sealane.itinerary(FOUR_PORTS, speed_kn=18)
    assert trip.departed_at is None and trip.eta is None
    assert all(c.arrival_at is None and c.departure_at is None for c in trip.calls)
    assert trip.duration_h == pytest.approx(four_ports().duration_h, rel=1e-12)


def test_itinerary__naive_departure_is_utc_and_passages_avoided() -> None:
    trip = sealane.itinerary(
        ["CNSHA", "NLRTM"], departed_at=datetime(2026, 3, 1), avoid=["suez_canal", "panama"]
    )
    assert trip.departed_at == T0
    assert trip.avoid == ("panama", "suez")
    assert "suez" not in trip.legs[0].route.passages
    assert "good_hope" in trip.legs[0].route.passages


# --- the vessel mid-leg --------------------------------------------------------------------------

GULF_OF_ADEN = (48.5, 12.3)


def test_at_sea__split_joins_at_vessel_and_ports() -> None:
    trip = four_ports()
    now = trip.at_sea(1, GULF_OF_ADEN, datetime(2026, 3, 18, tzinfo=UTC))
    underway = now.underway
    assert underway is not None
    sailed, remaining = underway.sailed.coordinates, underway.remaining.coordinates
    assert (underway.lon, underway.lat) == GULF_OF_ADEN
    assert tuple(sailed[-1]) == tuple(remaining[0]) == GULF_OF_ADEN
    assert apart_m(sailed[0], trip.calls[1].port.coordinates) <= JOIN_M
    assert apart_m(remaining[-1], trip.calls[2].port.coordinates) <= JOIN_M
    assert apart_m(now.completed[0].route.coordinates[-1], sailed[0]) <= JOIN_M
    assert apart_m(remaining[-1], now.upcoming[0].route.coordinates[0]) <= JOIN_M
    # The split neither adds nor loses sea: both parts make the leg (plus the step off it).
    leg_m = trip.legs[1].route.distance_m
    assert underway.sailed.distance_m + underway.remaining.distance_m >= leg_m * (1 - 1e-9)
    assert underway.sailed.distance_m + underway.remaining.distance_m <= leg_m + 2 * 30_000


def test_at_sea__positions_and_re_timed_calls() -> None:
    trip = four_ports()
    at = datetime(2026, 3, 18, tzinfo=UTC)
    now = trip.at_sea(1, GULF_OF_ADEN, at)
    assert now.underway is not None
    positions = now.underway.positions
    assert (positions.lons[0], positions.lats[0]) == GULF_OF_ADEN
    port = trip.calls[2].port
    assert apart_m((positions.lons[-1], positions.lats[-1]), port.coordinates) <= JOIN_M
    assert positions.start_time == at and positions.speed_kn == 18.0
    assert now.underway.eta == positions.eta == now.calls[2].arrival_at == now.legs[1].arrival_at
    assert hours(positions.eta, at) == pytest.approx(positions.route.duration_h(18), abs=1e-5)
    # Calls ahead follow from the vessel's ETA; calls behind keep the plan.
    assert now.calls[:2] == trip.calls[:2]
    assert hours(now.calls[2].departure_at, positions.eta) == DEFAULT_DWELL_H
    assert now.legs[2].departure_at == now.calls[2].departure_at
    expected = hours(positions.eta, at) + DEFAULT_DWELL_H + trip.legs[2].duration_h
    assert hours(now.eta, at) == pytest.approx(expected, abs=1e-5)
    assert (now.sailed, len(now.completed), len(now.upcoming)) == (1, 1, 1)
    assert now.underway.heading_deg is not None and 0 <= now.underway.heading_deg < 360


def test_at_sea__own_speed_for_the_current_leg() -> None:
    now = four_ports().at_sea(1, GULF_OF_ADEN, datetime(2026, 3, 18, tzinfo=UTC), speed_kn=12)
    assert now.underway is not None
    assert now.underway.positions.speed_kn == 12.0
    assert now.legs[2].speed_kn == 18.0


def test_at_sea__off_the_leg_both_parts_routed_from_the_vessel() -> None:
    trip = four_ports()
    vessel = (60.0, 10.0)  # Arabian Sea, about 100 nm south of the Singapore-Algeciras lane
    now = trip.at_sea(1, vessel, datetime(2026, 3, 18, tzinfo=UTC), off_path_nm=10)
    assert now.underway is not None
    sailed, remaining = now.underway.sailed, now.underway.remaining
    np.testing.assert_array_equal(sailed.coordinates, sealane.route("SGSIN", vessel).coordinates)
    np.testing.assert_array_equal(remaining.coordinates, sealane.route(vessel, "ESALG").coordinates)
    assert tuple(sailed.coordinates[-1]) == tuple(remaining.coordinates[0]) == vessel


@settings(max_examples=25, deadline=None)
@given(
    leg=st.integers(0, 2),
    fraction=st.floats(0.0, 1.0),
    off_m=st.floats(0.0, 20_000.0),
    azimuth=st.floats(0.0, 360.0),
)
def test_at_sea__pieces_join_within_a_metre_anywhere(
    leg: int, fraction: float, off_m: float, azimuth: float
) -> None:
    trip = four_ports()
    on_leg = point_along(trip.legs[leg].route, fraction)
    lon, lat, _ = GEOD.fwd(*on_leg, azimuth, off_m)
    vessel = (float((lon + 180.0) % 360.0 - 180.0), float(lat))
    assume(not default_landmask().is_land(*vessel))
    now = trip.at_sea(leg, vessel, T0 + timedelta(days=3))
    assert now.underway is not None
    pieces = [
        *(leg.route.coordinates for leg in now.completed),
        now.underway.sailed.coordinates,
        now.underway.remaining.coordinates,
        *(leg.route.coordinates for leg in now.upcoming),
    ]
    for before, after in pairwise(pieces):
        assert apart_m(before[-1], after[0]) <= JOIN_M
    assert apart_m(pieces[0][0], trip.calls[0].port.coordinates) <= JOIN_M
    assert apart_m(pieces[-1][-1], trip.calls[-1].port.coordinates) <= JOIN_M


# --- antimeridian --------------------------------------------------------------------------------


def test_at_sea__trans_pacific_either_side_of_the_antimeridian() -> None:
    trip = trans_pacific()
    pacific = trip.legs[1].route
    assert np.any(np.abs(np.diff(pacific.coordinates[:, 0])) > 180.0)  # the leg crosses +-180
    for vessel in [(170.0, 42.0), (-170.0, 45.0)]:
        now = trip.at_sea(1, vessel, T0 + timedelta(days=5))
        assert now.underway is not None
        for piece in (now.underway.sailed, now.underway.remaining):
            lons = piece.coordinates[:, 0]
            assert np.all((lons >= -180.0) & (lons < 180.0))
        positions = now.underway.positions
        assert np.all((positions.lons >= -180.0) & (positions.lons < 180.0))
        assert tuple(now.underway.sailed.coordinates[-1]) == vessel
        assert tuple(now.underway.remaining.coordinates[0]) == vessel


# --- not departed, in port, delivered ------------------------------------------------------------


def test_at_port__not_yet_departed() -> None:
    trip = four_ports()
    before = trip.at_port(0)
    assert before.underway is None and before.completed == ()
    assert before.upcoming == trip.legs and before.calls == trip.calls


def test_at_port__transshipment_wait_re_times_what_follows() -> None:
    trip = four_ports()
    leaving = datetime(2026, 3, 9, 6, tzinfo=UTC)
    waiting = trip.at_port(1, departs_at=leaving)
    assert waiting.calls[:1] == trip.calls[:1]
    assert waiting.calls[1].arrival_at == trip.calls[1].arrival_at
    assert waiting.calls[1].departure_at == leaving
    assert hours(waiting.calls[2].arrival_at, leaving) == pytest.approx(
        trip.legs[1].duration_h, abs=1e-6
    )
    assert (len(waiting.completed), len(waiting.upcoming)) == (1, 2)


def test_at_port__delivered_has_no_leg_ahead() -> None:
    trip = four_ports()
    done = trip.at_port(3, departs_at=datetime(2026, 4, 1, tzinfo=UTC))
    assert done.underway is None and done.upcoming == ()
    assert done.completed == trip.legs and done.calls == trip.calls


def test_at_sea__vessel_at_the_destination_port() -> None:
    trip = four_ports()
    at = datetime(2026, 3, 27, tzinfo=UTC)
    arrived = trip.at_sea(2, trip.calls[3].port.coordinates, at)
    assert arrived.underway is not None
    assert len(arrived.underway.positions) == 1
    assert arrived.underway.remaining.distance_m == 0.0
    assert arrived.eta == at
    assert arrived.underway.heading_deg is None


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "code"),
    [
        ({"port_calls": ["CNSHA", "XXXXX"]}, UnknownPortError, "unknown_port"),
        ({"port_calls": ["CNSHA"]}, sealane.InvalidItineraryError, "invalid_itinerary"),
        ({"port_calls": []}, sealane.InvalidItineraryError, "invalid_itinerary"),
        ({"port_calls": "CNSHA"}, sealane.InvalidItineraryError, "invalid_itinerary"),
        ({"port_calls": ["CNSHA", (4.0, 52.0)]}, sealane.InvalidItineraryError, None),
        ({"port_calls": ["CNSHA", "cnsha"]}, sealane.InvalidItineraryError, None),
        ({"port_calls": FOUR_PORTS, "speed_kn": -5}, InvalidSpeedError, "invalid_speed"),
        ({"port_calls": FOUR_PORTS, "speed_kn": [18, -1, 18]}, InvalidSpeedError, None),
        ({"port_calls": FOUR_PORTS, "speed_kn": math.nan}, InvalidSpeedError, None),
        ({"port_calls": FOUR_PORTS, "speed_kn": [18, 18]}, sealane.InvalidItineraryError, None),
        ({"port_calls": FOUR_PORTS, "dwell_h": -1}, sealane.InvalidItineraryError, None),
        ({"port_calls": FOUR_PORTS, "dwell_h": [1.0]}, sealane.InvalidItineraryError, None),
        ({"port_calls": FOUR_PORTS, "departed_at": "2026-03-01"}, InvalidTimeError, None),
        ({"port_calls": FOUR_PORTS, "avoid": ["atlantis"]}, UnknownPassageError, None),
    ],
    ids=[
        "unknown-port",
        "one-call",
        "no-call",
        "a-string",
        "a-coordinate",
        "same-port-twice",
        "negative-speed",
        "negative-leg-speed",
        "nan-speed",
        "speed-count",
        "negative-dwell",
        "dwell-count",
        "departure-not-a-datetime",
        "unknown-passage",
    ],
)
def test_itinerary__bad_input(kwargs: dict[str, Any], error: type[Exception], code: str) -> None:
    with pytest.raises(error) as raised:
        sealane.itinerary(**kwargs)
    assert isinstance(raised.value, RoutingError)
    if code is not None:
        assert raised.value.code == code


@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [
        ((1, (10.0, 50.0)), {}, OnLandError),  # Hesse, far from the sea
        ((1, GULF_OF_ADEN), {"speed_kn": -3}, InvalidSpeedError),
        ((3, GULF_OF_ADEN), {}, sealane.InvalidItineraryError),
        ((-1, GULF_OF_ADEN), {}, sealane.InvalidItineraryError),
        ((1, (48.5, 95.0)), {}, sealane.InvalidCoordinateError),
    ],
    ids=["on-land", "negative-speed", "leg-past-the-end", "negative-leg", "bad-latitude"],
)
def test_at_sea__bad_input(args: tuple[Any, ...], kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        four_ports().at_sea(*args, datetime(2026, 3, 18, tzinfo=UTC), **kwargs)


def test_at_sea__time_must_be_a_datetime() -> None:
    with pytest.raises(InvalidTimeError):
        four_ports().at_sea(1, GULF_OF_ADEN, "2026-03-18")  # type: ignore[arg-type]
    with pytest.raises(sealane.InvalidItineraryError):
        four_ports().at_sea(1, GULF_OF_ADEN, None)  # type: ignore[arg-type]


def test_at_port__bad_index() -> None:
    with pytest.raises(sealane.InvalidItineraryError):
        four_ports().at_port(4)
    with pytest.raises(sealane.InvalidItineraryError):
        four_ports().at_port(True)  # type: ignore[arg-type]

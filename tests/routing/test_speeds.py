"""The speed profile (``sealane.routing.speeds``): the canals' times against their published
figures, positions one step apart and closer together where slower, waits, and the ETA the
profile gives everywhere in the engine."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

import sealane
from sealane.routing.geodesy import GEOD, METRES_PER_NM
from sealane.routing.passages import names_from_mask
from sealane.routing.speeds import zone_speeds, zone_table

T0 = datetime(2026, 1, 1, tzinfo=UTC)
KIEL_VESSEL = sealane.Vessel(draft_m=7.0, length_m=150.0)


def passage_nm(route: sealane.Route, passage: str) -> float:
    """Nautical miles of ``route`` in ``passage``."""
    inside = [
        passage in names_from_mask(int(m), route.passage_names) for m in route.segment_passages
    ]
    return float(route.segment_m[np.array(inside)].sum()) / METRES_PER_NM


def test_zone_speeds__every_row_has_a_speed_and_a_source() -> None:
    rows = zone_speeds()
    assert {row.zone for row in rows} >= {
        "suez", "panama", "kiel", "bosporus", "dardanelles", "river", "approach",
    }  # fmt: skip
    for row in rows:
        assert row.speed_kn > 0 and row.wait_h >= 0 and row.source and row.what


def test_suez__transit_at_convoy_speed_and_the_expected_wait() -> None:
    """Published: convoys at about 8 kn, a transit of 11 to 16 hours (Suez Canal Authority);
    the wait is half the interval between convoys, averaged over the two directions (9 h)."""
    route = sealane.route("CNSHA", "NLRTM")
    hours = route.speed_profile(14.0).hours_by_zone()
    canal_nm = passage_nm(route, "suez")
    assert canal_nm == pytest.approx(94.4, abs=1.0)
    transit_h = hours["suez"] - 9.0
    assert transit_h == pytest.approx(canal_nm / 8.0, rel=1e-9)
    assert 11.0 <= transit_h <= 16.0
    # The same vessel timed at 14 kn all the way took under 7 h through the canal.
    assert canal_nm / 14.0 < 7.0


def test_kiel__fifteen_km_an_hour_and_its_locks() -> None:
    """Published: the Kiel Canal's limit is 15 km/h (WSV); its ~100 km take about 7 hours,
    and the locks at Brunsbuettel and Kiel-Holtenau add about half an hour each."""
    route = sealane.route("NLRTM", "PLGDN", vessel=KIEL_VESSEL)
    assert "kiel" in route.passages
    hours = route.speed_profile(14.0).hours_by_zone()
    canal_km = passage_nm(route, "kiel") * METRES_PER_NM / 1000.0
    assert hours["kiel"] == pytest.approx(canal_km / 15.0 + 1.0, rel=1e-6)
    assert 7.0 <= hours["kiel"] <= 9.0
    assert canal_km / (14.0 * METRES_PER_NM / 1000.0) < 4.1  # 4.0 h at the vessel's 14 kn


def test_panama__transit_time_with_the_locks() -> None:
    """Published: a Canal Transit Time of about 10.5 h, locks included (ACP)."""
    route = sealane.route("USNYC", "CNSHA")
    hours = route.speed_profile(14.0).hours_by_zone()
    assert hours["panama"] - 10.0 == pytest.approx(10.5, abs=0.1)


def test_river_and_approach__slower_at_the_ports_own_river() -> None:
    """Savannah's river reach at river speed, then the pilot station's approach."""
    route = sealane.route("USNYC", "USSAV")
    hours = route.speed_profile(16.0).hours_by_zone()
    # Each end's approach: 10 nm at 10 kn, New York's and Savannah's beyond its river.
    assert hours["river"] > 1.0 and hours["approach"] == pytest.approx(2.0, rel=1e-6)
    assert route.duration_h(16.0) > route.distance_nm / 16.0


def test_slow_vessel__no_zone_is_slower_and_only_the_waits_remain() -> None:
    route = sealane.route("CNSHA", "NLRTM")
    assert route.duration_h(4.0) == pytest.approx(route.distance_nm / 4.0 + 9.0, rel=1e-9)


def test_future_positions__one_minute_apart_closer_in_the_canal() -> None:
    positions = sealane.future_positions((60.1, 12.3), "CNSHA", "NLRTM", speed_kn=18, start_time=T0)
    gaps = np.diff(positions.times).astype(np.int64)
    assert np.all(gaps[:-1] == 60_000) and 0 < gaps[-1] <= 60_000
    _, _, apart = GEOD.inv(
        positions.lons[:-1], positions.lats[:-1], positions.lons[1:], positions.lats[1:]
    )
    open_water = 18 * METRES_PER_NM / 60
    convoy = 8 * METRES_PER_NM / 60
    # Most positions a full step apart at sea; in the canal at convoy speed; the wait on one point.
    assert np.mean(np.abs(apart - open_water) < 1.0) > 0.9
    in_canal = np.abs(apart - convoy) < 1.0
    assert 600 < int(in_canal.sum()) < 800  # 94 nm at 8 kn: 708 minutes
    assert int((apart == 0).sum()) == 539  # 540 positions through the 9 h wait
    waiting = np.flatnonzero(apart == 0)
    assert np.all(np.diff(waiting) == 1)  # in one stretch, at the canal's entrance
    assert positions.lats[waiting[0]] < 30.0  # northbound: the entrance is Suez, the south end
    # The ETA follows the profile.
    hours = (positions.eta - T0).total_seconds() / 3600
    assert hours == pytest.approx(positions.route.duration_h(18), abs=1e-6)
    assert hours - positions.distance_remaining_nm / 18 == pytest.approx(16.28, abs=0.01)


def test_future_positions__inside_the_canal_no_wait() -> None:
    """A vessel already in the convoy (El Ferdan, in the canal) waits no more."""
    positions = sealane.future_positions(
        (32.3244, 30.657), "CNSHA", "NLRTM", speed_kn=18, start_time=T0
    )
    _, _, apart = GEOD.inv(
        positions.lons[:-1], positions.lats[:-1], positions.lons[1:], positions.lats[1:]
    )
    assert not np.any(apart[:-1] == 0)
    canal_h = positions.route.speed_profile(18).hours_by_zone()["suez"]
    assert canal_h == pytest.approx(passage_nm(positions.route, "suez") / 8.0, rel=1e-9)


def test_itinerary__legs_timed_on_the_profile() -> None:
    trip = sealane.itinerary(["CNSHA", "NLRTM"], speed_kn=18, departed_at=T0)
    leg = trip.legs[0]
    assert leg.duration_h == pytest.approx(leg.route.duration_h(18), rel=1e-12)
    assert (trip.eta - T0).total_seconds() / 3600 == pytest.approx(leg.duration_h, abs=1e-6)


def test_zone_table__open_water_first_at_the_vessels_speed() -> None:
    table = zone_table()
    assert table.names[0] == "open_water" and np.isinf(table.speed_mps[0])
    assert table.wait_s[table.index("suez")] == 9 * 3600.0

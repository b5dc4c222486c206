"""The track sailed on one leg: recorded positions joined straight where close, bridged by the
sea lane where far apart (and marked estimated), the whole lane when nothing was recorded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

import numpy as np
import pytest

from sealane.service.container_routes.past_track import (
    GAP_M,
    MAX_TRACK_POINTS,
    nearest_segments,
    past_track,
    reported_track,
)

T0 = datetime(2026, 3, 1, tzinfo=UTC)
#: A lane along the equator, a vertex every degree (about 60 nm) from 0 to 10 degrees east.
LANE = np.column_stack([np.arange(11.0), np.zeros(11)])
NM = 1852.0


def positions(*lons: float, lat: float = 0.1) -> list[tuple[float, float, datetime]]:
    return [(lon, lat, T0 + timedelta(hours=i + 1)) for i, lon in enumerate(lons)]


def test_past_track__nothing_recorded_is_the_lane_estimated() -> None:
    (piece,) = past_track(LANE, T0, T0 + timedelta(days=1), None)
    assert piece.estimated and piece.coordinates is LANE
    assert (piece.start_at, piece.end_at) == (T0, T0 + timedelta(days=1))
    (empty,) = past_track(LANE, T0, None, reported_track([]))
    assert empty.estimated and empty.end_at is None


def test_past_track__close_positions_are_the_reported_track() -> None:
    lane = LANE[:2]  # 0 -> 1 degree: 60 nm, positions every 0.2 degree (12 nm)
    track = reported_track(positions(0.2, 0.4, 0.6, 0.8))
    (piece,) = past_track(lane, T0, T0 + timedelta(hours=5), track)
    assert not piece.estimated
    assert piece.coordinates.tolist() == [
        [0.0, 0.0], [0.2, 0.1], [0.4, 0.1], [0.6, 0.1], [0.8, 0.1], [1.0, 0.0]
    ]  # fmt: skip
    assert piece.end_at == T0 + timedelta(hours=5)


def test_past_track__a_gap_is_bridged_by_the_lane_and_marked_estimated() -> None:
    """Nothing recorded from the port until 5.2 degrees east, then every 0.2 degree."""
    track = reported_track(positions(5.2, 5.4, 5.6))
    pieces = past_track(LANE, T0, T0 + timedelta(hours=9), track)
    assert [p.estimated for p in pieces] == [True, False, True]
    bridge, reported, tail = pieces
    assert bridge.coordinates.tolist() == [[float(x), 0.0] for x in range(6)] + [[5.2, 0.1]]
    assert reported.coordinates.tolist() == [[5.2, 0.1], [5.4, 0.1], [5.6, 0.1]]
    assert tail.coordinates.tolist() == [[5.6, 0.1]] + [[float(x), 0.0] for x in range(6, 11)]
    assert bridge.end_at == reported.start_at == T0 + timedelta(hours=1)
    assert tail.start_at == T0 + timedelta(hours=3)


def test_past_track__pieces_join_end_to_end() -> None:
    track = reported_track(positions(0.3, 3.0, 3.2, 9.0))
    pieces = past_track(LANE, T0, None, track)
    assert pieces[0].coordinates[0].tolist() == LANE[0].tolist()
    assert pieces[-1].coordinates[-1].tolist() == LANE[-1].tolist()
    for before, after in pairwise(pieces):
        assert before.coordinates[-1].tolist() == after.coordinates[0].tolist()
        assert before.estimated != after.estimated


def test_past_track__gap_threshold_is_the_given_distance() -> None:
    lane = np.array([[0.0, 0.0], [0.8, 0.0]])  # a position half way: 24 nm from either end
    track = reported_track(positions(0.4))
    assert [p.estimated for p in past_track(lane, T0, None, track)] == [False]
    tight = past_track(lane, T0, None, track, gap_m=10 * NM)
    assert [p.estimated for p in tight] == [True]
    assert GAP_M == 30 * NM


def test_reported_track__thinned_evenly_keeping_both_ends() -> None:
    many = positions(*np.linspace(0.0, 1.0, MAX_TRACK_POINTS * 3))
    track = reported_track(many)
    assert track.lons.size == MAX_TRACK_POINTS == len(track.times)
    assert (track.lons[0], track.lons[-1]) == (0.0, 1.0)
    assert (track.times[0], track.times[-1]) == (many[0][2], many[-1][2])


def test_nearest_segments__across_the_antimeridian() -> None:
    lane = np.array([[178.0, 40.0], [179.5, 40.0], [-179.0, 40.0], [-177.0, 40.0]])
    points = np.array([[178.5, 40.2], [-179.9, 39.9], [-177.5, 40.1]])
    assert nearest_segments(lane, points).tolist() == [0, 1, 2]


@pytest.mark.parametrize("lon", [179.9, -179.9])
def test_past_track__bridge_over_the_antimeridian_follows_the_lane(lon: float) -> None:
    lane = np.array([[170.0, 40.0], [175.0, 41.0], [-180.0, 42.0], [-170.0, 43.0]])
    pieces = past_track(lane, T0, None, reported_track([(lon, 42.0, T0)]))
    bridge = pieces[0].coordinates.tolist()
    assert bridge[:2] == [[170.0, 40.0], [175.0, 41.0]]
    assert all(p.estimated for p in pieces)

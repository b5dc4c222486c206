"""The build's straight shortcuts: pulling a path tight, the samples that test a shortcut, and
what the shipped network's shortcuts promise (each replaces a run with the same passage bits)."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest

import sealane
from sealane.routing.build import shortcuts as build_shortcuts
from sealane.routing.build.canals import straighten_corridors
from sealane.routing.build.clearance import Clearance, dense_samples, great_circle
from sealane.routing.build.coast import coastline
from sealane.routing.build.corridors import Corridor, CorridorIndex, read_geojson
from sealane.routing.build.lanegraph import LaneGraph
from sealane.routing.build.shortcuts import PER_SECTOR, Training, _each_way, pull, training_pairs
from sealane.routing.data import data_dir, mapped_npz
from sealane.routing.data.formats import MARNET, Marnet
from sealane.routing.geodesy import GEOD, densify, drawn_parts, segment_lengths_m, unit_vectors
from sealane.routing.graph import default_graph

# --- pulling a path tight ------------------------------------------------------------------------


def blocked_between(cuts: set[int]) -> object:
    """A clearance test on node ids: the straight line from a to b is clear unless it jumps over
    one of ``cuts`` (a node where the path turns round a headland)."""

    def clear(a: int, b: int) -> bool:
        low, high = min(a, b), max(a, b)
        return not any(low < c < high for c in cuts)

    return clear


def test_pull__open_water_becomes_one_leg() -> None:
    assert list(pull(list(range(10)), lambda a, b: True)) == [(0, 9)]


def test_pull__stops_at_each_headland() -> None:
    runs = list(pull(list(range(20)), blocked_between({7, 13})))  # type: ignore[arg-type]
    assert runs == [(0, 7), (7, 13), (13, 19)]


def test_pull__nothing_clear_leaves_the_path() -> None:
    assert list(pull(list(range(6)), lambda a, b: abs(a - b) <= 1)) == []


def test_pull__two_nodes_and_one_node() -> None:
    assert list(pull([4, 5], lambda a, b: True)) == []
    assert list(pull([4], lambda a, b: True)) == []


def test_pull__runs_cover_the_path_in_order() -> None:
    rng = np.random.default_rng(3)
    cuts = set(rng.choice(np.arange(1, 99), 15, replace=False).tolist())
    runs = list(pull(list(range(100)), blocked_between(cuts)))  # type: ignore[arg-type]
    assert all(j >= i + 2 for i, j in runs)
    assert all(a[1] <= b[0] for a, b in pairwise(runs))


# --- the samples that test a shortcut ------------------------------------------------------------


def test_great_circle__spacing_ends_and_length() -> None:
    lon, lat, along, length = great_circle(-5.0, 36.0, 12.0, 37.5, 1_000.0)
    assert (lon[0], lat[0]) == pytest.approx((-5.0, 36.0))
    assert (lon[-1], lat[-1]) == pytest.approx((12.0, 37.5))
    assert np.diff(along).max() <= 1_000.0 + 1e-6
    geodesic = GEOD.inv(-5.0, 36.0, 12.0, 37.5)[2]
    assert length == pytest.approx(geodesic, rel=0.006)  # a sphere, for steering only


def test_great_circle__across_the_antimeridian() -> None:
    lon, _, _, _ = great_circle(179.0, 10.0, -179.0, 10.0, 5_000.0)
    assert np.all(np.abs(lon) >= 178.9)


def test_dense__every_point_within_spacing_and_on_the_geodesic() -> None:
    lon1, lat1, lon2, lat2 = (
        np.array([170.0]),
        np.array([40.0]),
        np.array([-150.0]),
        np.array([48.0]),
    )
    from sealane.routing.build.coast import sample_geodesics

    knots = sample_geodesics(lon1, lat1, lon2, lat2, 5_000.0)
    pieces = list(dense_samples(*knots, 50.0))
    lon = np.concatenate([p[0] for p in pieces])
    lat = np.concatenate([p[1] for p in pieces])
    along = np.concatenate([p[3] for p in pieces])
    order = np.argsort(along, kind="stable")
    steps = segment_lengths_m(lon[order], lat[order])
    assert steps.max() <= 50.0 + 0.5
    total = GEOD.inv(170.0, 40.0, -150.0, 48.0)[2]
    assert along.max() == pytest.approx(total, rel=1e-9)
    # Points interpolated between knots stay within a metre of the true geodesic.
    az, _, _ = GEOD.inv(170.0, 40.0, -150.0, 48.0)
    some = np.random.default_rng(5).choice(along.size, 200, replace=False)
    x, y, _ = GEOD.fwd(np.full(200, 170.0), np.full(200, 40.0), np.full(200, az), along[some])
    assert np.max(GEOD.inv(x, y, lon[some], lat[some])[2]) < 1.0


def test_each_way__partners_per_direction_in_each_range() -> None:
    # A port at the origin and rings of 16 ports round it, 100, 300, 1,000 and 3,000 km away.
    points = [(0.0, 0.0)]
    for radius_deg in (0.9, 2.7, 9.0, 27.0):
        for k in range(16):
            angle = 2 * math.pi * (k + 0.5) / 16
            points.append((radius_deg * math.cos(angle), radius_deg * math.sin(angle)))
    xyz = unit_vectors(*np.array(points).T)
    near = np.argsort(-(xyz @ xyz[0]))[1:]
    chosen = _each_way(xyz, 0, near).tolist()
    assert len(chosen) == 3 * 8 * PER_SECTOR == 48
    assert sorted(chosen[:16]) == list(range(17, 33))  # the inner ring is closer than 150 km
    assert sorted(chosen[16:32]) == list(range(33, 49))  # beyond 800 km: the 1,000 km ring
    assert sorted(chosen[32:]) == list(range(49, 65))  # beyond 2,500 km: the outer ring


# --- drawn lines follow the geodesic -------------------------------------------------------------


def test_densify__keeps_points_and_bounds_steps() -> None:
    lon, lat = np.array([139.9, -120.5, -118.2]), np.array([35.3, 34.0, 33.7])
    dense_lon, dense_lat = densify(lon, lat)
    assert np.diff(np.flatnonzero(np.isin(dense_lon, lon))).min() >= 1
    assert segment_lengths_m(dense_lon, dense_lat).max() <= 100_000.0 + 1.0
    assert segment_lengths_m(dense_lon, dense_lat).sum() == pytest.approx(
        segment_lengths_m(lon, lat).sum(), rel=1e-9
    )
    assert dense_lat.max() > 45.0  # the great circle Tokyo - California bows north


def test_densify__short_segments_untouched() -> None:
    lon, lat = np.array([4.0, 4.5, 5.0]), np.array([52.0, 52.1, 52.2])
    assert densify(lon, lat)[0] is lon


def test_drawn_parts__split_at_the_antimeridian() -> None:
    parts = drawn_parts(np.array([170.0, -170.0]), np.array([0.0, 0.0]))
    assert [parts[0][-1][0], parts[1][0][0]] == [180.0, -180.0]


# --- the shipped network's shortcuts -------------------------------------------------------------


def test_shipped_network__has_shortcuts() -> None:
    graph = default_graph()
    flags = Marnet.EDGE_SHORTCUT.read(mapped_npz(data_dir() / MARNET.name))
    assert flags.shape == graph.edge_u.shape
    assert 1_000 < int(flags.sum()) < graph.edge_count


def test_shortcut__ocean_crossing_close_to_the_great_circle() -> None:
    found = sealane.route("KRPUS", "USLAX")
    port_a, port_b = sealane.get_port("KRPUS"), sealane.get_port("USLAX")
    direct = GEOD.inv(port_a.lon, port_a.lat, port_b.lon, port_b.lat)[2]
    assert found.distance_m < direct * 1.01


def test_shortcut__restrictions_still_hold() -> None:
    """A shortcut carries its run's passage bits: closing Suez still sends Asia-Europe round
    the Cape, and the Corinth canal stays closed by default."""
    assert "suez" not in sealane.route("CNSHA", "NLRTM", avoid=["suez"]).passages
    assert "corinth" not in sealane.route("ITBRI", "TRIST").passages


# --- corridors pulled straight -------------------------------------------------------------------


def zigzag_canal(amplitude_deg: float) -> tuple[LaneGraph, Corridor]:
    """A canal traced as a zigzag along 54 N, its edges tagged with passage bit 11."""
    lons = np.linspace(9.0, 9.5, 51)
    lats = 54.0 + amplitude_deg * (np.arange(51) % 2)
    net = LaneGraph()
    net.add_chain(np.stack([lons, lats], 1), mask=1 << 11)
    canal = Corridor("Zigzag canal", "kiel", 1_000.0, np.stack([lons, lats], 1))
    return net, canal


def test_straighten_corridors__zigzag_becomes_one_leg_with_the_passage_bit() -> None:
    net, canal = zigzag_canal(0.002)  # about 220 m either way: within half the half width
    added = straighten_corridors(net, [canal])
    assert added == {(0, 50)}
    assert net.edges[(0, 50)] == 1 << 11


def test_straighten_corridors__a_bend_wider_than_the_middle_is_kept() -> None:
    net, canal = zigzag_canal(0.01)  # about 1.1 km: a leg across would leave the middle
    assert straighten_corridors(net, [canal]) == set()


def test_snap__onto_a_lane_not_a_passing_shortcut() -> None:
    """Regression: a point in the Arabian Sea snapped onto a 2,600 nm shortcut from the Mozambique
    Channel to Karachi, so its route to Rotterdam began with 800 nm towards Karachi."""
    graph = default_graph()
    snap = graph.snap(60.1, 12.3)
    assert graph.edge_snappable[snap.edge]
    assert sealane.route((60.1, 12.3), "NLRTM").distance_nm < 5_800


def test_route__from_a_vessel_on_a_shortcut_follows_it() -> None:
    """A vessel halfway along a trans-Pacific shortcut, tens of km from any lane: its route
    to the destination is the rest of the shortcut, not a detour by the nearest lane."""
    whole = sealane.route("KRPUS", "USLAX")
    k = int(np.argmax(whole.segment_m))
    assert whole.segment_m[k] > 1_000_000.0
    (lon1, lat1), (lon2, lat2) = whole.coordinates[k], whole.coordinates[k + 1]
    az, _, length = GEOD.inv(lon1, lat1, lon2, lat2)
    lon, lat, _ = GEOD.fwd(lon1, lat1, az, length / 2)
    assert default_graph().snap(lon, lat).distance_m > 20_000.0  # away from the lanes
    rest = length / 2 + float(whole.segment_m[k + 1 :].sum())
    # It may join a parallel shortcut a kilometre or two away (0.2 % here); by the nearest
    # lane it was 6 % longer.
    assert sealane.route((float(lon), float(lat)), "USLAX").distance_m == pytest.approx(
        rest, rel=0.005
    )


# --- the clearance tests agree on corridors ---------------------------------------------------


@pytest.mark.slow
def test_clearance__a_leg_out_of_a_corridor_is_refused_by_both_tests() -> None:
    pytest.importorskip("roaring_landmask")
    corridors = read_geojson(data_dir() / "corridors.geojson")
    # Hong Kong's east entrance (Tathong Channel, a corridor), just outside it, and the open
    # South China Sea off Luzon.
    lon = np.array([114.2849, 114.4216, 119.9])
    lat = np.array([22.238, 22.2423, 14.4])
    clear = Clearance(lon, lat, coastline(), CorridorIndex(corridors))
    assert not clear.coarse(0, 2)
    assert clear.coarse(1, 2)
    assert clear.exact([(0, 2), (1, 2)]).tolist() == [False, True]


def test_training__every_port_is_routed_to_the_busiest_ports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(build_shortcuts, "HUB_PORTS", 1)  # no spread hub but the first port
    # 300 ports on a grid 0.3 degrees apart (a port's regional partners are its neighbours);
    # the busiest is one in the middle.
    points = [(x * 0.3, y * 0.3) for x in range(20) for y in range(15)]
    busiest = points[10 * 15 + 7]
    lon, lat = (np.array(c) for c in zip(*points, strict=True))
    middle = points.index(busiest)
    plain = training_pairs(lon, lat, Training(joined=points, busiest=[]))[1]
    assert not all(middle in plain[node] for node in range(len(points)) if node != middle)
    nodes, targets = training_pairs(lon, lat, Training(joined=points, busiest=[busiest]))
    assert all(middle in targets[node] for node in nodes if node != middle)

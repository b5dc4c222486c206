"""A leg made in one compiled call (``_network.c``) equals the untrimmed leg trimmed afterwards:
the same points, passage masks and lengths, bit for bit; an end off the lanes joins them at a
slant where that makes the whole leg shortest, never across land."""

from __future__ import annotations

import math

import numpy as np
import pytest

import sealane
from sealane.routing.closures import closed_for
from sealane.routing.geodesy import GEOD
from sealane.routing.graph import default_graph
from sealane.routing.landmask import default_landmask
from sealane.routing.legs import (
    JOIN_FROM_M,
    at_sea_between,
    sail,
    sail_trimmed,
    slanted_joins,
    snap_open,
    trim,
)
from sealane.routing.locations import Location, resolve_location
from sealane.routing.passages import closed_passages, passage_mask
from sealane.routing.paths import shortest_path_among
from sealane.routing.ports import registry


def assert_same_leg(start: Location, end: Location, blocked: int) -> int:
    """Both ways of making the leg agree; the number of its points."""
    graph = default_graph()
    fast = sail_trimmed(graph, start, end, blocked)
    slow = trim(*sail(graph, start, end, blocked))
    for mine, theirs in zip(fast, slow, strict=True):
        assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
    for mine, theirs in zip(fast, slow, strict=True):
        assert np.array_equal(mine, theirs)
    return int(fast[0].shape[0])


def sea_ports(count: int, seed: int) -> list[Location]:
    """``count`` ports drawn at random among those with a water approach whose lane lies in no
    passage closed by default (a port on the Northwest Passage has no leg to anywhere)."""
    graph = default_graph()
    blocked = passage_mask(closed_passages((), allow_arctic=False), graph.passage_names)
    ports = [
        port
        for port in registry().ports
        if not port.inland
        and not int(graph.edge_passages[graph.snap(port.lon, port.lat).edge]) & blocked
    ]
    picked = np.random.default_rng(seed).choice(len(ports), count, replace=False)
    return [resolve_location(ports[i]) for i in picked.tolist()]


def test_port_to_port__the_same_for_a_hundred_pairs() -> None:
    ports = sea_ports(200, seed=5)
    blocked = passage_mask(closed_passages((), allow_arctic=False), default_graph().passage_names)
    sizes = [assert_same_leg(a, b, blocked) for a, b in zip(ports[::2], ports[1::2], strict=True)]
    assert max(sizes) > 50  # long legs were among them, not only the short way's fallbacks


def test_points_off_the_network_and_on_its_nodes__the_same() -> None:
    graph = default_graph()
    rng = np.random.default_rng(9)
    nodes = rng.choice(graph.node_lon.size, 60, replace=False).tolist()
    on_nodes = [Location(float(graph.node_lon[n]), float(graph.node_lat[n])) for n in nodes]
    ports = sea_ports(60, seed=11)
    off = [Location(p.lon + rng.uniform(-0.3, 0.3), p.lat + rng.uniform(-0.3, 0.3)) for p in ports]
    blocked = passage_mask(closed_passages((), allow_arctic=False), graph.passage_names)
    for a, b in zip(on_nodes + off, off + on_nodes, strict=True):
        try:
            assert_same_leg(a, b, blocked)
        except sealane.NoRouteError:
            with pytest.raises(sealane.NoRouteError):
                sail(graph, a, b, blocked)


@pytest.mark.parametrize(
    ("origin", "destination", "avoid"),
    [
        ("CNSHA", "NLRTM", ("suez",)),
        ("CNSHA", "NLRTM", ("suez", "panama")),
        ("NLRTM", "BEANR", ()),  # a short leg: few nodes, the general way
        ("SGSIN", "SGSIN", ()),  # no leg at all
        ("DEHAM", "PLGDN", ("kiel",)),
    ],
)
def test_named_legs_and_restrictions__the_same(
    origin: str, destination: str, avoid: tuple[str, ...]
) -> None:
    blocked = passage_mask(
        closed_passages(avoid, allow_arctic=False), default_graph().passage_names
    )
    assert_same_leg(resolve_location(origin), resolve_location(destination), blocked)


# --- slanted joins: an end off the lanes joins them where the whole leg is shortest -------------

NM = 1852.0
OFF_NM = 20.0


def forty_five_degree_cases(count: int) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Ends 20 nm off a lane edge, abreast of the point 20 nm short of the edge's far node, and
    that node: the way home from the end runs at 45 degrees to the lane. Found in the shipped
    graph (lane edges of 60-150 km, in a fixed order), so the test follows its rebuilds."""
    graph = default_graph()
    mask = default_landmask()
    edges = np.flatnonzero(
        graph.edge_snappable & (graph.edge_length_m > 60_000) & (graph.edge_length_m < 150_000)
    )
    found = []
    for edge in np.random.default_rng(0).permutation(edges).tolist():
        u, v = int(graph.edge_u[edge]), int(graph.edge_v[edge])
        home = (float(graph.node_lon[v]), float(graph.node_lat[v]))
        azimuth, back, _ = GEOD.inv(graph.node_lon[u], graph.node_lat[u], *home)
        foot = GEOD.fwd(*home, back, OFF_NM * NM)[:2]
        for side in (90.0, -90.0):
            lon, lat, _ = GEOD.fwd(*foot, azimuth + side, OFF_NM * NM)
            end = (float(lon), float(lat))
            snap = graph.snap(*end)
            if mask.is_land(*end) or snap.edge != edge or abs(snap.distance_m - OFF_NM * NM) > 300:
                continue
            if abs(end[1]) < 60:  # clear of the Arctic passages closed by default
                found.append((end, home))
        if len(found) >= count:
            break
    return found


def test_slanted_join__an_end_20_nm_off_a_lane_at_45_degrees_sails_the_diagonal() -> None:
    cases = forty_five_degree_cases(8)
    assert len(cases) == 8
    diagonal, right_angle = OFF_NM * math.sqrt(2.0), 2 * OFF_NM
    lengths = [sealane.route(end, home).distance_nm for end, home in cases]
    # Each leg is the diagonal (28.3 nm) unless land lies across it; then the right angle (40).
    assert all(
        length == pytest.approx(diagonal, abs=0.3) or length == pytest.approx(right_angle, abs=0.5)
        for length in lengths
    ), lengths
    assert sum(length < diagonal + 0.3 for length in lengths) >= 6, lengths


def test_slanted_join__never_across_land() -> None:
    mask = default_landmask()
    for end, home in forty_five_degree_cases(8):
        route = sealane.route(end, home)
        (lon1, lat1), (lon2, lat2) = route.coordinates[0], route.coordinates[1]
        _, _, length = GEOD.inv(lon1, lat1, lon2, lat2)
        points = GEOD.npts(lon1, lat1, lon2, lat2, max(int(length // 1000), 1))
        assert not any(mask.is_land(lon, lat) for lon, lat in points), (end, home)


def test_slanted_join__the_search_chooses_by_the_whole_leg() -> None:
    """Both ways: from the end and to it, the join is the one the whole leg is shortest by."""
    for end, home in forty_five_degree_cases(3):
        there = sealane.route(end, home).distance_m
        back = sealane.route(home, end).distance_m
        assert there == pytest.approx(back, rel=1e-6)


#: Ends whose best slanted join crosses land while another of their joins is at sea and
#: shorter than the perpendicular (found among random points near ports; Cuban keys, Skagerrak).
OVER_LAND_FIRST = [((-79.88885, 22.90505), "CUMNT"), ((11.02869, 57.14194), "FRLGU")]


@pytest.mark.parametrize(("point", "port"), OVER_LAND_FIRST)
def test_slanted_join__one_across_land_drops_only_itself(
    point: tuple[float, float], port: str
) -> None:
    graph = default_graph()
    blocked = closed_for(frozenset(), False, frozenset(), graph.passage_names)[1]
    start, end = Location(*point), resolve_location(port)
    lane = snap_open(graph, start, blocked, "origin")
    joins = slanted_joins(graph, start, lane, (end.lon, end.lat))
    home = snap_open(graph, end, blocked, "destination")
    best, _, _ = shortest_path_among(graph, (lane, *joins), (home,), (end.lon, end.lat), blocked)
    assert best in joins and not at_sea_between(start, best)  # the best join crosses land
    route = sealane.route(point, port)
    joined = tuple(route.coordinates[1].tolist())
    taken = [j for j in joins if (j.lon, j.lat) == joined]
    assert taken and taken[0] != best  # another slant, not the perpendicular's foot
    assert at_sea_between(start, taken[0])
    plain = shortest_path_among(graph, (lane,), (home,), (end.lon, end.lat), blocked)[2]
    assert route.distance_m < plain.network_m + lane.distance_m


def test_slanted_joins__none_near_the_lanes() -> None:
    graph = default_graph()
    where = Location(4.0, 52.0)  # off the Maasvlakte, on the lanes into Rotterdam
    lane = graph.snap(where.lon, where.lat)
    assert lane.distance_m <= JOIN_FROM_M
    assert slanted_joins(graph, where, lane, (0.0, 50.0)) == ()

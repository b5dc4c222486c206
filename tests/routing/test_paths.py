"""One search from every way an end is snapped (its lane, a shortcut nearer than the lane) finds
what searching each pair of snaps apart and keeping the shortest finds, by each of the three
searches (the default passages' hierarchy, the masked one, A*)."""

from __future__ import annotations

import numpy as np
import pytest

import sealane
from sealane.routing.closures import closed_for, refused_for
from sealane.routing.errors import NoRouteError
from sealane.routing.graph import SeaGraph, default_graph
from sealane.routing.paths import shortest_path, shortest_path_among
from sealane.routing.ports import registry
from sealane.routing.snapping import Snap
from sealane.routing.vessel import Vessel
from tests.routing.test_network import core_search


@pytest.fixture(scope="module")
def graph() -> SeaGraph:
    return default_graph()


def default_blocked(graph: SeaGraph) -> int:
    """What a route with no vessel closes (the default passages and the default band)."""
    return closed_for(frozenset(), False, frozenset(), graph.passage_names)[1]


def snaps_of(graph: SeaGraph, lon: float, lat: float, blocked: int) -> tuple[Snap, ...]:
    """The lane snap of a point and, when it lies off the lanes, its shortcut snap too."""
    lane = graph.snap(lon, lat, blocked=blocked)
    shortcut = graph.snap_shortcut(lon, lat, lane.distance_m, blocked=blocked)
    return (lane,) if shortcut is None else (lane, shortcut)


def off_lane_points(graph: SeaGraph, count: int, seed: int) -> list[tuple[float, float]]:
    """Points at sea near ports, each with a shortcut nearer than its lane."""
    rng = np.random.default_rng(seed)
    ports = [port for port in registry().ports if not port.inland]
    blocked = default_blocked(graph)
    found: list[tuple[float, float]] = []
    while len(found) < count:
        port = ports[int(rng.integers(len(ports)))]
        lon, lat = port.lon + rng.uniform(-2, 2), port.lat + rng.uniform(-2, 2)
        if len(snaps_of(graph, lon, lat, blocked)) == 2:
            found.append((lon, lat))
    return found


def pairwise_best(
    graph: SeaGraph, origins: tuple[Snap, ...], destinations: tuple[Snap, ...], blocked: int
) -> float:
    """The shortest total over every pair of snaps searched apart (inf when none joins)."""
    best = np.inf
    for o in origins:
        for d in destinations:
            try:
                path = shortest_path(graph, o, d, blocked)
            except NoRouteError:
                continue
            best = min(best, o.distance_m + path.network_m + d.distance_m)
    return best


@pytest.mark.parametrize("search", ["hierarchy", "masked", "astar"])
def test_among__the_shortest_of_every_pair_of_snaps(
    graph: SeaGraph, monkeypatch: pytest.MonkeyPatch, search: str
) -> None:
    if search != "hierarchy":
        monkeypatch.setattr(graph, "hierarchy", None)
    if search == "astar":
        monkeypatch.setattr(graph, "masked_hierarchy", None)
    blocked = default_blocked(graph)
    points = off_lane_points(graph, 24, seed=3)
    for (lon_a, lat_a), (lon_b, lat_b) in zip(points[::2], points[1::2], strict=True):
        origins = snaps_of(graph, lon_a, lat_a, blocked)
        destinations = snaps_of(graph, lon_b, lat_b, blocked)
        expected = pairwise_best(graph, origins, destinations, blocked)
        o, d, path = shortest_path_among(graph, origins, destinations, (lon_b, lat_b), blocked)
        assert o in origins and d in destinations
        total = o.distance_m + path.network_m + d.distance_m
        assert total == pytest.approx(expected, rel=1e-9)
        # the path is the chosen snaps' own: searched apart, they give the same length
        alone = shortest_path(graph, o, d, blocked)
        assert alone.network_m == pytest.approx(path.network_m, rel=1e-9)
        np.testing.assert_array_equal(alone.nodes, path.nodes)


def test_among__astar_with_two_destination_snaps_no_landmark_overestimate(
    graph: SeaGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off Fiji to off Japan, both ends with a shortcut snap: the landmarks' distances to the
    goal through the two destination snaps' chain ends overestimated, and A* settled for a
    path 16 km longer than searching each pair apart."""
    monkeypatch.setattr(graph, "hierarchy", None)
    monkeypatch.setattr(graph, "masked_hierarchy", None)
    blocked = default_blocked(graph)
    (lon_a, lat_a), (lon_b, lat_b) = (176.5583, -17.1738), (142.0189, 36.7389)
    origins = snaps_of(graph, lon_a, lat_a, blocked)
    destinations = snaps_of(graph, lon_b, lat_b, blocked)
    assert len(origins) == len(destinations) == 2
    o, d, path = shortest_path_among(graph, origins, destinations, (lon_b, lat_b), blocked)
    total = o.distance_m + path.network_m + d.distance_m
    assert total == pytest.approx(pairwise_best(graph, origins, destinations, blocked), rel=1e-9)


def test_among__one_snap_each__network_m_leaves_the_snap_distances_out(graph: SeaGraph) -> None:
    """The search counts each snap's distance off the network; ``network_m`` is the search
    between the chains' ends without them (``shortest_path`` is this same call, no oracle)."""
    blocked = default_blocked(graph)
    a, b = graph.snap(4.0, 51.9), graph.snap(121.9, 31.0)
    assert a.distance_m > 100 and b.distance_m > 100
    o, d, path = shortest_path_among(graph, (a,), (b,), (121.9, 31.0), blocked)
    assert (o, d) == (a, b)
    found = core_search(graph, a, b, blocked)
    assert found is not None
    assert path.network_m == pytest.approx(found[0], rel=1e-12)


def test_among__two_snaps_on_one_chain_go_straight_along_it(graph: SeaGraph) -> None:
    blocked = default_blocked(graph)
    a = graph.snap(4.0, 51.9)
    o, d, path = shortest_path_among(graph, (a,), (a,), (a.lon, a.lat), blocked)
    assert (o, d) == (a, a) and path.network_m == 0.0 and path.nodes.size == 0


def test_vessel_out_of_a_port_its_lane_too_shallow_for__one_search(
    graph: SeaGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mundra's own lane is closed to a 12 m draft: the route starts from the lane 13 km out or
    from a deep shortcut at the port, whichever is shorter, found by one search."""
    blocked = default_blocked(graph) | refused_for(Vessel(draft_m=12.0), graph.passage_names)[0]
    mundra = registry().get("INMUN")
    origins = snaps_of(graph, mundra.lon, mundra.lat, blocked)
    assert len(origins) == 2, "Mundra's lane is no longer closed at 12 m: pick another port"
    searches = []
    real = graph.masked_hierarchy
    assert real is not None

    class Counting:
        """The masked hierarchy's query, its searches counted (a remembered climb is none)."""

        def __getattr__(self, name: str) -> object:
            found = getattr(real.kernel, name)
            if name in ("climb", "climb_to", "meet"):
                searches.append(name)
            return found

    class Hierarchy:
        """The masked hierarchy with its query counted."""

        kernel = Counting()

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    monkeypatch.setattr(graph, "masked_hierarchy", Hierarchy())
    route = sealane.route("INMUN", "JPOSA", draft_m=12.0)
    assert len(searches) == 1
    assert route.distance_m > 0

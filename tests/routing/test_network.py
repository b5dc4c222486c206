"""The compiled network (``_network.c``) against its Python twin: paths unfolded between two
snapped points, legs laid with their empty segments trimmed, and every argument that does not
fit the graph refused with a ValueError rather than read out of bounds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from sealane.routing import registry
from sealane.routing.build.chains import core_arrays
from sealane.routing.geodesy import lengths_between_m
from sealane.routing.graph import SeaGraph, default_graph
from sealane.routing.network import NetworkPython, as_int32, as_leg, network_arrays
from sealane.routing.passages import Passage, passage_mask
from sealane.routing.paths import shortest_path
from sealane.routing.snapping import Snap

_network = pytest.importorskip("sealane.routing._network")


@pytest.fixture(scope="module")
def graph() -> SeaGraph:
    return default_graph()


@pytest.fixture(scope="module")
def twin(graph: SeaGraph) -> NetworkPython:
    return NetworkPython(*network_arrays(graph))


def test_the_graph_holds_the_compiled_network(graph: SeaGraph) -> None:
    assert isinstance(graph.network, _network.Network)


def port_snaps(graph: SeaGraph, count: int, seed: int) -> list[tuple[Snap, Snap]]:
    ports = registry().ports
    picked = np.random.default_rng(seed).choice(len(ports), size=(count, 2))
    return [
        (graph.snap(ports[a].lon, ports[a].lat), graph.snap(ports[b].lon, ports[b].lat))
        for a, b in picked.tolist()
    ]


def core_search(
    graph: SeaGraph, origin: Snap, destination: Snap, blocked: int
) -> tuple[float, bytes | np.ndarray] | None:
    """Cost and core path between the chain ends of two snaps (their distances off the network
    left out), searched as ``paths`` does; None when no open path joins them."""
    from sealane.routing.paths import _search

    o_core, d_core = int(graph.edge_core[origin.edge]), int(graph.edge_core[destination.edge])
    o_at, d_at = graph.along_chain_m(origin), graph.along_chain_m(destination)
    return _search(
        graph,
        (graph.core_ends[o_core], np.array([o_at, graph.core_length_m[o_core] - o_at]), None),
        (graph.core_ends[d_core], np.array([d_at, graph.core_length_m[d_core] - d_at]), None),
        (destination.lon, destination.lat),
        blocked,
    )


def core_path(graph: SeaGraph, origin: Snap, destination: Snap, blocked: int) -> np.ndarray | None:
    """The core nodes of the path between two snaps (None when no open path joins them)."""
    found = core_search(graph, origin, destination, blocked)
    return None if found is None else as_int32(found[1])


@pytest.mark.parametrize("closed", [(), (Passage.SUEZ, Passage.PANAMA)])
def test_unfold__same_as_the_twin_and_a_walk_between_the_snaps(
    graph: SeaGraph, twin: NetworkPython, closed: tuple[Passage, ...]
) -> None:
    blocked = graph.default_closed_mask | passage_mask(closed, graph.passage_names)
    walked = 0
    for origin, destination in port_snaps(graph, 40, seed=3):
        if graph.edge_core[origin.edge] == graph.edge_core[destination.edge]:
            continue  # one chain: the path may go straight along it, not through the core
        core = core_path(graph, origin, destination, blocked)
        if core is None:
            continue
        args = (
            core,
            blocked,
            origin.edge,
            graph.along_chain_m(origin),
            destination.edge,
            graph.along_chain_m(destination),
        )
        nodes, edges = (as_int32(a) for a in graph.network.unfold(*args))
        twin_nodes, twin_edges = twin.unfold(*args)
        np.testing.assert_array_equal(nodes, twin_nodes)
        np.testing.assert_array_equal(edges, twin_edges)
        # The walk: from an end of the origin's edge, each edge joining the nodes around it,
        # to an end of the destination's edge, through every core node of the path in order.
        assert nodes[0] in graph.edge_ends[origin.edge]
        assert nodes[-1] in graph.edge_ends[destination.edge]
        np.testing.assert_array_equal(edges, graph.edge_between(nodes[:-1], nodes[1:]))
        waiting = graph.core_node[core].tolist()
        for node in nodes.tolist():
            if waiting and node == waiting[0]:
                waiting.pop(0)
        assert not waiting
        walked += 1
    assert walked > 20


def test_unfold__the_path_the_route_sails(graph: SeaGraph) -> None:
    origin, destination = port_snaps(graph, 1, seed=8)[0]
    path = shortest_path(graph, origin, destination, graph.default_closed_mask)
    np.testing.assert_array_equal(path.edges, graph.edge_between(path.nodes[:-1], path.nodes[1:]))


@pytest.mark.parametrize(
    ("path", "edge", "message"),
    [
        ("empty", 0, "an empty path"),
        ("one", -1, "an edge outside"),
        ("one", 10**9, "an edge outside"),
        ("twice", None, "no open core edge"),  # a node to itself: no core edge does that
        ("outside", None, "does not start and end"),  # a node outside the core graph
    ],
)
def test_unfold__arguments_that_do_not_fit__value_error(
    graph: SeaGraph, twin: NetworkPython, path: str, edge: int | None, message: str
) -> None:
    first = 0 if edge is None else edge  # an edge whose chain ends at ``node``
    node = int(graph.core_u[graph.edge_core[0]])
    core = {
        "empty": [],
        "one": [node],
        "twice": [node, node],
        "outside": [node, graph.core_count + 5],
    }[path]
    for kernel in (graph.network.unfold, twin.unfold):
        with pytest.raises(ValueError, match=message):
            kernel(np.array(core, dtype=np.int32), 0, first, 0.0, 0, 0.0)


def test_leg__same_as_the_twin_with_ends_on_nodes_or_off_them(
    graph: SeaGraph, twin: NetworkPython
) -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        count = int(rng.integers(1, 6))
        nodes = rng.choice(graph.node_count, count, replace=False).astype(np.int32)
        edges = rng.choice(graph.edge_count, count - 1).astype(np.int32)
        first, last = graph.node_lonlat[nodes[0]].tolist(), graph.node_lonlat[nodes[-1]].tolist()
        snap_a = first if rng.random() < 0.5 else [first[0] + 0.01, first[1]]
        snap_b = last if rng.random() < 0.5 else [last[0], last[1] - 0.01]
        start = snap_a if rng.random() < 0.5 else [snap_a[0] - 0.2, snap_a[1]]
        end = snap_b if rng.random() < 0.5 else [snap_b[0], snap_b[1] + 0.2]
        a_edge, b_edge = rng.integers(0, graph.edge_count, 2).tolist()
        args = (nodes, edges, *start, *snap_a, a_edge, *snap_b, b_edge, *end)
        compiled, python = as_leg(graph.network.leg(*args)), as_leg(twin.leg(*args))
        for mine, theirs in zip(compiled, python, strict=True):
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
            assert np.array_equal(mine, theirs)


def test_leg__no_length_at_all_keeps_its_two_ends(graph: SeaGraph, twin: NetworkPython) -> None:
    node = graph.node_lonlat[7].tolist()
    args = (np.array([7], dtype=np.int32), np.zeros(0, dtype=np.int32))
    args += (*node, *node, 0, *node, 0, *node)
    for kernel in (graph.network.leg, twin.leg):
        coords, lengths, masks = as_leg(kernel(*args))
        assert coords.tolist() == [node, node]
        assert lengths.tolist() == [0.0] and masks.tolist() == [0]


def test_leg__a_partial_leg_vincenty_cannot_measure__left_to_pyproj(graph: SeaGraph) -> None:
    # The start is nearly antipodal to its snap (Vincenty's iteration does not converge): the
    # compiled leg answers None, and sail_trimmed lays the leg the twin's way, with pyproj.
    lon, lat = graph.node_lonlat[7].tolist()
    args = (np.array([7], dtype=np.int32), np.zeros(0, dtype=np.int32))
    args += (179.7, 0.3, 0.0, 0.0, 0, lon, lat, 0, lon, lat)
    assert graph.network.leg(*args) is None


@pytest.mark.parametrize(
    ("nodes", "edges", "a_edge", "message"),
    [
        ([], [], 0, "no node"),
        ([0, 1], [], 0, "no node"),  # one edge too few
        ([0, 1], [0, 1], 0, "no node"),  # one too many
        ([0, 1], [0], -1, "no node"),  # a snapped edge outside the graph
        ([-1, 1], [0], 0, "outside the graph"),
        ([0, 1], [10**8], 0, "outside the graph"),
    ],
)
def test_leg__arguments_that_do_not_fit__value_error(
    graph: SeaGraph,
    twin: NetworkPython,
    nodes: list[int],
    edges: list[int],
    a_edge: int,
    message: str,
) -> None:
    kernels: list[Callable[..., Any]] = [graph.network.leg, twin.leg]
    for kernel in kernels:
        with pytest.raises(ValueError, match=message):
            kernel(
                np.array(nodes, dtype=np.int32),
                np.array(edges, dtype=np.int32),
                *(0.0, 0.0, 0.0, 0.0, a_edge, 1.0, 1.0, 0, 1.0, 1.0),
            )


def corrupted(graph: SeaGraph, which: int, value: np.ndarray) -> list[np.ndarray]:
    arrays = [np.array(a) for a in network_arrays(graph)]
    arrays[which] = value
    return arrays


@pytest.mark.parametrize(
    ("which", "make", "message"),
    [
        (1, lambda a: a.astype(np.float32), "wrong type"),
        (3, lambda a: a.astype(np.int64), "wrong type"),
        (2, lambda a: a[:-1], "different lengths"),
        (3, lambda a: np.where(a == a[0], 10**8, a).astype(np.int32), "outside its array"),
        (4, lambda a: a + 10**6, "outside its chain"),
        (14, lambda a: -a - 1, "outside its array"),
        (13, lambda a: np.concatenate([[1], a[1:]]).astype(np.int32), "span"),
    ],
)
def test_network__arrays_that_do_not_agree__value_error(
    graph: SeaGraph, which: int, make: Callable[[np.ndarray], np.ndarray], message: str
) -> None:
    arrays = corrupted(graph, which, make(np.array(network_arrays(graph)[which])))
    with pytest.raises(ValueError, match=message):
        _network.Network(*arrays)


def test_network__wrong_argument_count__type_error(graph: SeaGraph) -> None:
    with pytest.raises(TypeError, match="16 arrays"):
        _network.Network(*network_arrays(graph)[:-1])


def test_network__made_without_its_arrays__refuses_calls(graph: SeaGraph) -> None:
    bare = _network.Network.__new__(_network.Network)
    with pytest.raises(RuntimeError, match="without its arrays"):
        bare.unfold(np.zeros(1, dtype=np.int32), 0, 0, 0.0, 0, 0.0)
    held = _network.Network(*network_arrays(graph))
    with pytest.raises(TypeError, match="made once"):
        held.__init__(*network_arrays(graph))


def test_network__a_failed_init_leaves_it_refusing_calls(graph: SeaGraph) -> None:
    arrays = [np.array(a) for a in network_arrays(graph)]
    arrays[4] = arrays[4] + 10**6  # edge positions outside their chains: check() refuses them
    half_made = _network.Network.__new__(_network.Network)
    with pytest.raises(ValueError, match="outside its chain"):
        half_made.__init__(*arrays)
    with pytest.raises(RuntimeError, match="without its arrays"):
        half_made.unfold(np.zeros(2, dtype=np.int32), 0, 0, 0.0, 0, 0.0)
    with pytest.raises(RuntimeError, match="without its arrays"):
        half_made.leg(np.zeros(1, dtype=np.int32), np.zeros(0, dtype=np.int32), *[0.0] * 4, 0,
                      0.0, 0.0, 0, 0.0, 0.0)  # fmt: skip


def test_calls__int64_paths_are_type_errors_both_ways(graph: SeaGraph, twin: NetworkPython) -> None:
    wide = np.array([0, 1], dtype=np.int64)
    for kernel in (graph.network, twin):
        with pytest.raises(TypeError, match="core_path must be int32"):
            kernel.unfold(wide, 0, 0, 0.0, 0, 0.0)
        with pytest.raises(TypeError, match="nodes must be int32"):
            kernel.leg(wide, np.zeros(1, np.int32), *(0.0, 0.0, 0.0, 0.0, 0, 1.0, 1.0, 0, 1.0, 1.0))


def test_unfold__a_path_that_misses_the_snapped_chains__value_error(
    graph: SeaGraph, twin: NetworkPython
) -> None:
    chain = int(graph.edge_core[0])
    ends = {int(graph.core_u[chain]), int(graph.core_v[chain])}
    elsewhere = next(n for n in range(graph.core_count) if n not in ends)
    path = np.array([elsewhere], dtype=np.int32)
    for kernel in (graph.network, twin):
        with pytest.raises(ValueError, match="does not start and end"):
            kernel.unfold(path, 0, 0, 0.0, 0, 0.0)


def lollipop() -> SeaGraph:
    """A small graph with a loop 0-1-2-3-0 (the fold keeps a node of it in the core, so no chain
    runs from a node back to itself) and a stick 0-4-5: paths of a single core node."""
    lon = np.array([0.0, 0.1, 0.2, 0.1, -0.1, -0.2])
    lat = np.array([0.0, 0.1, 0.0, -0.1, 0.0, 0.0])
    u = np.array([0, 1, 2, 3, 0, 4])
    v = np.array([1, 2, 3, 0, 4, 5])
    masks = np.zeros(u.size, dtype=np.uint32)
    lengths = lengths_between_m(lon[u], lat[u], lon[v], lat[v])
    core = core_arrays(lon, lat, u, v, masks, lengths)
    arrays = {
        "node_lon": lon,
        "node_lat": lat,
        "edge_u": u,
        "edge_v": v,
        "edge_length_m": lengths,
        "edge_passages": masks,
        "passage_names": np.array(["suez"]),
        "cell_deg": np.array(1.0),
        "cell_ptr": np.zeros(180 * 360 + 1, dtype=np.int64),
        "cell_edges": np.zeros(0, dtype=np.int32),
        "landmark_masks": np.zeros(1, dtype=np.uint32),
        "landmark_tables": np.zeros((1, core["core_node"].size, 1)),
        **core,
    }
    return SeaGraph(arrays)


def test_unfold__one_node_paths_on_a_small_graph__same_as_the_twin_and_a_walk() -> None:
    small = lollipop()
    twin = NetworkPython(*network_arrays(small))
    assert not (small.core_u == small.core_v).any()
    walked = 0
    for a, b in [(e, f) for e in range(small.edge_count) for f in range(small.edge_count)]:
        for fa, fb in [(0.2, 0.7), (0.8, 0.3), (0.5, 0.5)]:
            la, lb = small.edge_length_m[a], small.edge_length_m[b]
            origin = Snap(0.0, 0.0, a, fa * la, (1 - fa) * la, 0.0)
            destination = Snap(0.0, 0.0, b, fb * lb, (1 - fb) * lb, 0.0)
            core = core_path(small, origin, destination, 0)
            assert core is not None
            args = (core, 0, a, small.along_chain_m(origin), b, small.along_chain_m(destination))
            nodes, edges = (as_int32(x) for x in small.network.unfold(*args))
            twin_nodes, twin_edges = twin.unfold(*args)
            np.testing.assert_array_equal(nodes, twin_nodes)
            np.testing.assert_array_equal(edges, twin_edges)
            np.testing.assert_array_equal(edges, small.edge_between(nodes[:-1], nodes[1:]))
            assert nodes[0] in small.edge_ends[a] and nodes[-1] in small.edge_ends[b]
            walked += core.size == 1
    assert walked  # some paths were one core node long

"""The compiled A* kernel against its pure-Python twin and against a plain Dijkstra."""

from __future__ import annotations

import heapq
import math
from typing import Any

import numpy as np
import pytest

from sealane.routing import registry, search
from sealane.routing.geodesy import LOWER_BOUND_RADIUS_M
from sealane.routing.graph import SeaGraph, default_graph
from sealane.routing.passages import Passage, passage_mask
from sealane.routing.snapping import Snap

_search = pytest.importorskip("sealane.routing._search")

COST_REL_TOL = 1e-9


@pytest.fixture(scope="module")
def graph() -> SeaGraph:
    return default_graph()


def mask_of(graph: SeaGraph, *names: Passage) -> int:
    return passage_mask(names, graph.passage_names)


def snap_args(
    graph: SeaGraph, origin: Snap, destination: Snap, blocked: int, *, landmarks: bool = True
) -> tuple[Any, ...]:
    """The kernel's per-call arguments, built the way ``paths.shortest_path`` builds them."""
    o_core, d_core = graph.edge_core[origin.edge], graph.edge_core[destination.edge]
    o_at, d_at = graph.along_chain_m(origin), graph.along_chain_m(destination)
    sources = graph.core_ends[o_core]
    source_costs = np.array([o_at, graph.core_length_m[o_core] - o_at])
    targets = graph.core_ends[d_core]
    target_costs = np.array([d_at, graph.core_length_m[d_core] - d_at])
    goal = (destination.lon, destination.lat)
    return call_args(graph, sources, source_costs, targets, target_costs, goal, blocked, landmarks)


def node_args(
    graph: SeaGraph, source: int, target: int, blocked: int, *, landmarks: bool = True
) -> tuple[Any, ...]:
    """Per-call arguments for a node-to-node search (the goal is the target node's point)."""
    node = graph.core_node[target]
    return call_args(
        graph,
        np.array([source], dtype=np.int32),
        np.zeros(1),
        np.array([target], dtype=np.int32),
        np.zeros(1),
        (float(graph.node_lon[node]), float(graph.node_lat[node])),
        blocked,
        landmarks,
    )


def call_args(
    graph: SeaGraph,
    sources: np.ndarray,
    source_costs: np.ndarray,
    targets: np.ndarray,
    target_costs: np.ndarray,
    goal: tuple[float, float],
    blocked: int,
    landmarks: bool,
) -> tuple[Any, ...]:
    table = graph.landmarks_for(blocked) if landmarks else np.zeros((graph.core_count, 0))
    return (blocked, sources, source_costs, targets, target_costs, *goal, table)


def core_arrays(graph: SeaGraph) -> tuple[Any, ...]:
    """What a kernel is made of, in its constructor's order."""
    return (
        graph.indptr,
        graph.indices,
        graph.weights,
        graph.edge_ids,
        graph.core_passages,
        graph.xyz,
        LOWER_BOUND_RADIUS_M,
    )


@pytest.fixture(scope="module")
def compiled(graph: SeaGraph) -> Any:
    return _search.Core(*core_arrays(graph))


@pytest.fixture(scope="module")
def python(graph: SeaGraph) -> search.CorePython:
    return search.CorePython(*core_arrays(graph))


def as_nodes(path: bytes | np.ndarray) -> np.ndarray:
    return np.frombuffer(path, dtype=np.int32) if isinstance(path, bytes) else np.asarray(path)


def dijkstra(graph: SeaGraph, args: tuple[Any, ...]) -> float | None:
    """Reference: plain multi-source Dijkstra over the same CSR arrays, no bound at all."""
    indptr, indices, weights = graph.indptr, graph.indices, graph.weights
    edge_ids, masks = graph.edge_ids, graph.core_passages
    blocked, sources, source_costs, targets, target_costs = args[:5]
    best = {int(s): float(c) for s, c in zip(sources, source_costs, strict=True)}
    heap = [(c, s) for s, c in best.items()]
    heapq.heapify(heap)
    done: set[int] = set()
    while heap:
        cost, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for e in range(indptr[u], indptr[u + 1]):
            if int(masks[edge_ids[e]]) & blocked:
                continue
            v, candidate = int(indices[e]), cost + float(weights[e])
            if candidate < best.get(v, math.inf):
                best[v] = candidate
                heapq.heappush(heap, (candidate, v))
    reached = [
        best[int(t)] + float(c)
        for t, c in zip(targets, target_costs, strict=True)
        if int(t) in best
    ]
    return min(reached) if reached else None


def path_cost(graph: SeaGraph, args: tuple[Any, ...], nodes: np.ndarray) -> float:
    """Source offset + chain lengths + target offset of a core path; asserts it is legal."""
    blocked, sources, source_costs, targets, target_costs = args[:5]
    assert int(nodes[0]) in sources.tolist()
    assert int(nodes[-1]) in targets.tolist()
    edges = graph.core_between(nodes[:-1], nodes[1:])
    ends = np.sort(np.stack([graph.core_u[edges], graph.core_v[edges]]), axis=0)
    np.testing.assert_array_equal(ends, np.sort(np.stack([nodes[:-1], nodes[1:]]), axis=0))
    assert not np.any(graph.core_passages[edges] & np.uint32(blocked))
    start = min(c for s, c in zip(sources, source_costs, strict=True) if s == nodes[0])
    end = min(c for t, c in zip(targets, target_costs, strict=True) if t == nodes[-1])
    return float(start + graph.core_length_m[edges].sum() + end)


def random_snaps(graph: SeaGraph, count: int, seed: int) -> list[tuple[Snap, Snap]]:
    ports = registry().ports
    rng = np.random.default_rng(seed)
    pairs = rng.choice(len(ports), size=(count, 2))
    return [
        (
            graph.snap(ports[a].lon, ports[a].lat),
            graph.snap(ports[b].lon, ports[b].lat),
        )
        for a, b in pairs
    ]


def test_astar__compiled_kernel_is_in_use(graph: SeaGraph) -> None:
    assert isinstance(graph.search, _search.Core)


def test_core__arrays_that_do_not_agree__value_error(graph: SeaGraph) -> None:
    arrays = core_arrays(graph)
    with pytest.raises(ValueError, match="different lengths"):
        _search.Core(arrays[0], arrays[1][:-1], *arrays[2:])
    far = arrays[1].copy()
    far[0] = graph.core_count
    with pytest.raises(ValueError, match="outside"):
        _search.Core(arrays[0], far, *arrays[2:])
    with pytest.raises(ValueError, match="float64"):
        _search.Core(arrays[0], arrays[1], arrays[2].astype(np.float32), *arrays[3:])


def test_astar__bad_call_arguments__errors_not_reads_outside(
    compiled: Any, graph: SeaGraph
) -> None:
    args = node_args(graph, 1, 2, 0)
    with pytest.raises(ValueError, match="out of range"):
        compiled.astar(0, np.array([graph.core_count], np.int32), *args[2:])
    with pytest.raises(ValueError, match="cost"):
        compiled.astar(0, args[1], np.zeros(2), *args[3:])
    with pytest.raises(TypeError, match="int32"):
        compiled.astar(0, args[1].astype(np.int64), *args[2:])
    with pytest.raises(ValueError, match="landmarks"):
        compiled.astar(*args[:7], np.zeros((3, 2)))


def blocked_masks(graph: SeaGraph) -> dict[str, int]:
    default = graph.default_closed_mask
    return {
        "default": default,
        "none": 0,
        "default+suez+panama": default | mask_of(graph, Passage.SUEZ, Passage.PANAMA),
        "suez+malacca": mask_of(graph, Passage.SUEZ, Passage.MALACCA),
        "all": (1 << len(graph.passage_names)) - 1,
    }


@pytest.mark.parametrize("mask_name", ["default", "none", "default+suez+panama", "suez+malacca"])
def test_astar__kernel_matches_python_on_port_snaps(
    graph: SeaGraph, mask_name: str, compiled: Any, python: search.CorePython
) -> None:
    blocked = blocked_masks(graph)[mask_name]
    for origin, destination in random_snaps(graph, 10, seed=len(mask_name)):
        args = snap_args(graph, origin, destination, blocked)
        made, twin = compiled.astar(*args), python.astar(*args)
        assert (made is None) == (twin is None)
        if made is None or twin is None:
            continue
        assert made[0] == pytest.approx(twin[0], rel=COST_REL_TOL)
        # Both paths are legal and cost what they claim; where paths of equal length exist
        # (zero-length chains at merged ports) the two may break the tie differently.
        for found in (made, twin):
            assert path_cost(graph, args, as_nodes(found[1])) == pytest.approx(
                made[0], rel=COST_REL_TOL
            )


@pytest.mark.parametrize("mask_name", ["default", "all"])
def test_astar__kernel_matches_python_on_nodes(
    graph: SeaGraph, mask_name: str, compiled: Any, python: search.CorePython
) -> None:
    blocked = blocked_masks(graph)[mask_name]
    rng = np.random.default_rng(7)
    for source, target in rng.choice(graph.core_count, size=(10, 2)):
        args = node_args(graph, int(source), int(target), blocked)
        made, twin = compiled.astar(*args), python.astar(*args)
        assert (made is None) == (twin is None)
        if made is None or twin is None:
            continue
        assert made[0] == pytest.approx(twin[0], rel=COST_REL_TOL)
        np.testing.assert_array_equal(as_nodes(made[1]), as_nodes(twin[1]))


def test_astar__same_node_costs_nothing(
    graph: SeaGraph, compiled: Any, python: search.CorePython
) -> None:
    args = node_args(graph, 123, 123, graph.default_closed_mask)
    for kernel in (compiled, python):
        found = kernel.astar(*args)
        assert found is not None
        assert found[0] == 0.0
        assert as_nodes(found[1]).tolist() == [123]


def test_astar__no_path_is_none(graph: SeaGraph, compiled: Any, python: search.CorePython) -> None:
    odesa, piraeus = (registry().get(code) for code in ("UAODS", "GRPIR"))
    blocked = graph.default_closed_mask | mask_of(graph, Passage.BOSPORUS)
    args = snap_args(
        graph, graph.snap(odesa.lon, odesa.lat), graph.snap(piraeus.lon, piraeus.lat), blocked
    )
    assert compiled.astar(*args) is None
    assert python.astar(*args) is None
    assert dijkstra(graph, args) is None


@pytest.mark.parametrize("mask_name", ["default", "none", "default+suez+panama"])
def test_astar__cost_equals_dijkstra(graph: SeaGraph, mask_name: str, compiled: Any) -> None:
    blocked = blocked_masks(graph)[mask_name]
    for origin, destination in random_snaps(graph, 4, seed=100 + len(mask_name)):
        args = snap_args(graph, origin, destination, blocked)
        found, reference = compiled.astar(*args), dijkstra(graph, args)
        assert (found is None) == (reference is None)
        if found is not None and reference is not None:
            assert found[0] == pytest.approx(reference, rel=COST_REL_TOL)


@pytest.mark.parametrize("closed", [Passage.SUEZ, Passage.MALACCA, Passage.BABALMANDAB])
def test_astar__landmarks_do_not_change_cost(
    graph: SeaGraph, closed: Passage, compiled: Any, python: search.CorePython
) -> None:
    blocked = graph.default_closed_mask | mask_of(graph, closed)
    for origin, destination in random_snaps(graph, 10, seed=11):
        with_alt = compiled.astar(*snap_args(graph, origin, destination, blocked))
        without = compiled.astar(*snap_args(graph, origin, destination, blocked, landmarks=False))
        twin = python.astar(*snap_args(graph, origin, destination, blocked, landmarks=False))
        assert with_alt is not None and without is not None and twin is not None
        assert with_alt[0] == pytest.approx(without[0], rel=COST_REL_TOL)
        assert twin[0] == pytest.approx(without[0], rel=COST_REL_TOL)


@pytest.mark.parametrize("closed", [Passage.SUEZ, Passage.PANAMA])
def test_landmarks__a_closed_canal_has_its_own_table_whose_bounds_hold(
    graph: SeaGraph, closed: Passage
) -> None:
    blocked = graph.default_closed_mask | mask_of(graph, closed, Passage.CORINTH)
    table, default = graph.landmarks_for(blocked), graph.landmarks_for(graph.default_closed_mask)
    assert table is not default
    rng = np.random.default_rng(5)
    tighter = 0
    for source, target in rng.choice(graph.core_count, size=(6, 2)).tolist():
        exact = dijkstra(graph, node_args(graph, source, target, blocked, landmarks=False))
        bound = np.nanmax(np.abs(table[source] - table[target]), initial=0.0)
        if exact is not None:
            assert bound <= exact * (1 + 1e-9)
        tighter += bound > np.nanmax(np.abs(default[source] - default[target]), initial=0.0)
    assert tighter


def test_astar__blocked_edges_never_used(graph: SeaGraph, compiled: Any) -> None:
    shanghai, rotterdam = (registry().get(code) for code in ("CNSHA", "NLRTM"))
    blocked = graph.default_closed_mask | mask_of(graph, Passage.SUEZ, Passage.PANAMA)
    origin = graph.snap(shanghai.lon, shanghai.lat)
    destination = graph.snap(rotterdam.lon, rotterdam.lat)
    args = snap_args(graph, origin, destination, blocked)
    found = compiled.astar(*args)
    assert found is not None
    assert path_cost(graph, args, as_nodes(found[1])) == pytest.approx(found[0], rel=1e-9)
    open_found = compiled.astar(*snap_args(graph, origin, destination, graph.default_closed_mask))
    assert open_found is not None
    assert found[0] > open_found[0]

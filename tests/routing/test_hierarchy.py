"""The contraction hierarchy: its build, the compiled query and its twin, against Dijkstra."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

import sealane
from sealane.routing.build_hierarchy import contract
from sealane.routing.graph import SeaGraph, default_graph
from sealane.routing.hierarchy import CoreHierarchy, climb_python
from sealane.routing.passages import ARCTIC, SMALL_CRAFT, passage_mask

_hierarchy = pytest.importorskip("sealane.routing._hierarchy")
KERNELS = [_hierarchy.climb, climb_python]


def random_graph(seed: int, count: int = 60) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A connected-ish random geometric graph: each node joined to its 3 nearest, plus a few
    long random edges and parallel duplicates (the core graph has both)."""
    rng = np.random.default_rng(seed)
    xy = rng.random((count, 2))
    gaps = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    np.fill_diagonal(gaps, np.inf)
    near = np.argsort(gaps, axis=1)[:, :3]
    tails = np.repeat(np.arange(count), 3)
    heads = near.ravel()
    extra_t, extra_h = rng.integers(0, count, 8), rng.integers(0, count, 8)
    tails = np.concatenate([tails, extra_t, tails[:5]])
    heads = np.concatenate([heads, extra_h, heads[:5]])
    weights = np.linalg.norm(xy[tails] - xy[heads], axis=1) * 1000.0
    weights[-5:] *= 1.5  # slower parallel twins of five edges
    keep = tails != heads
    return tails[keep].astype(np.int32), heads[keep].astype(np.int32), weights[keep]


def lightest_edges(
    tails: np.ndarray, heads: np.ndarray, weights: np.ndarray
) -> dict[tuple[int, int], float]:
    """The lightest weight between each pair of joined nodes, keyed (lower, higher)."""
    lightest: dict[tuple[int, int], float] = {}
    for a, b, w in zip(tails.tolist(), heads.tolist(), weights.tolist(), strict=True):
        key = (min(a, b), max(a, b))
        lightest[key] = min(w, lightest.get(key, np.inf))
    return lightest


def lightest_matrix(count: int, tails: np.ndarray, heads: np.ndarray, weights: np.ndarray) -> Any:
    """The graph as a sparse matrix of the lightest of parallel edges (one would sum them)."""
    lightest = lightest_edges(tails, heads, weights)
    rows, cols = zip(*lightest, strict=True)
    return coo_matrix((list(lightest.values()), (rows, cols)), shape=(count, count)).tocsr()


def distances(count: int, tails: np.ndarray, heads: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """All-pairs Dijkstra."""
    return dijkstra(lightest_matrix(count, tails, heads, weights), directed=False)


def distances_from(
    count: int, tails: np.ndarray, heads: np.ndarray, weights: np.ndarray, pairs: np.ndarray
) -> np.ndarray:
    """Dijkstra's distance for each (source, target) row of ``pairs``."""
    matrix = lightest_matrix(count, tails, heads, weights)
    table = dijkstra(matrix, directed=False, indices=pairs[:, 0])
    return table[np.arange(len(pairs)), pairs[:, 1]]


def hierarchy_of(count: int, tails: np.ndarray, heads: np.ndarray, weights: np.ndarray) -> tuple:
    built = contract(count, tails, heads, weights)
    return built.up_ptr, built.up_head, built.up_weight, built.up_middle


def one(node: int) -> np.ndarray:
    return np.array([node], dtype=np.int32)


ZERO = np.zeros(1)


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "python"])
@pytest.mark.parametrize("seed", range(4))
def test_climb__every_pair_costs_what_dijkstra_finds(kernel, seed: int) -> None:
    count = 60
    tails, heads, weights = random_graph(seed, count)
    arrays = hierarchy_of(count, tails, heads, weights)
    expected = distances(count, tails, heads, weights)
    edge_weight = lightest_edges(tails, heads, weights)
    for s in range(count):
        for t in range(count):
            found = kernel(*arrays, one(s), ZERO, one(t), ZERO)
            if not np.isfinite(expected[s, t]):
                assert found is None
                continue
            cost, raw = found
            path = np.frombuffer(raw, dtype=np.int32) if isinstance(raw, bytes) else raw
            assert cost == pytest.approx(expected[s, t], rel=1e-12, abs=1e-9)
            assert path[0] == s and path[-1] == t
            # the unpacked path walks original edges and adds up to the cost
            steps = [edge_weight[(min(a, b), max(a, b))] for a, b in pairwise(path.tolist())]
            assert sum(steps) == pytest.approx(cost, rel=1e-12, abs=1e-9)


def test_contract__upward_edges_climb_in_rank() -> None:
    tails, heads, weights = random_graph(7)
    built = contract(60, tails, heads, weights)
    assert sorted(built.rank.tolist()) == list(range(60))
    owners = np.repeat(np.arange(60), np.diff(built.up_ptr))
    assert (built.rank[built.up_head] > built.rank[owners]).all()
    bypassed = built.up_middle >= 0
    assert (built.rank[built.up_middle[bypassed]] < built.rank[owners[bypassed]]).all()


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "python"])
def test_climb__several_ends_with_offsets(kernel) -> None:
    tails, heads, weights = random_graph(3)
    arrays = hierarchy_of(60, tails, heads, weights)
    full = distances(60, tails, heads, weights)
    sources, source_costs = np.array([4, 9], dtype=np.int32), np.array([120.0, 35.0])
    targets, target_costs = np.array([50, 17], dtype=np.int32), np.array([10.0, 400.0])
    expected = min(
        source_costs[i] + full[sources[i], targets[j]] + target_costs[j]
        for i in range(2)
        for j in range(2)
    )
    found = kernel(*arrays, sources, source_costs, targets, target_costs)
    assert found is not None
    assert found[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "python"])
def test_climb__same_node_and_disconnected(kernel) -> None:
    # two components: a triangle and a pair
    tails = np.array([0, 1, 2, 3], dtype=np.int32)
    heads = np.array([1, 2, 0, 4], dtype=np.int32)
    arrays = hierarchy_of(5, tails, heads, np.array([1.0, 2.0, 4.0, 1.0]))
    assert kernel(*arrays, one(2), ZERO, one(2), ZERO)[0] == 0.0
    assert kernel(*arrays, one(0), ZERO, one(4), ZERO) is None
    cost, raw = kernel(*arrays, one(0), ZERO, one(2), ZERO)
    assert cost == 3.0
    path = np.frombuffer(raw, dtype=np.int32) if isinstance(raw, bytes) else raw
    assert path.tolist() == [0, 1, 2]


def test_climb__bad_arguments_are_value_errors() -> None:
    arrays = hierarchy_of(3, np.array([0, 1], np.int32), np.array([1, 2], np.int32), np.ones(2))
    with pytest.raises(ValueError, match="out of range"):
        _hierarchy.climb(*arrays, one(7), ZERO, one(0), ZERO)
    with pytest.raises(ValueError, match="sizes"):
        _hierarchy.climb(*arrays, one(0), np.zeros(2), one(1), ZERO)


# --- the shipped hierarchy ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> SeaGraph:
    return default_graph()


def default_mask(graph: SeaGraph) -> int:
    return passage_mask((*SMALL_CRAFT, *ARCTIC), graph.passage_names)


def test_shipped_hierarchy__built_for_the_default_passages(graph: SeaGraph) -> None:
    hierarchy = graph.hierarchy
    assert isinstance(hierarchy, CoreHierarchy)
    assert hierarchy.closed == default_mask(graph)
    assert hierarchy.up_ptr.size == graph.core_count + 1


def test_shipped_hierarchy__costs_equal_dijkstra_on_core_pairs(graph: SeaGraph) -> None:
    hierarchy = graph.hierarchy
    assert hierarchy is not None
    open_ = (graph.core_passages & np.uint32(default_mask(graph))) == 0
    tails, heads = graph.core_u[open_], graph.core_v[open_]
    rng = np.random.default_rng(11)
    pairs = rng.integers(0, graph.core_count, (40, 2))
    expected = distances_from(graph.core_count, tails, heads, graph.core_length_m[open_], pairs)
    for (s, t), cost in zip(pairs.tolist(), expected.tolist(), strict=True):
        found = hierarchy.shortest(one(s), ZERO, one(t), ZERO)
        assert (found is None) == (not np.isfinite(cost))
        if found is not None:
            assert found[0] == pytest.approx(cost, rel=1e-9)


PAIRS = [("CNSHA", "NLRTM"), ("USHOU", "NLRTM"), ("SGSIN", "MYPKG"), ("DEHAM", "PLGDN")]


@pytest.mark.parametrize(("origin", "destination"), PAIRS)
def test_route__hierarchy_and_astar_agree(
    graph: SeaGraph, monkeypatch: pytest.MonkeyPatch, origin: str, destination: str
) -> None:
    climbed = sealane.route(origin, destination)
    monkeypatch.setattr(graph, "hierarchy", None)  # the same search by A*
    searched = sealane.route(origin, destination)
    assert searched.distance_m == pytest.approx(climbed.distance_m, rel=1e-9)
    assert len(searched.coordinates) == len(climbed.coordinates)


def test_route__other_restrictions_still_searched_by_astar(graph: SeaGraph) -> None:
    hierarchy = graph.hierarchy
    assert hierarchy is not None
    around = sealane.route("CNSHA", "NLRTM", avoid=["suez"])
    assert "suez" not in around.passages
    assert around.distance_nm > sealane.route("CNSHA", "NLRTM").distance_nm

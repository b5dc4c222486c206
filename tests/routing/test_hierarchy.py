"""The contraction hierarchies (the default passages' own and the masked one for any closed
passages): their build, the compiled query and its twin, against Dijkstra."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

import sealane
from sealane.routing.build.contraction import contract
from sealane.routing.build.masked_contraction import contract_masked
from sealane.routing.data.formats import Marnet
from sealane.routing.depth import band_mask
from sealane.routing.graph import SeaGraph, default_graph
from sealane.routing.hierarchy import CoreHierarchy, HierarchyPython
from sealane.routing.passages import ARCTIC, NOT_FOR_CONTAINER_SHIPS, Passage, passage_mask

_hierarchy = pytest.importorskip("sealane.routing._hierarchy")
KERNELS = [_hierarchy.Hierarchy, HierarchyPython]


def climb(kernel: Any, arrays: tuple, *ends: np.ndarray) -> Any:
    """``kernel`` (the compiled type or its twin) made from the hierarchy's arrays, climbed with
    the closed passages ``arrays`` ends with (:func:`hierarchy_of`) between ``ends``."""
    return kernel(*arrays[:6]).climb(arrays[6], *ends)


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


def hierarchy_of(
    count: int,
    tails: np.ndarray,
    heads: np.ndarray,
    weights: np.ndarray,
    masks: np.ndarray | None = None,
    blocked: int = 0,
) -> tuple:
    """The kernel's leading arguments: the hierarchy's arrays and the closed passages (the
    masked hierarchy when the edges have passage bits)."""
    if masks is None:
        built = contract(count, tails, heads, weights)
    else:
        built = contract_masked(count, tails, heads, weights, masks)
    return (
        built.up_ptr,
        built.up_head,
        built.up_weight,
        built.up_middle,
        built.up_children,
        built.up_mask,
        blocked,
    )


def one(node: int) -> np.ndarray:
    return np.array([node], dtype=np.int32)


ZERO = np.zeros(1)


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "python"])
@pytest.mark.parametrize("seed", range(4))
def test_climb__every_pair_costs_what_dijkstra_finds(kernel, seed: int) -> None:
    count = 60
    tails, heads, weights = random_graph(seed, count)
    arrays = hierarchy_of(count, tails, heads, weights)
    assert_every_pair(kernel, arrays, count, (tails, heads, weights), range(count))


def assert_every_pair(
    kernel, arrays: tuple, count: int, edges: tuple[np.ndarray, ...], sources: range
) -> None:
    """Every (source, node) pair costs what Dijkstra finds over ``edges`` (tails, heads,
    weights), and its path walks those edges from the source to the node, adding up to it."""
    expected = distances(count, *edges)
    edge_weight = lightest_edges(*edges)
    for s in sources:
        for t in range(count):
            found = climb(kernel, arrays, one(s), ZERO, one(t), ZERO)
            assert_found(found, float(expected[s, t]), s, t, edge_weight)


def assert_found(found: Any, expected: float, s: int, t: int, edge_weight: dict) -> None:
    """``found`` is None where no path joins s and t, else the cost Dijkstra finds and a path
    from s to t along the graph's edges adding up to it."""
    if not np.isfinite(expected):
        assert found is None
        return
    assert found is not None
    cost, raw = found
    path = np.frombuffer(raw, dtype=np.int32) if isinstance(raw, bytes) else raw
    assert cost == pytest.approx(expected, rel=1e-12, abs=1e-9)
    assert path[0] == s and path[-1] == t
    steps = [edge_weight[(min(a, b), max(a, b))] for a, b in pairwise(path.tolist())]
    assert sum(steps) == pytest.approx(cost, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "python"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("blocked", [0, 5])
def test_spaces__met_and_climbed_to__cost_what_dijkstra_finds(
    kernel: Any, seed: int, blocked: int
) -> None:
    """An end's whole climb, remembered, meets another's (both remembered) or the other end's
    own climb, either way round: the same costs and walkable paths as the climb from both."""
    count = 60
    tails, heads, weights, masks = masked_graph(seed, count)
    query = kernel(*hierarchy_of(count, tails, heads, weights, masks)[:6])
    open_ = (masks & blocked) == 0
    expected = distances(count, tails[open_], heads[open_], weights[open_])
    edge_weight = lightest_edges(tails[open_], heads[open_], weights[open_])
    spaces = [query.space(blocked, one(v), ZERO) for v in range(count)]
    for s in range(0, count, 4):
        for t in range(count):
            for found in (
                query.meet(spaces[s], spaces[t]),
                query.climb_to(blocked, spaces[s], 0, one(t), ZERO),
                query.climb_to(blocked, spaces[t], 1, one(s), ZERO),
            ):
                assert_found(found, float(expected[s, t]), s, t, edge_weight)


def test_spaces__another_hierarchys_or_forged__errors_not_reads_outside() -> None:
    tails, heads, weights = random_graph(1)
    query = _hierarchy.Hierarchy(*hierarchy_of(60, tails, heads, weights)[:6])
    small = _hierarchy.Hierarchy(
        *hierarchy_of(3, np.array([0, 1], np.int32), np.array([1, 2], np.int32), np.ones(2))[:6]
    )
    space = query.space(0, one(40), ZERO)
    with pytest.raises(ValueError, match="another hierarchy"):
        small.meet(space, small.space(0, one(0), ZERO))
    with pytest.raises(TypeError, match="bytes"):
        query.meet(space, space[:-1])
    with pytest.raises(TypeError, match="bytes"):
        query.climb_to(0, "space", 0, one(1), ZERO)


def test_route__again__its_remembered_climbs_give_the_same_route() -> None:
    """The first route between two ports climbs from both; later ones meet the remembered
    climbs: the same points, lengths and passages."""
    first = sealane.route("KRPUS", "MAPTM", avoid=["suez"])
    for _ in range(3):
        again = sealane.route("KRPUS", "MAPTM", avoid=["suez"])
        np.testing.assert_array_equal(again.coordinates, first.coordinates)
        np.testing.assert_array_equal(again.segment_m, first.segment_m)
        assert again.passages == first.passages


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
    found = climb(kernel, arrays, sources, source_costs, targets, target_costs)
    assert found is not None
    assert found[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "python"])
def test_climb__same_node_and_disconnected(kernel) -> None:
    # two components: a triangle and a pair
    tails = np.array([0, 1, 2, 3], dtype=np.int32)
    heads = np.array([1, 2, 0, 4], dtype=np.int32)
    arrays = hierarchy_of(5, tails, heads, np.array([1.0, 2.0, 4.0, 1.0]))
    assert climb(kernel, arrays, one(2), ZERO, one(2), ZERO)[0] == 0.0
    assert climb(kernel, arrays, one(0), ZERO, one(4), ZERO) is None
    cost, raw = climb(kernel, arrays, one(0), ZERO, one(2), ZERO)
    assert cost == 3.0
    path = np.frombuffer(raw, dtype=np.int32) if isinstance(raw, bytes) else raw
    assert path.tolist() == [0, 1, 2]


def test_climb__bad_arguments_are_value_errors() -> None:
    arrays = hierarchy_of(3, np.array([0, 1], np.int32), np.array([1, 2], np.int32), np.ones(2))
    with pytest.raises(ValueError, match="out of range"):
        climb(_hierarchy.Hierarchy, arrays, one(7), ZERO, one(0), ZERO)
    with pytest.raises(ValueError, match="cost"):
        climb(_hierarchy.Hierarchy, arrays, one(0), np.zeros(2), one(1), ZERO)
    with pytest.raises(TypeError, match="int32"):
        climb(_hierarchy.Hierarchy, arrays, one(0).astype(np.int64), ZERO, one(1), ZERO)
    with pytest.raises(ValueError, match="different lengths"):
        _hierarchy.Hierarchy(*arrays[:5], np.zeros(0, dtype=np.uint32))
    with pytest.raises(ValueError, match="different lengths"):
        _hierarchy.Hierarchy(*arrays[:4], np.zeros((1, 2), dtype=np.int32), arrays[5])
    far = arrays[1].copy()
    far[0] = 3
    with pytest.raises(ValueError, match="outside"):
        _hierarchy.Hierarchy(arrays[0], far, *arrays[2:6])
    with pytest.raises(ValueError, match="float64"):
        _hierarchy.Hierarchy(*arrays[:2], arrays[2].astype(np.float32), *arrays[3:6])


def test_climb__children_that_loop_are_a_value_error_not_a_hang() -> None:
    tails, heads = np.array([0, 1], np.int32), np.array([1, 2], np.int32)
    ptr, head, weight, _, _, mask, blocked = hierarchy_of(3, tails, heads, np.ones(2))
    middle = np.ones_like(head)  # every edge a shortcut made of itself twice
    looped = np.repeat(np.arange(head.size, dtype=np.int32), 2).reshape(-1, 2)
    with pytest.raises(ValueError, match="not a hierarchy edge"):
        _hierarchy.Hierarchy(ptr, head, weight, middle, looped, mask).climb(
            blocked, one(0), ZERO, one(2), ZERO
        )


def test_shipped_hierarchies__held_by_the_compiled_query(graph: SeaGraph) -> None:
    for hierarchy in (graph.hierarchy, graph.masked_hierarchy):
        assert hierarchy is not None
        assert isinstance(hierarchy.kernel, _hierarchy.Hierarchy)


def masked_graph(seed: int, count: int = 60) -> tuple[np.ndarray, ...]:
    """A random graph whose edges lie in one of three passages (bits 0-2) one time in six, with
    parallel twins of different passages between some pairs (gates joined twice)."""
    tails, heads, weights = random_graph(seed, count)
    rng = np.random.default_rng(seed + 100)
    masks = np.where(rng.random(tails.size) < 1 / 6, 1 << rng.integers(0, 3, tails.size), 0)
    twins = np.flatnonzero(masks)[:4]
    tails = np.concatenate([tails, tails[twins]])
    heads = np.concatenate([heads, heads[twins]])
    weights = np.concatenate([weights, weights[twins] * 1.2])
    masks = np.concatenate([masks, (masks[twins] << 1) % 7]).astype(np.uint32)
    return tails, heads, weights, masks


@pytest.mark.parametrize("kernel", KERNELS, ids=["compiled", "python"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("blocked", [0, 1, 2, 5, 7])
def test_masked_climb__every_pair_costs_what_dijkstra_finds_with_those_passages_closed(
    kernel, seed: int, blocked: int
) -> None:
    count = 60
    tails, heads, weights, masks = masked_graph(seed, count)
    arrays = hierarchy_of(count, tails, heads, weights, masks, blocked)
    open_ = (masks & blocked) == 0
    edges = (tails[open_], heads[open_], weights[open_])
    assert_every_pair(kernel, arrays, count, edges, range(0, count, 3))


def test_masked_contract__shortcuts_add_up_their_two_edges_and_climb_in_rank() -> None:
    tails, heads, weights, masks = masked_graph(1)
    built = contract_masked(60, tails, heads, weights, masks)
    owners = np.repeat(np.arange(60), np.diff(built.up_ptr))
    assert (built.rank[built.up_head] > built.rank[owners]).all()
    shortcuts = np.flatnonzero(built.up_middle >= 0)
    assert shortcuts.size and (built.up_mask > 0).any()
    for e in shortcuts.tolist():
        first, second = built.up_children[e].tolist()
        # both edges leave the bypassed node, towards the shortcut's two ends
        assert owners[first] == owners[second] == built.up_middle[e]
        assert {built.up_head[first], built.up_head[second]} == {owners[e], built.up_head[e]}
        assert built.up_weight[e] == built.up_weight[first] + built.up_weight[second]
        assert built.up_mask[e] == built.up_mask[first] | built.up_mask[second]
    assert (built.up_children[built.up_middle < 0] == -1).all()


# --- the shipped hierarchy ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> SeaGraph:
    return default_graph()


def default_mask(graph: SeaGraph) -> int:
    """What a route with no vessel closes: the default passages and, in a graph file with depth
    bands, the default vessel's band."""
    names = graph.passage_names
    return passage_mask((*NOT_FOR_CONTAINER_SHIPS, *ARCTIC), names) | band_mask(None, names)


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
        found = hierarchy.shortest(one(s), ZERO, one(t), ZERO, default_mask(graph))
        assert (found is None) == (not np.isfinite(cost))
        if found is not None:
            assert found[0] == pytest.approx(cost, rel=1e-9)


PAIRS = [("CNSHA", "NLRTM"), ("USHOU", "NLRTM"), ("SGSIN", "MYPKG"), ("DEHAM", "PLGDN")]


@pytest.mark.parametrize(("origin", "destination"), PAIRS)
def test_route__hierarchy_and_astar_agree(
    graph: SeaGraph, monkeypatch: pytest.MonkeyPatch, origin: str, destination: str
) -> None:
    climbed = sealane.route(origin, destination)
    monkeypatch.setattr(graph, "hierarchy", None)  # the masked hierarchy's search
    masked = sealane.route(origin, destination)
    monkeypatch.setattr(graph, "masked_hierarchy", None)  # A*'s
    searched = sealane.route(origin, destination)
    for other in (masked, searched):
        assert other.distance_m == pytest.approx(climbed.distance_m, rel=1e-9)
        assert len(other.coordinates) == len(climbed.coordinates)


def test_shipped_hierarchies__which_serves_which_closed_passages(graph: SeaGraph) -> None:
    default, masked = graph.hierarchy, graph.masked_hierarchy
    assert default is not None and masked is not None
    suez = default_mask(graph) | passage_mask([Passage.SUEZ], graph.passage_names)
    assert default.serves(default_mask(graph)) and not default.serves(suez)
    assert not default.serves(0)
    assert masked.serves(suez) and masked.serves(0) and masked.serves(default_mask(graph))
    assert not default.up_mask.any() and masked.up_mask.any()


def test_shipped_masked_hierarchy__costs_equal_dijkstra_with_passages_closed(
    graph: SeaGraph,
) -> None:
    hierarchy = graph.masked_hierarchy
    assert hierarchy is not None and hierarchy.closed is None
    rng = np.random.default_rng(12)
    for names in [(), ("suez",), ("malacca", "sunda"), ("gibraltar", "dover"), ("panama",)]:
        blocked = passage_mask(map(Passage, names), graph.passage_names) | default_mask(graph)
        open_ = (graph.core_passages & np.uint32(blocked)) == 0
        tails, heads = graph.core_u[open_], graph.core_v[open_]
        pairs = rng.integers(0, graph.core_count, (15, 2))
        expected = distances_from(graph.core_count, tails, heads, graph.core_length_m[open_], pairs)
        for (s, t), cost in zip(pairs.tolist(), expected.tolist(), strict=True):
            found = hierarchy.shortest(one(s), ZERO, one(t), ZERO, blocked)
            assert (found is None) == (not np.isfinite(cost))
            if found is not None:
                assert found[0] == pytest.approx(cost, rel=1e-9)


RESTRICTED = [
    ("CNSHA", "NLRTM", {"avoid": ["suez"]}),
    ("HKHKG", "LKCMB", {"avoid": ["malacca"]}),
    ("NLRTM", "GRPIR", {"avoid": ["gibraltar"]}),
    ("ITBRI", "TRIST", {"allow": ["corinth"]}),
    ("JPYOK", "NLRTM", {"allow_arctic": True}),
]


@pytest.mark.parametrize(("origin", "destination", "options"), RESTRICTED)
def test_route__other_restrictions__the_masked_hierarchy_and_astar_agree(
    graph: SeaGraph,
    monkeypatch: pytest.MonkeyPatch,
    origin: str,
    destination: str,
    options: dict[str, Any],
) -> None:
    masked = sealane.route(origin, destination, **options)
    monkeypatch.setattr(graph, "masked_hierarchy", None)
    searched = sealane.route(origin, destination, **options)
    assert searched.distance_m == pytest.approx(masked.distance_m, rel=1e-9)
    assert searched.passages == masked.passages
    closed = set(options.get("avoid", []))
    assert not closed & set(masked.passages)


def hierarchy_dict() -> dict[str, np.ndarray]:
    tails, heads, weights, masks = masked_graph(2)
    built = contract_masked(60, tails, heads, weights, masks)
    stored = Marnet.MASKED
    return {
        stored.up_ptr.key: built.up_ptr,
        stored.up_head.key: built.up_head,
        stored.up_weight.key: built.up_weight,
        stored.up_middle.key: built.up_middle,
        stored.up_children.key: built.up_children,
        stored.up_mask.key: built.up_mask,
    }


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("up_head", lambda a: np.where(a == a[0], 60, a)),  # a head outside the nodes
        ("up_children", lambda a: np.where(a >= 0, a + 10**6, a)),  # children outside the edges
        ("up_ptr", lambda a: a[::-1].copy()),  # pointers that run backwards
        ("up_mask", lambda a: a[:-1]),  # a mask too few
    ],
)
def test_load__arrays_that_do_not_agree__value_error(name: str, make: Any) -> None:
    arrays = hierarchy_dict()
    assert CoreHierarchy.load(arrays, Marnet.MASKED) is not None
    arrays[f"masked_{name}"] = make(arrays[f"masked_{name}"])
    with pytest.raises(ValueError, match="masked hierarchy do not agree"):
        CoreHierarchy.load(arrays, Marnet.MASKED)


def test_load__a_file_without_shortcut_children__no_hierarchy() -> None:
    arrays = hierarchy_dict()
    del arrays[Marnet.MASKED.up_children.key]
    assert CoreHierarchy.load(arrays, Marnet.MASKED) is None
    assert CoreHierarchy.load({}, Marnet.HIERARCHY) is None

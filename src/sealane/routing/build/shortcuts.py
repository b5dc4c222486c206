"""Straight shortcuts over the repaired network, so routes measure like published distances.

searoute's lanes and the repair's water paths zigzag from node to node: a route over them runs a
percent or two longer than the great-circle track a ship sails in open water, and more on short
coastal legs. The build routes between many ports on the network, pulls each path tight (a run of
nodes becomes one geodesic where that geodesic keeps off land, out of the raster's coastal cells
and out of the corridors, and crosses the same passage gates as the run it replaces) and adds the
pulled legs as edges. The search then finds the straight legs itself, under any restriction set:
a shortcut carries the passage bits of the run it replaces. Build-time only.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from ..geodesy import MEAN_EARTH_RADIUS_M, FloatArray, lengths_between_m, unit_vectors
from ..passages import closed_passages, passage_mask
from .clearance import Clearance
from .coast import Coastline
from .corridors import CorridorIndex
from .joins import log
from .lanegraph import LaneGraph
from .tags import tag_passages

#: A pulled leg becomes an edge only when it saves at least this much, metres.
MIN_GAIN_M = 50.0
#: Regional partners per port, and hub ports spread over the world, that each port is routed to
#: (besides the busiest container ports, which every port is routed to as well).
NEAREST_PORTS = 6
HUB_PORTS = 40
#: Ports searched for partners in each compass direction, and the least distance of a partner in
#: each range (a neighbour along the coast, a port across a sea, one across an ocean), metres.
REGION_PORTS = 256
FAR_ENOUGH_M = (150_000.0, 800_000.0, 2_500_000.0)
#: Partners taken in each compass direction and range.
PER_SECTOR = 2
#: Sources per batched Dijkstra call.
BATCH = 48


def pull(path: list[int], clear: Callable[[int, int], bool]) -> Iterator[tuple[int, int]]:
    """Pull a path tight: from each node, the farthest later node that ``clear`` allows (found by
    doubling, then bisection), as (start index, end index) runs of at least two edges."""
    i, last = 0, len(path) - 1
    while i < last:
        best, fail, step = i + 1, last + 1, 2
        while best < last:
            j = min(i + step, last)
            if clear(path[i], path[j]):
                best = j
                step *= 2
            else:
                fail = j
                break
        while fail - best > 1:
            mid = (best + fail) // 2
            if clear(path[i], path[mid]):
                best = mid
            else:
                fail = mid
        if best >= i + 2:
            yield i, best
        i = best


@dataclass(frozen=True)
class Training:
    """Where the build routes from and to: every joined port's (lon, lat), and those of the
    busiest container ports, which every port is routed to (the lanes that matter most)."""

    joined: list[tuple[float, float]]
    busiest: list[tuple[float, float]]


def _keys(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """Positions rounded as ``ports.csv`` writes them, to find a port's node by position."""
    return [(round(x, 6), round(y, 6)) for x, y in points]


@dataclass
class Candidates:
    """Pulled legs found so far: (a, b) -> the length and passage bits of each run it replaces."""

    runs: dict[tuple[int, int], dict[int, float]] = field(default_factory=dict)

    def add(self, a: int, b: int, length_m: float, mask: int) -> None:
        """Record a run from node ``a`` to node ``b``."""
        key = (a, b) if a < b else (b, a)
        per_mask = self.runs.setdefault(key, {})
        per_mask[mask] = min(per_mask.get(mask, np.inf), length_m)


def add_shortcuts(
    net: LaneGraph,
    ports: Training,
    corridors: CorridorIndex,
    coast: Coastline,
    spec: dict[str, Any],
    rounds: int = 2,
) -> set[tuple[int, int]]:
    """Add pulled legs of port-to-port paths to ``net`` as edges; returns their keys."""
    added: set[tuple[int, int]] = set()
    for number in range(1, rounds + 1):
        found = _pulled(net, ports, corridors, coast, spec)
        added |= found
        log(f"shortcuts: round {number} added {len(found)} edges")
        if not found:
            break
    kept = _prune(net, ports, spec, added)
    log(f"shortcuts: {len(kept)} kept, {len(added) - len(kept)} unused dropped")
    return kept


def _pulled(
    net: LaneGraph,
    ports: Training,
    corridors: CorridorIndex,
    coast: Coastline,
    spec: dict[str, Any],
) -> set[tuple[int, int]]:
    """One round: route, pull, check and add; returns the keys of the new edges."""
    lon, lat = np.array(net.lon), np.array(net.lat)
    clear = Clearance(lon, lat, coast, corridors)
    found = Candidates()
    for path, dist in _paths(net, ports, spec):
        for i, j in pull(path, clear.coarse):
            mask = 0
            for a, b in pairwise(path[i : j + 1]):
                mask |= net.edges[(a, b) if a < b else (b, a)]
            found.add(path[i], path[j], float(dist[path[j]] - dist[path[i]]), mask)
    return _accept(net, found, clear, spec)


def _prune(
    net: LaneGraph,
    ports: Training,
    spec: dict[str, Any],
    added: set[tuple[int, int]],
) -> set[tuple[int, int]]:
    """Drop the shortcuts that no port-to-port path uses any more (a later round's longer leg
    replaced them); returns the shortcuts kept."""
    used: set[tuple[int, int]] = set()
    for path, _ in _paths(net, ports, spec):
        used.update((a, b) if a < b else (b, a) for a, b in pairwise(path))
    for key in added - used:
        del net.edges[key]
    return added & used


def _paths(
    net: LaneGraph, ports: Training, spec: dict[str, Any]
) -> Iterator[tuple[list[int], np.ndarray]]:
    """Shortest paths (default passages) from each port to its training partners, with the
    distances from the path's first node."""
    lon, lat, u, v, masks = net.arrays()
    closed = passage_mask(closed_passages((), allow_arctic=False), tuple(spec))
    yield from port_paths(lon, lat, u, v, (masks & np.uint32(closed)) == 0, ports)


def port_paths(
    lon: FloatArray,
    lat: FloatArray,
    u: np.ndarray,
    v: np.ndarray,
    open_: np.ndarray,
    ports: Training,
    wider: np.ndarray | None = None,
    longer_by: float = 1.0,
) -> Iterator[tuple[list[int], np.ndarray]]:
    """Shortest paths over the ``open_`` edges from each port to its training partners, with
    the distances from the path's first node; with ``wider`` (edges open, per edge), only the
    paths more than ``longer_by`` times as long as the way over those."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra

    lengths = lengths_between_m(lon[u], lat[u], lon[v], lat[v])
    n = lon.size

    def matrix(edges: np.ndarray) -> Any:
        return coo_matrix((lengths[edges], (u[edges], v[edges])), shape=(n, n)).tocsr()

    graph = matrix(open_)
    baseline = None if wider is None else matrix(wider)
    sources, targets = training_pairs(lon, lat, ports)
    for start in range(0, len(sources), BATCH):
        batch = sources[start : start + BATCH]
        dist, pred = dijkstra(graph, directed=False, indices=batch, return_predecessors=True)
        base = None if baseline is None else dijkstra(baseline, directed=False, indices=batch)
        for row, source in enumerate(batch):
            for target in targets[source].tolist():
                if not np.isfinite(dist[row, target]):
                    continue
                if base is None or dist[row, target] > longer_by * base[row, target]:
                    yield _walk(pred[row], target), dist[row]


def _accept(
    net: LaneGraph, found: Candidates, clear: Clearance, spec: dict[str, Any]
) -> set[tuple[int, int]]:
    """Add the candidates that save ``MIN_GAIN_M``, stay clear and cross the gates of a run."""
    keys, tags = accepted_legs(found, clear, spec, net.edges, "shortcuts")
    for (a, b), tag in zip(keys, tags.tolist(), strict=True):
        net.add_edge(a, b, int(tag))
    return set(keys)


def accepted_legs(
    found: Candidates,
    clear: Clearance,
    spec: dict[str, Any],
    known: Container[tuple[int, int]],
    step: str,
) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The candidates not ``known`` (node pairs, lower node first) that save ``MIN_GAIN_M``,
    cross the gates of a run they replace and pass the exact land test, with their passage
    bits over ``spec``; logged under ``step``."""
    keys = [k for k in found.runs if k not in known]
    if not keys:
        return [], np.zeros(0, dtype=np.uint32)
    pairs = np.array(keys, dtype=np.int64)
    a, b = pairs[:, 0], pairs[:, 1]
    lon, lat = clear.lon, clear.lat
    direct = lengths_between_m(lon[a], lat[a], lon[b], lat[b])
    gains = np.array([min(found.runs[k].values()) for k in keys]) - direct
    keep = np.flatnonzero(gains >= MIN_GAIN_M)
    tags = tag_passages(lon, lat, a[keep], b[keep], spec)
    same = np.array([int(t) in found.runs[keys[k]] for k, t in zip(keep, tags, strict=True)])
    keep, tags = keep[same], tags[same]
    ok = clear.exact([keys[k] for k in keep]) if keep.size else np.zeros(0, dtype=bool)
    log(
        f"{step}: {len(keys)} pulled legs, {int(np.count_nonzero(gains >= MIN_GAIN_M))} "
        f"save {MIN_GAIN_M:.0f} m, {int(same.sum())} keep their gates, {int(ok.sum())} clear"
    )
    return [keys[k] for k in keep[ok]], tags[ok]


def _walk(pred: np.ndarray, target: int) -> list[int]:
    """The node path from a Dijkstra tree's root to ``target``."""
    path = [target]
    node = int(pred[target])
    while node >= 0:
        path.append(node)
        node = int(pred[node])
    path.reverse()
    return path


def training_pairs(
    lon: FloatArray, lat: FloatArray, ports: Training
) -> tuple[list[int], dict[int, np.ndarray]]:
    """Port nodes, and for each the nodes of its nearest ports and of the hub ports."""
    from scipy.spatial import cKDTree

    index = {key: k for k, key in enumerate(_keys(zip(lon.tolist(), lat.tolist(), strict=True)))}
    nodes = sorted({index[key] for key in _keys(ports.joined) if key in index})
    node_arr = np.array(nodes, dtype=np.int64)
    xyz = unit_vectors(lon[nodes], lat[nodes])
    _, near = cKDTree(xyz).query(xyz, k=min(REGION_PORTS + 1, len(nodes)))
    position = {node: k for k, node in enumerate(nodes)}
    busiest = [position[index[k]] for k in _keys(ports.busiest) if index.get(k, -1) in position]
    hubs = np.union1d(_spread(xyz, HUB_PORTS), np.array(busiest, dtype=np.int64))
    targets = {
        node: np.unique(
            np.concatenate(
                [
                    node_arr[near[k, 1 : NEAREST_PORTS + 1]],
                    node_arr[_each_way(xyz, k, near[k, 1:])],
                    node_arr[hubs],
                ]
            )
        )
        for k, node in enumerate(nodes)
    }
    return nodes, targets


def _each_way(xyz: FloatArray, k: int, near: np.ndarray) -> np.ndarray:
    """Of the ports ``near`` port ``k`` (nearest first), the ``PER_SECTOR`` nearest in each
    eighth of the compass beyond each distance of ``FAR_ENOUGH_M``: partners in every direction,
    along the coast, across a sea and across an ocean, not only along one coast."""
    x, y = float(xyz[k, 0]), float(xyz[k, 1])
    horizontal = max(float(np.hypot(x, y)), 1e-12)
    east = np.array([-y, x, 0.0]) / horizontal
    north = np.cross(xyz[k], east)
    offsets = xyz[near] - xyz[k]
    gap = np.linalg.norm(offsets, axis=1) * MEAN_EARTH_RADIUS_M
    sector = np.floor((np.arctan2(offsets @ north, offsets @ east) + np.pi) / (np.pi / 4))
    chosen = [
        near[(gap > least) & (sector == s)][:PER_SECTOR] for least in FAR_ENOUGH_M for s in range(8)
    ]
    return np.concatenate(chosen).astype(np.int64)


def _spread(xyz: FloatArray, count: int) -> np.ndarray:
    """Indices of ``count`` points spread over the sphere (farthest-point order from the first)."""
    chosen = [0]
    nearest = xyz @ xyz[0]
    for _ in range(min(count, len(xyz)) - 1):
        k = int(np.argmin(nearest))
        chosen.append(k)
        nearest = np.maximum(nearest, xyz @ xyz[k])
    return np.array(chosen, dtype=np.int64)

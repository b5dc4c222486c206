"""The network step of the offline build: searoute's marine network repaired against the GSHHG
full-resolution coastline (:mod:`.repair`), the named corridors and port approaches joined by water
(:mod:`.corridors`, :mod:`.attach`), then straightened with shortcuts (:mod:`.shortcuts`) and
written as ``marnet.npz``, ``ports.csv`` and ``corridors.geojson``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..geodesy import normalize_lon
from .canals import straighten_corridors
from .closed_waters import crossing_closed_waters
from .coast import coastline
from .corridors import Corridor, CorridorIndex, read_geojson, trace, write_geojson
from .deadends import close_dead_ends
from .graphfile import read_lanes, write_graph
from .joins import add_corridors, flag_unjoined, log, placed_ports, repair_joins
from .lanegraph import LaneGraph
from .portfile import read_ports, training, write_ports
from .repair import CHECK_SPACING_M, RepairReport, move_land_nodes, reroute_edges
from .rivers import river_lines
from .shortcuts import add_shortcuts
from .tags import searoute_network


def repaired_network(spec: dict[str, Any], corridors: list[Corridor]) -> LaneGraph:
    """searoute's network with land nodes moved and land edges re-routed (corridors not yet in:
    the checkpoint keeps this, so corridor and port changes rebuild from it)."""
    coast = coastline()
    net = searoute_network(spec["passages"])
    index = CorridorIndex(corridors)
    report = RepairReport()
    move_land_nodes(net, coast, index, report)
    added = reroute_edges(net, coast, index, report)
    # A second pass over the new edges catches the few legs of exact-mode paths that graze land.
    reroute_edges(net, coast, index, report, only=added)
    log(
        f"repair: {report.nodes_moved} nodes moved, {report.nodes_dropped} dropped; "
        f"{report.land_edges} land edges; re-routed {dict(report.rerouted)}; "
        f"dropped {len(report.dropped)}"
    )
    for dropped in report.dropped:
        log(f"  dropped edge {dropped}")
    return net


def verify(net: LaneGraph, corridors: list[Corridor]) -> int:
    """Land samples (every ``CHECK_SPACING_M``) of the network outside the corridors; logged."""
    lon, lat, which, keys = net.edge_samples(CHECK_SPACING_M)
    land = np.flatnonzero(coastline().is_land(lon, lat))
    outside = land[~CorridorIndex(corridors).contains(lon[land], lat[land])]
    edges = np.unique(which[outside])
    for k in edges.tolist():
        (a, b), ends = keys[k], "({:.4f}, {:.4f}) - ({:.4f}, {:.4f})"
        log("  land left on edge " + ends.format(net.lon[a], net.lat[a], net.lon[b], net.lat[b]))
    log(f"verify: {outside.size} land samples outside corridors on {edges.size} edges")
    return int(outside.size)


def reshortcut(out: Path, spec: dict[str, Any]) -> None:
    """Re-derive the shortcuts of an existing ``marnet.npz`` (its earlier shortcuts dropped first,
    so the result is what a full build writes from the same repaired network)."""
    lon, lat, u, v, masks, old = read_lanes(out)
    lane = ~old if old is not None else np.ones(u.size, dtype=bool)
    net = LaneGraph(lon.tolist(), lat.tolist())
    for a, b, mask in zip(u[lane].tolist(), v[lane].tolist(), masks[lane].tolist(), strict=True):
        net.add_edge(a, b, mask)
    ports = training(read_ports(out))
    corridors = read_geojson(out / "corridors.geojson")
    added = straighten_corridors(net, corridors)
    log(f"corridors: {len(added)} straightened legs")
    added |= add_shortcuts(net, ports, CorridorIndex(corridors), coastline(), spec["passages"])
    write_graph(out, net, spec, added)


def close_waters(net: LaneGraph, spec: dict[str, Any]) -> None:
    """Drop the edges of ``net`` crossing into ``spec``'s closed waters (:mod:`.closed_waters`)
    before the shortcuts are pulled, so a full build pulls them over the network that
    ``--only shortcuts`` reads back (the graph file's writer drops the same edges)."""
    lon, lat, u, v, _ = net.arrays()
    cut = crossing_closed_waters(normalize_lon(lon), lat, u, v, spec)
    for a, b in zip(u[cut].tolist(), v[cut].tolist(), strict=True):
        del net.edges[(a, b)]
    log(f"closed waters: {int(cut.sum())} edges crossing into them dropped before the shortcuts")


def checkpointed(path: Path | None, make: Callable[[], LaneGraph]) -> LaneGraph:
    """``make()``, or the network pickled at ``path`` by an earlier run (a build-time shortcut
    when only the later steps changed)."""
    import pickle

    if path is not None and path.exists():
        log(f"repaired network from {path}")
        with path.open("rb") as handle:
            net: LaneGraph = pickle.load(handle)
        return net
    net = make()
    if path is not None:
        with path.open("wb") as handle:
            pickle.dump(net, handle)
    return net


def build_network(out: Path, spec: dict[str, Any], checkpoint: Path | None = None) -> None:
    """Trace the corridors, repair and join the network, add its shortcuts, and write
    ``corridors.geojson``, ``marnet.npz`` and ``ports.csv`` into ``out`` (about 30 minutes)."""
    coast, rivers = coastline(), river_lines()
    corridors = [trace(coast, rivers, c) for c in spec["corridors"]]
    write_geojson(out / "corridors.geojson", corridors)
    log(f"corridors: {len(corridors)} traced")
    net = checkpointed(checkpoint, lambda: repaired_network(spec, corridors))
    closed = close_dead_ends(net, coast, spec["passages"])  # after the checkpoint: it stays valid
    log(f"dead ends: {len(closed)} gaps closed")
    for _, x1, y1, x2, y2 in closed:
        log(f"  closed ({x1:.4f}, {y1:.4f}) - ({x2:.4f}, {y2:.4f})")
    add_corridors(net, corridors, tuple(spec["passages"]))
    sites = placed_ports(net, corridors, tuple(spec["passages"]))
    repair_joins(net, corridors)
    net = net.compact(net.main_component())
    sites = flag_unjoined(net, sites)  # on the berths' own coordinates, before merging
    net = net.merged()
    ports = training([(s.locode, s.lon, s.lat, s.status != "inland") for s in sites])
    close_waters(net, spec)
    verify(net, corridors)  # the shortcuts pass the same test as they are added
    added = straighten_corridors(net, corridors)
    log(f"corridors: {len(added)} straightened legs")
    added |= add_shortcuts(net, ports, CorridorIndex(corridors), coast, spec["passages"])
    write_ports(out, sites)  # first: the depth bands exempt the ports' approaches
    write_graph(out, net, spec, added)

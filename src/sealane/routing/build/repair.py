"""Repair of the searoute network: nodes moved off land, edges that touch land re-routed by water.

Every edge is sampled along its geodesic every ``CHECK_SPACING_M`` against the exact shoreline.
An edge that touches land outside the named corridors is replaced by the shortest water path
between its ends (first on raster water, which keeps a margin from the shore, then on exact
water at a quarter of the cell size); an edge whose land lies in a corridor is dropped, the
corridor's traced line replacing it. Build-time only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ..geodesy import segment_lengths_m
from .coast import Coastline
from .corridors import CorridorIndex
from .grid import Water
from .lanegraph import LaneGraph
from .waterpath import Grid, join

#: Spacing of the land test along every edge, metres.
CHECK_SPACING_M = 50.0
#: A node on land is moved to the nearest raster water within this distance, metres.
NODE_MOVE_M = 3_000.0
#: Window margin of a re-routed edge: at least this, metres, or a share of its length.
REROUTE_MARGIN_M = 25_000.0
REROUTE_MARGIN_SHARE = 0.3


@dataclass
class RepairReport:
    """Counts of what the repair did, for the build log and ``data/README.md``."""

    nodes_moved: int = 0
    nodes_dropped: int = 0
    land_edges: int = 0
    rerouted: Counter[str] = field(default_factory=Counter)
    dropped: list[tuple[float, float, float, float, str]] = field(default_factory=list)


def land_edges(
    net: LaneGraph,
    coast: Coastline,
    corridors: CorridorIndex,
    only: set[tuple[int, int]] | None = None,
) -> dict[tuple[int, int], bool]:
    """Edges (of ``only``, if given) with a land sample, each mapped to whether all its land lies
    in a corridor."""
    lon, lat, which, keys = net.edge_samples(CHECK_SPACING_M, only)
    land = coast.is_land(lon, lat)
    hit = np.flatnonzero(land)
    in_corridor = corridors.contains(lon[hit], lat[hit])
    out: dict[tuple[int, int], bool] = {}
    for edge, ok in zip(which[hit].tolist(), in_corridor.tolist(), strict=True):
        key = keys[edge]
        out[key] = out.get(key, True) and bool(ok)
    return out


def move_land_nodes(
    net: LaneGraph, coast: Coastline, corridors: CorridorIndex, report: RepairReport
) -> None:
    """Nodes on land go to the nearest raster water within ``NODE_MOVE_M``, or lose their edges."""
    lon, lat = np.array(net.lon), np.array(net.lat)
    on_land = np.flatnonzero(coast.is_land(lon, lat) & ~corridors.contains(lon, lat))
    doomed = set()
    for node in on_land.tolist():
        point = np.array([[net.lon[node], net.lat[node]]])
        grid = Grid(coast, point, NODE_MOVE_M, Water.CLEAR)
        cells = int(NODE_MOVE_M / (grid.window.step_deg * 111_000.0)) + 1
        x, y = grid.nearest_water(net.lon[node], net.lat[node], cells)
        moved = segment_lengths_m(np.array([x, net.lon[node]]), np.array([y, net.lat[node]]))[0]
        if coast.is_land(np.array([x]), np.array([y]))[0] or moved > NODE_MOVE_M:
            doomed.add(node)
            continue
        net.lon[node], net.lat[node] = float(((x + 180.0) % 360.0) - 180.0), float(y)
        report.nodes_moved += 1
    for key in [k for k in net.edges if k[0] in doomed or k[1] in doomed]:
        del net.edges[key]
    report.nodes_dropped += len(doomed)


def reroute_edges(
    net: LaneGraph,
    coast: Coastline,
    corridors: CorridorIndex,
    report: RepairReport,
    only: set[tuple[int, int]] | None = None,
    *,
    keep: bool = False,
) -> set[tuple[int, int]]:
    """Replace every land-touching edge (of ``only``, if given) by a water path, or drop it (see
    the module doc); returns the edges added. With ``keep`` (the pass after corridors and ports
    are in), edges whose land lies only in corridors stay, and so does an edge no water path
    replaces (it may be a port's only join; the build logs it)."""
    before = set(net.edges)
    touched = land_edges(net, coast, corridors, only)
    report.land_edges = len(touched)
    for key, only_corridor in touched.items():
        if keep and only_corridor:
            continue
        mask = net.edges.pop(key)
        a, b = key
        ends = ((net.lon[a], net.lat[a]), (net.lon[b], net.lat[b]))
        if only_corridor:
            report.dropped.append((*ends[0], *ends[1], "corridor"))
            continue
        length = segment_lengths_m(
            np.array([ends[0][0], ends[1][0]]), np.array([ends[0][1], ends[1][1]])
        )[0]
        margin = max(REROUTE_MARGIN_M, REROUTE_MARGIN_SHARE * length)
        for mode in (Water.CLEAR, Water.EXACT):
            path = join(coast, ends[0], ends[1], margin_m=margin, mode=mode)
            if path is not None:
                net.add_chain(path, mask, first=a, last=b)
                report.rerouted[mode.value] += 1
                break
        else:
            if keep:
                net.edges[key] = mask
            report.dropped.append((*ends[0], *ends[1], "kept" if keep else "no water path"))
    return set(net.edges) - before

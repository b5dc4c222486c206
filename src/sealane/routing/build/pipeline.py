"""Offline build of the engine's data files (re-runnable, no network access).

``python -m sealane.routing.build [--out DIR]`` starts from the ``searoute`` package's marine
network and port list and writes ``marnet.npz`` (graph, passage tags, snapping index, landmark
tables), ``ports.csv`` (ports with berth positions, approach status, time zones and stable ids),
``corridors.geojson`` (the traced canals, rivers and straits) and ``landmask.npz``. The network is
repaired against the GSHHG full-resolution coastline: see :mod:`.build_repair`,
:mod:`.build_corridors` and :mod:`.build_attach`. Needs the ``build`` extra and Debian's
``gmt-gshhg-full``; the engine at run time needs none of them.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .build_canals import straighten_corridors
from .build_coast import coastline
from .build_core import core_arrays
from .build_corridors import Corridor, CorridorIndex, read_geojson, trace, write_geojson
from .build_hierarchy import hierarchy_arrays
from .build_index import CELL_DEG, landmark_distances, snapping_index
from .build_joins import add_corridors, flag_unjoined, log, placed_ports, repair_joins
from .build_network import Network
from .build_portfile import training, write_ports
from .build_repair import CHECK_SPACING_M, RepairReport, move_land_nodes, reroute_edges
from .build_rivers import river_lines
from .build_shortcuts import add_shortcuts
from .build_tags import searoute_network, tag_passages
from .datafiles import data_dir
from .geodesy import lengths_between_m, normalize_lon

#: Closed-passage sets with their own landmark table: a search uses the table of the largest set
#: it closes too, whose bounds are tightest (bounds from a graph with more edges stay valid). A*
#: searches only a graph file without hierarchies (and checks them in the tests).
LANDMARK_CLOSURES: tuple[tuple[str, ...], ...] = (
    (),
    ("northwest", "northeast", "corinth"),
    ("northwest", "northeast", "corinth", "suez"),
    ("northwest", "northeast", "corinth", "panama"),
    ("northwest", "northeast", "corinth", "suez", "panama"),
)


def repaired_network(spec: dict[str, Any], corridors: list[Corridor]) -> Network:
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


def verify(net: Network, corridors: list[Corridor]) -> int:
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


def write_graph(
    out: Path, net: Network, spec: dict[str, Any], shortcuts: set[tuple[int, int]]
) -> None:
    """Write ``marnet.npz``: nodes, edges, lengths, passage masks, snapping index, landmarks."""
    lon, lat, u, v, masks = net.arrays()
    flags = np.array([(a, b) in shortcuts for a, b in zip(u.tolist(), v.tolist(), strict=True)])
    write_arrays(out, lon, lat, u, v, masks, spec, flags.astype(bool))


def reshortcut(out: Path, spec: dict[str, Any]) -> None:
    """Re-derive the shortcuts of an existing ``marnet.npz`` (its earlier shortcuts dropped first,
    so the result is what a full build writes from the same repaired network)."""
    with np.load(out / "marnet.npz") as graph:
        lon, lat = graph["node_lon"], graph["node_lat"]
        u, v, masks = graph["edge_u"], graph["edge_v"], graph["edge_passages"]
        old = graph.get("edge_shortcut", np.zeros(u.size, dtype=bool))
    net = Network(lon.tolist(), lat.tolist())
    for a, b, mask in zip(u[~old].tolist(), v[~old].tolist(), masks[~old].tolist(), strict=True):
        net.add_edge(a, b, mask)
    with (out / "ports.csv").open(encoding="utf-8") as handle:
        ports = training(
            [
                (row["locode"], float(row["lon"]), float(row["lat"]), row["approach"] != "inland")
                for row in csv.DictReader(handle)
            ]
        )
    corridors = read_geojson(out / "corridors.geojson")
    added = straighten_corridors(net, corridors)
    log(f"corridors: {len(added)} straightened legs")
    added |= add_shortcuts(net, ports, CorridorIndex(corridors), coastline(), spec["passages"])
    write_graph(out, net, spec, added)


def retag(out: Path, spec: dict[str, Any]) -> None:
    """Re-derive the passage tags, search graph and tables of an existing ``marnet.npz`` from its
    nodes, edges and masks (what :func:`write_graph` would write from the same network)."""
    with np.load(out / "marnet.npz") as graph:
        lon, lat = graph["node_lon"], graph["node_lat"]
        u, v, masks = graph["edge_u"], graph["edge_v"], graph["edge_passages"]
        shortcut = graph.get("edge_shortcut", None)
    write_arrays(
        out, lon, lat, u.astype(np.int64), v.astype(np.int64), masks.copy(), spec, shortcut
    )


def write_arrays(
    out: Path,
    lon: np.ndarray,
    lat: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    masks: np.ndarray,
    spec: dict[str, Any],
    shortcut: np.ndarray | None = None,
) -> None:
    """``marnet.npz`` from node positions, edges and their passage masks (and which edges are
    shortcuts, kept so that ``--only shortcuts`` can re-derive them). Arctic sector bits
    are derived from each edge's own position only: an edge re-routed from a long searoute
    edge must not inherit the sector tag of the edge it replaces (the Gulf of Anadyr)."""
    names = tuple(spec["passages"])
    sectors = sum(1 << bit for bit, name in enumerate(names) if "sector" in spec["passages"][name])
    masks = (masks & np.uint32(~sectors & 0xFFFFFFFF)) | tag_passages(
        lon, lat, u, v, spec["passages"]
    )
    coords = np.stack([normalize_lon(lon), lat], axis=1)
    lengths = lengths_between_m(coords[u, 0], coords[u, 1], coords[v, 0], coords[v, 1])
    # Ends snap onto the lanes only: a shortcut can run thousands of kilometres past a point
    # without leading anywhere near where it is going (the search takes shortcuts from the lanes).
    snappable = np.flatnonzero(~shortcut) if shortcut is not None else np.arange(u.size)
    cell_ptr, cell_edges = snapping_index(coords, u[snappable], v[snappable])
    cell_edges = snappable[cell_edges].astype(np.int32)
    core = core_arrays(coords[:, 0], coords[:, 1], u, v, masks, lengths)
    core_coords = coords[core["core_node"]]
    table_masks = np.array(
        [sum(1 << names.index(name) for name in closed) for closed in LANDMARK_CLOSURES],
        dtype=np.uint32,
    )
    tables = np.stack(
        [
            landmark_distances(
                core_coords,
                core["core_u"],
                core["core_v"],
                core["core_length_m"],
                (core["core_passages"] & closed) == 0,
            )
            for closed in table_masks
        ]
    )
    arrays: dict[str, Any] = {
        "node_lon": coords[:, 0],
        "node_lat": coords[:, 1],
        "edge_u": u.astype(np.int32),
        "edge_v": v.astype(np.int32),
        "edge_length_m": lengths,
        "edge_passages": masks,
        "edge_shortcut": np.zeros(u.size, dtype=bool) if shortcut is None else shortcut,
        "passage_names": np.array(names),
        "cell_deg": np.array(CELL_DEG),
        "cell_ptr": cell_ptr,
        "cell_edges": cell_edges,
        "landmark_masks": table_masks,
        "landmark_tables": tables,
        **core,
        **hierarchy_arrays(core, names),
    }
    # Uncompressed: the engine memory-maps it, so a cold start reads only what it uses.
    np.savez(out / "marnet.npz", **arrays)
    counts = {name: int(np.count_nonzero(masks & (1 << bit))) for bit, name in enumerate(names)}
    log(
        f"marnet.npz: {coords.shape[0]} nodes, {u.size} edges, {cell_edges.size} cell entries; "
        f"search graph {core_coords.shape[0]} core nodes, {core['core_u'].size} chains"
    )
    log(f"edges per passage: {counts}")


def build_landmask(out: Path) -> None:
    """Write ``landmask.npz``: the GLOBE 1 km mask at one arc-minute as per-row run boundaries.

    A one-minute cell is land only when all four of its half-minute samples are land.
    """
    from global_land_mask import globe

    water = globe._mask  # (21600, 43200), True where GLOBE has no elevation; row 0 at 90 N
    land = ~(water[0::2, 0::2] | water[1::2, 0::2] | water[0::2, 1::2] | water[1::2, 1::2])
    pointers = [0]
    runs: list[np.ndarray] = []
    for row in land:
        padded = np.concatenate([[False], row])
        flips = np.flatnonzero(padded[1:] != padded[:-1]).astype(np.uint16)
        runs.append(flips)
        pointers.append(pointers[-1] + flips.size)
    np.savez_compressed(
        out / "landmask.npz",
        row_ptr=np.array(pointers, dtype=np.int64),
        flips=np.concatenate(runs),
        per_deg=np.array(60),
    )
    log(f"landmask.npz: {land.shape[0]} rows, {pointers[-1]} run boundaries")


def checkpointed(path: Path | None, make: Callable[[], Network]) -> Network:
    """``make()``, or the network pickled at ``path`` by an earlier run (a build-time shortcut
    when only the later steps changed)."""
    import pickle

    if path is not None and path.exists():
        log(f"repaired network from {path}")
        with path.open("rb") as handle:
            net: Network = pickle.load(handle)
        return net
    net = make()
    if path is not None:
        with path.open("wb") as handle:
            pickle.dump(net, handle)
    return net


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: rebuild the data files into ``--out`` (default: the shipped data dir)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=data_dir())
    parser.add_argument(
        "--only",
        choices=["network", "landmask", "retag", "shortcuts"],
        default=None,
        help="retag: re-derive passage tags and search tables of the marnet.npz in --out; "
        "shortcuts: re-derive its shortcuts from its other edges",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        help="keep the repaired network in this pickle file and reuse it on the next run",
    )
    args = parser.parse_args(argv)
    spec = json.loads((data_dir() / "passages.json").read_text())
    if args.only in (None, "network"):
        coast, rivers = coastline(), river_lines()
        corridors = [trace(coast, rivers, c) for c in spec["corridors"]]
        write_geojson(args.out / "corridors.geojson", corridors)
        log(f"corridors: {len(corridors)} traced")
        net = checkpointed(args.checkpoint, lambda: repaired_network(spec, corridors))
        add_corridors(net, corridors, tuple(spec["passages"]))
        sites = placed_ports(net, corridors, tuple(spec["passages"]))
        repair_joins(net, corridors)
        net = net.compact(net.main_component())
        sites = flag_unjoined(net, sites)  # on the berths' own coordinates, before merging
        net = net.merged()
        ports = training([(s.locode, s.lon, s.lat, s.status != "inland") for s in sites])
        verify(net, corridors)  # the shortcuts pass the same test as they are added
        added = straighten_corridors(net, corridors)
        log(f"corridors: {len(added)} straightened legs")
        added |= add_shortcuts(net, ports, CorridorIndex(corridors), coast, spec["passages"])
        write_graph(args.out, net, spec, added)
        write_ports(args.out, sites)
    if args.only == "retag":
        retag(args.out, spec)
    if args.only == "shortcuts":
        reshortcut(args.out, spec)
    if args.only in (None, "landmask"):
        build_landmask(args.out)


if __name__ == "__main__":
    main()

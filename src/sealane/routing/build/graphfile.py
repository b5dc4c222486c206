"""Writing ``marnet.npz``: the lanes of the built network with everything the engine derives
from them at build time (passage tags, lengths, snapping index, core graph, landmark tables and
hierarchies), through the one declaration of the file's format (:mod:`..data.formats`).

Also reads back the lanes of an existing file, so ``--only retag`` and ``--only shortcuts``
re-derive the rest without the half-hour repair.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..data.formats import MARNET, Marnet
from ..depth import BAND_NAMES
from ..geodesy import lengths_between_m, normalize_lon
from .approaches import deep_approaches
from .chains import core_arrays
from .closed_waters import crossing_closed_waters
from .coast import coastline
from .corridors import CorridorIndex, read_geojson
from .deep_shortcuts import deep_shortcuts
from .depth import charted_boxes, depth_bands, depth_wanted, least_depths, load_layers
from .hierarchies import hierarchy_arrays
from .joins import log
from .lanegraph import LaneGraph
from .portfile import read_ports, training
from .search_tables import CELL_DEG, landmark_distances, snapping_index
from .tags import tag_passages

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


class Lanes(NamedTuple):
    """What a graph file is made from: node positions (degrees), edges as node pairs, each
    edge's passage bits, and which edges are shortcuts (None: no edge is)."""

    lon: np.ndarray
    lat: np.ndarray
    u: np.ndarray
    v: np.ndarray
    masks: np.ndarray
    shortcut: np.ndarray | None


def read_lanes(out: Path) -> Lanes:
    """The lanes of the ``marnet.npz`` in ``out`` (of any format version: re-deriving the rest
    is how an older file is brought up to date)."""
    with np.load(out / MARNET.name) as graph:
        lanes = Lanes(
            Marnet.NODE_LON.read(graph),
            Marnet.NODE_LAT.read(graph),
            Marnet.EDGE_U.read(graph).astype(np.int64),
            Marnet.EDGE_V.read(graph).astype(np.int64),
            Marnet.EDGE_PASSAGES.read(graph).copy(),
            Marnet.EDGE_SHORTCUT.read(graph) if Marnet.EDGE_SHORTCUT.present(graph) else None,
        )
        if Marnet.EDGE_DERIVED.present(graph):
            return without_edges(lanes, Marnet.EDGE_DERIVED.read(graph))
        return lanes


def without_edges(lanes: Lanes, drop: np.ndarray) -> Lanes:
    """The lanes without the edges ``drop`` marks, and without the nodes only they used (the
    others renumbered in order)."""
    keep = ~np.asarray(drop, dtype=bool)
    u, v = lanes.u[keep], lanes.v[keep]
    used = np.zeros(lanes.lon.size, dtype=bool)
    used[u] = used[v] = True
    number = np.cumsum(used) - 1
    return Lanes(
        lanes.lon[used],
        lanes.lat[used],
        number[u],
        number[v],
        lanes.masks[keep],
        None if lanes.shortcut is None else lanes.shortcut[keep],
    )


def write_graph(
    out: Path, net: LaneGraph, spec: dict[str, Any], shortcuts: set[tuple[int, int]]
) -> None:
    """Write ``marnet.npz`` from the built network and the node pairs of its shortcut edges."""
    lon, lat, u, v, masks = net.arrays()
    flags = np.array([(a, b) in shortcuts for a, b in zip(u.tolist(), v.tolist(), strict=True)])
    write_lanes(out, Lanes(lon, lat, u, v, masks, flags.astype(bool)), spec)


def retag(out: Path, spec: dict[str, Any]) -> None:
    """Re-derive the passage tags, search graph and tables of an existing ``marnet.npz`` from its
    lanes (what :func:`write_graph` would write from the same network)."""
    write_lanes(out, read_lanes(out), spec)


def _joined_ports(out: Path) -> np.ndarray:
    """(N, 2) lon/lat of the joined ports of ``ports.csv`` in ``out``."""
    rows = [(lon, lat) for _, lon, lat, joined in read_ports(out) if joined]
    return np.array(rows, dtype=np.float64)


def _tagged(lanes: Lanes, spec: dict[str, Any]) -> np.ndarray:
    """The lanes' passage masks with Arctic sector bits derived from each edge's own position
    only: an edge re-routed from a long searoute edge must not inherit the sector tag of the
    edge it replaces (the Gulf of Anadyr); no depth band."""
    passages = spec["passages"]
    sectors = sum(1 << bit for bit, name in enumerate(passages) if "sector" in passages[name])
    # The depth bands (the bits past the passages') are measured again, never kept.
    kept = lanes.masks & np.uint32(((1 << len(passages)) - 1) & ~sectors)
    tagged: np.ndarray = kept | tag_passages(lanes.lon, lanes.lat, lanes.u, lanes.v, passages)
    return tagged


def _landmarks(
    core: dict[str, np.ndarray], coords: np.ndarray, names: tuple[str, ...]
) -> dict[str, np.ndarray]:
    """The landmark tables of the core graph, one per set of ``LANDMARK_CLOSURES``."""
    masks = np.array(
        [sum(1 << names.index(name) for name in closed) for closed in LANDMARK_CLOSURES],
        dtype=np.uint32,
    )
    core_coords = coords[core[Marnet.CORE_NODE.key]]
    core_passages = core[Marnet.CORE_PASSAGES.key]
    tables = [
        landmark_distances(
            core_coords,
            core[Marnet.CORE_U.key],
            core[Marnet.CORE_V.key],
            core[Marnet.CORE_LENGTH_M.key],
            (core_passages & closed) == 0,
        )
        for closed in masks
    ]
    return {Marnet.LANDMARK_MASKS.key: masks, Marnet.LANDMARK_TABLES.key: np.stack(tables)}


def with_approaches(
    out: Path, lanes: Lanes, spec: dict[str, Any]
) -> tuple[Lanes, np.ndarray, np.ndarray]:
    """The lanes with the deep approaches added (:mod:`.approaches`: lanes, snapped onto,
    though measured in every cell as shortcuts are),
    every edge's least depth (:func:`.depth.least_depths`) and which edges are the added ones."""
    lon, lat = normalize_lon(lanes.lon), lanes.lat
    shortcut = np.zeros(lanes.u.size, dtype=bool) if lanes.shortcut is None else lanes.shortcut
    berths = _joined_ports(out)
    corridors = CorridorIndex(read_geojson(out / "corridors.geojson"))
    layers = load_layers()
    charted = charted_boxes(spec["passages"])
    least = least_depths(lon, lat, lanes.u, lanes.v, shortcut, berths, corridors, layers, charted)
    step = layers.grids[-1].step
    add = deep_approaches(
        lon, lat, lanes.u, lanes.v, least, berths, corridors, layers, coastline(), step
    )
    grown = Lanes(
        np.concatenate([lon, add.lon]),
        np.concatenate([lat, add.lat]),
        np.concatenate([lanes.u, add.u]),
        np.concatenate([lanes.v, add.v]),
        np.concatenate([lanes.masks, np.zeros(add.u.size, dtype=lanes.masks.dtype)]),
        np.concatenate([shortcut, np.zeros(add.u.size, dtype=bool)]),
    )
    added = np.concatenate([np.zeros(lanes.u.size, dtype=bool), np.ones(add.u.size, dtype=bool)])
    return grown, np.concatenate([least, add.least]), added


def with_deep_shortcuts(
    out: Path, lanes: Lanes, least: np.ndarray, added: np.ndarray, spec: dict[str, Any]
) -> tuple[Lanes, np.ndarray, np.ndarray]:
    """The lanes with the deep shortcuts added (:mod:`.deep_shortcuts`, flagged as shortcuts),
    their least depths after those of ``least``, and which edges are added ones (``added``'s
    and the new)."""
    lon, lat = normalize_lon(lanes.lon), lanes.lat
    names: tuple[str, ...] = (*spec["passages"], *BAND_NAMES)
    lengths = lengths_between_m(lon[lanes.u], lat[lanes.u], lon[lanes.v], lat[lanes.v])
    berths = _joined_ports(out)
    shortcut = np.zeros(lanes.u.size, dtype=bool) if lanes.shortcut is None else lanes.shortcut
    _, bands = depth_bands(
        lon, lat, lanes.u, lanes.v, lengths, berths, names, least, added, shortcut
    )
    masks = _tagged(lanes, spec) | bands
    corridors = CorridorIndex(read_geojson(out / "corridors.geojson"))
    ports = training(read_ports(out))
    found = deep_shortcuts(
        lon,
        lat,
        lanes.u,
        lanes.v,
        masks,
        names,
        spec["passages"],
        ports,
        berths,
        corridors,
        load_layers(),
        coastline(),
    )
    log(f"deep shortcuts: {found.u.size} added")
    grown = Lanes(
        lanes.lon,
        lanes.lat,
        np.concatenate([lanes.u, found.u]),
        np.concatenate([lanes.v, found.v]),
        np.concatenate([lanes.masks, found.masks.astype(lanes.masks.dtype)]),
        np.concatenate([shortcut, np.ones(found.u.size, dtype=bool)]),
    )
    now = np.concatenate([added, np.ones(found.u.size, dtype=bool)])
    return grown, np.concatenate([least, found.least]), now


def open_waters(lanes: Lanes, spec: dict[str, Any]) -> tuple[Lanes, np.ndarray]:
    """The lanes without the edges crossing into ``spec``'s closed waters, and per edge given,
    whether it is kept."""
    cut = crossing_closed_waters(normalize_lon(lanes.lon), lanes.lat, lanes.u, lanes.v, spec)
    if cut.any():
        log(f"closed waters: {int(cut.sum())} edges crossing into them dropped")
    return without_edges(lanes, cut), ~cut


def write_lanes(out: Path, lanes: Lanes, spec: dict[str, Any]) -> None:
    """``marnet.npz`` from the lanes (shortcuts kept flagged, so that ``--only shortcuts`` can
    re-derive them), written uncompressed: the engine memory-maps it, so a cold start reads only
    what it uses. Unless ``SEALANE_DEPTH_BANDS=0``, it carries the depth bands (:mod:`.depth`),
    measured against the ports and corridors of ``ports.csv`` and ``corridors.geojson`` in
    ``out``, so those are written first. No edge crosses into closed waters
    (:mod:`.closed_waters`)."""
    lanes, _ = open_waters(lanes, spec)
    least = added = None
    if depth_wanted():
        lanes, least, added = with_approaches(out, lanes, spec)
        lanes, least, added = with_deep_shortcuts(out, lanes, least, added, spec)
        lanes, kept = open_waters(lanes, spec)
        least, added = least[kept], added[kept]
    u, v = lanes.u, lanes.v
    coords = np.stack([normalize_lon(lanes.lon), lanes.lat], axis=1)
    lengths = lengths_between_m(coords[u, 0], coords[u, 1], coords[v, 0], coords[v, 1])
    shortcut = np.zeros(u.size, dtype=bool) if lanes.shortcut is None else lanes.shortcut
    names: tuple[str, ...] = tuple(spec["passages"])
    masks = _tagged(lanes, spec)
    depth: dict[str, np.ndarray] = {}
    if least is not None:
        names = (*names, *BAND_NAMES)
        berths = _joined_ports(out)
        depth_m, bands = depth_bands(
            coords[:, 0], coords[:, 1], u, v, lengths, berths, names, least, added, shortcut
        )
        masks = masks | bands
        depth[Marnet.EDGE_DEPTH_M.key] = depth_m
        if added is not None:
            depth[Marnet.EDGE_DERIVED.key] = added
    # Ends snap onto the lanes only: a shortcut can run thousands of kilometres past a point
    # without leading anywhere near where it is going (the search takes shortcuts from the lanes).
    snappable = np.flatnonzero(~shortcut)
    cell_ptr, cell_edges = snapping_index(coords, u[snappable], v[snappable])
    core = core_arrays(coords[:, 0], coords[:, 1], u, v, masks, lengths)
    arrays = {
        Marnet.NODE_LON.key: coords[:, 0],
        Marnet.NODE_LAT.key: coords[:, 1],
        Marnet.EDGE_U.key: u,
        Marnet.EDGE_V.key: v,
        Marnet.EDGE_LENGTH_M.key: lengths,
        Marnet.EDGE_PASSAGES.key: masks,
        Marnet.EDGE_SHORTCUT.key: shortcut,
        **depth,
        Marnet.PASSAGE_NAMES.key: np.array(names),
        Marnet.CELL_DEG.key: np.array(CELL_DEG),
        Marnet.CELL_PTR.key: cell_ptr,
        Marnet.CELL_EDGES.key: snappable[cell_edges],
        **_landmarks(core, coords, names),
        **core,
        **hierarchy_arrays(core, names),
    }
    MARNET.save(out / MARNET.name, arrays)
    counts = {name: int(np.count_nonzero(masks & (1 << bit))) for bit, name in enumerate(names)}
    log(
        f"marnet.npz: {coords.shape[0]} nodes, {u.size} edges, {cell_edges.size} cell entries; "
        f"search graph {core[Marnet.CORE_NODE.key].size} core nodes, "
        f"{core[Marnet.CORE_U.key].size} chains"
    )
    log(f"edges per passage: {counts}")

"""Offline build of the engine's data files from the ``searoute`` package (re-runnable).

``python -m sealane.routing.build [--out DIR]`` writes ``marnet.npz`` (graph, passage tags, the
snapping index and landmark tables), ``ports.csv`` (ports with time zones and stable ids) and
``landmask.npz`` (land/sea at one arc-minute). The engine only ever loads
those files, so a refined network drops in by re-running or replacing this step. Needs the
``build`` extra (searoute, scipy, shapely, timezonefinder, global-land-mask); the engine at run
time needs none of them.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from .datafiles import data_dir
from .geodesy import FloatArray, normalize_lon, segment_lengths_m, unit_vectors
from .ports import port_id

#: Spacing of the sample points that stand in for edges while the snapping index is built (rad).
SAMPLE_SPACING_RAD = 5_000.0 / 6_371_000.0
#: Snapping grid cell size in degrees.
CELL_DEG = 1.0
#: A UN/LOCODE: two-letter country code and three letters or digits 2-9.
LOCODE = re.compile(r"[A-Z]{2}[A-Z2-9]{3}")
#: Closed-passage sets with their own landmark table: a search uses the table of the largest set
#: it closes too, whose bounds are tightest (bounds from a graph with more edges stay valid).
LANDMARK_CLOSURES: tuple[tuple[str, ...], ...] = (
    (),
    ("northwest", "northeast"),
    ("northwest", "northeast", "suez"),
    ("northwest", "northeast", "panama"),
    ("northwest", "northeast", "suez", "panama"),
)
#: Number of landmarks for the A* (ALT) lower bounds.
LANDMARKS = 16


def load_searoute_edges() -> tuple[FloatArray, np.ndarray, np.ndarray, list[set[str]]]:
    """searoute's marine network as unique nodes (lon, lat) and undirected edges with its tags."""
    from searoute.data.marnet_dict import edge_list

    index: dict[tuple[float, float], int] = {}

    def node(point: tuple[float, float]) -> int:
        lon = round(float(normalize_lon(point[0])), 6)
        key = (-180.0 if lon == 180.0 else lon, round(float(point[1]), 6))
        return index.setdefault(key, len(index))

    edges: dict[tuple[int, int], set[str]] = {}
    for u, neighbours in edge_list.items():
        for v, attrs in neighbours.items():
            a, b = node(u), node(v)
            if a == b:
                continue
            tags = edges.setdefault((min(a, b), max(a, b)), set())
            if attrs.get("passage"):
                tags.add(str(attrs["passage"]))
    coords = np.array(list(index.keys()), dtype=np.float64)
    pairs = np.array(list(edges.keys()), dtype=np.int32)
    return coords, pairs[:, 0], pairs[:, 1], list(edges.values())


def tag_passages(
    coords: FloatArray, u: np.ndarray, v: np.ndarray, tags: list[set[str]], spec: dict[str, Any]
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Per-edge bit mask of passages, following ``data/passages.json``."""
    import shapely

    names = tuple(spec)
    lon_u, lat_u = coords[u, 0], coords[u, 1]
    lon_v = lon_u + normalize_lon(coords[v, 0] - lon_u)  # unwrapped across the antimeridian
    lat_v = coords[v, 1]
    lines = shapely.linestrings(
        np.stack([np.stack([lon_u, lat_u], -1), np.stack([lon_v, lat_v], -1)], 1)
    )
    mid_lon = normalize_lon((lon_u + lon_v) / 2.0)
    masks = np.zeros(u.size, dtype=np.uint32)
    for bit, name in enumerate(names):
        rule = spec[name]
        hit = np.array([bool(t & set(rule.get("searoute_tags", []))) for t in tags])
        shapes = [shapely.box(*b) for b in rule.get("boxes", [])]
        shapes += [shapely.LineString(g) for g in rule.get("gates", [])]
        for shape in shapes:
            for shift in (-360.0, 0.0, 360.0):
                hit |= shapely.intersects(lines, shapely.affinity.translate(shape, xoff=shift))
        if "sector" in rule:
            sector = rule["sector"]
            high = (lat_u + lat_v) / 2.0 >= sector["min_lat"]
            inside = np.zeros(u.size, dtype=bool)
            for lo, hi in sector["lon_ranges"]:
                inside |= (mid_lon >= lo) & (mid_lon <= hi)
            hit |= high & inside
        masks[hit] |= np.uint32(1 << bit)
    return masks, names


def sample_edges(coords: FloatArray, u: np.ndarray, v: np.ndarray) -> tuple[FloatArray, np.ndarray]:
    """Points along each edge's great circle, at most ``SAMPLE_SPACING_RAD`` apart, and edge ids."""
    a = unit_vectors(coords[u, 0], coords[u, 1])
    b = unit_vectors(coords[v, 0], coords[v, 1])
    angle = np.arccos(np.clip(np.einsum("ij,ij->i", a, b), -1.0, 1.0))
    counts = np.maximum(np.ceil(angle / SAMPLE_SPACING_RAD).astype(np.int64), 1) + 1
    edge_of = np.repeat(np.arange(u.size), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    t = (np.arange(edge_of.size) - starts) / (counts[edge_of] - 1)
    theta = angle[edge_of]
    sin_theta = np.sin(theta)
    safe = sin_theta > 1e-12
    wa = np.where(safe, np.sin((1 - t) * theta) / np.where(safe, sin_theta, 1.0), 1.0 - t)
    wb = np.where(safe, np.sin(t * theta) / np.where(safe, sin_theta, 1.0), t)
    points = wa[:, None] * a[edge_of] + wb[:, None] * b[edge_of]
    points /= np.linalg.norm(points, axis=1)[:, None]
    return points, edge_of


def snapping_index(
    coords: FloatArray, u: np.ndarray, v: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each 1-degree cell, every edge that can be the nearest one to some point of the cell.

    With c the cell centre and r the cell's angular circumradius, the nearest edge e* of any point P
    in the cell satisfies d(c, e*) <= d(c, nearest) + 2r; sampling adds half a sample spacing.
    """
    from scipy.spatial import cKDTree

    points, edge_of = sample_edges(coords, u, v)
    tree = cKDTree(points)
    lat_edges = np.arange(-90.0, 90.0 + CELL_DEG, CELL_DEG)
    lon_edges = np.arange(-180.0, 180.0 + CELL_DEG, CELL_DEG)
    lat_c, lon_c = np.meshgrid(
        lat_edges[:-1] + CELL_DEG / 2, lon_edges[:-1] + CELL_DEG / 2, indexing="ij"
    )
    centres = unit_vectors(lon_c.ravel(), lat_c.ravel())
    corners = [
        unit_vectors(lon_c.ravel() + dx, lat_c.ravel() + dy)
        for dx in (-CELL_DEG / 2, CELL_DEG / 2)
        for dy in (-CELL_DEG / 2, CELL_DEG / 2)
    ]
    radius = np.max(
        [np.arccos(np.clip(np.einsum("ij,ij->i", centres, c), -1, 1)) for c in corners], 0
    )
    nearest_chord, _ = tree.query(centres)
    nearest = 2 * np.arcsin(np.clip(nearest_chord / 2, 0, 1))
    reach = nearest + 2 * radius * 1.02 + SAMPLE_SPACING_RAD + 1e-9
    reach_chord = 2 * np.sin(np.minimum(reach, np.pi) / 2)
    members = [
        np.unique(edge_of[np.asarray(hits, dtype=np.int64)]).astype(np.int32)
        for hits in tree.query_ball_point(centres, reach_chord)
    ]
    pointers = np.concatenate([[0], np.cumsum([m.size for m in members])])
    return pointers.astype(np.int64), np.concatenate(members)


def landmark_distances(
    coords: FloatArray, u: np.ndarray, v: np.ndarray, lengths: FloatArray, usable: np.ndarray
) -> FloatArray:
    """Network distances (m) from ``LANDMARKS`` far-apart nodes to every node, as (nodes, K).

    Only ``usable`` edges take part, so the bounds hold for any search that uses a subset of them.
    Landmarks are chosen farthest-first, which spreads them round the edge of the network.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    n = coords.shape[0]
    keep = usable
    matrix = csr_matrix((lengths[keep], (u[keep], v[keep])), shape=(n, n))
    matrix = matrix.maximum(matrix.T)
    chosen = [int(np.argmax(coords[:, 1]))]
    rows: list[FloatArray] = []
    covered = np.full(n, np.inf)
    while len(rows) < LANDMARKS:
        dist = dijkstra(matrix, directed=False, indices=chosen[-1])
        rows.append(dist)
        covered = np.minimum(covered, dist)
        finite = np.where(np.isfinite(covered), covered, -1.0)
        chosen.append(int(np.argmax(finite)))
    table = np.stack(rows, axis=1)
    # Nodes cut off from a landmark in this graph get NaN: the search ignores NaN bounds.
    table[~np.isfinite(table)] = np.nan
    return np.ascontiguousarray(table)


def build_graph(out: Path, spec: dict[str, Any]) -> None:
    """Write ``marnet.npz``: nodes, edges, lengths, passage masks and the snapping index."""
    coords, u, v, tags = load_searoute_edges()
    lengths = segment_lengths_m(
        np.ravel(np.stack([coords[u, 0], coords[v, 0]], 1)),
        np.ravel(np.stack([coords[u, 1], coords[v, 1]], 1)),
    )[::2]
    masks, names = tag_passages(coords, u, v, tags, spec)
    cell_ptr, cell_edges = snapping_index(coords, u, v)
    table_masks = np.array(
        [sum(1 << names.index(name) for name in closed) for closed in LANDMARK_CLOSURES],
        dtype=np.uint32,
    )
    tables = np.stack(
        [landmark_distances(coords, u, v, lengths, (masks & closed) == 0) for closed in table_masks]
    )
    np.savez(  # uncompressed: the engine memory-maps it, so a cold start reads only what it uses
        out / "marnet.npz",
        node_lon=coords[:, 0],
        node_lat=coords[:, 1],
        edge_u=u.astype(np.int32),
        edge_v=v.astype(np.int32),
        edge_length_m=lengths,
        edge_passages=masks,
        passage_names=np.array(names),
        cell_deg=np.array(CELL_DEG),
        cell_ptr=cell_ptr,
        cell_edges=cell_edges,
        landmark_masks=table_masks,
        landmark_tables=tables,
    )
    counts = {name: int(np.count_nonzero(masks & (1 << bit))) for bit, name in enumerate(names)}
    print(f"marnet.npz: {coords.shape[0]} nodes, {u.size} edges, {cell_edges.size} cell entries")
    print("edges per passage:", counts)


def build_ports(out: Path) -> None:
    """Write ``ports.csv``: searoute's ports, one row per UN/LOCODE, with time zones and ids."""
    from searoute.data.ports_dict import node_list
    from timezonefinder import TimezoneFinder

    finder = TimezoneFinder(in_memory=True)
    chosen: dict[str, dict[str, Any]] = {}
    for props in node_list.values():
        code = str(props["port"]).upper()
        if not LOCODE.fullmatch(code):  # searoute has a few malformed codes (e.g. "EG")
            continue
        if code not in chosen or (chosen[code].get("t") is None and props.get("t") is not None):
            chosen[code] = props
    with (out / "ports.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["locode", "id", "name", "country", "country_name", "lon", "lat", "time_zone"]
        )
        for code in sorted(chosen):
            props = chosen[code]
            lon, lat = float(props["x"]), float(props["y"])
            writer.writerow(
                [
                    code,
                    port_id(code),
                    props["name"],
                    code[:2],
                    str(props["cty"]).replace("_", " "),
                    f"{lon:.6f}",
                    f"{lat:.6f}",
                    time_zone(finder, lon, lat),
                ]
            )
    print(f"ports.csv: {len(chosen)} ports")


def time_zone(finder: Any, lon: float, lat: float) -> str:
    """IANA zone of a coastal point: the land zone there, else the nearest one within ~50 km."""
    zone = finder.timezone_at_land(lng=lon, lat=lat)
    step = 0.05
    while zone is None and step <= 0.5:
        for dx, dy in (
            (step, 0),
            (-step, 0),
            (0, step),
            (0, -step),
            (step, step),
            (-step, -step),
            (step, -step),
            (-step, step),
        ):
            zone = finder.timezone_at_land(lng=lon + dx, lat=lat + dy)
            if zone:
                break
        step += 0.05
    return str(zone or finder.timezone_at(lng=lon, lat=lat))


def build_landmask(out: Path) -> None:
    """Write ``landmask.npz``: the GLOBE 1 km mask at one arc-minute as per-row run boundaries.

    A one-minute cell is land only when all four of its half-minute samples are land.
    """
    from global_land_mask import globe

    water = (
        globe._mask
    )  # (21600, 43200), True where GLOBE has no elevation; row 0 at 90 N, col 0 at 180 W
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
    print(f"landmask.npz: {land.shape[0]} rows, {pointers[-1]} run boundaries")


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: rebuild the data files into ``--out`` (default: the shipped data dir)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=data_dir())
    parser.add_argument("--only", choices=["graph", "ports", "landmask"], default=None)
    args = parser.parse_args(argv)
    spec = json.loads((data_dir() / "passages.json").read_text())["passages"]
    if args.only in (None, "graph"):
        build_graph(args.out, spec)
    if args.only in (None, "ports"):
        build_ports(args.out)
    if args.only in (None, "landmask"):
        build_landmask(args.out)


if __name__ == "__main__":
    main()

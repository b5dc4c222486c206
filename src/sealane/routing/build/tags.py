"""searoute's marine network as the build's starting point, and passage tagging of edges.

An edge belongs to a passage when searoute tags it so, when its segment crosses one of the
passage's gate lines or meets one of its boxes, or when it lies in an Arctic sector (see
``data/passages.json``). Corridor edges get their passage's bit when they are added. Build-time
only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..geodesy import FloatArray, normalize_lon
from .lanegraph import LaneGraph


def searoute_network(spec: dict[str, Any]) -> LaneGraph:
    """searoute's marine network with unique nodes, each edge tagged with its passage bits."""
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
    pairs = np.array(list(edges.keys()), dtype=np.int64)
    masks = tag_passages(coords[:, 0], coords[:, 1], pairs[:, 0], pairs[:, 1], spec)
    names = tuple(spec)
    for bit, name in enumerate(names):
        rule = set(spec[name].get("searoute_tags", []))
        if rule:
            hit = np.array([bool(t & rule) for t in edges.values()])
            masks[hit] |= np.uint32(1 << bit)
    net = LaneGraph(coords[:, 0].tolist(), coords[:, 1].tolist())
    for (a, b), mask in zip(edges, masks.tolist(), strict=True):
        net.edges[(a, b)] = int(mask)
    return net


def tag_passages(
    lon: FloatArray, lat: FloatArray, u: np.ndarray, v: np.ndarray, spec: dict[str, Any]
) -> np.ndarray:
    """Per-edge bit mask of the passages whose gates, boxes or sectors each edge meets."""
    import shapely

    lon_u, lat_u = lon[u], lat[u]
    lon_v = lon_u + normalize_lon(lon[v] - lon_u)  # unwrapped across the antimeridian
    lat_v = lat[v]
    lines = shapely.linestrings(
        np.stack([np.stack([lon_u, lat_u], -1), np.stack([lon_v, lat_v], -1)], 1)
    )
    mid_lon = normalize_lon((lon_u + lon_v) / 2.0)
    masks = np.zeros(u.size, dtype=np.uint32)
    for bit, name in enumerate(spec):
        rule = spec[name]
        hit = np.zeros(u.size, dtype=bool)
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
    return masks

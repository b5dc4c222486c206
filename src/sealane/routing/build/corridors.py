"""Named corridors: canals, rivers and narrow straits the coastline calls land.

Each corridor in ``data/passages.json`` gives two ends in water (or at a port), the passage it
belongs to (if any) and its half width. The build traces it on a fine grid where the GSHHG
shoreline's water and the WDB II river and canal lines (plus any hand-drawn ``links`` across locks)
count as water, so the trace follows the real waterway; the traced line is written to
``data/corridors.geojson``, and land under it, within the half width, is what the land tests
allow. A corridor with a ``guide`` (a rough line along its river) follows only the river lines
lying near the guide, so a shorter waterway beside the river (the bayous and canals beside the
Mississippi) is not taken for it; the guide itself is not water. Build-time only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..geodesy import FloatArray
from .coast import Coastline
from .grid import Water
from .rivers import RiverLines
from .waterpath import Grid, join

#: Half size (degrees) of the box around a corridor's ends searched for rivers and canals.
LINE_BOX_DEG = 0.3
#: How far (cells of the fine grid) a corridor end may be moved onto water.
END_REACH_CELLS = 40
#: Window margin around a corridor's ends, metres.
CORRIDOR_MARGIN_M = 10_000.0
#: How far (metres) a river line may lie from a corridor's ``guide`` and still be followed.
GUIDE_REACH_M = 5_000.0


@dataclass(frozen=True)
class Corridor:
    """A traced waterway: its name, passage (None for a port's own approach) and geometry."""

    name: str
    passage: str | None
    half_width_m: float
    line: FloatArray
    ports: tuple[str, ...] = ()


def trace(coast: Coastline, rivers: RiverLines, spec: dict[str, Any]) -> Corridor:
    """Trace one corridor of the spec along its river or canal; ValueError if no way through."""
    start, end = tuple(spec["from"]), tuple(spec["to"])
    box = (
        min(start[0], end[0]) - LINE_BOX_DEG,
        min(start[1], end[1]) - LINE_BOX_DEG,
        max(start[0], end[0]) + LINE_BOX_DEG,
        max(start[1], end[1]) + LINE_BOX_DEG,
    )
    lines = rivers.lines(box)
    if "guide" in spec:  # only the river's own lines: not a shorter bayou or canal beside it
        lines = near_guide(np.array(spec["guide"], dtype=np.float64), lines)
    lines += [np.array(link, dtype=np.float64) for link in spec.get("links", [])]
    grid = Grid(coast, np.array([start, end]), CORRIDOR_MARGIN_M, Water.EXACT, lines)
    ends = grid.unwrapped(np.array([start, end]))
    a = grid.nearest_water(float(ends[0, 0]), float(ends[0, 1]), END_REACH_CELLS)
    b = grid.nearest_water(float(ends[1, 0]), float(ends[1, 1]), END_REACH_CELLS)
    line = join(coast, a, b, margin_m=CORRIDOR_MARGIN_M, mode=Water.EXACT, lines=lines)
    if line is None:
        raise ValueError(f"corridor {spec['name']!r}: no waterway found between its ends")
    return Corridor(
        name=str(spec["name"]),
        passage=spec.get("passage"),
        half_width_m=float(spec.get("half_width_m", 1000.0)),
        line=line,
        ports=tuple(spec.get("ports", ())),
    )


def near_guide(guide: FloatArray, lines: list[FloatArray]) -> list[FloatArray]:
    """The runs of each line's points lying within ``GUIDE_REACH_M`` of ``guide`` (two points at
    least): the parts of the river lines along the guided river."""
    out: list[FloatArray] = []
    for line in lines:
        near = within(guide, GUIDE_REACH_M, line[:, 0], line[:, 1])
        edges = np.flatnonzero(np.diff(np.concatenate([[0], near.astype(np.int8), [0]])))
        out.extend(line[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 2)
    return out


class CorridorIndex:
    """Which points lie within a corridor's half width of its traced line (local metric plane)."""

    def __init__(self, corridors: list[Corridor]) -> None:
        self.corridors = corridors

    def which(self, lon: FloatArray, lat: FloatArray) -> np.ndarray:
        """Index of the corridor each point lies in, -1 for none (first match wins)."""
        out = np.full(np.shape(lon), -1, dtype=np.int64)
        lon, lat = np.asarray(lon), np.asarray(lat)
        for k, corridor in enumerate(self.corridors):
            line, pad = corridor.line, corridor.half_width_m / 100_000.0 + 0.01
            lat_ok = (lat >= line[:, 1].min() - pad) & (lat <= line[:, 1].max() + pad)
            pad_lon = pad / max(np.cos(np.radians(float(line[:, 1].mean()))), 0.05)
            rel = (lon - line[0, 0] + 180.0) % 360.0 - 180.0 + line[0, 0]
            near = (
                lat_ok & (rel >= line[:, 0].min() - pad_lon) & (rel <= line[:, 0].max() + pad_lon)
            )
            if not near.any():
                continue
            inside = np.zeros(np.shape(lon), dtype=bool)
            inside[near] = within(line, corridor.half_width_m, lon[near], lat[near])
            out[(out < 0) & inside] = k
        return out

    def contains(self, lon: FloatArray, lat: FloatArray) -> np.ndarray:
        """Whether each point lies in some corridor."""
        return np.asarray(self.which(lon, lat) >= 0)


def within(line: FloatArray, half_width_m: float, lon: FloatArray, lat: FloatArray) -> np.ndarray:
    """Whether each point lies within ``half_width_m`` of the polyline (equirectangular plane at
    the line's mean latitude: corridors are short, so the error stays well under a percent)."""
    lon0, lat0 = float(line[0, 0]), float(np.mean(line[:, 1]))
    kx, ky = 111_320.0 * np.cos(np.radians(lat0)), 110_574.0
    px = ((np.asarray(lon) - lon0 + 180.0) % 360.0 - 180.0) * kx
    py = (np.asarray(lat) - lat0) * ky
    ax = ((line[:-1, 0] - lon0 + 180.0) % 360.0 - 180.0) * kx
    ay = (line[:-1, 1] - lat0) * ky
    bx = ((line[1:, 0] - lon0 + 180.0) % 360.0 - 180.0) * kx
    by = (line[1:, 1] - lat0) * ky
    inside = np.zeros(np.shape(px), dtype=bool)
    for x1, y1, x2, y2 in zip(ax, ay, bx, by, strict=True):
        dx, dy = x2 - x1, y2 - y1
        t = np.clip(((px - x1) * dx + (py - y1) * dy) / max(dx * dx + dy * dy, 1e-9), 0.0, 1.0)
        inside |= np.hypot(px - x1 - t * dx, py - y1 - t * dy) <= half_width_m
    return inside


def write_geojson(path: Path, corridors: list[Corridor]) -> None:
    """Write the traced corridors as a GeoJSON FeatureCollection of LineStrings."""
    features = [
        {
            "type": "Feature",
            "properties": {
                "name": c.name,
                "passage": c.passage,
                "half_width_m": c.half_width_m,
                "ports": list(c.ports),
            },
            "geometry": {"type": "LineString", "coordinates": np.round(c.line, 6).tolist()},
        }
        for c in corridors
    ]
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}) + "\n")


def read_geojson(path: Path) -> list[Corridor]:
    """Corridors written by :func:`write_geojson`."""
    data = json.loads(path.read_text())
    return [
        Corridor(
            name=f["properties"]["name"],
            passage=f["properties"]["passage"],
            half_width_m=float(f["properties"]["half_width_m"]),
            line=np.array(f["geometry"]["coordinates"], dtype=np.float64),
            ports=tuple(f["properties"].get("ports", ())),
        )
        for f in data["features"]
    ]

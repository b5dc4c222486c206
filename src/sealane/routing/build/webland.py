"""Build ``data/land.npz``, the land the tracking map draws, from Natural Earth's 1:50m land.

The source is ``land-50m.json`` of the ``world-atlas`` npm package (Natural Earth 4.1.0 land
polygons as TopoJSON, public domain). Rings are simplified (Douglas-Peucker), specks of land
dropped, and vertices rounded to 0.01 degree, so the shipped file stays small. Re-runnable:

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python -m sealane.routing.build.webland package/land-50m.json

Needs shapely (the ``build`` extra); the web app only loads the result (``sealane.web.land``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from ..data import data_dir
from ..data.formats import LAND, Land

#: Douglas-Peucker tolerance and the smallest polygon kept, in degrees and square degrees.
TOLERANCE_DEG = 0.04
MIN_AREA_DEG2 = 0.004
#: Stored vertex resolution: 1/100 degree (about 1.1 km at the equator).
SCALE = 100


def decode_arcs(topology: dict[str, Any]) -> list[np.ndarray]:
    """Each arc of a quantized TopoJSON topology as an (n, 2) array of (lon, lat) degrees."""
    scale = np.asarray(topology["transform"]["scale"], dtype=np.float64)
    translate = np.asarray(topology["transform"]["translate"], dtype=np.float64)
    return [
        np.cumsum(np.asarray(arc, dtype=np.int64), axis=0) * scale + translate
        for arc in topology["arcs"]
    ]


def ring(arcs: list[np.ndarray], indexes: list[int]) -> np.ndarray:
    """One ring from its arc indexes (``~i`` is arc ``i`` reversed), shared points once."""
    pieces = []
    for position, index in enumerate(indexes):
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        pieces.append(arc if position == 0 else arc[1:])
    return np.concatenate(pieces)


def unwrapped(points: np.ndarray) -> np.ndarray:
    """A ring made continuous in longitude: a ring crossing the antimeridian runs on past 180
    (the map draws the world three times side by side), its middle kept within [-180, 180];
    a ring around a pole (Antarctica) is
    closed along that pole. Rings of no height (a strip along a pole) are dropped (empty)."""
    if np.ptp(points[:, 1]) == 0.0:
        return points[:0]
    steps = np.diff(points[:, 0])
    steps = (steps + 180.0) % 360.0 - 180.0
    lons = points[0, 0] + np.concatenate([[0.0], np.cumsum(steps)])
    lons -= 360.0 * np.round((lons.min() + lons.max()) / 720.0)  # middle within [-180, 180]
    result = np.column_stack([lons, points[:, 1]])
    turn = (lons[0] - lons[-1] + 180.0) % 360.0 - 180.0 + lons[-1] - lons[0]
    if abs(turn) > 180.0:  # goes once around the globe: close along the nearer pole
        pole = 90.0 if points[:, 1].mean() > 0 else -90.0
        result = np.vstack([result, [[lons[-1], pole], [lons[0], pole]]])
    return result


def land_polygons(topology: dict[str, Any]) -> list[list[np.ndarray]]:
    """The polygons (outer ring, then holes) of the topology's ``land`` object."""
    arcs = decode_arcs(topology)
    polygons: list[list[np.ndarray]] = []
    for geometry in topology["objects"]["land"]["geometries"]:
        parts = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        for part in parts:
            rings = [unwrapped(ring(arcs, indexes)) for indexes in part]
            if len(rings[0]) >= 3:
                polygons.append([r for r in rings if len(r) >= 3])
    return polygons


def simplified(polygons: list[list[np.ndarray]]) -> list[np.ndarray]:
    """Rings of the polygons that are large enough, simplified and rounded to 1/SCALE degree."""
    from shapely.geometry import Polygon

    rings: list[np.ndarray] = []
    for rings_of_polygon in polygons:
        shape = Polygon(rings_of_polygon[0], rings_of_polygon[1:])
        if shape.area < MIN_AREA_DEG2:
            continue
        shape = shape.simplify(TOLERANCE_DEG, preserve_topology=True)
        if shape.is_empty or shape.geom_type != "Polygon":
            continue
        for part in [shape.exterior, *shape.interiors]:
            points = np.round(np.asarray(part.coords)[:-1] * SCALE).astype(np.int16)
            keep = np.ones(len(points), dtype=bool)
            keep[1:] = np.any(points[1:] != points[:-1], axis=1)
            if keep.sum() >= 3:
                rings.append(points[keep])
    return rings


def write_land(source: Path, out: Path) -> tuple[int, int]:
    """Write ``out`` from the TopoJSON ``source``; returns (rings, vertices) written."""
    topology = json.loads(source.read_text(encoding="utf-8"))
    rings = simplified(land_polygons(topology))
    offsets = np.cumsum([0] + [len(r) for r in rings]).astype(np.int32)
    arrays = {
        Land.POINTS.key: np.concatenate(rings),
        Land.OFFSETS.key: offsets,
        Land.SCALE.key: np.array(SCALE),
    }
    LAND.save(out, arrays)
    return len(rings), int(offsets[-1])


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m sealane.routing.build.webland land-50m.json [--out FILE]``
    (default ``data/land.npz``)."""
    parser = argparse.ArgumentParser(
        prog="python -m sealane.routing.build.webland", description=__doc__.splitlines()[0]
    )
    parser.add_argument("source", type=Path, help="land-50m.json of the world-atlas package")
    parser.add_argument("--out", type=Path, default=data_dir() / LAND.name)
    args = parser.parse_args(argv)
    count, vertices = write_land(args.source, args.out)
    print(f"{args.out}: {count} rings, {vertices} vertices, {args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

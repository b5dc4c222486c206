"""Compare a finer bathymetry grid with the build's 0.1 degree ETOPO1 grid where the depth bands
go wrong (issue 28, item 3; data/README.md, "Depth").

Each candidate file (netCDF 4 or 3, global or a regional cut: ETOPO 2022, GEBCO, SRTM15+, ETOPO5)
is read over the 0.1 degree grid as the build would with ``$SEALANE_DEPTH_FINE_GRIDS``: a sample
takes its cell from the candidate where the candidate covers it. Printed for each grid:

* along the default route of each pair (the shipped network, no draft: the way ships go), sampled
  every kilometre beyond 10 km of either port, the lengths whose cell reads shallower than the
  need (13.5 m, a 12 m draft) while all its corners lie under water, as searoute's lanes are
  measured: what would close that way to a 12 m ship;
* at named places, the cell's depth (its deepest corner) and whether a corner is on land;
* for each port, the deepest way in from the open sea: the greatest depth such that cells at
  least that deep (deepest corner, every corner under water) join the sea to the cells within 10
  or 20 km of the berth (the build leaves 10 km round a berth unmeasured). A port the 0.1 degree
  grid already joins at 13.5 m needs a lane along that way, not a finer grid.

The pairs are the four the banded build gets wrong or must keep (Qingdao -> Yantai, Dalian ->
Incheon, Singapore -> Jakarta; Antwerp -> Rotterdam must stay off the Voordelta banks). Run it
from the checkout, with the build extra installed::

    .venv/bin/python scripts/depth_compare.py CANDIDATE.nc [MORE.nc ...] [--need 13.5]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

import sealane
from sealane.routing.build.coast import sample_geodesics
from sealane.routing.build.depth import APPROACH_M, SPACING_M, load_grid
from sealane.routing.build.depth_grid import Grid, Layers, read_grid
from sealane.routing.geodesy import METRES_PER_NM, lengths_between_m, segment_lengths_m

PAIRS = (("CNTAO", "CNYNT"), ("CNDLC", "KRINC"), ("SGSIN", "IDJKT"), ("BEANR", "NLRTM"))
#: Places data/README.md names, and what a 12 m ship needs of each: deep (a lane ships use) or
#: shallow (banks ships keep off); the south-west channel to Incheon is where GEBCO 2022 holds a
#: way in of 15 m or more (data/README.md, "Depth").
PLACES = {
    "Qingdao hub cell, 121.0 E 35.9 N (deep)": (121.0, 35.9),
    "Bangka Strait south exit, 106.15 E 3.2 S (deep)": (106.15, -3.2),
    "Java Sea lane to Jakarta, 106.66 E 5.41 S (deep)": (106.66, -5.41),
    "Incheon, the route's way in, 126.21 E 37.55 N (?)": (126.21, 37.55),
    "Incheon south-west channel, 126.22 E 37.23 N (deep)": (126.22, 37.23),
    "Incheon flats, 126.45 E 37.3 N (shallow)": (126.45, 37.3),
    "Voordelta off Walcheren, 3.45 E 51.6 N (shallow)": (3.45, 51.6),
    "Voordelta off Goeree, 3.85 E 51.8 N (shallow)": (3.85, 51.8),
}

#: Per port: the box searched for its way in (lon_min, lat_min, lon_max, lat_max) and a point of
#: open sea in it.
WAYS_IN = {
    "CNTAO": ((119.8, 34.5, 123.0, 37.0), (122.5, 35.0)),
    "CNYNT": ((120.5, 37.0, 123.0, 38.8), (122.5, 38.0)),
    "CNDLC": ((120.5, 37.0, 123.0, 39.5), (122.5, 38.0)),
    "KRINC": ((123.2, 35.2, 126.9, 37.9), (124.0, 36.5)),
    "IDJKT": ((103.5, -6.6, 109.0, 1.0), (105.5, 0.0)),
}


def way_in(
    grid: Grid,
    box: tuple[float, ...],
    sea: tuple[float, float],
    berth: tuple[float, float],
    within_m: float,
) -> float | None:
    """The deepest way from ``sea`` to within ``within_m`` of ``berth`` over ``grid``'s cells in
    ``box`` (None when the grid does not hold the box or nothing joins them)."""
    from scipy import ndimage

    lon_min, lat_min, lon_max, lat_max = box
    rows, cols = grid.z.shape
    c0, c1 = (int(np.floor((v - grid.lon0) / grid.step)) for v in (lon_min, lon_max))
    r0, r1 = (int(np.floor((v - grid.lat0) / grid.step)) for v in (lat_min, lat_max))
    if min(c0, r0) < 0 or c1 + 1 >= cols or r1 + 1 >= rows:
        return None
    lon = grid.lon0 + (np.arange(c0, c1 + 1) + 0.5) * grid.step
    lat = grid.lat0 + (np.arange(r0, r1 + 1) + 0.5) * grid.step
    lons, lats = np.meshgrid(lon, lat)
    depth, water = grid.cell_depth(lons, lats)
    flat_lon, flat_lat = lons.ravel(), lats.ravel()
    here = [np.full(flat_lon.size, value) for value in berth]
    near = (lengths_between_m(here[0], here[1], flat_lon, flat_lat) <= within_m).reshape(lons.shape)
    start = np.unravel_index(np.argmin(np.hypot(lons - sea[0], lats - sea[1])), lons.shape)
    best = None
    for need in np.arange(0.0, 40.5, 0.5):
        label, _ = ndimage.label((water & (depth >= need)) | near, structure=np.ones((3, 3)))
        if not label[start] or not (label[near] == label[start]).any():
            break
        best = float(need)
    return best


def shallow_runs(
    reader: Grid | Layers, a: str, b: str, need: float
) -> tuple[float, list[tuple[float, float, float, float, float]]]:
    """Kilometres of the default route from ``a`` to ``b`` that a lane would be closed on, and
    each stretch: its start and end (nm from ``a``), its least depth and where that lies."""
    coords = sealane.route(a, b).coordinates
    lon, lat, seg, along = sample_geodesics(
        coords[:-1, 0], coords[:-1, 1], coords[1:, 0], coords[1:, 1], SPACING_M
    )
    starts = np.concatenate([[0.0], np.cumsum(segment_lengths_m(coords[:, 0], coords[:, 1]))])
    dist = starts[seg] + along
    depth, water = reader.cell_depth(lon, lat)
    shallow = (dist > APPROACH_M) & (dist < dist[-1] - APPROACH_M) & water & (depth < need)
    edges = np.diff(np.concatenate([[0], shallow.astype(np.int8), [0]]))
    found = []
    for i, j in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        k = i + int(np.argmin(depth[i:j]))
        nm = dist[[i, j - 1]] / METRES_PER_NM
        found.append((float(nm[0]), float(nm[1]), float(depth[k]), float(lon[k]), float(lat[k])))
    return float(shallow.sum()) * SPACING_M / 1000.0, found


def place_depth(reader: Grid | Layers, lon: float, lat: float) -> str:
    """A place's cell depth, marked when a corner of the cell is on land (- off a candidate)."""
    if (
        isinstance(reader, Layers)
        and not reader.grids[0].covers(np.array([lon]), np.array([lat]))[0]
    ):
        return "      -"
    depth, water = reader.cell_depth(np.array([lon]), np.array([lat]))
    return f"{depth[0]:7.1f}{'' if water[0] else '*'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("candidates", nargs="+", type=Path, help="finer grid files")
    parser.add_argument("--need", type=float, default=13.5, help="depth a ship needs, m")
    args = parser.parse_args()
    coarse = load_grid()
    fine = {path.name: read_grid(path) for path in args.candidates}
    readers: dict[str, Grid | Layers] = {"0.1 deg ETOPO1": coarse}
    for name, grid in fine.items():
        readers[f"{name} ({grid.step * 3600:.0f} arcsec)"] = Layers((grid, coarse))
    for a, b in PAIRS:
        print(f"\n{a} -> {b}: default route, kilometres a lane would be closed (< {args.need} m)")
        for label, reader in readers.items():
            km, runs = shallow_runs(reader, a, b, args.need)
            print(f"  {label:40s} {km:6.0f} km")
            for start, end, least, lon, lat in runs:
                print(
                    f"      {start:6.1f}-{end:6.1f} nm, least {least:5.1f} m at {lon:.3f} {lat:.3f}"
                )
    print("\nDeepest way in from the open sea, m, to within 10 / 20 km of the berth (- not held)")
    grids = {"0.1 deg ETOPO1": coarse, **fine}
    berths = {code: (sealane.get_port(code).lon, sealane.get_port(code).lat) for code in WAYS_IN}
    for code, (box, sea) in WAYS_IN.items():
        found = []
        for label, grid in grids.items():
            ways = [way_in(grid, box, sea, berths[code], km * 1000.0) for km in (10, 20)]
            found.append(f"{label} " + " / ".join("-" if w is None else f"{w:.1f}" for w in ways))
        print(f"  {code}: " + "; ".join(found))
    print(f"\nCell depths, m (deepest corner; * a corner on land): {' | '.join(readers)}")
    for name, (lon, lat) in PLACES.items():
        cells = " ".join(place_depth(reader, lon, lat) for reader in readers.values())
        print(f"  {name:50s} {cells}")


if __name__ == "__main__":
    main()

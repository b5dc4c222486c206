"""Least depth of each edge from a bathymetry grid, and the depth bands it carries (issue 28).

The grid is ETOPO1 (NOAA, public domain) resampled to 0.1 degree, as bundled in the PyPI package
``pybacktrack`` (``bundle_data/topography/ETOPO1_0.1.grd``, netCDF 4). The package itself is GPL
and is never installed: the build downloads its wheel with ``pip download --no-deps`` once, takes
that one data file out of it into a cache, and reads it with h5py. Only the derived per-edge
depths are shipped. Finer grids (ETOPO 2022, GEBCO, or a regional cut of either) can be read
before it where they cover a sample (``$SEALANE_DEPTH_FINE_GRIDS``, :mod:`.depth_grid`); none is
by default, as none is reachable from the package registries the build uses.

How an edge is measured, sampled every ``SPACING_M`` along its geodesic:

* A sample's depth is that of the 0.1 degree cell it lies in, read as the cell's deepest corner:
  a cell of the grid cannot show a channel narrower than itself, so a cell is shallow only when
  all four of its corners are.
* Samples inside a corridor (canals, rivers, dredged port approaches: their charted limits are in
  ``passage_limits.csv``) and within ``APPROACH_M`` of a port's berth (its dredged approach) are
  not measured.
* Nor are the samples of searoute's lanes inside a charted strait (the ``charted`` boxes of a
  passage in ``passages.json``: the Malacca and Singapore Straits, Torres, Magellan, the German
  Bight). Their lanes follow the charted route, which the grid's cells are too coarse to show;
  the passage's own limit (``passage_limits.csv``) closes it to a vessel too deep. The build's
  straight shortcuts are measured there as anywhere.
* The build's straight shortcuts are measured in every cell. searoute's lanes, and the repair's
  and the joins' water paths, follow the coast where a cell holding land cannot tell a channel
  from the shore: they are measured only in cells whose four corners are all under water.
* Before the edges are measured, ports whose lanes leave them over shallower water than the grid
  shows beside them get a lane along the grid's deepest way out (:mod:`.approaches`).
* The shallowest band (the default vessel's, 9.2 m) is carried by the build's straight
  shortcuts only. searoute's lanes are where ships sail, and along shallow coasts (the Pearl
  River estuary, Hangzhou Bay, the Gulf of Thailand off Ca Mau) the grid's cells read the water
  feeders use there as under 9.2 m; a shortcut is the build's own line, which no ship drew
  (the shortcuts through Nantucket and Vineyard Sounds).
* Where closing a band makes port-to-port paths longer, the build adds straight legs over water
  at least that deep (:mod:`.deep_shortcuts`).
* A port a band cuts off from the open network keeps its approach open for that band: the
  lanes on its shortest way out (shallow lengths counted ``FAIRWAY_PENALTY`` times, so the way
  out crosses as little shallow water as it can) are taken as its charted fairway and carry
  neither that band nor a shallower one. The grid cannot tell a dredged channel from the banks
  beside it.

Build-time only.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..depth import BAND_NAMES, BANDS_M
from ..geodesy import MEAN_EARTH_RADIUS_M, unit_vectors
from .coast import sample_geodesics
from .corridors import CorridorIndex
from .depth_grid import Grid, Layers, read_grid
from .joins import log

#: Where the grid comes from: a PyPI wheel and the member holding it.
GRID_PACKAGE = "pybacktrack==1.5.0"
GRID_MEMBER = "pybacktrack/bundle_data/topography/ETOPO1_0.1.grd"
#: A grid file to use instead (its path), and where the downloaded one is kept.
GRID_ENV = "SEALANE_DEPTH_GRID"
GRID_CACHE = Path.home() / ".cache" / "sealane" / "ETOPO1_0.1.grd"
#: Set to 0 to write no depth bands (a network for a point, not a ship: the shipped one has them).
BANDS_ENV = "SEALANE_DEPTH_BANDS"
#: Finer grids to read before the global one where they cover a sample: paths, separated by
#: ``os.pathsep`` (netCDF 4 or 3 files; see :mod:`.depth_grid`). None by default: no finer grid
#: is reachable from the package registries the build uses (data/README.md, "Depth").
FINE_ENV = "SEALANE_DEPTH_FINE_GRIDS"
SPACING_M = 1000.0
APPROACH_M = 10_000.0
FAIRWAY_PENALTY = 20.0


def charted_boxes(passages: dict[str, Any]) -> np.ndarray:
    """(K, 4) boxes, lon_min, lat_min, lon_max, lat_max, of the charted straits' water: every
    ``charted`` entry of the passages of ``passages.json``."""
    rows = [box for rule in passages.values() for box in rule.get("charted", [])]
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


def in_boxes(lon: np.ndarray, lat: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Per point, whether it lies in any of ``boxes`` (as :func:`charted_boxes` gives them)."""
    inside = np.zeros(lon.shape, dtype=bool)
    for lon_min, lat_min, lon_max, lat_max in boxes.tolist():
        inside |= (lon >= lon_min) & (lon <= lon_max) & (lat >= lat_min) & (lat <= lat_max)
    return inside


def depth_wanted() -> bool:
    """Whether this build writes the depth bands (unless ``$SEALANE_DEPTH_BANDS`` is 0)."""
    return os.environ.get(BANDS_ENV, "") != "0"


def grid_file() -> Path:
    """The grid's path: ``$SEALANE_DEPTH_GRID``, the cache, or taken out of a fresh download."""
    if os.environ.get(GRID_ENV):
        return Path(os.environ[GRID_ENV])
    if not GRID_CACHE.exists():
        with tempfile.TemporaryDirectory() as tmp:
            log(f"depth: downloading {GRID_PACKAGE} for its ETOPO1 grid (data file only)")
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "-q",
                    "-d",
                    tmp,
                    GRID_PACKAGE,
                ],
                check=True,
            )
            (wheel,) = Path(tmp).glob("*.whl")
            GRID_CACHE.parent.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(wheel) as archive:
                GRID_CACHE.write_bytes(archive.read(GRID_MEMBER))
    return GRID_CACHE


def load_grid(path: Path | None = None) -> Grid:
    """The global grid: the 0.1 degree ETOPO1 one (:func:`grid_file`), or the file given."""
    grid = read_grid(path or grid_file())
    if not grid.wraps and grid.z.shape[1] * grid.step < 360.0 - grid.step / 2:
        raise ValueError(f"the global depth grid covers {grid.z.shape[1] * grid.step} degrees")
    return grid


def load_layers() -> Layers:
    """The grids an edge is measured on: the finer ones of ``$SEALANE_DEPTH_FINE_GRIDS`` first,
    in the order given, then the global one."""
    fine = [Path(part) for part in os.environ.get(FINE_ENV, "").split(os.pathsep) if part]
    for path in fine:
        log(f"depth: reading {path} before the global grid where it covers a sample")
    return Layers((*(read_grid(path) for path in fine), load_grid()))


def least_depths(
    lon: np.ndarray,
    lat: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    shortcut: np.ndarray,
    ports: np.ndarray,
    corridors: CorridorIndex,
    grid: Grid | Layers,
    charted: np.ndarray | None = None,
) -> np.ndarray:
    """Per edge, the least depth measured along it (inf where nothing is measured); ``ports`` is
    (N, 2) lon/lat of the joined ports' berths, ``charted`` the boxes of the charted straits
    (:func:`charted_boxes`), where only shortcuts are measured."""
    from scipy.spatial import cKDTree

    s_lon, s_lat, edge, _ = sample_geodesics(lon[u], lat[u], lon[v], lat[v], SPACING_M)
    depth, open_water = grid.cell_depth(s_lon, s_lat)
    chord = 2.0 * np.sin(APPROACH_M / MEAN_EARTH_RADIUS_M / 2.0)
    near, _ = cKDTree(unit_vectors(ports[:, 0], ports[:, 1])).query(unit_vectors(s_lon, s_lat))
    measured = (near > chord) & (shortcut[edge] | open_water)
    if charted is not None:
        measured &= shortcut[edge] | ~in_boxes(s_lon, s_lat, charted)
    measured[measured] = ~corridors.contains(s_lon[measured], s_lat[measured])
    least = np.full(u.size, np.inf)
    np.minimum.at(least, edge[measured], depth[measured])
    return least


def open_fairways(
    nodes: int,
    u: np.ndarray,
    v: np.ndarray,
    lengths: np.ndarray,
    shallow: np.ndarray,
    port_nodes: np.ndarray,
) -> np.ndarray:
    """Edges to exempt: for each port cut off from the network's largest piece by the
    ``shallow`` edges (one band's), the edges of its way out (shallow ones ``FAIRWAY_PENALTY``
    times as long)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components, dijkstra

    open_ = ~shallow
    graph = coo_matrix((np.ones(int(open_.sum())), (u[open_], v[open_])), shape=(nodes, nodes))
    _, label = connected_components(graph, directed=False)
    main = np.bincount(label).argmax()
    cut = np.unique(port_nodes[label[port_nodes] != main])
    exempt = np.zeros(u.size, dtype=bool)
    if cut.size == 0:
        return exempt
    weight = np.where(shallow, lengths * FAIRWAY_PENALTY, lengths) + 1e-3
    full = coo_matrix((weight, (u, v)), shape=(nodes, nodes)).tocsr()
    # One search from the whole main piece at once: each node's way to its nearest main node.
    mains = np.flatnonzero(label == main)
    _, pred = dijkstra(
        full, directed=False, indices=mains, min_only=True, return_predecessors=True
    )[:2]
    edge_of = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(u, v, strict=True))}
    for port in cut.tolist():
        node = port
        while label[node] != main and pred[node] >= 0:
            back = int(pred[node])
            found = edge_of.get((back, node))
            exempt[edge_of[(node, back)] if found is None else found] = True
            node = back
    log(f"depth: {cut.size} ports cut off keep a fairway of {int(exempt.sum())} edges")
    return exempt


def band_masks(
    least: np.ndarray,
    names: tuple[str, ...],
    shortcut: np.ndarray | None = None,
    exempt: list[np.ndarray] | None = None,
) -> np.ndarray:
    """Per edge, the bits over ``names`` of the bands its least depth falls below; with
    ``shortcut`` (per edge), only shortcuts carry the shallowest band; an edge ``exempt`` for a
    band (one array per band, shallowest first: a port's fairway) carries neither that band nor
    a shallower one."""
    masks = np.zeros(least.size, dtype=np.uint32)
    for k, name in enumerate(BAND_NAMES):
        under = _under(least, k, shortcut)
        for deeper in (exempt or [])[k:]:
            under &= ~deeper
        masks[under] |= np.uint32(1 << names.index(name))
    return masks


def _under(least: np.ndarray, band: int, shortcut: np.ndarray | None) -> np.ndarray:
    """Per edge, whether it falls under band number ``band`` (the shallowest: shortcuts only)."""
    under: np.ndarray = least < BANDS_M[band]
    if band == 0 and shortcut is not None:
        under &= shortcut
    return under


def depth_bands(
    lon: np.ndarray,
    lat: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    lengths: np.ndarray,
    ports: np.ndarray,
    names: tuple[str, ...],
    measured: np.ndarray,
    added: np.ndarray | None = None,
    shortcut: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per edge, its least depth in metres (NaN: a port's charted fairway for some band, not
    measured on the grid; inf: nothing measured) and the bits of the bands it carries, from the
    depths ``measured`` (:func:`least_depths`) and the berths ``ports``. For each band, a port
    the band cuts off from the network's largest piece keeps its way out open (that band and
    the shallower ones), both with and without the edges ``added`` (the depth step's deep
    approaches and deep shortcuts): a lane added never closes a fairway the network had. With
    ``shortcut`` (per edge), only shortcuts carry the shallowest band."""
    from scipy.spatial import cKDTree

    least = measured.copy()
    found = cKDTree(unit_vectors(lon, lat)).query(unit_vectors(ports[:, 0], ports[:, 1]))[1]
    berths = np.asarray(found, dtype=np.int64)
    exempt = []
    for band in range(len(BANDS_M)):
        shallow = _under(least, band, shortcut)
        fairway = open_fairways(lon.size, u, v, lengths, shallow, berths)
        if added is not None and added.any():
            kept = np.flatnonzero(~added)
            before = open_fairways(lon.size, u[kept], v[kept], lengths[kept], shallow[kept], berths)
            fairway[kept[before]] = True
        exempt.append(fairway)
    masks = band_masks(least, names, shortcut, exempt)
    least[np.logical_or.reduce(exempt)] = np.nan
    counts = {name: int(np.count_nonzero(masks & (1 << names.index(name)))) for name in BAND_NAMES}
    log(f"depth: edges per band {counts}")
    return least, masks

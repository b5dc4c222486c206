"""Bathymetry grids for the build's depth measure (issue 28, item 3): reading one from a file and
reading a point's cell from it.

A grid is any regular longitude/latitude grid of elevations (metres, negative below sea level),
global or regional: the 0.1 degree ETOPO1 grid the build takes from ``pybacktrack`` (netCDF 4,
read with h5py), or a finer one (ETOPO 2022, GEBCO, or a regional cut of either) given as a file.
netCDF 4 files are HDF5 and read with h5py; netCDF 3 ("classic") files with scipy. The
coordinates come from the file's own 1-D axes, so a grid says where it lies and how fine it is.

Finer grids can be layered over the global one (:class:`Layers`): a sample takes its cell from the
first layer that covers it, so a regional cut of a fine grid decides where it has data and the
global grid everywhere else.

Build-time only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

#: Names a file may give its axes and its elevations (ETOPO1 and GMT grids, ETOPO 2022, GEBCO).
LON_NAMES = ("lon", "x", "longitude")
LAT_NAMES = ("lat", "y", "latitude")
Z_NAMES = ("z", "elevation", "Band1", "ROSE")
#: Most nodes a grid may have: a global grid at 1 arc-minute has 233 million (0.9 GB as float32);
#: a finer one must be cut to the seas it is wanted for (a global 15 arc-second grid would take
#: 15 GB).
MAX_NODES = 250_000_000


class Grid(NamedTuple):
    """Elevations ``z`` in metres (negative below sea level) at nodes ``step`` degrees apart: row
    ``i`` at latitude ``lat0 + i * step``, column ``j`` at longitude ``lon0 + j * step``. The
    defaults are the 0.1 degree ETOPO1 grid's (rows from 90 S, columns from 0 E to 360 E)."""

    z: np.ndarray
    lon0: float = 0.0
    lat0: float = -90.0
    step: float = 0.1

    @property
    def wraps(self) -> bool:
        """Whether the columns go round the globe without repeating the first one at 360."""
        return bool(abs(self.z.shape[1] * self.step - 360.0) < self.step / 2)

    def _offsets(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per point, its position in steps east of the first column and north of the first row."""
        return np.mod(lon - self.lon0, 360.0) / self.step, (lat - self.lat0) / self.step

    def covers(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        """Per point, whether the grid has a whole cell round it."""
        x, y = self._offsets(lon, lat)
        rows, cols = self.z.shape
        inside: np.ndarray = (y >= 0.0) & (y <= rows - 1)
        return inside if self.wraps else inside & (x <= cols - 1)

    def cell_depth(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per point, the depth of its cell's deepest corner, and whether all four corners lie
        under water (metres; a negative depth is land). Points off a regional grid take its
        edge cells: ask :meth:`covers` first."""
        corners = self._corners(lon, lat)
        return -corners.min(axis=0), corners.max(axis=0) < 0.0

    def mean_depth(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        """Per point, the mean depth of its cell's four corners (metres; negative: land), a
        stricter reading than :meth:`cell_depth`'s deepest corner."""
        return np.asarray(-self._corners(lon, lat).mean(axis=0))

    def _corners(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        """The elevations of each point's cell's four corners, shape (4, N)."""
        x, y = self._offsets(lon, lat)
        rows, cols = self.z.shape
        row = np.clip(np.floor(y).astype(np.int64), 0, rows - 2)
        if self.wraps:
            col = np.floor(x).astype(np.int64) % cols
            east = (col + 1) % cols
        else:
            col = np.clip(np.floor(x).astype(np.int64), 0, cols - 2)
            east = col + 1
        z = self.z
        return np.stack([z[row, col], z[row, east], z[row + 1, col], z[row + 1, east]])


class Layers(NamedTuple):
    """Grids read in turn: a sample takes its cell from the first grid that covers it (finer,
    regional grids first, a global one last)."""

    grids: tuple[Grid, ...]

    def cell_depth(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """As :meth:`Grid.cell_depth`, each point from the first grid covering it."""
        depth = np.full(lon.shape, -np.inf)
        water = np.zeros(lon.shape, dtype=bool)
        left = np.ones(lon.shape, dtype=bool)
        for grid in self.grids:
            take = left & grid.covers(lon, lat)
            if take.any():
                depth[take], water[take] = grid.cell_depth(lon[take], lat[take])
            left &= ~take
        return depth, water

    def mean_depth(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        """As :meth:`Grid.mean_depth`, each point from the first grid covering it."""
        depth = np.full(lon.shape, -np.inf)
        left = np.ones(lon.shape, dtype=bool)
        for grid in self.grids:
            take = left & grid.covers(lon, lat)
            if take.any():
                depth[take] = grid.mean_depth(lon[take], lat[take])
            left &= ~take
        return depth


def _regular(axis: np.ndarray, name: str) -> tuple[float, float]:
    """The first value and the step of a regular, ascending axis."""
    if axis.ndim != 1 or axis.size < 2:
        raise ValueError(f"depth grid axis {name} is not a 1-D axis of two values or more")
    step = float(axis[-1] - axis[0]) / (axis.size - 1)
    if step <= 0.0 or np.abs(axis - (axis[0] + step * np.arange(axis.size))).max() > step / 10:
        raise ValueError(f"depth grid axis {name} is not evenly spaced")
    return float(axis[0]), step


def _name(variables: Any, names: Sequence[str], what: str) -> str:
    """The first of ``names`` that ``variables`` holds."""
    for name in names:
        if name in variables:
            return name
    raise ValueError(f"depth grid file has no {what} variable (looked for {', '.join(names)})")


def _pick(variables: Any, names: Sequence[str], what: str) -> np.ndarray:
    """The first of ``names`` that ``variables`` holds, as an array."""
    return np.asarray(variables[_name(variables, names, what)][:])


def _fill(value: Any) -> float | None:
    """A ``_FillValue`` attribute as a float (None when there is none)."""
    return None if value is None else float(np.ravel(np.asarray(value))[0])


def _read_variables(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, float | None]:
    """Longitudes, latitudes, elevations and the fill value of a netCDF 4 (HDF5) or 3 file. A
    netCDF 4 file names its axes (``LON_NAMES``, ``LAT_NAMES``); in a netCDF 3 file they are the
    coordinate variables of the elevations' two dimensions."""
    import h5py

    if h5py.is_hdf5(path):
        with h5py.File(path, "r") as handle:
            elevations = handle[_name(handle, Z_NAMES, "elevation")]
            if elevations.size > MAX_NODES:
                raise ValueError(
                    f"depth grid {path.name} has {elevations.size:,} nodes, over {MAX_NODES:,}:"
                    " cut it to the seas it is wanted for"
                )
            return (
                _pick(handle, LON_NAMES, "longitude"),
                _pick(handle, LAT_NAMES, "latitude"),
                np.asarray(elevations[:]),
                _fill(elevations.attrs.get("_FillValue")),
            )
    from scipy.io import netcdf_file

    with netcdf_file(path, "r", mmap=False) as handle:
        found = handle.variables
        variable = found[_name(found, Z_NAMES, "elevation")]
        y_dim, x_dim = variable.dimensions
        return (
            _pick(found, (x_dim,), "longitude"),
            _pick(found, (y_dim,), "latitude"),
            np.asarray(variable[:]),
            _fill(getattr(variable, "_FillValue", None)),
        )


def read_grid(path: Path) -> Grid:
    """The grid in ``path`` (netCDF 4 or 3: 1-D longitude and latitude axes and a 2-D elevation
    variable over them), rows from south to north, as float32; missing values read as land."""
    lon, lat, z, fill = _read_variables(path)
    if z.shape != (lat.size, lon.size):
        raise ValueError(f"depth grid elevations {z.shape} do not match its axes")
    z = np.asarray(z, dtype=np.float32)
    if lat.size > 1 and lat[-1] < lat[0]:
        lat, z = lat[::-1], z[::-1]
    lon0, lon_step = _regular(np.asarray(lon, dtype=np.float64), "longitude")
    lat0, lat_step = _regular(np.asarray(lat, dtype=np.float64), "latitude")
    if abs(lon_step - lat_step) > lat_step / 100:
        raise ValueError(f"depth grid steps differ: {lon_step} by {lat_step} degrees")
    missing = ~np.isfinite(z) if fill is None else ~np.isfinite(z) | (z == np.float32(fill))
    z[missing] = 1.0
    return Grid(np.ascontiguousarray(z), lon0, lat0, lat_step)

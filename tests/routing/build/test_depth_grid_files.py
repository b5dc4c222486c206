"""Reading bathymetry grids from files and layering a finer grid over the global one
(``routing.build.depth_grid``), on tiny synthetic netCDF 4 and netCDF 3 files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("h5py")
pytest.importorskip("scipy")

import h5py
from scipy.io import netcdf_file

from sealane.routing.build import depth, depth_grid
from sealane.routing.build.corridors import CorridorIndex
from sealane.routing.build.depth_grid import Grid, Layers, read_grid


def write_hdf5(path: Path, lon: np.ndarray, lat: np.ndarray, z: np.ndarray, z_name: str) -> Path:
    """A netCDF 4 style file: named 1-D axes and a 2-D elevation dataset."""
    with h5py.File(path, "w") as handle:
        handle["lon"] = lon
        handle["lat"] = lat
        handle[z_name] = z
    return path


def write_netcdf3(path: Path, lon: np.ndarray, lat: np.ndarray, z: np.ndarray) -> Path:
    """A netCDF 3 file laid out as ETOPO5's: axes named after their dimensions, a fill value."""
    with netcdf_file(path, "w") as handle:
        handle.createDimension("ETOPO05_Y", lat.size)
        handle.createDimension("ETOPO05_X", lon.size)
        handle.createVariable("ETOPO05_X", "d", ("ETOPO05_X",))[:] = lon
        handle.createVariable("ETOPO05_Y", "d", ("ETOPO05_Y",))[:] = lat
        rose = handle.createVariable("ROSE", "f", ("ETOPO05_Y", "ETOPO05_X"))
        rose[:] = z
        rose._FillValue = np.float32(-1e34)
    return path


def global_grid(path: Path, elevation: float) -> Path:
    """A 1 degree global grid, 0-360 E with the 360 column repeated, all at ``elevation``."""
    lon, lat = np.arange(0.0, 361.0), np.arange(-90.0, 91.0)
    z = np.full((lat.size, lon.size), elevation, dtype=np.float32)
    return write_hdf5(path, lon, lat, z, "z")


def test_read_grid__netcdf4_takes_its_origin_and_step_from_its_axes_south_row_first(
    tmp_path: Path,
) -> None:
    lon = np.array([100.0, 100.5, 101.0, 101.5])
    lat = np.array([2.0, 1.5, 1.0])  # north to south, as GEBCO cuts sometimes are
    z = np.array([[-40, -40, -40, -40], [-40, -40, -40, -40], [-8, -9, -40, 5]], dtype=np.float32)
    grid = read_grid(write_hdf5(tmp_path / "cut.nc", lon, lat, z, "elevation"))

    assert (grid.lon0, grid.lat0, grid.step) == (100.0, 1.0, 0.5)
    assert not grid.wraps
    assert grid.z[0].tolist() == [-8, -9, -40, 5]
    # The cell at 100-100.5 E, 1-1.5 N has corners -8, -9, -40, -40: 40 m at its deepest.
    depth_m, water = grid.cell_depth(np.array([100.2, 101.2]), np.array([1.2, 1.2]))
    assert depth_m.tolist() == [40.0, 40.0]
    assert water.tolist() == [True, False]  # 101-101.5 E has a corner on land (5 m)


def test_read_grid__netcdf3_reads_axes_from_the_dimensions_and_missing_values_as_land(
    tmp_path: Path,
) -> None:
    lon = np.arange(0.0, 360.0, 30.0)  # twelve columns round the globe, 360 not repeated
    lat = np.arange(-90.0, 91.0, 30.0)
    z = np.full((lat.size, lon.size), -3000.0, dtype=np.float32)
    z[3, 0] = -1e34  # missing at 0 E 0 N
    grid = read_grid(write_netcdf3(tmp_path / "etopo.cdf", lon, lat, z))

    assert (grid.lon0, grid.lat0, grid.step) == (0.0, -90.0, 30.0)
    assert grid.wraps
    assert grid.z[3, 0] > 0.0
    # Between 330 E and 360 E the cell's east corners are column 0 again, the missing node.
    depth_m, water = grid.cell_depth(np.array([345.0, -15.0, 15.0]), np.array([10.0, 10.0, 40.0]))
    assert depth_m.tolist() == [3000.0, 3000.0, 3000.0]
    assert water.tolist() == [False, False, True]


def test_read_grid__refuses_uneven_axes_elevations_that_do_not_fit_them_and_huge_grids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    z = np.zeros((3, 4), dtype=np.float32)
    lat = np.array([0.0, 1.0, 2.0])
    uneven = write_hdf5(tmp_path / "uneven.nc", np.array([0.0, 1.0, 2.5, 3.0]), lat, z, "z")
    with pytest.raises(ValueError, match="not evenly spaced"):
        read_grid(uneven)
    wrong = write_hdf5(tmp_path / "wrong.nc", np.arange(5.0), lat, z, "z")
    with pytest.raises(ValueError, match="do not match"):
        read_grid(wrong)
    nameless = write_hdf5(tmp_path / "nameless.nc", np.arange(4.0), lat, z, "depth")
    with pytest.raises(ValueError, match="no elevation variable"):
        read_grid(nameless)
    monkeypatch.setattr(depth_grid, "MAX_NODES", 11)
    huge = write_hdf5(tmp_path / "huge.nc", np.arange(4.0), lat, z, "z")
    with pytest.raises(ValueError, match="12 nodes, over 11"):
        read_grid(huge)


def test_layers__a_fine_grid_decides_where_it_covers_the_global_one_elsewhere() -> None:
    coarse = Grid(np.full((181, 361), -5.0, dtype=np.float32), 0.0, -90.0, 1.0)
    fine = Grid(np.full((11, 11), -20.0, dtype=np.float32), 10.0, 0.0, 0.1)
    layers = Layers((fine, coarse))
    lon, lat = np.array([10.5, 11.5, 10.5]), np.array([0.5, 0.5, -0.5])
    depth_m, water = layers.cell_depth(lon, lat)
    assert depth_m.tolist() == [20.0, 5.0, 5.0]
    assert water.all()
    assert fine.covers(lon, lat).tolist() == [True, False, False]


def test_least_depths__the_fine_grid_opens_a_channel_the_coarse_grid_reads_as_a_bank(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(depth.GRID_ENV, str(global_grid(tmp_path / "global.nc", -6.0)))
    lon = np.arange(10.0, 11.01, 0.25)
    lat = np.arange(-1.0, 1.01, 0.25)
    channel = np.full((lat.size, lon.size), -3.0, dtype=np.float32)
    channel[:, 2] = -18.0  # a north-south channel along 10.5 E
    cut = write_hdf5(tmp_path / "cut.nc", lon, lat, channel, "elevation")

    def least(layers: Layers, lon_e: float) -> float:
        measured = depth.least_depths(
            np.array([lon_e, lon_e]),
            np.array([-0.9, 0.9]),
            np.array([0]),
            np.array([1]),
            np.array([True]),
            np.array([(-100.0, -60.0)]),
            CorridorIndex([]),
            layers,
        )
        return float(measured[0])

    assert least(depth.load_layers(), 10.6) == 6.0  # the global grid alone: a 6 m bank
    monkeypatch.setenv(depth.FINE_ENV, str(cut))
    layers = depth.load_layers()
    assert len(layers.grids) == 2
    assert least(layers, 10.6) == 18.0  # every cell along 10.5-10.75 E has the channel's corner
    assert least(layers, 10.9) == 3.0  # off the channel, the fine grid's bank
    assert least(layers, 12.0) == 6.0  # beyond the cut, the global grid

"""Rivers and canals of the GSHHG distribution (WDB II), read for the build's named corridors.

The file is GMT's binned ``binned_river_f.nc`` (Debian package ``gmt-gshhg-full``): 1-degree bins
from 90 N, each holding line segments whose points are offsets from the bin's south-west corner
in 1/65535 of a bin. Segment levels are GMT's river classes less one: 0 double-lined rivers,
1-4 permanent rivers, 5-7 intermittent rivers, 8 major canals, 9 minor canals, 10 irrigation canals.
Build-time only; the engine never imports this module.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..geodesy import FloatArray

#: Where Debian's ``gmt-gshhg-full`` installs the full-resolution files.
RIVER_FILE = Path("/usr/share/gmt-gshhg/binned_river_f.nc")
#: River and canal classes a corridor may follow: rivers (0-4) and navigable canals (8-9).
NAVIGABLE_LEVELS = (0, 1, 2, 3, 4, 8, 9)


class RiverLines:
    """WDB II river and canal lines, looked up by bounding box."""

    def __init__(self, path: Path = RIVER_FILE) -> None:
        import h5py

        with h5py.File(path, "r") as data:
            self.bin_deg = float(data["Bin_size_in_minutes"][0]) / 60.0
            self.columns = int(data["N_bins_in_360_longitude_range"][0])
            self.first_segment = data["Id_of_first_segment_in_a_bin"][:].astype(np.int64)
            self.segments = data["N_segments_in_a_bin"][:].astype(np.int64) & 0xFFFF
            self.points = data["N_points_for_a_segment"][:].astype(np.int64) & 0xFFFF
            self.level = data["Hierarchial_level_of_a_segment"][:].astype(np.int64)
            self.first_point = data["Id_of_first_point_in_a_segment"][:].astype(np.int64)
            self.dlon = data["Relative_longitude_from_SW_corner_of_bin"][:].astype(np.int64)
            self.dlat = data["Relative_latitude_from_SW_corner_of_bin"][:].astype(np.int64)
        self.dlon &= 0xFFFF
        self.dlat &= 0xFFFF

    def lines(
        self, bbox: tuple[float, float, float, float], levels: tuple[int, ...] = NAVIGABLE_LEVELS
    ) -> list[FloatArray]:
        """Every line of the given levels in bins meeting ``bbox`` (lon_min, lat_min, lon_max,
        lat_max, degrees), as (N, 2) lon/lat arrays."""
        lon_min, lat_min, lon_max, lat_max = bbox
        out: list[FloatArray] = []
        rows = range(
            int((90.0 - lat_max) // self.bin_deg), int((90.0 - lat_min) // self.bin_deg) + 1
        )
        for row in rows:
            south = 90.0 - (row + 1) * self.bin_deg
            for col in range(int(np.floor(lon_min)), int(np.floor(lon_max)) + 1):
                west = float(col)
                out.extend(self._bin_lines(row, col % self.columns, west, south, levels))
        return out

    def _bin_lines(
        self, row: int, col: int, west: float, south: float, levels: tuple[int, ...]
    ) -> list[FloatArray]:
        """The lines of one bin, placed at its south-west corner (west, south)."""
        b = row * self.columns + col
        out: list[FloatArray] = []
        for s in range(self.first_segment[b], self.first_segment[b] + self.segments[b]):
            if int(self.level[s]) not in levels:
                continue
            p = slice(self.first_point[s], self.first_point[s] + self.points[s])
            lon = west + self.dlon[p] / 65535.0 * self.bin_deg
            lat = south + self.dlat[p] / 65535.0 * self.bin_deg
            out.append(np.stack([lon, lat], axis=1))
        return out


@cache
def river_lines() -> Any:
    """The WDB II lines, read once per process."""
    return RiverLines()

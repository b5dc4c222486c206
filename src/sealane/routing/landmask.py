"""Land/sea mask at one arc-minute, stored as run lengths per latitude row.

Built offline from the GLOBE 1 km land mask (see ``data/README.md``); a cell counts as land only
when all of its 1 km samples are land, so narrow channels stay navigable. Used to tell whether a
vessel's reported position is at sea and, when it is just ashore, where the nearest sea is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from .data import data_dir
from .geodesy import FloatArray, distance_m


@dataclass(frozen=True, slots=True)
class SeaPoint:
    """The sea point nearest a query: (lon, lat) and how far it was moved, metres (0 if at sea)."""

    lon: float
    lat: float
    moved_m: float


class LandMask:
    """Run-length encoded land mask: row r covers latitudes 90 - r/60 down to 90 - (r+1)/60."""

    def __init__(
        self, row_ptr: npt.NDArray[np.int64], flips: npt.NDArray[np.uint16], per_deg: int
    ) -> None:
        self.row_ptr = row_ptr
        self.flips = flips
        self.per_deg = per_deg
        self.rows = 180 * per_deg
        self.cols = 360 * per_deg
        self._keys: npt.NDArray[np.int64] | None = None

    def _cell(self, lon: float, lat: float) -> tuple[int, int]:
        row = min(max(int((90.0 - lat) * self.per_deg), 0), self.rows - 1)
        col = int(((lon + 180.0) % 360.0) * self.per_deg) % self.cols
        return row, col

    def _row_is_land(self, row: int, cols: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        flips = self.flips[self.row_ptr[row] : self.row_ptr[row + 1]]
        return np.asarray(np.searchsorted(flips, cols, side="right") % 2 == 1)

    def is_land(self, lon: float, lat: float) -> bool:
        """Whether (lon, lat) falls in a land cell.

        >>> mask = default_landmask()
        >>> mask.is_land(2.35, 48.85), mask.is_land(-40.0, 40.0)
        (True, False)
        """
        row, col = self._cell(lon, lat)
        return bool(self._row_is_land(row, np.array([col]))[0])

    def land_at(self, lons: FloatArray, lats: FloatArray) -> npt.NDArray[np.bool_]:
        """Whether each point falls in a land cell (:meth:`is_land` for many points: one search
        over the run boundaries of every row, keyed by row).

        >>> default_landmask().land_at(np.array([2.35, -40.0]), np.array([48.85, 40.0])).tolist()
        [True, False]
        """
        rows = np.clip(((90.0 - lats) * self.per_deg).astype(np.int64), 0, self.rows - 1)
        cols = (((lons + 180.0) % 360.0) * self.per_deg).astype(np.int64) % self.cols
        keys = self._row_keys()
        before = np.searchsorted(keys, rows * (self.cols + 1) + cols, side="right")
        return np.asarray((before - self.row_ptr[rows]) % 2 == 1)

    def _row_keys(self) -> npt.NDArray[np.int64]:
        """Every run boundary as ``row * (cols + 1) + column``, sorted (made on first use)."""
        if self._keys is None:
            counts = np.diff(self.row_ptr)
            row_of = np.repeat(np.arange(counts.size, dtype=np.int64), counts)
            self._keys = row_of * (self.cols + 1) + self.flips.astype(np.int64)
        return self._keys

    def nearest_sea(self, lon: float, lat: float, *, within_m: float) -> SeaPoint | None:
        """The nearest sea cell centre within ``within_m`` metres, or None if all is land there."""
        if not self.is_land(lon, lat):
            return SeaPoint(lon, lat, 0.0)
        reach_rows = math.ceil(within_m / 1852.0 * self.per_deg / 60.0) + 1
        row0, col0 = self._cell(lon, lat)
        cos_lat = max(math.cos(math.radians(lat)), 0.01)
        reach_cols = min(math.ceil(reach_rows / cos_lat) + 1, self.cols // 2)
        best: SeaPoint | None = None
        cols = (col0 + np.arange(-reach_cols, reach_cols + 1)) % self.cols
        for row in range(max(row0 - reach_rows, 0), min(row0 + reach_rows, self.rows - 1) + 1):
            water = cols[~self._row_is_land(row, cols)]
            if water.size == 0:
                continue
            c_lat = 90.0 - (row + 0.5) / self.per_deg
            c_lon = (water + 0.5) / self.per_deg - 180.0
            approx = np.hypot((c_lon - lon + 540.0) % 360.0 - 180.0, (c_lat - lat) / cos_lat)
            i = int(np.argmin(approx))
            moved = distance_m(lon, lat, float(c_lon[i]), c_lat)
            if moved <= within_m and (best is None or moved < best.moved_m):
                best = SeaPoint(float(c_lon[i]), c_lat, moved)
        return best


def load_landmask(path: Path | None = None) -> LandMask:
    """Load ``landmask.npz`` written by :mod:`sealane.routing.build`."""
    from .data.formats import LANDMASK, Landmask  # on first use, off the cold start

    with np.load(path or data_dir() / LANDMASK.name) as archive:
        return LandMask(
            Landmask.ROW_PTR.read(archive),
            Landmask.FLIPS.read(archive),
            int(Landmask.PER_DEG.read(archive)),
        )


@cache
def default_landmask() -> LandMask:
    """The shipped land mask, loaded on first use (not at import: a route between ports never
    reads it; one from a coordinate does, to judge where water is)."""
    return load_landmask()

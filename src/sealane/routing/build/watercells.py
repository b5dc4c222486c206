"""Writing ``water_cells.npz``: the one-arc-minute cells of the land mask that hold water by the
GSHHG full-resolution shoreline although the GLOBE mask calls them land.

GLOBE marks only the sea as water, so the lakes a canal runs through (the Great and Little
Bitter Lakes and Lake Timsah on the Suez Canal, Gatun Lake on the Panama Canal) and the wider
reaches of canals and rivers are land in ``landmask.npz``, and ships at anchor or under way
there would be refused as on land. GSHHG (``roaring-landmask``, :mod:`.coast`) has them as
water. Each land cell of the mask within a traced corridor's box (``corridors.geojson``, widened
by :data:`MARGIN_DEG`) is sampled at :data:`SAMPLES` x :data:`SAMPLES` points; a cell with any
sample off the shoreline's land is listed. The engine reads the list in :mod:`..water`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..data.formats import CORRIDORS, WATER_CELLS, WaterCells
from ..landmask import load_landmask
from .coast import coastline
from .joins import log

#: Widening of each corridor's bounding box, degrees (the lakes beside a canal's centre line).
MARGIN_DEG = 0.1
#: Samples per cell side.
SAMPLES = 3


def water_cells(boxes: list[tuple[float, float, float, float]], data: Path) -> np.ndarray:
    """Sorted keys (``row * cols + col`` of the land mask's grid) of the land cells in ``boxes``
    (west, south, east, north in degrees) that GSHHG finds water in."""
    mask = load_landmask(data / "landmask.npz")
    per = mask.per_deg
    found: list[np.ndarray] = []
    for west, south, east, north in boxes:
        rows = np.arange(int((90.0 - north) * per), int((90.0 - south) * per) + 1)
        cols = np.arange(int((west + 180.0) * per), int((east + 180.0) * per) + 1) % mask.cols
        row, col = (grid.ravel() for grid in np.meshgrid(rows, cols, indexing="ij"))
        lon, lat = (col + 0.5) / per - 180.0, 90.0 - (row + 0.5) / per
        land = mask.land_at(lon, lat)
        row, col = row[land], col[land]
        offsets = (np.arange(SAMPLES) + 0.5) / SAMPLES
        d_lon, d_lat = (grid.ravel() for grid in np.meshgrid(offsets, offsets))
        s_lon = (col[:, None] + d_lon[None, :]) / per - 180.0
        s_lat = 90.0 - (row[:, None] + d_lat[None, :]) / per
        wet = ~coastline().is_land(s_lon, s_lat).reshape(s_lon.shape)
        keep = wet.any(axis=1)
        found.append(row[keep].astype(np.int64) * mask.cols + col[keep])
    return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int64)


def write_water_cells(out: Path) -> None:
    """Write ``water_cells.npz`` into ``out`` from the corridors and land mask there."""
    boxes = []
    for _, _, line in CORRIDORS.read(out / CORRIDORS.name):
        points = np.asarray(line, dtype=np.float64)
        boxes.append(
            (
                float(points[:, 0].min()) - MARGIN_DEG,
                float(points[:, 1].min()) - MARGIN_DEG,
                float(points[:, 0].max()) + MARGIN_DEG,
                float(points[:, 1].max()) + MARGIN_DEG,
            )
        )
    keys = water_cells(boxes, out)
    mask = load_landmask(out / "landmask.npz")
    WATER_CELLS.save(
        out / WATER_CELLS.name,
        {WaterCells.KEYS.key: keys, WaterCells.PER_DEG.key: np.array(mask.per_deg)},
    )
    log(f"water_cells.npz: {keys.size} land cells of the mask that GSHHG finds water in")

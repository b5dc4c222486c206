"""Writing ``landmask.npz``, the engine's land/sea mask, from the GLOBE 1 km land mask (the
``global-land-mask`` package): one arc-minute cells stored as run boundaries per latitude row.

A one-minute cell is land only when all four of its half-minute samples are land, so narrow
channels stay navigable (see :mod:`sealane.routing.landmask`, which reads it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..data.formats import LANDMASK, Landmask
from .joins import log

#: Cells per degree of the written mask (GLOBE's own grid is two per arc-minute).
PER_DEG = 60


def row_flips(land: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a boolean land grid, the columns where land and sea alternate (a row starts at
    sea), as one flat array and the offset of each row's first entry.

    >>> ptr, flips = row_flips(np.array([[False, True, True, False], [True, False, False, False]]))
    >>> ptr.tolist(), flips.tolist()
    ([0, 2, 4], [1, 3, 0, 1])
    """
    pointers = [0]
    runs: list[np.ndarray] = []
    for row in land:
        padded = np.concatenate([[False], row])
        flips = np.flatnonzero(padded[1:] != padded[:-1]).astype(np.uint16)
        runs.append(flips)
        pointers.append(pointers[-1] + flips.size)
    return np.array(pointers, dtype=np.int64), np.concatenate(runs)


def write_landmask(out: Path) -> None:
    """Write ``landmask.npz`` into ``out`` (compressed: the engine loads it whole, on first use)."""
    from global_land_mask import globe

    water = globe._mask  # (21600, 43200), True where GLOBE has no elevation; row 0 at 90 N
    land = ~(water[0::2, 0::2] | water[1::2, 0::2] | water[0::2, 1::2] | water[1::2, 1::2])
    pointers, flips = row_flips(land)
    arrays = {
        Landmask.ROW_PTR.key: pointers,
        Landmask.FLIPS.key: flips,
        Landmask.PER_DEG.key: np.array(PER_DEG),
    }
    LANDMASK.save(out / LANDMASK.name, arrays)
    log(f"landmask.npz: {land.shape[0]} rows, {pointers[-1]} run boundaries")

"""The land drawn under the web map: ``land.npz`` in the engine's shipped data (Natural Earth
1:50m land, simplified; written by ``python -m sealane.routing.build``), read as integer rings.

The file is read here so the web app, which turns it into SVG, imports no engine module.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ...routing.data import data_dir


class LandRings(NamedTuple):
    """Every land ring: ``points`` (lon, lat) in ``1 / scale`` degrees, ring ``i`` being
    ``points[offsets[i]:offsets[i + 1]]``."""

    points: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]
    scale: int


def land_rings(path: Path | None = None) -> LandRings:
    """The rings of ``path`` (default: the shipped ``land.npz``)."""
    with np.load(path or data_dir() / "land.npz") as archive:
        return LandRings(
            archive["points"].astype(np.int64),
            archive["offsets"].astype(np.int64),
            int(archive["scale"]),
        )

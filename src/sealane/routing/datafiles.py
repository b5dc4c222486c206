"""Where the engine's data files live: inside an installed wheel, or ``data/`` in a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def data_dir() -> Path:
    """The directory holding ``marnet.npz``, ``ports.csv`` and ``passages.json``."""
    packaged = Path(__file__).resolve().parents[1] / "_data"
    if (packaged / "ports.csv").exists():
        return packaged
    return Path(__file__).resolve().parents[3] / "data"

"""The land of the tracking map: ``data/land.npz`` (Natural Earth 1:50m land, simplified) as one
SVG path in map units (x = longitude, y = -latitude, degrees), built once per process."""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from pathlib import Path

import numpy as np

from ..service.reference.land import land_rings


def _number(value: int, scale: int) -> str:
    """``value / scale`` in the fewest characters: ``-0.5`` -> ``-.5``, ``2.0`` -> ``2``."""
    text = f"{value / scale:.2f}".rstrip("0").rstrip(".")
    if text.startswith("0."):
        return text[1:]
    if text.startswith("-0."):
        return "-" + text[2:]
    return text or "0"


def _pair(dx: int, dy: int, scale: int) -> str:
    second = _number(dy, scale)
    glue = "" if second.startswith("-") else " "
    return _number(dx, scale) + glue + second


@lru_cache(maxsize=2)
def land_path(path: Path | None = None) -> str:
    """The ``d`` attribute drawing every land ring (absolute start, relative steps, closed)."""
    points, offsets, scale = land_rings(path)
    points[:, 1] = -points[:, 1]
    parts: list[str] = []
    for start, end in pairwise(offsets):
        ring = points[start:end]
        steps = np.diff(ring, axis=0)
        head = f"M{_pair(int(ring[0, 0]), int(ring[0, 1]), scale)}l"
        parts.append(head + " ".join(_pair(int(x), int(y), scale) for x, y in steps) + "z")
    return "".join(parts)


def land_svg() -> str:
    """A standalone SVG document holding the land as ``<path id="land">``, which map pages
    reference with ``<use href=".../land.svg#land">`` (drawn three times for wrap-around)."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-180 -90 360 180">'
        f'<path id="land" vector-effect="non-scaling-stroke" d="{land_path()}"/></svg>'
    )

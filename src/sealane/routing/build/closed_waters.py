"""Waters no container ship sails through, cut out of the network at their entrances.

Nantucket and Vineyard Sounds are 10-15 m deep over shoals, and ocean traffic between the Gulf of
Maine and New York passes south of the Nantucket Shoals; searoute's network runs a lane through
them, and the build's shortcuts follow it. A passage bit would let ``allow=`` reopen such water,
but the graph file's 32 bits are all taken (28 passages and four depth bands), so the build drops
every edge that crosses one of the ``closed_waters`` gates of ``passages.json`` instead: the
water behind them stays reachable from its other entrances (the ports in it keep their lanes),
but no route passes through. Build-time only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..geodesy import FloatArray
from .tags import tag_passages


def crossing_closed_waters(
    lon: FloatArray, lat: FloatArray, u: np.ndarray, v: np.ndarray, spec: dict[str, Any]
) -> np.ndarray:
    """Per edge, whether its segment crosses a gate of one of ``spec``'s ``closed_waters``."""
    gates = {
        f"closed{k}": {"gates": water["gates"]}
        for k, water in enumerate(spec.get("closed_waters", []))
    }
    if not gates or u.size == 0:
        return np.zeros(u.size, dtype=bool)
    crossed: np.ndarray = tag_passages(lon, lat, u, v, gates) != 0
    return crossed

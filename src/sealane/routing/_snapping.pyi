"""Type stub of the compiled snapping kernel (``_snapping.c``); see ``snapping.ArcsPython``, its
twin."""

import numpy as np
import numpy.typing as npt

#: (edge, angle in radians, lon, lat, fraction of the edge from its u end) of the nearest arc.
Nearest = tuple[int, float, float, float, float]

class Arcs:
    def __init__(self, *arrays: npt.NDArray[np.generic]) -> None: ...
    def in_cell(self, lon: float, lat: float, cell: int, /) -> Nearest | None: ...
    def among(
        self, lon: float, lat: float, ids: npt.NDArray[np.int32], blocked: int, reach: float, /
    ) -> Nearest | None: ...

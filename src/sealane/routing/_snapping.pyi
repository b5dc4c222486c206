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
    def ahead(
        self,
        lon: float,
        lat: float,
        cell: int,
        goal_lon: float,
        goal_lat: float,
        count: int,
        reach: float,
        /,
    ) -> list[tuple[int, int, float]]: ...
    def near(
        self, lon: float, lat: float, blocked: int, within: float, slack: float, cell_deg: float, /
    ) -> Nearest | None: ...

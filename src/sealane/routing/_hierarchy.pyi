"""Type stub of the compiled hierarchy query (``_hierarchy.c``); ``hierarchy.HierarchyPython`` is
its twin."""

import numpy as np
import numpy.typing as npt

class Hierarchy:
    def __init__(self, *arrays: npt.NDArray[np.generic]) -> None: ...
    def climb(
        self,
        blocked: int,
        sources: npt.NDArray[np.int32],
        source_costs: npt.NDArray[np.float64],
        targets: npt.NDArray[np.int32],
        target_costs: npt.NDArray[np.float64],
        /,
    ) -> tuple[float, bytes] | None: ...
    def space(
        self, blocked: int, ends: npt.NDArray[np.int32], costs: npt.NDArray[np.float64], /
    ) -> bytes: ...
    def meet(
        self, origin_space: object, destination_space: object, /
    ) -> tuple[float, bytes] | None: ...
    def climb_to(
        self,
        blocked: int,
        space: object,
        known_side: int,
        ends: npt.NDArray[np.int32],
        costs: npt.NDArray[np.float64],
        /,
    ) -> tuple[float, bytes] | None: ...

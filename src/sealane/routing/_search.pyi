"""Type stub of the compiled A* kernel (``_search.c``); ``search.CorePython`` is its twin."""

import numpy as np
import numpy.typing as npt

class Core:
    def __init__(
        self,
        indptr: npt.NDArray[np.int32],
        indices: npt.NDArray[np.int32],
        weights: npt.NDArray[np.float64],
        edge_ids: npt.NDArray[np.int32],
        edge_masks: npt.NDArray[np.uint32],
        xyz: npt.NDArray[np.float64],
        h_scale: float,
        /,
    ) -> None: ...
    def astar(
        self,
        blocked: int,
        sources: npt.NDArray[np.int32],
        source_costs: npt.NDArray[np.float64],
        targets: npt.NDArray[np.int32],
        target_costs: npt.NDArray[np.float64],
        goal_lon: float,
        goal_lat: float,
        landmarks: npt.NDArray[np.float64],
        /,
    ) -> tuple[float, bytes] | None: ...

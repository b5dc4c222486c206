"""Type stub of the compiled A* kernel (``_search.c``); see ``search.astar_python`` for the twin."""

import numpy as np
import numpy.typing as npt

def astar(
    indptr: npt.NDArray[np.int32],
    indices: npt.NDArray[np.int32],
    weights: npt.NDArray[np.float64],
    edge_ids: npt.NDArray[np.int32],
    edge_masks: npt.NDArray[np.uint32],
    blocked: int,
    h_scale: float,
    xyz: npt.NDArray[np.float64],
    sources: npt.NDArray[np.int32],
    source_costs: npt.NDArray[np.float64],
    targets: npt.NDArray[np.int32],
    target_costs: npt.NDArray[np.float64],
    gx: float,
    gy: float,
    gz: float,
    landmarks: npt.NDArray[np.float64],
    goal_landmarks: npt.NDArray[np.float64],
    /,
) -> tuple[float, bytes] | None: ...

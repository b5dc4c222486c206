"""Type stub of the compiled hierarchy query (``_hierarchy.c``); see ``hierarchy.climb_python``."""

import numpy as np
import numpy.typing as npt

def climb(
    up_ptr: npt.NDArray[np.int32],
    up_head: npt.NDArray[np.int32],
    up_weight: npt.NDArray[np.float64],
    up_middle: npt.NDArray[np.int32],
    up_children: npt.NDArray[np.int32],
    up_mask: npt.NDArray[np.uint32],
    blocked: int,
    sources: npt.NDArray[np.int32],
    source_costs: npt.NDArray[np.float64],
    targets: npt.NDArray[np.int32],
    target_costs: npt.NDArray[np.float64],
    /,
) -> tuple[float, bytes] | None: ...

"""Type stub of the compiled JSON renderer (``_positions_json.c``).

Its numpy twins are ``positions_json._positions_json_numpy`` and ``_rows_json_numpy``.
"""

import numpy as np
import numpy.typing as npt

def render(
    lats: npt.NDArray[np.float64],
    lons: npt.NDArray[np.float64],
    headings: npt.NDArray[np.float64],
    seconds: npt.NDArray[np.int64],
    head: bytes,
    tail: bytes,
    /,
) -> bytes: ...
def render_rows(
    lats: npt.NDArray[np.float64],
    lons: npt.NDArray[np.float64],
    headings: npt.NDArray[np.float64],
    seconds: npt.NDArray[np.int64],
    start: int,
    stop: int,
    head: bytes,
    tail: bytes,
    /,
) -> bytes: ...

"""Type stub of the compiled network (``_network.c``); see ``network.NetworkPython``, its twin."""

import numpy as np
import numpy.typing as npt

class Network:
    def __init__(self, *arrays: npt.NDArray[np.generic]) -> None: ...
    def unfold(
        self,
        core_path: bytes | npt.NDArray[np.int32],
        blocked: int,
        origin_edge: int,
        origin_at_m: float,
        destination_edge: int,
        destination_at_m: float,
        /,
    ) -> tuple[bytes, bytes]: ...
    def leg(
        self,
        nodes: bytes | npt.NDArray[np.int32],
        edges: bytes | npt.NDArray[np.int32],
        start_lon: float,
        start_lat: float,
        a_lon: float,
        a_lat: float,
        a_edge: int,
        b_lon: float,
        b_lat: float,
        b_edge: int,
        end_lon: float,
        end_lat: float,
        /,
    ) -> tuple[bytes, bytes, bytes] | None: ...

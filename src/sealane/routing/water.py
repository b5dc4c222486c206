"""Where water is: whether a position a vessel reports, or a route is asked from, is afloat.

A position is water when the one-arc-minute land mask calls it sea, when GSHHG's full-resolution
shoreline has water in its cell although the mask does not (``water_cells.npz``: the lakes and
wide reaches along the canals and rivers), or when it lies on the network's own water: within
:data:`LANE_HALF_WIDTH_M` of a lane (every lane, port approach and corridor leg of the network
runs on water; the build re-routes any that crossed the GSHHG shoreline), within a traced
corridor's half width (the canals and rivers of ``corridors.geojson``, whose banks the land mask
calls land), or within :data:`PORT_TOLERANCE_M` of a port with a water approach (its basins and
berths). A position in a land cell that is none of these and lies within
:data:`ASHORE_TOLERANCE_M` of a sea cell is just ashore (a fix off by its GPS error or a coarse
coastline) and is moved there; anything farther inland is an
:class:`~.errors.OnLandError`. A port flagged inland (no water approach) counts for nothing, so
a position in Prague or Duisburg is refused however near its port.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from .data import data_dir
from .errors import OnLandError
from .geodesy import (
    MEAN_EARTH_RADIUS_M,
    FloatArray,
    arc_normals,
    nearest_on_arcs,
    unit_vector,
    unit_vectors,
)
from .graph import SeaGraph
from .landmask import LandMask, default_landmask
from .locations import Location
from .ports import registry

#: How far from a lane (metres) a position is on the lane's own water, whatever the mask says.
LANE_HALF_WIDTH_M = 1_000.0
#: How far from a port with a water approach (metres) a position is in its docks, river reaches
#: or basins (a large port's berths lie up to ~30 km from the point the network joins).
PORT_TOLERANCE_M = 30_000.0
#: How far ashore (metres) a position is moved to the nearest sea cell rather than refused.
ASHORE_TOLERANCE_M = 10_000.0


@dataclass(frozen=True, slots=True)
class Corridor:
    """A traced canal or river: its centre line as arcs on the unit sphere (start, end and
    normal rows), its half width in metres and its bounding box in degrees, widened by it."""

    name: str
    arcs: tuple[FloatArray, FloatArray, FloatArray]
    half_width_m: float
    box: tuple[float, float, float, float]

    def holds(self, lon: float, lat: float) -> bool:
        """Whether (lon, lat) lies within the half width of the centre line."""
        west, south, east, north = self.box
        if not (west <= lon <= east and south <= lat <= north):
            return False
        _, angle, _ = nearest_on_arcs(unit_vector(lon, lat), *self.arcs)
        return angle * MEAN_EARTH_RADIUS_M <= self.half_width_m


def corridor_of(name: str, line: FloatArray, half_width_m: float) -> Corridor:
    """A :class:`Corridor` from its (N, 2) lon/lat centre line."""
    xyz = unit_vectors(line[:, 0], line[:, 1])
    a, b = xyz[:-1], xyz[1:]
    pad_lat = math.degrees(half_width_m / MEAN_EARTH_RADIUS_M)
    pad_lon = pad_lat / max(math.cos(math.radians(float(np.abs(line[:, 1]).max()))), 0.01)
    box = (
        float(line[:, 0].min()) - pad_lon,
        float(line[:, 1].min()) - pad_lat,
        float(line[:, 0].max()) + pad_lon,
        float(line[:, 1].max()) + pad_lat,
    )
    return Corridor(name, (a, b, arc_normals(a, b)), half_width_m, box)


@cache
def corridors() -> tuple[Corridor, ...]:
    """The shipped traced corridors (``corridors.geojson``), read on first use."""
    from .data.formats import CORRIDORS

    return tuple(
        corridor_of(name, np.asarray(line, dtype=np.float64), half_width)
        for name, half_width, line in CORRIDORS.read(data_dir() / CORRIDORS.name)
    )


class WaterCells:
    """The land mask's cells that hold water by the GSHHG full-resolution shoreline (the lakes
    and wide reaches of the canals and rivers; ``water_cells.npz``)."""

    def __init__(self, keys: npt.NDArray[np.int64], per_deg: int) -> None:
        self._keys = keys
        self._per_deg = per_deg

    def holds(self, lon: float, lat: float) -> bool:
        """Whether (lon, lat) falls in a listed cell."""
        per = self._per_deg
        row = min(max(int((90.0 - lat) * per), 0), 180 * per - 1)
        col = int(((lon + 180.0) % 360.0) * per) % (360 * per)
        key = row * 360 * per + col
        at = int(np.searchsorted(self._keys, key))
        return at < self._keys.size and int(self._keys[at]) == key


@cache
def shoreline_water() -> WaterCells:
    """The shipped water cells, read on first use."""
    from .data.formats import WATER_CELLS
    from .data.formats import WaterCells as Arrays

    with np.load(data_dir() / WATER_CELLS.name) as archive:
        return WaterCells(Arrays.KEYS.read(archive), int(Arrays.PER_DEG.read(archive)))


class WaterPorts:
    """The ports with a water approach the network reaches, as unit vectors for a nearest-port
    search."""

    def __init__(self) -> None:
        at = registry().positions(reached=True)
        self._xyz = unit_vectors(at[:, 0], at[:, 1])

    def within(self, lon: float, lat: float, distance_m: float) -> bool:
        """Whether a port with a water approach lies within ``distance_m`` of (lon, lat)."""
        nearest = float(np.max(self._xyz @ unit_vector(lon, lat)))
        return math.acos(min(1.0, nearest)) * MEAN_EARTH_RADIUS_M <= distance_m


@cache
def water_ports() -> WaterPorts:
    """The shipped ports with a water approach, made on first use."""
    return WaterPorts()


def on_own_water(graph: SeaGraph, lon: float, lat: float) -> bool:
    """Whether (lon, lat) is on the network's own water: beside a lane, in a traced corridor
    or in the basins of a port with a water approach."""
    if graph.snap(lon, lat).distance_m <= LANE_HALF_WIDTH_M:
        return True
    if any(corridor.holds(lon, lat) for corridor in corridors()):
        return True
    return water_ports().within(lon, lat, PORT_TOLERANCE_M)


def afloat(where: Location, what: str, graph: SeaGraph, mask: LandMask | None = None) -> Location:
    """``where`` as a vessel there is taken to be: itself when on water (:func:`on_own_water`,
    or a sea cell of the mask), moved to the nearest sea cell when at most
    :data:`ASHORE_TOLERANCE_M` ashore; an :class:`~.errors.OnLandError` naming ``what`` and the
    coordinate otherwise. A port's own position is water.

    >>> from .graph import default_graph
    >>> afloat(Location(32.3185, 30.62), "start", default_graph())  # in the Suez Canal
    Location(lon=32.3185, lat=30.62, port=None)
    >>> afloat(Location(14.42, 50.08), "start", default_graph())  # Prague
    Traceback (most recent call last):
    ...
    sealane.routing.errors.OnLandError: start (14.42, 50.08) is on land: ...
    """
    if where.port is not None:
        return where
    judged = _judged(where.lon, where.lat, graph, mask or default_landmask())
    if judged is not None:
        return where if judged == (where.lon, where.lat) else Location(*judged)
    raise OnLandError(
        f"{what} ({where.lon}, {where.lat}) is on land: more than "
        f"{ASHORE_TOLERANCE_M / 1000:g} km from the sea, "
        f"{LANE_HALF_WIDTH_M / 1000:g} km from a sea lane, outside every canal and river "
        f"corridor and more than {PORT_TOLERANCE_M / 1000:g} km from a port with a water approach"
    )


@lru_cache(maxsize=8192)
def _judged(lon: float, lat: float, graph: SeaGraph, land: LandMask) -> tuple[float, float] | None:
    """Where a vessel at (lon, lat) is taken to be, or None when on land (remembered: a live
    vessel or a fleet asks again and again about the same positions)."""
    if not land.is_land(lon, lat) or shoreline_water().holds(lon, lat):
        return (lon, lat)
    if on_own_water(graph, lon, lat):
        return (lon, lat)
    sea = land.nearest_sea(lon, lat, within_m=ASHORE_TOLERANCE_M)
    return None if sea is None else (sea.lon, sea.lat)

"""Port-to-port (or point-to-point) sea routes: the public ``route()`` and its ``Route`` result.

A route is snapped onto the network at both ends, searched with the closed passages removed, and
returned as a WGS84 polyline whose length is measured geodesically, off-network legs included.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .errors import InvalidCoordinateError, InvalidSpeedError, NoRouteError
from .geodesy import (
    METRES_PER_KM,
    METRES_PER_NM,
    FloatArray,
    segment_lengths_m,
    split_at_antimeridian,
    unwrap_lons,
)
from .geodesy import (
    distance_m as geodesic_m,
)
from .graph import SeaGraph, Snap, default_graph
from .interop import lines_to_shapely
from .passages import Passage, closed_passages, names_from_mask, passage_mask
from .paths import shortest_path
from .ports import Port, get_port

if TYPE_CHECKING:
    from shapely.geometry import LineString, MultiLineString

#: A place a route can start or end: a LOCODE or port id, a Port, or a (lon, lat) pair.
LocationLike = str | Port | Sequence[float] | FloatArray
#: A point this much farther from the open network than from a closed passage lies in that passage.
IN_PASSAGE_MARGIN_M = 50_000.0


@dataclass(frozen=True, slots=True)
class Location:
    """A resolved route end: (lon, lat) in degrees and the port it names, if any."""

    lon: float
    lat: float
    port: Port | None = None

    @property
    def coordinates(self) -> tuple[float, float]:
        """(lon, lat) in degrees."""
        return (self.lon, self.lat)


def resolve_location(value: LocationLike, what: str = "location") -> Location:
    """A :class:`Location` from a LOCODE, port id, :class:`Port` or (lon, lat) pair.

    >>> resolve_location((4.0, 52.0)) == resolve_location([4.0, 52.0])
    True
    """
    if isinstance(value, Port):
        return Location(value.lon, value.lat, value)
    if isinstance(value, str):
        port = get_port(value)
        return Location(port.lon, port.lat, port)
    try:
        items = list(value)
        if len(items) != 2 or not all(_is_number(item) for item in items):
            raise ValueError
    except (TypeError, ValueError):
        raise InvalidCoordinateError(
            f"{what} must be a UN/LOCODE, a port id or a (lon, lat) pair, got {value!r}"
        ) from None
    lon, lat = float(items[0]), float(items[1])
    if not (math.isfinite(lon) and -180.0 <= lon <= 180.0):
        raise InvalidCoordinateError(f"{what} longitude {lon!r} is not within [-180, 180]")
    if not (math.isfinite(lat) and -90.0 <= lat <= 90.0):
        raise InvalidCoordinateError(f"{what} latitude {lat!r} is not within [-90, 90]")
    return Location(-180.0 if lon == 180.0 else lon, lat)


def _is_number(value: object) -> bool:
    """A real number that is not a bool or a string (numpy scalars count)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Route:
    """A sea route: WGS84 polyline, geodesic length and the passages sailed, in order."""

    #: (N, 2) lon/lat in degrees, lon in [-180, 180), read-only.
    coordinates: FloatArray
    #: Geodesic length of each of the N - 1 segments, metres, read-only.
    segment_m: FloatArray
    #: Passage bit mask of each segment (bits named by ``passage_names``), read-only.
    segment_passages: npt.NDArray[np.uint32]
    passage_names: tuple[str, ...]
    origin: Location
    destination: Location

    @property
    def passages(self) -> tuple[str, ...]:
        """Names of the passages sailed, in the order they are first reached."""
        masks = self.segment_passages
        return ordered_passages(masks[masks != 0].tolist(), self.passage_names)

    def tail(self, segment: int, lon: float, lat: float, start: Location) -> Route:
        """The rest of this route from a point on segment ``segment``, reached from ``start``.

        The result runs start -> (lon, lat) -> the vertices after that segment -> destination.
        """
        rest = self.coordinates[segment + 1 :]
        coords = np.concatenate([[[start.lon, start.lat], [lon, lat]], rest])
        lengths = np.concatenate(
            [segment_lengths_m(coords[:3, 0], coords[:3, 1]), self.segment_m[segment + 1 :]]
        )
        masks = np.concatenate(
            [[0, self.segment_passages[segment]], self.segment_passages[segment + 1 :]]
        )
        return _assemble(
            coords, lengths, masks.astype(np.uint32), self.passage_names, start, self.destination
        )

    def head(self, segment: int, lon: float, lat: float, end: Location) -> Route:
        """This route up to a point on segment ``segment``, then on to ``end``.

        The result runs origin -> the vertices before that point -> (lon, lat) -> end: the part
        of the route a vessel at ``end`` has sailed, the mirror of :meth:`tail`.
        """
        coords = np.concatenate([self.coordinates[: segment + 1], [[lon, lat], [end.lon, end.lat]]])
        lengths = np.concatenate(
            [self.segment_m[:segment], segment_lengths_m(coords[-3:, 0], coords[-3:, 1])]
        )
        masks = np.concatenate(
            [self.segment_passages[:segment], [self.segment_passages[segment], 0]]
        )
        return _assemble(
            coords, lengths, masks.astype(np.uint32), self.passage_names, self.origin, end
        )

    @property
    def distance_m(self) -> float:
        """Length of the route in metres."""
        return float(self.segment_m.sum())

    @property
    def distance_km(self) -> float:
        """Length of the route in kilometres."""
        return self.distance_m / METRES_PER_KM

    @property
    def distance_nm(self) -> float:
        """Length of the route in nautical miles (1852 m)."""
        return self.distance_m / METRES_PER_NM

    def duration_h(self, speed_kn: float) -> float:
        """Hours to sail the route at ``speed_kn`` knots.

        >>> round(route("NLRTM", "BEANR").duration_h(12.0), 1) > 0
        True
        """
        valid = isinstance(speed_kn, numbers.Real) and not isinstance(speed_kn, bool)
        if not (valid and math.isfinite(speed_kn) and speed_kn > 0):
            raise InvalidSpeedError(f"speed must be a positive number of knots, got {speed_kn!r}")
        return self.distance_nm / float(speed_kn)

    def to_geojson(self, *, continuous: bool = False) -> dict[str, Any]:
        """The route as an RFC 7946 Feature.

        Split at the antimeridian into a MultiLineString when it crosses; with ``continuous=True``
        one LineString whose longitudes run on past +-180 without a jump (for plotting).
        """
        lons, lats = self.coordinates[:, 0], self.coordinates[:, 1]
        geometry: dict[str, Any]
        if continuous:
            line = np.stack([unwrap_lons(lons), lats], axis=1).tolist()
            geometry = {"type": "LineString", "coordinates": line}
        else:
            parts = split_at_antimeridian(lons, lats)
            if len(parts) == 1:
                geometry = {"type": "LineString", "coordinates": parts[0]}
            else:
                geometry = {"type": "MultiLineString", "coordinates": parts}
        properties = {
            "distance_m": self.distance_m,
            "distance_km": self.distance_km,
            "distance_nm": self.distance_nm,
            "passages": list(self.passages),
        }
        return {"type": "Feature", "geometry": geometry, "properties": properties}

    def to_shapely(self) -> LineString | MultiLineString:
        """The path as a shapely LineString, a MultiLineString when it crosses the antimeridian
        (needs the ``geo`` extra)."""
        return lines_to_shapely(self.coordinates[:, 0], self.coordinates[:, 1])


def route(
    origin: LocationLike,
    destination: LocationLike,
    *,
    avoid: Iterable[str | Passage] = (),
    via: Sequence[LocationLike] = (),
    allow_arctic: bool = False,
    allow: Iterable[str | Passage] = (),
    graph: SeaGraph | None = None,
) -> Route:
    """The shortest sea route from ``origin`` to ``destination``, through ``via`` in order.

    ``avoid`` adds passages to the default closed set (the Arctic routes, unless
    ``allow_arctic``, and the small-craft passages such as the Corinth Canal, unless named in
    ``allow``); an unknown name raises :class:`~sealane.routing.errors.UnknownPassageError` and a
    set that leaves no way through raises :class:`~sealane.routing.errors.NoRouteError`, as does
    a port flagged inland (it has no water approach).

    >>> r = route("CNSHA", "NLRTM")
    >>> r.passages
    ('singapore', 'malacca', 'babalmandab', 'suez', 'gibraltar', 'dover', 'maas')
    >>> 10_000 < r.distance_nm < 11_000
    True
    """
    network = graph or default_graph()
    closed = closed_passages(avoid, allow_arctic=allow_arctic, allow=allow)
    blocked = passage_mask(closed, network.passage_names)
    stops = [resolve_location(origin, "origin")]
    stops += [resolve_location(point, f"via[{i}]") for i, point in enumerate(via)]
    stops.append(resolve_location(destination, "destination"))
    for stop in stops:
        if stop.port is not None and stop.port.inland:
            raise NoRouteError(
                f"port {stop.port.locode} ({stop.port.name}) lies inland, "
                f"{stop.port.approach_m / 1000.0:.0f} km or more from navigable water: "
                "it has no sea approach"
            )
    legs: list[Leg] = []
    for start, end in pairwise(stops):
        try:
            legs.append(sail(network, start, end, blocked))
        except NoRouteError as error:
            closed_names = ", ".join(sorted(p.value for p in closed))
            raise NoRouteError(f"{error} (closed passages: {closed_names})") from None
    if len(legs) == 1:
        coords, lengths, masks = legs[0]
    else:
        coords = np.concatenate([legs[0][0]] + [leg[0][1:] for leg in legs[1:]])
        lengths = np.concatenate([leg[1] for leg in legs])
        masks = np.concatenate([leg[2] for leg in legs])
    return _assemble(coords, lengths, masks, network.passage_names, stops[0], stops[-1])


def _assemble(
    coords: FloatArray,
    lengths: FloatArray,
    masks: npt.NDArray[np.uint32],
    names: tuple[str, ...],
    origin: Location,
    destination: Location,
) -> Route:
    """A read-only Route from coordinates and per-segment lengths and masks.

    Zero-length segments (an end already on the network, a snap onto a node) are dropped.
    """
    empty = lengths <= ZERO_LENGTH_M
    if empty.all():
        coords, lengths, masks = coords[[0, -1]], np.zeros(1), np.zeros(1, dtype=np.uint32)
    elif empty.any():
        # Drop the later point of each empty segment, except the destination itself: there the
        # earlier one goes, so the route still ends exactly at the requested point.
        keep = np.empty(coords.shape[0], dtype=bool)
        keep[0] = True
        np.logical_not(empty, out=keep[1:])
        if empty[-1]:
            keep[-1] = True
            previous = keep.size - 2 - int(np.argmax(keep[-2::-1]))  # zero distance from the end
            if previous > 0:
                keep[previous] = False
        # Each kept point starts a segment that runs to the next kept point (the last is kept).
        starts = np.flatnonzero(keep[:-1])
        lengths = np.add.reduceat(lengths, starts)
        masks = np.bitwise_or.reduceat(masks, starts).astype(np.uint32)
        coords = coords[keep]
    for array in (coords, lengths, masks):
        array.setflags(write=False)
    return Route(coords, lengths, masks, names, origin, destination)


#: (coordinates N x 2, segment lengths N - 1 in metres, segment passage masks N - 1)
Leg = tuple[FloatArray, FloatArray, npt.NDArray[np.uint32]]
#: Segments shorter than this (metres) are duplicates of a point and are dropped.
ZERO_LENGTH_M = 1e-6


def sail(graph: SeaGraph, start: Location, end: Location, blocked: int) -> Leg:
    """One leg from ``start`` to ``end``: coordinates, segment lengths and passage masks.

    Segments: start -> its snap (off network), snap -> first node (part of its edge), the
    network edges, last node -> the end's snap (part of its edge), snap -> end (off network).
    Network lengths come from the graph; only the four partial legs are measured here.
    """
    if (start.lon, start.lat) == (end.lon, end.lat):
        return (
            np.array([[start.lon, start.lat], [end.lon, end.lat]]),
            np.zeros(1),
            np.zeros(1, np.uint32),
        )
    a = snap_open(graph, start, blocked, "origin")
    b = snap_open(graph, end, blocked, "destination")
    path = shortest_path(graph, a, b, blocked)
    nodes = path.nodes
    coords = np.empty((nodes.size + 4, 2))
    coords[0] = start.lon, start.lat
    coords[1] = a.lon, a.lat
    coords[2:-2, 0] = graph.node_lon[nodes]
    coords[2:-2, 1] = graph.node_lat[nodes]
    coords[-2] = b.lon, b.lat
    coords[-1] = end.lon, end.lat
    # The partial legs are measured geodesically (the snap offsets are spherical fractions).
    if nodes.size:
        edges = np.concatenate([[a.edge], path.edges, [b.edge]])
        ends = coords[[0, 1, 1, 2, -3, -2, -2, -1]].tolist()
        legs = [geodesic_m(*ends[k], *ends[k + 1]) for k in range(0, 8, 2)]
        lengths = np.concatenate([legs[:2], graph.edge_length_m[edges[1:-1]], legs[2:]])
    else:  # both ends on one edge: straight along it
        edges = np.array([a.edge])
        points = coords.tolist()
        lengths = np.array([geodesic_m(*p, *q) for p, q in pairwise(points)])
    masks = np.concatenate([[0], graph.edge_passages[edges], [0]]).astype(np.uint32)
    return coords, lengths, masks


def snap_open(graph: SeaGraph, where: Location, blocked: int, what: str) -> Snap:
    """Snap to the open network; a point that lies in a closed passage is an error, not a detour."""
    nearest = graph.snap(where.lon, where.lat)
    if not graph.edge_passages[nearest.edge] & blocked:
        return nearest
    open_snap = graph.snap(where.lon, where.lat, blocked=blocked)
    if open_snap.distance_m > nearest.distance_m + IN_PASSAGE_MARGIN_M:
        names = names_from_mask(
            int(graph.edge_passages[nearest.edge]) & blocked, graph.passage_names
        )
        raise NoRouteError(
            f"{what} ({where.lon}, {where.lat}) lies on the closed passage(s) {', '.join(names)}"
            + (
                " (allow_arctic=True opens the Arctic routes)"
                if {"northwest", "northeast"} & set(names)
                else " (allow=[...] opens a passage closed by default)"
            )
        )
    return open_snap


def ordered_passages(masks: Iterable[int], names: tuple[str, ...]) -> tuple[str, ...]:
    """Passage names in the order their edges are first sailed."""
    seen: list[str] = []
    for mask in masks:
        for name in names_from_mask(mask, names):
            if name not in seen:
                seen.append(name)
    return tuple(seen)

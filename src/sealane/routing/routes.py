"""Port-to-port (or point-to-point) sea routes: the public ``route()`` and its ``Route`` result.

A route is snapped onto the network at both ends, searched with the closed passages removed, and
returned as a WGS84 polyline whose length is measured geodesically, off-network legs included.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from .errors import InvalidCoordinateError, InvalidSpeedError, NoRouteError
from .geodesy import (
    METRES_PER_KM,
    METRES_PER_NM,
    FloatArray,
    segment_lengths_m,
    split_at_antimeridian,
    unwrap_lons,
)
from .graph import SeaGraph, Snap, default_graph
from .passages import Passage, closed_passages, names_from_mask, passage_mask
from .paths import shortest_path
from .ports import Port, get_port

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
        items = list(np.asarray(value, dtype=np.float64).ravel())
        if len(items) != 2 or isinstance(value, bool):
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


@dataclass(frozen=True, slots=True)
class Route:
    """A sea route: WGS84 polyline, geodesic length and the passages sailed, in order."""

    #: (N, 2) lon/lat in degrees, lon in [-180, 180), read-only.
    coordinates: FloatArray
    #: Geodesic length of each of the N - 1 segments, metres, read-only.
    segment_m: FloatArray
    passages: tuple[str, ...]
    origin: Location
    destination: Location

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
        if not (isinstance(speed_kn, int | float) and math.isfinite(speed_kn) and speed_kn > 0):
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


def route(
    origin: LocationLike,
    destination: LocationLike,
    *,
    avoid: Iterable[str | Passage] = (),
    via: Sequence[LocationLike] = (),
    allow_arctic: bool = False,
    graph: SeaGraph | None = None,
) -> Route:
    """The shortest sea route from ``origin`` to ``destination``, through ``via`` in order.

    ``avoid`` adds passages to the default closed set (the Arctic routes, unless
    ``allow_arctic``); an unknown name raises :class:`~sealane.routing.errors.UnknownPassageError`
    and a set that leaves no way through raises :class:`~sealane.routing.errors.NoRouteError`.

    >>> r = route("CNSHA", "NLRTM")
    >>> r.passages
    ('malacca', 'babalmandab', 'suez', 'gibraltar', 'dover')
    >>> 10_000 < r.distance_nm < 11_000
    True
    """
    network = graph or default_graph()
    closed = closed_passages(avoid, allow_arctic=allow_arctic)
    blocked = passage_mask(closed, network.passage_names)
    stops = [resolve_location(origin, "origin")]
    stops += [resolve_location(point, f"via[{i}]") for i, point in enumerate(via)]
    stops.append(resolve_location(destination, "destination"))
    pieces: list[FloatArray] = []
    masks: list[int] = []
    for start, end in pairwise(stops):
        try:
            coords, leg_masks = sail(network, start, end, blocked)
        except NoRouteError as error:
            closed_names = ", ".join(sorted(p.value for p in closed))
            raise NoRouteError(f"{error} (closed passages: {closed_names})") from None
        pieces.append(coords if not pieces else coords[1:])
        masks.extend(leg_masks)
    coordinates = np.concatenate(pieces)
    segments = segment_lengths_m(coordinates[:, 0], coordinates[:, 1])
    coordinates.setflags(write=False)
    segments.setflags(write=False)
    return Route(
        coordinates=coordinates,
        segment_m=segments,
        passages=ordered_passages(masks, network.passage_names),
        origin=stops[0],
        destination=stops[-1],
    )


def sail(
    graph: SeaGraph, start: Location, end: Location, blocked: int
) -> tuple[FloatArray, list[int]]:
    """One leg: its (N, 2) coordinates and the passage masks of the edges sailed, in order."""
    if (start.lon, start.lat) == (end.lon, end.lat):
        return np.array([[start.lon, start.lat], [end.lon, end.lat]]), []
    a = snap_open(graph, start, blocked, "origin")
    b = snap_open(graph, end, blocked, "destination")
    path = shortest_path(graph, a, b, blocked)
    nodes = path.nodes
    coords = np.concatenate(
        [[[start.lon, start.lat], [a.lon, a.lat]], graph.coordinates(nodes), [[b.lon, b.lat], [end.lon, end.lat]]]
    )
    keep = np.concatenate([[True], np.any(np.abs(np.diff(coords, axis=0)) > 1e-9, axis=1)])
    coords = coords[keep]
    if coords.shape[0] == 1:
        coords = np.concatenate([coords, coords])
    edges = np.array([a.edge], dtype=np.int32)
    if nodes.size:
        edges = np.concatenate([edges, graph.edge_between(nodes[:-1], nodes[1:]), [b.edge]])
    masks = graph.edge_passages[edges]
    return coords, masks[masks != 0].tolist()


def snap_open(graph: SeaGraph, where: Location, blocked: int, what: str) -> Snap:
    """Snap to the open network; a point that lies in a closed passage is an error, not a detour."""
    nearest = graph.snap(where.lon, where.lat)
    if not graph.edge_passages[nearest.edge] & blocked:
        return nearest
    open_snap = graph.snap(where.lon, where.lat, blocked=blocked)
    if open_snap.distance_m > nearest.distance_m + IN_PASSAGE_MARGIN_M:
        names = names_from_mask(int(graph.edge_passages[nearest.edge]) & blocked, graph.passage_names)
        raise NoRouteError(
            f"{what} ({where.lon}, {where.lat}) lies on the closed passage(s) {', '.join(names)}"
            + (" (allow_arctic=True opens the Arctic routes)" if {"northwest", "northeast"} & set(names) else "")
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

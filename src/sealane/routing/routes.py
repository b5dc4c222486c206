"""Port-to-port (or point-to-point) sea routes: the public ``route()`` and its ``Route`` result.

A route is snapped onto the network at both ends, searched with the closed passages removed, and
returned as a WGS84 polyline whose length is measured geodesically, off-network legs included.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .closures import (
    NOTHING_REFUSED,
    check_within_reach,
    closed_for,
    held_for,
    refused_for,
    vessel_cause,
)
from .errors import InvalidSpeedError, NoRouteError, UnknownPassageError, UnknownPortError
from .geodesy import (
    METRES_PER_KM,
    METRES_PER_NM,
    SECONDS_PER_HOUR,
    FloatArray,
    densify,
    drawn_parts,
    segment_lengths_m,
    unwrap_lons,
)
from .graph import SeaGraph, default_graph
from .interop import lines_to_shapely
from .legs import LegPath, sail_held, sail_trimmed, trim
from .locations import Location as Location
from .locations import LocationLike as LocationLike
from .locations import resolve_location as resolve_location
from .passages import Passage, names_from_mask, parse_passages
from .port_limits import check_port_draft
from .speeds import SpeedProfile, end_zones, passage_zones, speed_profile
from .vessel import UNKNOWN, Vessel, as_vessel
from .via_passages import through_passage, via_passage
from .water import afloat

#: Characters in a UN/LOCODE: a ``via`` string of another length that names no port is taken
#: for a misspelt passage.
LOCODE_LENGTH = 5

if TYPE_CHECKING:
    from shapely.geometry import LineString, MultiLineString


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
        """Hours to sail the route at ``speed_kn`` knots in open water, on its speed profile
        (:mod:`.speeds`: slower in canals, straits, rivers and port approaches, and the expected
        waits of convoys and locks).

        >>> r = route("NLRTM", "BEANR")
        >>> r.duration_h(12.0) > r.distance_nm / 12.0
        True
        """
        profile = self.speed_profile(speed_kn)  # checks the speed
        return self.distance_nm / float(speed_kn) + profile.extra_s / 3600.0

    def speed_profile(self, speed_kn: float) -> SpeedProfile:
        """The route cut into pieces of one speed each at ``speed_kn`` knots in open water
        (:class:`~.speeds.SpeedProfile`: where it is slower, and where it waits)."""
        valid = isinstance(speed_kn, numbers.Real) and not isinstance(speed_kn, bool)
        if not (valid and math.isfinite(speed_kn) and speed_kn > 0):
            raise InvalidSpeedError(f"speed must be a positive number of knots, got {speed_kn!r}")
        codes = passage_zones(self.segment_passages, self.passage_names)
        speed_mps = float(speed_kn) * METRES_PER_NM / SECONDS_PER_HOUR
        return speed_profile(
            self.segment_m, codes, end_zones(self.origin), end_zones(self.destination), speed_mps
        )

    def to_geojson(self, *, continuous: bool = False) -> dict[str, Any]:
        """The route as an RFC 7946 Feature.

        Split at the antimeridian into a MultiLineString when it crosses; with ``continuous=True``
        one LineString whose longitudes run on past +-180 without a jump (for plotting).
        """
        lons, lats = self.coordinates[:, 0], self.coordinates[:, 1]
        geometry: dict[str, Any]
        if continuous:
            lons, lats = densify(lons, lats)
            line = np.stack([unwrap_lons(lons), lats], axis=1).tolist()
            geometry = {"type": "LineString", "coordinates": line}
        else:
            parts = drawn_parts(lons, lats)
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


def check_sea_approach(stop: Location) -> None:
    """:class:`~sealane.routing.errors.NoRouteError` when ``stop`` is a port flagged inland:
    no sea-going ship reaches it, so nothing is routed to or from it."""
    port = stop.port
    if port is not None and port.approach == "unjoined":
        raise NoRouteError(
            f"port {port.locode} ({port.name}) is not reached by the sea-lane network yet: "
            f"its {port.approach_m / 1000.0:.0f} km join to the nearest lane would cross land"
        )
    if port is not None and port.inland:
        raise NoRouteError(
            f"port {port.locode} ({port.name}) lies inland, "
            f"{port.approach_m / 1000.0:.0f} km or more from navigable water: "
            "it has no sea approach"
        )


def route(
    origin: LocationLike,
    destination: LocationLike,
    *,
    avoid: Iterable[str | Passage] = (),
    via: Sequence[LocationLike | Passage] = (),
    allow_arctic: bool = False,
    allow: Iterable[str | Passage] = (),
    vessel: Vessel | None = None,
    draft_m: float | None = None,
    beam_m: float | None = None,
    length_m: float | None = None,
    air_draft_m: float | None = None,
    graph: SeaGraph | None = None,
) -> Route:
    """The shortest sea route from ``origin`` to ``destination``, through ``via`` in order.

    A ``via`` entry is a port or point to call at, or a passage to sail (``via=["suez"]``, a
    name or alias of :class:`~.passages.Passage`): the route then takes that passage (opening
    it when closed by default), or raises :class:`~sealane.routing.errors.NoRouteError` when it
    cannot (avoided, or the vessel does not fit); a string that is neither raises
    :class:`~sealane.routing.errors.UnknownPassageError` (or ``UnknownPortError`` when it looks
    like a LOCODE).

    ``avoid`` adds passages to the default closed set (the Arctic routes, unless
    ``allow_arctic``, and the passages container ships do not use, the Corinth Canal and the
    Inside Passage, unless named in ``allow``); an unknown name raises
    :class:`~sealane.routing.errors.UnknownPassageError` and a set that leaves no way through
    raises :class:`~sealane.routing.errors.NoRouteError`, as does a port flagged inland (it has
    no water approach). A coordinate on land (:func:`~.water.afloat`: more than 10 km ashore,
    off the lanes, canals, rivers and port basins) raises
    :class:`~sealane.routing.errors.OnLandError`.

    The ``vessel`` (a :class:`~.vessel.Vessel`; or its draft, beam, length and air draft in
    metres as keywords, each optional, made into one) closes every passage it does not fit
    (:mod:`.limits`; ``allow`` does not reopen one), and an end lying in such a passage (Hamburg
    on the Elbe) is out of its reach, as is a port whose channel takes less than its draft
    (:mod:`.port_limits`): the ``NoRouteError`` then says which limit refused what. A bad
    dimension raises :class:`~sealane.routing.errors.InvalidVesselError`.

    >>> r = route("CNSHA", "NLRTM")
    >>> r.passages
    ('singapore', 'malacca', 'babalmandab', 'suez', 'gibraltar', 'dover', 'maas')
    >>> 10_000 < r.distance_nm < 11_000
    True
    >>> "suez" in route("CNSHA", "NLRTM", vessel=Vessel(draft_m=21.0)).passages
    False
    >>> route("NLRTM", "SGSIN", via=["suez"]).passages[:4]
    ('maas', 'dover', 'gibraltar', 'suez')
    """
    network = graph or default_graph()
    ship = as_vessel(vessel, draft_m, beam_m, length_m, air_draft_m)
    names = network.passage_names
    plan: list[Location | Passage] = [resolve_location(origin, "origin")]
    plan += [_via_stop(point, i) for i, point in enumerate(via)]
    plan.append(resolve_location(destination, "destination"))
    forced = frozenset(stop for stop in plan if isinstance(stop, Passage))
    avoided, allowed = _passages(avoid, "avoid"), _passages(allow, "allow") | forced
    closed, blocked = closed_for(avoided, allow_arctic, allowed, names)
    # A vessel of no known size is refused nothing and no port's draft: no check to make.
    refused, why = (
        NOTHING_REFUSED if ship is UNKNOWN or not ship.known else refused_for(ship, names)
    )
    held = None if ship is UNKNOWN or not ship.known else held_for(ship, names)
    roles = ["origin", *(f"via[{i}]" for i in range(len(via))), "destination"]
    for stop, role in zip(plan, roles, strict=True):
        if isinstance(stop, Passage):
            continue
        if stop.port is None:
            afloat(stop, role, network)  # on land: OnLandError; just ashore: joins from there
        elif stop.port.inland or stop.port.approach == "unjoined":
            check_sea_approach(stop)
        if refused:
            check_within_reach(network, stop, refused, why)
        if ship.draft_m is not None:
            check_port_draft(stop, ship.draft_m, role)
    stops = _through_passages(network, plan, blocked | refused, closed)
    legs: list[LegPath] = []
    for start, end in pairwise(stops):
        try:
            leg = (
                sail_trimmed(network, start, end, blocked | refused)
                if held is None
                else sail_held(network, start, end, blocked | refused, blocked | held[0], held[1])
            )
            if len(stops) == 2:  # one leg: its ends are the route's
                return _frozen(*leg, network.passage_names, start, end)
            legs.append(leg)
        except NoRouteError as error:
            closed_names = ", ".join(sorted(p.value for p in closed))
            cause = vessel_cause(network, start, end, blocked, refused, why) or str(error)
            raise NoRouteError(f"{cause} (closed passages: {closed_names})") from None
    coords = np.concatenate([legs[0][0]] + [leg[0][1:] for leg in legs[1:]])
    lengths = np.concatenate([leg[1] for leg in legs])
    masks = np.concatenate([leg[2] for leg in legs])
    return _assemble(coords, lengths, masks, network.passage_names, stops[0], stops[-1])


#: No passages named: what :func:`~.passages.parse_passages` makes of the default ``()``.
_NO_PASSAGES: frozenset[Passage] = frozenset()


def _passages(names: Iterable[str | Passage], what: str) -> frozenset[Passage]:
    """:func:`~.passages.parse_passages`, without its work for the default empty tuple."""
    return _NO_PASSAGES if isinstance(names, tuple) and not names else parse_passages(names, what)


def _via_stop(point: LocationLike | Passage, index: int) -> Location | Passage:
    """A ``via`` entry: a passage to sail (its name or alias), or a port or point to call at."""
    passage = via_passage(point)
    if passage is not None:
        return passage
    try:
        return resolve_location(point, f"via[{index}]")
    except UnknownPortError:
        if not isinstance(point, str):
            raise
        known = ", ".join(p.value for p in Passage)
        what = f"via[{index}] {point!r} is neither a known port (UN/LOCODE or id) nor a passage"
        near = get_close_matches(point.strip().lower(), [p.value for p in Passage], n=1)
        if near or len(point.strip()) != LOCODE_LENGTH:  # a misspelt passage, not a LOCODE
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise UnknownPassageError(f"{what}{hint}; known passages: {known}") from None
        raise UnknownPortError(f"{what}; known passages: {known}") from None


def _through_passages(
    network: SeaGraph, plan: list[Location | Passage], blocked: int, closed: Iterable[Passage]
) -> list[Location]:
    """The stops with each passage replaced by a waypoint on it that the legs either side sail
    through (towards the next port or point); :class:`NoRouteError` when none does."""
    stops: list[Location] = []
    for index, stop in enumerate(plan):
        if not isinstance(stop, Passage):
            stops.append(stop)
            continue
        after = next(s for s in plan[index + 1 :] if not isinstance(s, Passage))
        try:
            waypoint, _, _ = through_passage(network, stop, stops[-1], after, blocked)
        except NoRouteError as error:
            closed_names = ", ".join(sorted(p.value for p in closed))
            raise NoRouteError(f"{error} (closed passages: {closed_names})") from None
        stops.append(waypoint)
    return stops


def _assemble(
    coords: FloatArray,
    lengths: FloatArray,
    masks: npt.NDArray[np.uint32],
    names: tuple[str, ...],
    origin: Location,
    destination: Location,
) -> Route:
    """A read-only Route from coordinates and per-segment lengths and masks, its zero-length
    segments dropped (:func:`~.legs.trim`)."""
    return _frozen(*trim(coords, lengths, masks), names, origin, destination)


def _frozen(
    coords: FloatArray,
    lengths: FloatArray,
    masks: npt.NDArray[np.uint32],
    names: tuple[str, ...],
    origin: Location,
    destination: Location,
) -> Route:
    """A Route over these arrays, made read-only."""
    for array in (coords, lengths, masks):
        array.setflags(write=False)
    return Route(coords, lengths, masks, names, origin, destination)


def ordered_passages(masks: Iterable[int], names: tuple[str, ...]) -> tuple[str, ...]:
    """Passage names in the order their edges are first sailed."""
    seen: list[str] = []
    for mask in dict.fromkeys(masks):  # each mask once, in order: a passage is many segments
        for name in names_from_mask(mask, names):
            if name not in seen:
                seen.append(name)
    return tuple(seen)

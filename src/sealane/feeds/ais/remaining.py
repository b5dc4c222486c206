"""How long a followed vessel still has to sail to a port: the engine's sea route on its speed
profile, kept per vessel and port so that each re-estimate of the arrival does not route again.

A vessel re-estimated every ten minutes has moved a few miles along the route found last time:
while it is within :data:`ON_ROUTE_NM` of that route, the time left is the rest of the route
from the nearest point on it, each piece at its zone's speed and the waits still ahead (plus how
far off it the vessel is, at its own speed); farther off (a new course, a route from a port it
left), it is routed afresh and that route is kept instead. Projecting onto a kept route costs a
small fraction of routing; the distance it reads is never shorter than the route's and longer by
at most twice the allowance.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ...routing.errors import RoutingError
from ...routing.geodesy import (
    MEAN_EARTH_RADIUS_M,
    METRES_PER_NM,
    SECONDS_PER_HOUR,
    FloatArray,
    arc_normals,
    distance_m,
    lonlat_of,
    nearest_on_arcs,
    unit_vector,
    unit_vectors,
)
from ...routing.routes import Route, route
from ...routing.speeds import zone_table

#: Nautical miles a vessel may be off the route kept for it and still be on it (at 15 knots,
#: 2 miles are 8 minutes, well under the 30 minutes that make a new estimate).
ON_ROUTE_NM = 2.0
#: Routes kept at most (vessel and port pairs, the least recently used dropped first).
KEPT_ROUTES = 20_000
#: A speed above any zone's, at which a route's speed profile gives its zones and waits alone.
ZONES_KN = 1.0e6


@dataclass(frozen=True, slots=True)
class _Kept:
    """A route ready for projecting a position onto: its segments as arcs on the sphere (start
    and end unit vectors, normals), its vertices, the metres from each vertex to its end, and
    its speed profile's pieces (where each starts and ends from the route's start, its zone's
    speed, the wait at its start)."""

    arcs: tuple[FloatArray, FloatArray, FloatArray]
    vertices: FloatArray
    to_end_m: FloatArray
    piece_from_m: FloatArray
    piece_to_m: FloatArray
    piece_speed_mps: FloatArray
    piece_wait_s: FloatArray

    @classmethod
    def of(cls, found: Route) -> _Kept:
        c = found.coordinates
        a, b = unit_vectors(c[:-1, 0], c[:-1, 1]), unit_vectors(c[1:, 0], c[1:, 1])
        to_end = np.concatenate([np.cumsum(found.segment_m[::-1])[::-1], [0.0]])
        if found.segment_m.size:
            profile = found.speed_profile(ZONES_KN)  # zones and waits, whatever the speed
            starts = np.cumsum(found.segment_m) - found.segment_m
            piece_from = starts[profile.segment] + profile.start_m
            piece_to, zones = piece_from + profile.length_m, profile.zone
            wait = np.where(profile.speed_mps == 0.0, profile.duration_s, 0.0)
        else:  # a route from a port to itself: nothing to sail
            piece_from = piece_to = wait = np.zeros(0)
            zones = np.zeros(0, dtype=np.int64)
        return cls(
            (a, b, arc_normals(a, b)),
            c,
            to_end,
            piece_from,
            piece_to,
            zone_table().speed_mps[zones],
            wait,
        )

    def remaining_h(self, lon: float, lat: float, speed_kn: float) -> float | None:
        """Hours left from (lon, lat) along this route at ``speed_kn`` in open water, on its
        speed profile; None when it is off the route."""
        if len(self.vertices) < 2:
            return None
        segment, angle, nearest = nearest_on_arcs(unit_vector(lon, lat), *self.arcs)
        off_m = angle * MEAN_EARTH_RADIUS_M
        if off_m > ON_ROUTE_NM * METRES_PER_NM:
            return None
        on_lon, on_lat = lonlat_of(nearest)
        end_lon, end_lat = self.vertices[segment + 1]
        rest = distance_m(on_lon, on_lat, float(end_lon), float(end_lat))
        at_m = float(self.to_end_m[0]) - (rest + float(self.to_end_m[segment + 1]))
        speed_mps = speed_kn * METRES_PER_NM / SECONDS_PER_HOUR
        ahead = np.clip(self.piece_to_m - np.maximum(self.piece_from_m, at_m), 0.0, None)
        sailing = float((ahead / np.minimum(self.piece_speed_mps, speed_mps)).sum())
        waiting = float(self.piece_wait_s[self.piece_from_m >= at_m].sum())
        return (off_m / speed_mps + sailing + waiting) / SECONDS_PER_HOUR


class RemainingDistances:
    """Distances left to ports, by the routes kept for each vessel (see the module's text)."""

    def __init__(self, capacity: int = KEPT_ROUTES) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[tuple[str, str], _Kept] = OrderedDict()

    def __len__(self) -> int:
        """How many routes are kept."""
        return len(self._kept)

    def hours(
        self, vessel_id: str, lon: float, lat: float, locode: str, speed_kn: float
    ) -> float | None:
        """Hours from (lon, lat) to port ``locode`` for ``vessel_id`` at ``speed_kn`` in open
        water, on the route's speed profile (None: the engine finds no route)."""
        key = (vessel_id, locode)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            left = kept.remaining_h(lon, lat, speed_kn)
            if left is not None:
                return left
        try:
            found = route((lon, lat), locode)
        except RoutingError:
            self._kept.pop(key, None)
            return None
        self._kept[key] = _Kept.of(found)
        self._kept.move_to_end(key)
        if len(self._kept) > self.capacity:
            self._kept.popitem(last=False)
        return found.duration_h(speed_kn)

"""The speed profile of a route: how fast each part of it is sailed, and where a ship waits.

Open water is sailed at the vessel's speed. A part of the route in a zone of
``data/passage_speeds.csv`` is sailed at the zone's speed when that is slower: the canals and
straits by their passage bit (Suez at convoy speed, Panama at its transit time including the
locks, Kiel at 15 km/h, the Turkish straits, the Elbe, Scheldt and Maas), a port's own river
corridor (``corridors.geojson``, no passage) over its reach from the sea end to the port, and a
port's approach inside the pilot station over a fixed distance beyond that. A zone with a
``wait_h`` (Suez's convoys, Panama's booking slots, Kiel's locks) holds the ship at its entrance
that long: the expected wait, not a schedule (README, "How waits are modelled"); a route that
starts within :data:`WAIT_SKIP_M` of the entrance is taken to be in the queue or the convoy
already and waits no more.

A route's time is its length at the vessel's speed plus the extra time of each zone (its length
times the difference of the two paces) and the waits: :func:`extra_seconds` from the
:func:`zone_lengths`, which the fleet's fast path computes the same way from its legs.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from .data import data_dir
from .geodesy import METRES_PER_NM, SECONDS_PER_HOUR, FloatArray, segment_lengths_m
from .locations import Location

IntArray = npt.NDArray[np.int64]

#: The file of zone speeds (sources per row; data/README.md).
SPEEDS_FILE = "passage_speeds.csv"
#: Zone 0 of every table: the open water, at the vessel's own speed.
OPEN_WATER = "open_water"
#: The two zones that are no passage: a port's river reach and its approach.
RIVER, APPROACH = "river", "approach"
#: A route reaching a waiting zone's entrance within this many metres of its start does not wait.
WAIT_SKIP_M = 2_000.0


@dataclass(frozen=True, slots=True)
class ZoneSpeed:
    """One row of ``passage_speeds.csv``: a zone's speed (knots), its expected wait at the
    entrance (hours), the distance it reaches from a port (approach only, nautical miles), what
    the figures are and their source."""

    zone: str
    speed_kn: float
    wait_h: float
    reach_nm: float
    what: str
    source: str


@cache
def zone_speeds() -> tuple[ZoneSpeed, ...]:
    """The zones of ``passage_speeds.csv``, in the file's order (a segment in two passages takes
    the first one's zone)."""
    with (data_dir() / SPEEDS_FILE).open(newline="", encoding="utf-8") as handle:
        return tuple(
            ZoneSpeed(
                row["zone"],
                float(row["speed_kn"]),
                float(row["wait_h"] or 0.0),
                float(row["reach_nm"] or 0.0),
                row["what"],
                row["source"],
            )
            for row in csv.DictReader(handle)
        )


@dataclass(frozen=True, slots=True)
class ZoneTable:
    """The zones as arrays: index 0 is the open water, then the rows of the file; speeds in
    metres per second (infinite for the open water: the vessel's own), waits in seconds."""

    names: tuple[str, ...]
    speed_mps: FloatArray
    wait_s: FloatArray

    def index(self, zone: str) -> int:
        """The index of ``zone`` in the table."""
        return self.names.index(zone)


@cache
def zone_table() -> ZoneTable:
    """The shipped zones as one :class:`ZoneTable`."""
    rows = zone_speeds()
    names = (OPEN_WATER, *(row.zone for row in rows))
    speeds = np.array(
        [math.inf, *(row.speed_kn * METRES_PER_NM / SECONDS_PER_HOUR for row in rows)]
    )
    waits = np.array([0.0, *(row.wait_h * SECONDS_PER_HOUR for row in rows)])
    for array in (speeds, waits):
        array.setflags(write=False)
    return ZoneTable(names, speeds, waits)


def passage_zones(masks: npt.NDArray[np.uint32], passage_names: tuple[str, ...]) -> IntArray:
    """The zone of each segment from its passage bits (0: none of the zones' passages), looked
    up once per distinct mask (a route has a handful)."""
    distinct, inverse = np.unique(masks, return_inverse=True)
    zones = np.array([_mask_zone(int(m), passage_names) for m in distinct.tolist()], np.int64)
    return np.asarray(zones[inverse.reshape(-1)], dtype=np.int64)


@lru_cache(maxsize=4096)
def _mask_zone(mask: int, passage_names: tuple[str, ...]) -> int:
    """The zone of a passage bit mask: the first row of the file whose passage it has."""
    for zone, name in enumerate(zone_table().names):
        if name in passage_names and mask >> passage_names.index(name) & 1:
            return zone
    return 0


#: A port end's zones: (metres from the port they reach to, zone index), nearest first.
EndZones = tuple[tuple[float, int], ...]


def end_zones(end: Location) -> EndZones:
    """The zones around a route's end when it is a port with a sea approach (named, or at a
    port's very coordinates, as the legs of future positions end): its river reach (when a
    corridor of its own leads to it) and its approach beyond that; none at sea."""
    port = end.port
    locode = _ports_at().get((end.lon, end.lat)) if port is None else port.locode
    if locode is None or (port is not None and port.inland):
        return ()
    return _port_zones(locode)


@cache
def _ports_at() -> dict[tuple[float, float], str]:
    """The LOCODE of the port at each port position with a sea approach (the first listed,
    where two share one)."""
    from .ports import registry

    found: dict[tuple[float, float], str] = {}
    for port in registry().ports:
        if not port.inland:
            found.setdefault((port.lon, port.lat), port.locode)
    return found


@cache
def _port_zones(locode: str) -> EndZones:
    table = zone_table()
    approach_m = zone_speeds()[table.index(APPROACH) - 1].reach_nm * METRES_PER_NM
    river_m = river_reaches_m().get(locode, 0.0)
    if river_m <= 0.0:
        return ((approach_m, table.index(APPROACH)),)
    return ((river_m, table.index(RIVER)), (river_m + approach_m, table.index(APPROACH)))


@cache
def river_reaches_m() -> dict[str, float]:
    """For each port at the head of a river corridor of its own (no passage), the length of
    the traced river from its sea end (the line's first point) to the vertex nearest the port."""
    from .ports import get_port

    with (data_dir() / "corridors.geojson").open(encoding="utf-8") as handle:
        features = json.load(handle)["features"]
    reaches: dict[str, float] = {}
    for feature in features:
        properties = feature["properties"]
        if properties.get("passage") is not None:
            continue
        line = np.asarray(feature["geometry"]["coordinates"], dtype=np.float64)
        along = np.concatenate([[0.0], np.cumsum(segment_lengths_m(line[:, 0], line[:, 1]))])
        for locode in properties.get("ports") or ():
            port = get_port(locode)
            nearest = int(np.argmin(np.hypot(line[:, 0] - port.lon, line[:, 1] - port.lat)))
            reaches[locode] = float(along[nearest])
    return reaches


def overlaps(a: FloatArray, b: FloatArray, low: float, high: float) -> FloatArray:
    """Metres of each interval [a, b] inside [low, high]."""
    return np.asarray(np.clip(np.minimum(b, high) - np.maximum(a, low), 0.0, None), np.float64)


def end_intervals(
    length_m: float, origin: EndZones, destination: EndZones
) -> list[tuple[float, float, int]]:
    """The end zones as intervals of distance from the route's start (low, high, zone), the
    origin's first; where the two ends' zones meet on a short route the origin's keep theirs."""
    found: list[tuple[float, float, int]] = []
    low = 0.0
    for reach, zone in origin:
        found.append((low, min(reach, length_m), zone))
        low = reach
    origin_outer = low
    high = length_m
    for reach, zone in destination:
        found.append((max(length_m - reach, origin_outer), high, zone))
        high = length_m - reach
    return [(low, high, zone) for low, high, zone in found if high > low]


def zone_lengths(
    segment_m: FloatArray, codes: IntArray, origin: EndZones, destination: EndZones
) -> FloatArray:
    """Metres of the route in each zone of :func:`zone_table` (index 0: the open water): a
    segment in a passage zone counts whole in it, the rest by where it lies from the ends."""
    table = zone_table()
    lengths = np.bincount(codes, weights=segment_m, minlength=len(table.names)).astype(np.float64)
    free = codes == 0
    if not (origin or destination) or not free.any():
        return lengths
    ends = np.cumsum(segment_m)
    starts = ends - segment_m
    for low, high, zone in end_intervals(float(ends[-1]), origin, destination):
        inside = float(overlaps(starts[free], ends[free], low, high).sum())
        lengths[zone] += inside
        lengths[0] -= inside
    return lengths


def extra_seconds(lengths: FloatArray, waits_s: float, speed_mps: float) -> float:
    """Seconds the zones add to the route's time at ``speed_mps``: each zone's length at its
    own pace less at the vessel's (nothing where the zone is not slower), plus the waits."""
    pace = np.maximum(1.0 / zone_table().speed_mps - 1.0 / speed_mps, 0.0)
    return float((lengths * pace).sum()) + waits_s


def waits(segment_m: FloatArray, codes: IntArray) -> tuple[tuple[int, int], ...]:
    """(segment, zone) of each wait on the route: the first segment of each zone with a wait,
    unless it begins within :data:`WAIT_SKIP_M` of the route's start."""
    table = zone_table()
    found: list[tuple[int, int]] = []
    for zone in np.flatnonzero(table.wait_s).tolist():
        where = np.flatnonzero(codes == zone)
        if where.size and float(segment_m[: where[0]].sum()) > WAIT_SKIP_M:
            found.append((int(where[0]), zone))
    return tuple(sorted(found))


@dataclass(frozen=True, slots=True)
class SpeedProfile:
    """A route cut into pieces of one speed each, in order: the segment each lies on, where on
    it it starts (metres), its length, speed (m/s; 0 for a wait) and duration (s), its zone
    (an index of :func:`zone_table`); and the time the zones add to the open-water time."""

    segment: IntArray
    start_m: FloatArray
    length_m: FloatArray
    speed_mps: FloatArray
    duration_s: FloatArray
    zone: IntArray
    extra_s: float

    def hours_by_zone(self) -> dict[str, float]:
        """Hours spent in each zone the route touches (waits included), by zone name."""
        names = zone_table().names
        hours = np.bincount(self.zone, weights=self.duration_s, minlength=len(names)) / 3600.0
        return {names[z]: float(hours[z]) for z in np.unique(self.zone).tolist()}


def speed_profile(segment_m: FloatArray, codes: IntArray, origin: EndZones,
                  destination: EndZones, speed_mps: float) -> SpeedProfile:  # fmt: skip
    """The pieces of a route whose segments have these lengths and passage zones, between ends
    with these zones, sailed at ``speed_mps`` in open water."""
    table = zone_table()
    lengths = zone_lengths(segment_m, codes, origin, destination)
    stops = waits(segment_m, codes)
    extra = extra_seconds(lengths, float(sum(table.wait_s[z] for _, z in stops)), speed_mps)
    ends = np.cumsum(segment_m)
    total = float(ends[-1]) if ends.size else 0.0
    intervals = end_intervals(total, origin, destination)
    cuts = np.union1d(np.concatenate([[0.0], ends]), [x for i in intervals for x in i[:2]])
    cuts = cuts[(cuts >= 0.0) & (cuts <= total)]
    segment = np.minimum(np.searchsorted(ends, cuts[:-1], side="right"), segment_m.size - 1)
    start = cuts[:-1] - (ends[segment] - segment_m[segment])
    length = np.diff(cuts)
    zone = codes[segment].copy()
    middle = (cuts[:-1] + cuts[1:]) / 2.0
    for low, high, end_zone in reversed(intervals):
        zone[(zone == 0) & (middle >= low) & (middle <= high)] = end_zone
    speed = np.minimum(table.speed_mps[zone], speed_mps)
    duration = length / speed
    if stops:
        first = np.searchsorted(segment, [s for s, _ in stops], side="left")
        at = np.asarray(first, dtype=np.int64)
        stop_zones = np.array([z for _, z in stops], dtype=np.int64)
        segment = np.insert(segment, at, segment[at])
        start = np.insert(start, at, start[at])
        length = np.insert(length, at, 0.0)
        speed = np.insert(speed, at, 0.0)
        duration = np.insert(duration, at, table.wait_s[stop_zones])
        zone = np.insert(zone, at, stop_zones)
    return SpeedProfile(segment, start, length, speed, duration, zone, extra)


__all__ = [
    "OPEN_WATER",
    "SpeedProfile",
    "ZoneSpeed",
    "end_zones",
    "extra_seconds",
    "overlaps",
    "passage_zones",
    "speed_profile",
    "waits",
    "zone_lengths",
    "zone_speeds",
    "zone_table",
]

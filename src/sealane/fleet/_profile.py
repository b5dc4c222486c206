"""The speed profile of many vessels' remaining routes at once: the metres each still sails in
each zone of the engine's profile (:mod:`sealane.routing.speeds`) and the waits ahead of it, as
the engine finds them on each vessel's own remaining route, so each ETA is the engine's.

A vessel on a leg sails its head (start -> projection -> the leg's next vertex) and then the
leg's segments after it. The leg's zones are found once per leg: each segment's metres in each
zone, summed from the end (a table of suffixes), and where its passage zones begin; a row then
adds its head's two segments in front, as the engine's remaining route has them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import sealane

from ._engine import (
    METRES_PER_NM,
    WAIT_SKIP_M,
    FloatArray,
    Leg,
    end_intervals,
    end_zones,
    overlaps,
    passage_zones,
    waits,
    zone_lengths,
    zone_table,
)

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Zoned:
    """Per row: metres in each zone (rows x zones; column 0, the open water, left at 0) and
    the seconds of the waits ahead."""

    lengths: FloatArray
    waits_s: FloatArray


def extra_seconds(zoned: Zoned, speed_kn: FloatArray) -> FloatArray:
    """Seconds each row's zones add to its open-water time at its speed (the engine's
    :func:`~sealane.routing.speeds.extra_seconds`, row by row)."""
    speed_mps = speed_kn * METRES_PER_NM / 3600.0
    pace = np.maximum(1.0 / zone_table().speed_mps[None, :] - 1.0 / speed_mps[:, None], 0.0)
    return np.asarray((zoned.lengths * pace).sum(axis=1) + zoned.waits_s, dtype=np.float64)


def route_zones(route: sealane.Route) -> tuple[FloatArray, float]:
    """One route's metres per zone and seconds of waits, as the engine finds them."""
    codes = passage_zones(route.segment_passages, route.passage_names)
    lengths = zone_lengths(
        route.segment_m, codes, end_zones(route.origin), end_zones(route.destination)
    )
    lengths[0] = 0.0
    table = zone_table()
    return lengths, float(sum(table.wait_s[z] for _, z in waits(route.segment_m, codes)))


@dataclass(frozen=True, slots=True)
class _LegZones:
    """A leg's passage zone per segment, its zone metres from each segment to the end
    (``suffix[j]``; row ``n`` is zeros), the metres from each segment's end to the leg's end,
    the destination's end zones as (low, high, zone) metres from the end, and, per zone with
    a wait, the first segment at or after each index in it (-1: none)."""

    codes: IntArray
    suffix: FloatArray
    to_end_m: FloatArray
    starts_m: FloatArray
    intervals: tuple[tuple[float, float, int], ...]
    next_in: dict[int, IntArray]


_ZONES: dict[int, tuple[Leg, _LegZones]] = {}


def _leg_zones(leg: Leg) -> _LegZones:
    """The leg's zones, found once per leg (kept with the leg itself)."""
    kept = _ZONES.get(id(leg))
    if kept is not None and kept[0] is leg:
        return kept[1]
    route = leg.route
    table = zone_table()
    codes = passage_zones(route.segment_passages, route.passage_names)
    seg = route.segment_m
    ends = np.cumsum(seg)
    total = float(ends[-1]) if ends.size else 0.0
    to_end = total - ends
    intervals = tuple(
        (total - high, total - low, zone)
        for low, high, zone in end_intervals(total, (), end_zones(route.destination))
    )
    per = np.zeros((seg.size, len(table.names)))
    passage = codes > 0
    per[np.flatnonzero(passage), codes[passage]] = seg[passage]
    free = ~passage
    for low, high, zone in intervals:
        per[free, zone] += overlaps(to_end[free], to_end[free] + seg[free], low, high)
    suffix = np.concatenate([np.cumsum(per[::-1], axis=0)[::-1], np.zeros((1, per.shape[1]))])
    next_in: dict[int, IntArray] = {}
    for zone in np.flatnonzero(table.wait_s).tolist():
        index = np.where(codes == zone, np.arange(seg.size), seg.size)
        after = np.minimum.accumulate(index[::-1])[::-1]
        next_in[zone] = np.where(np.append(after, seg.size) < seg.size, np.append(after, -1), -1)
    starts = np.append(ends - seg, total)  # one more: the leg's end, after its last segment
    found = _LegZones(codes, suffix, to_end, starts, intervals, next_in)
    _ZONES[id(leg)] = (leg, found)
    return found


def leg_rows(leg: Leg, k: IntArray, head_m: FloatArray) -> Zoned:
    """Rows on ``leg`` projected onto segments ``k``, with their heads' two segments
    (``head_m``: start -> projection, projection -> vertex ``k + 1``, as the route has them)."""
    zones = _leg_zones(leg)
    table = zone_table()
    lengths = zones.suffix[k + 1].copy()
    lengths[:, 0] = 0.0
    first, second = head_m[:, 0], head_m[:, 1]
    end = zones.to_end_m[k]
    code = zones.codes[k]
    rows = np.arange(k.size)
    in_passage = code > 0
    lengths[rows[in_passage], code[in_passage]] += second[in_passage]
    free = ~in_passage
    for low, high, zone in zones.intervals:
        lengths[free, zone] += overlaps(end[free], end[free] + second[free], low, high)
        lengths[:, zone] += overlaps(end + second, end + second + first, low, high)
    lengths[:, 0] = 0.0
    waits_s = np.zeros(k.size)
    for zone, next_in in zones.next_in.items():
        here = code == zone
        j = next_in[k + 1]
        ahead = np.where(j >= 0, zones.starts_m[np.maximum(j, 0)] - zones.starts_m[k + 1], np.inf)
        reach = np.where(here, first, first + second + ahead)
        waits_s += np.where((here | (j >= 0)) & (reach > WAIT_SKIP_M), table.wait_s[zone], 0.0)
    return Zoned(lengths, waits_s)


__all__ = ["Zoned", "extra_seconds", "leg_rows", "route_zones"]

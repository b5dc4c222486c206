"""The speed profile's cost: future positions and fleet ETAs on it against one speed all the way.

Run ``.venv/bin/python benchmarks/speed_profile.py`` (``--quick`` for fewer repeats and a smaller
fleet). Both sides run in this one process on the same routes, so the ratio holds however fast
the machine is at the moment:

- positions: ``future_positions`` (the remaining route, its profile, the positions placed on it,
  the ETA) against the same remaining route placed at one speed as before the profile
  (``place_positions`` and ``Positions.from_track``), per position;
- fleet: ``fleet.etas`` against the same call with the profile's per-row work (the zone metres
  from each leg's table, the waits) left out, its ETAs then being the one-speed ones.

It prints tables and asserts nothing.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from unittest import mock

import numpy as np

import sealane
from _util import fmt, machine_lines, render_table, timed_s
from fleet import START, build_fleet
from sealane import fleet
from sealane.fleet import _batch, _tracks
from sealane.fleet._profile import Zoned
from sealane.routing.geodesy import METRES_PER_NM, SECONDS_PER_HOUR
from sealane.routing.placement import place_positions
from sealane.routing.positions import Positions
from sealane.routing.speeds import zone_table
from sealane.routing.voyage import _at_sea, remaining_route

T0 = datetime(2026, 1, 1, tzinfo=UTC)
#: (label, start, previous port, destination port, speed in knots).
VOYAGES = [
    ("Gulf of Aden -> Rotterdam (Suez)", (60.1, 12.3), "CNSHA", "NLRTM", 18.0),
    ("Shanghai -> Los Angeles (approach)", (122.5, 31.0), "CNSHA", "USLAX", 16.0),
    ("New York -> Savannah (river)", (-73.8, 40.4), "USNYC", "USSAV", 14.0),
]


def one_speed(start: tuple[float, float], previous: str, destination: str, speed: float) -> int:
    """The remaining route placed at one speed, as ``future_positions`` did before the profile."""
    where = _at_sea(sealane.Location(*start))
    prev, dest = sealane.get_port(previous), sealane.get_port(destination)
    route = remaining_route(
        where,
        sealane.Location(prev.lon, prev.lat, prev),
        sealane.Location(dest.lon, dest.lat, dest),
        (),
        False,
        100.0,
    )
    step_m = speed * METRES_PER_NM / SECONDS_PER_HOUR * 60.0
    track = place_positions(route.coordinates, route.segment_m, step_m)
    positions = Positions.from_track(track, route=route, speed_kn=speed, step_s=60.0, start_time=T0)
    return len(positions)


def interleaved_ms(
    old: Callable[[], object], new: Callable[[], object], repeat: int
) -> tuple[float, float]:
    """The fastest of ``repeat`` calls of each, old and new taking turns (after one warm-up
    each), in milliseconds: the least disturbed by whatever else the machine runs."""
    old(), new()
    olds, news = [], []
    for _ in range(repeat):
        olds.append(timed_s(old))
        news.append(timed_s(new))
    return min(olds) * 1e3, min(news) * 1e3


def positions_rows(repeat: int) -> list[list[str]]:
    rows = []
    for label, start, previous, destination, speed in VOYAGES:
        profiled = sealane.future_positions(start, previous, destination, speed_kn=speed,
                                            start_time=T0)  # fmt: skip
        flat = one_speed(start, previous, destination, speed)
        old_ms, new_ms = interleaved_ms(
            partial(one_speed, start, previous, destination, speed),
            partial(sealane.future_positions, start, previous, destination, speed_kn=speed,
                    start_time=T0),
            repeat,
        )  # fmt: skip
        new_ns, old_ns = new_ms * 1e6 / len(profiled), old_ms * 1e6 / flat
        rows.append([
            label, fmt(len(profiled)), fmt(flat), fmt(old_ms, 2), fmt(new_ms, 2),
            fmt(old_ns, 1), fmt(new_ns, 1), fmt(new_ns / old_ns, 2) + "x",
        ])  # fmt: skip
    return rows


def fleet_rows(vessels: int, repeat: int) -> list[list[str]]:
    frame = build_fleet(vessels, pairs=max(vessels // 200, 20), seed=7)
    zones = len(zone_table().names)

    def no_zones(_leg: object, k: np.ndarray, _head_m: np.ndarray) -> Zoned:
        return Zoned(np.zeros((k.size, zones)), np.zeros(k.size))

    def no_extra(zoned: Zoned, _speed_kn: np.ndarray) -> np.ndarray:
        return np.zeros(zoned.waits_s.size)

    def one_speed_fleet() -> object:
        with (
            mock.patch.object(_tracks, "leg_rows", no_zones),
            mock.patch.object(_batch, "extra_seconds", no_extra),
        ):
            return fleet.etas(frame, at=START)

    flat, profiled = interleaved_ms(one_speed_fleet, lambda: fleet.etas(frame, at=START), repeat)
    return [[
        fmt(len(frame)), fmt(flat, 0), fmt(profiled, 0),
        fmt(len(frame) / flat * 1e3), fmt(len(frame) / profiled * 1e3),
        fmt(profiled / flat, 2) + "x",
    ]]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 repeats, 10,000 vessels")
    args = parser.parse_args()
    repeat, vessels = (5, 10_000) if args.quick else (25, 50_000)
    print("\n".join(machine_lines(["numpy", "pyproj", "pandas"])) + "\n")
    print(render_table(
        f"Future positions, one per minute (fastest of {repeat} interleaved calls)",
        ["voyage", "positions", "one speed", "ms one speed", "ms profile",
         "ns/pos one speed", "ns/pos profile", "ratio"],
        positions_rows(repeat),
    ))  # fmt: skip
    print(render_table(
        f"fleet.etas on a pandas DataFrame (fastest of {repeat} interleaved calls)",
        ["vessels", "ms one speed", "ms profile", "vessels/s one speed", "vessels/s profile",
         "ratio"],
        fleet_rows(vessels, repeat),
        left=(),
    ))  # fmt: skip


if __name__ == "__main__":
    main()

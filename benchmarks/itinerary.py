"""A container's itinerary with its vessel mid-leg: the sealane engine against searoute, one run.

Shanghai -> Singapore -> Algeciras -> Rotterdam at 18 kn, the vessel of the second leg in the
Arabian Sea. sealane builds the itinerary, splits the vessel's leg and places the rest of it one
position a minute; searoute routes the same three legs one by one (and, in a second row, the
vessel's rest of the leg too). Run ``.venv/bin/python benchmarks/itinerary.py`` (``--quick`` for
5 repeats); it prints plain-text tables and asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import searoute

import sealane
from _util import fmt, fmt_ms, fmt_pct, machine_lines, render_table, timed_s
from sealane.routing import voyage
from sealane.routing.graph import default_graph

PORTS = ("CNSHA", "SGSIN", "ESALG", "NLRTM")
SPEED_KN = 18.0
DEPARTED = datetime(2026, 3, 1, tzinfo=UTC)
#: The vessel of leg 2 (Singapore -> Algeciras), on the lane in the Arabian Sea, and when.
VESSEL = (60.1, 11.04)
VESSEL_LEG = 1
VESSEL_AT = datetime(2026, 3, 14, tzinfo=UTC)


def sealane_itinerary() -> sealane.Itinerary:
    """The four port calls: three routes, distances and ETAs."""
    return sealane.itinerary(PORTS, speed_kn=SPEED_KN, departed_at=DEPARTED)


def sealane_mid_leg() -> sealane.Progress:
    """The itinerary, then the vessel's leg split with its future positions (one a minute)."""
    return sealane_itinerary().at_sea(VESSEL_LEG, VESSEL, VESSEL_AT)


def sealane_map() -> dict[str, Any]:
    """All of the above and the map's FeatureCollection."""
    return sealane_mid_leg().to_geojson()


def sealane_routes() -> list[sealane.Route]:
    """The three legs with the plain library call, one by one."""
    return [sealane.route(a, b) for a, b in pairwise(PORTS)]


def coordinates(locode: str) -> list[float]:
    return list(sealane.get_port(locode).coordinates)


def searoute_legs() -> list[Any]:
    """The three legs with searoute, one by one, on the same port coordinates."""
    return [
        searoute.searoute(coordinates(a), coordinates(b), units="naut") for a, b in pairwise(PORTS)
    ]


def searoute_legs_and_vessel() -> list[Any]:
    """The three legs, then the vessel's position to the end of its leg."""
    rest = searoute.searoute(list(VESSEL), coordinates(PORTS[VESSEL_LEG + 1]), units="naut")
    return [*searoute_legs(), rest]


def forget() -> None:
    """Drop sealane's memos: the leg projections and the snapping of each point."""
    voyage._leg.cache_clear()
    default_graph()._snap_cached.cache_clear()


def interleaved_ms(runs: list[Callable[[], object]], repeat: int, *, cold: bool) -> list[float]:
    """Median milliseconds of each run, timed in ``repeat`` rounds that call every run once (so
    a change of load on the shared machine hits all of them alike); ``cold`` drops sealane's
    memos before each call."""
    for fn in runs:
        fn()
    samples: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for fn, times in zip(runs, samples, strict=True):
            if cold:
                forget()
            times.append(timed_s(fn))
    return [statistics.median(times) * 1e3 for times in samples]


RUNS: list[tuple[str, Callable[[], object], bool]] = [
    ("sealane itinerary (3 legs, ETAs)", sealane_itinerary, True),
    ("sealane itinerary + vessel mid-leg (split, 60 s positions)", sealane_mid_leg, True),
    ("sealane itinerary + vessel + map GeoJSON", sealane_map, True),
    ("sealane.route x 3, one by one", sealane_routes, True),
    ("searoute x 3, one by one", searoute_legs, False),
    ("searoute x 3 + vessel -> Algeciras", searoute_legs_and_vessel, False),
]
BASELINE = 4  # the row searoute x 3, one by one


def print_latency(repeat: int) -> None:
    """Table 1: warm (memos kept) and cold (memos dropped) medians, and ratios to searoute."""
    warm = interleaved_ms([fn for _, fn, _ in RUNS], repeat, cold=False)
    with_memos = [fn for _, fn, memos in RUNS if memos]
    cold = iter(interleaved_ms(with_memos, repeat, cold=True))
    baseline = warm[BASELINE]
    rows = []
    for (label, _, memos), ms in zip(RUNS, warm, strict=True):
        cold_ms = next(cold) if memos else None
        rows.append(
            [label, fmt_ms(ms), fmt_ms(cold_ms), fmt(ms / baseline, 3), fmt(baseline / ms, 1)]
        )
    headers = ["run", "warm ms", "cold ms", "x searoute x3", "searoute x3 / run"]
    print(render_table("Table 1: latency, median of each run", headers, rows))


def print_legs() -> None:
    """Table 2: each leg's length with both engines, and what the vessel's split gives."""
    progress = sealane_mid_leg()
    rows = []
    for leg, theirs in zip(progress.legs, searoute_legs(), strict=True):
        their_nm = float(theirs["properties"]["length"])
        rows.append(
            [
                f"{leg.origin.locode} -> {leg.destination.locode}",
                fmt(leg.distance_nm, 1),
                fmt(their_nm, 1),
                fmt_pct((leg.distance_nm - their_nm) / their_nm * 100),
                ", ".join(leg.route.passages) or "-",
            ]
        )
    headers = ["leg", "sealane nm", "searoute nm", "difference", "sealane passages"]
    print(render_table("Table 2: the legs", headers, rows))
    underway = progress.underway
    assert underway is not None
    print(
        f"vessel at {VESSEL} on {PORTS[VESSEL_LEG]} -> {PORTS[VESSEL_LEG + 1]}: sailed "
        f"{underway.sailed.distance_nm:,.1f} nm, {underway.remaining.distance_nm:,.1f} nm to go, "
        f"{len(underway.positions):,} positions, ETA {underway.eta:%Y-%m-%d %H:%M} UTC; "
        f"POD ETA {progress.eta:%Y-%m-%d %H:%M} UTC; "
        f"{len(progress.to_geojson()['features'])} map features\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed calls per figure")
    parser.add_argument("--quick", action="store_true", help="5 timed calls per figure")
    args = parser.parse_args()
    repeat = 5 if args.quick else args.repeat
    print("Itinerary: sealane engine vs searoute, leg by leg")
    for line in machine_lines(["sealane", "numpy", "pyproj", "searoute"]):
        print(line)
    print(
        f"settings: {' -> '.join(PORTS)} at {SPEED_KN:g} kn, vessel on leg {VESSEL_LEG + 1}; "
        f"median of {repeat} rounds, each calling every run once, after one untimed call; 'cold' "
        "drops sealane's memos (leg projections, point snapping) before each call; searoute "
        "keeps none\n"
    )
    print_latency(repeat)
    print_legs()


if __name__ == "__main__":
    main()

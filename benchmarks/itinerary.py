"""A container's itinerary with its vessel mid-leg: the sealane engine against searoute, and the
service's map of it against the library call, one run.

Shanghai -> Singapore -> Algeciras -> Rotterdam at 18 kn, the vessel of the second leg in the
Arabian Sea. sealane builds the itinerary, splits the vessel's leg and places the rest of it one
position a minute; searoute routes the same three legs one by one (and, in a second row, the
vessel's rest of the leg too). Table 3 asks a sealane service in this process (uvicorn on a
thread, over loopback) for ``GET /v2/containers/{id}/map_geojson`` of a container stored on those
calls, beside the library call drawing the same features. Run
``.venv/bin/python benchmarks/itinerary.py`` (``--quick`` for 5 repeats); it prints plain-text
tables and asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import orjson
import searoute

import sealane
from _mapservice import HOST, MapService, fetch, fetch_map, map_service
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
    default_graph().snapper.forget()


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


#: ``sealane serve`` runs with this thread switch interval (seconds); Table 3 does too.
SERVER_SWITCH_INTERVAL_S = 0.0005
#: The ratio of the HTTP p50 to the library call's that issue 14 aims at.
TARGET_RATIO = 2.0


def same_features(body: bytes) -> bool:
    """Whether the service's map has the library call's features: types and geometries."""

    def shapes(collection: dict[str, Any]) -> list[tuple[str, Any]]:
        return [(f["properties"]["feature_type"], f["geometry"]) for f in collection["features"]]

    return shapes(orjson.loads(body)) == shapes(orjson.loads(orjson.dumps(sealane_map())))


def print_map_service(repeat: int) -> None:
    """Table 3: the HTTP map_geojson p50 against the library call drawing the same features,
    with the use case called in-process and a small authenticated request for scale."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(SERVER_SWITCH_INTERVAL_S)
    try:
        with map_service(sealane_itinerary(), VESSEL, VESSEL_LEG, VESSEL_AT, SPEED_KN) as service:
            samples, body = _map_samples(service, repeat)
    finally:
        sys.setswitchinterval(previous)
    labels = [
        "library: itinerary + vessel mid-leg + map features (dict)",
        "library, then orjson.dumps",
        "use case container_map in-process, then orjson.dumps",
        "HTTP GET /v2/ports/NLRTM (a request's own cost)",
        "HTTP map_geojson, no recorded positions (the same features)",
        f"HTTP map_geojson, {service.recorded_positions} positions recorded hourly",
    ]
    wall, cpu = samples
    p50 = [statistics.median(times) * 1e3 for times in wall]
    cpu50 = [statistics.median(times) * 1e3 for times in cpu]
    rows = [
        [label, fmt_ms(a), fmt(a / p50[0], 2), fmt_ms(b), fmt(b / cpu50[0], 2)]
        for label, a, b in zip(labels, p50, cpu50, strict=True)
    ]
    headers = ["run", "p50 ms", "x library", "CPU p50 ms", "CPU x library"]
    title = "Table 3: the container map over HTTP against the library call"
    print(render_table(title, headers, rows))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"same feature types and geometries as the library call: "
        f"{'yes' if same_features(body) else 'NO'}; {len(body):,} bytes per map; target: HTTP "
        f"p50 at most {TARGET_RATIO:g}x the library call's, measured {p50[4] / p50[0]:.2f}x "
        f"(CPU {cpu50[4] / cpu50[0]:.2f}x); load average {load} on {os.cpu_count()} CPUs\n"
    )


def _map_samples(
    service: MapService, repeat: int
) -> tuple[tuple[list[list[float]], list[list[float]]], bytes]:
    """Wall-clock and CPU seconds of each run in ``repeat`` interleaved rounds (one kept-alive
    connection), after one untimed call each; the CPU time is the whole process's (client,
    server loop and worker threads alike), which a loaded machine delays but does not inflate.
    Also the body of the map with the library call's features."""
    connection = http.client.HTTPConnection(HOST, service.port)
    try:
        runs: list[Callable[[], object]] = [
            sealane_map,
            lambda: orjson.dumps(sealane_map()),
            lambda: service.map_in_process(service.lane_only),
            lambda: fetch(connection, service, "/v2/ports/NLRTM"),
            lambda: fetch_map(connection, service, service.lane_only),
            lambda: fetch_map(connection, service, service.with_track),
        ]
        for fn in runs:
            fn()
        wall: list[list[float]] = [[] for _ in runs]
        cpu: list[list[float]] = [[] for _ in runs]
        for _ in range(repeat):
            for i, fn in enumerate(runs):
                cpu_start, wall_start = time.process_time(), time.perf_counter()
                fn()
                wall[i].append(time.perf_counter() - wall_start)
                cpu[i].append(time.process_time() - cpu_start)
        return (wall, cpu), fetch_map(connection, service, service.lane_only)
    finally:
        connection.close()


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
    print_map_service(max(repeat, 30))


if __name__ == "__main__":
    main()

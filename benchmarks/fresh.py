"""Routes from coordinates never seen before, against port-to-port routes, in one process.

Run ``.venv/bin/python benchmarks/fresh.py`` (``--points N`` random ocean points, default 300;
``--repeat R`` timed warm calls; ``--searoute-every K`` to time searoute on every K-th point
only, it is slow; ``--seed S``). Each point (a sea cell of the land mask, away from the poles) is
routed to one of five ports; its first call is the fresh one (no snap of it remembered), then
the same call warm, then the warm route to the same port from the port nearest the point (a
port-to-port route of about the same length), all interleaved so CPU drift hits each alike.
scgraph and searoute route from the same coordinates. ``sealane.fleet.etas`` then takes all
the points at once, as vessels between their nearest port and that port. It prints medians
and ratios and asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import searoute
from scgraph import GeoGraph

import sealane
from _util import anchors_dir, fmt, fmt_ms, machine_lines, render_table, timed_s
from sealane import fleet
from sealane.routing.landmask import default_landmask

SCGRAPH_CACHE = anchors_dir("scgraph")
DESTINATIONS = ("NLRTM", "SGSIN", "USLAX", "CNSHA", "BRSSZ")
#: Ports the points start from (the busiest ports: each has a water approach and a route).
TOP100 = Path(__file__).resolve().parents[1] / "tests/routing/data/top100_container_ports.csv"


@dataclass(frozen=True)
class Sample:
    """One point's timings in milliseconds (None: the tool was not timed on it)."""

    fresh: float
    warm: float
    port_to_port: float
    scgraph: float | None
    searoute: float | None


def ocean_points(count: int, seed: int) -> list[tuple[float, float]]:
    """``count`` points uniform on the sphere between 60 S and 70 N, each in a sea cell and
    routable to every destination (an enclosed sea, the Caspian say, is skipped)."""
    rng = random.Random(seed)
    mask = default_landmask()
    points: list[tuple[float, float]] = []
    while len(points) < count:
        lon = rng.uniform(-180.0, 180.0)
        sine = rng.uniform(math.sin(math.radians(-60.0)), math.sin(math.radians(70.0)))
        lat = math.degrees(math.asin(sine))
        if mask.is_land(lon, lat):
            continue
        lon, lat = round(lon, 6), round(lat, 6)
        try:
            sealane.route((lon, lat), DESTINATIONS[len(points) % len(DESTINATIONS)])
        except sealane.RoutingError:
            continue
        points.append((lon, lat))
    return points


def nearest_ports(points: list[tuple[float, float]]) -> list[str]:
    """The busiest port nearest each point (a port-to-port route of about its length)."""
    codes = [line.split(",")[0] for line in TOP100.read_text().splitlines()[1:]]
    ports = [sealane.get_port(code) for code in codes if code]
    lon = np.radians([p.lon for p in ports])
    lat = np.radians([p.lat for p in ports])
    found = []
    for p_lon, p_lat in points:
        x, y = np.radians(p_lon), np.radians(p_lat)
        cos_d = np.sin(lat) * np.sin(y) + np.cos(lat) * np.cos(y) * np.cos(lon - x)
        found.append(ports[int(np.argmax(cos_d))].locode)
    return found


def median_ms(call: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``repeat`` calls (the caller has made the first, untimed)."""
    return statistics.median(timed_s(call) for _ in range(repeat)) * 1e3


def run(
    points: list[tuple[float, float]], origins: list[str], args: argparse.Namespace
) -> list[Sample]:
    """Time every point: fresh, warm, the port-to-port route, scgraph and (some) searoute."""
    graph = GeoGraph.load_geograph("marnet", cache_dir=str(SCGRAPH_CACHE))
    return [
        time_point(point, origin, DESTINATIONS[i % len(DESTINATIONS)], graph, args, i)
        for i, (point, origin) in enumerate(zip(points, origins, strict=True))
    ]


def time_point(
    point: tuple[float, float],
    origin: str,
    destination: str,
    graph: GeoGraph,
    args: argparse.Namespace,
    index: int,
) -> Sample:
    """One point's timings (its coordinate moved by 1e-7 degree: not the one that was checked
    routable when it was drawn, so no memo holds it)."""
    lon, lat = point[0] + 1e-7, point[1]
    to = sealane.get_port(destination)
    fresh = timed_s(lambda: sealane.route((lon, lat), destination)) * 1e3
    warm = median_ms(lambda: sealane.route((lon, lat), destination), args.repeat)
    sealane.route(origin, destination)
    port_to_port = median_ms(lambda: sealane.route(origin, destination), args.repeat)
    sc_from = {"latitude": lat, "longitude": lon}
    sc_to = {"latitude": to.lat, "longitude": to.lon}
    scgraph_ms = median_ms(lambda: graph.get_shortest_path(sc_from, sc_to), 1)
    searoute_ms = None
    if index % args.searoute_every == 0:
        searoute_ms = median_ms(lambda: searoute.searoute([lon, lat], [to.lon, to.lat]), 1)
    return Sample(fresh, warm, port_to_port, scgraph_ms, searoute_ms)


def fleet_ms(points: list[tuple[float, float]], origins: list[str]) -> tuple[float, float]:
    """Milliseconds per row of ``fleet.etas`` over all the points at once: first call (every
    position fresh), then again (remembered)."""
    frame = pd.DataFrame(
        {
            "lon": [p[0] + 2e-7 for p in points],
            "lat": [p[1] for p in points],
            "previous_port": origins,
            "destination_port": [DESTINATIONS[i % len(DESTINATIONS)] for i in range(len(points))],
        }
    )
    at = datetime(2026, 3, 1, tzinfo=UTC)
    first = timed_s(lambda: fleet.etas(frame, at=at)) * 1e3 / len(points)
    again = timed_s(lambda: fleet.etas(frame, at=at)) * 1e3 / len(points)
    return first, again


def ratio(values: list[tuple[float, float]]) -> float:
    """Median of the per-point ratios a / b."""
    return statistics.median(a / b for a, b in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--searoute-every", type=int, default=5)
    parser.add_argument("--seed", type=int, default=39)
    args = parser.parse_args()
    sealane.route("CNSHA", "NLRTM")
    points = ocean_points(args.points, args.seed)
    origins = nearest_ports(points)
    samples = run(points, origins, args)
    first, again = fleet_ms(points, origins)
    med = statistics.median
    sea = [(s.searoute, s.fresh) for s in samples if s.searoute is not None]
    rows = [
        ["sealane, fresh coordinate", fmt_ms(med(s.fresh for s in samples)), "1.00"],
        ["sealane, same call warm", fmt_ms(med(s.warm for s in samples)),
         fmt(ratio([(s.warm, s.fresh) for s in samples]), 2)],
        ["sealane, nearest port -> port (warm)", fmt_ms(med(s.port_to_port for s in samples)),
         fmt(ratio([(s.port_to_port, s.fresh) for s in samples]), 2)],
        ["scgraph (marnet), same coordinates", fmt_ms(med(s.scgraph or 0.0 for s in samples)),
         fmt(ratio([(s.scgraph or 0.0, s.fresh) for s in samples]), 1)],
        [f"searoute, same coordinates ({len(sea)} points)", fmt_ms(med(a for a, _ in sea)),
         fmt(ratio(sea), 0)],
    ]  # fmt: skip
    print(render_table(
        f"Routes from {len(samples)} fresh ocean coordinates (medians; ratio = tool / fresh)",
        ["call", "ms", "ratio"], rows,
    ))  # fmt: skip
    print(f"fresh / nearest port -> port, median of per-point ratios: "
          f"{ratio([(s.fresh, s.port_to_port) for s in samples]):.2f}")  # fmt: skip
    print(f"fresh / same call warm, median of per-point ratios: "
          f"{ratio([(s.fresh, s.warm) for s in samples]):.2f}")  # fmt: skip
    print(f"sealane.fleet.etas, {len(points)} rows: {first:.3f} ms per row first call, "
          f"{again:.3f} ms per row again")  # fmt: skip
    print("\n".join(machine_lines(["numpy", "pyproj", "scgraph", "searoute"])))


if __name__ == "__main__":
    main()

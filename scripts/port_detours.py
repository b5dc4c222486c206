"""List the short routes between the 100 busiest container ports that detour (issue 28, item 5).

Every ordered pair of ``tests/routing/data/top100_container_ports.csv`` whose berths lie under
``--within`` nautical miles apart (400 by default) is routed, and each route longer than
``--ratio`` times the great circle between the berths (1.6 by default) is printed with both
lengths, the passages it sails and the bearing it leaves its port on: a route that leaves a port
on the wrong side of it (as Port Klang -> Tanjung Pelepas did, out westward into the strait, until
the build closed a dead end south of Westports) shows as a start bearing far from the great
circle's. ``data/README.md`` explains each pair listed.

Run it from the checkout::

    .venv/bin/python scripts/port_detours.py [--within 400] [--ratio 1.6] [--draft 12]
"""

from __future__ import annotations

import argparse
import csv
from itertools import permutations
from pathlib import Path

import sealane
from sealane.routing.geodesy import METRES_PER_NM, distance_m, wgs84

TOP100 = Path(__file__).resolve().parents[1] / "tests/routing/data/top100_container_ports.csv"


def top100() -> list[str]:
    """LOCODEs of the 100 busiest container ports, busiest first."""
    with TOP100.open(encoding="utf-8") as handle:
        return [row["locode"] for row in csv.DictReader(handle)]


def bearing(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    """Initial WGS84 bearing, degrees from north."""
    forward, _, _ = wgs84().inv(lon1, lat1, lon2, lat2)
    return float(forward) % 360.0


def detours(within_nm: float, ratio: float, draft_m: float | None) -> list[dict[str, object]]:
    """The detouring pairs, longest detour first."""
    found: list[dict[str, object]] = []
    for origin, destination in permutations(top100(), 2):
        a, b = sealane.get_port(origin), sealane.get_port(destination)
        great_nm = distance_m(a.lon, a.lat, b.lon, b.lat) / METRES_PER_NM
        if great_nm >= within_nm:
            continue
        route = sealane.route(origin, destination, draft_m=draft_m)
        if route.distance_nm <= ratio * great_nm:
            continue
        first = next(
            (p for p in route.coordinates[1:].tolist() if distance_m(a.lon, a.lat, *p) > 5_000.0),
            route.coordinates[-1].tolist(),
        )
        turn = bearing(a.lon, a.lat, *first) - bearing(a.lon, a.lat, b.lon, b.lat)
        found.append(
            {
                "pair": f"{origin}-{destination}",
                "great_nm": great_nm,
                "route_nm": route.distance_nm,
                "ratio": route.distance_nm / great_nm,
                "leaves_off_deg": abs((turn + 180.0) % 360.0 - 180.0),
                "passages": ",".join(route.passages),
            }
        )
    return sorted(found, key=lambda row: -float(str(row["ratio"])))


def main() -> None:
    """Print the detouring pairs as a plain table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--within", type=float, default=400.0, help="nautical miles")
    parser.add_argument("--ratio", type=float, default=1.6)
    parser.add_argument("--draft", type=float, default=None, help="metres (default vessel)")
    args = parser.parse_args()
    rows = detours(args.within, args.ratio, args.draft)
    print(f"{'pair':<12} {'great nm':>9} {'route nm':>9} {'ratio':>6} {'off deg':>8}  passages")
    for row in rows:
        print(
            f"{row['pair']!s:<12} {row['great_nm']:>9.1f} {row['route_nm']:>9.1f} "
            f"{row['ratio']:>6.2f} {row['leaves_off_deg']:>8.0f}  {row['passages']}"
        )
    print(f"{len(rows)} pairs over {args.ratio}x the great circle, of those under {args.within} nm")


if __name__ == "__main__":
    main()

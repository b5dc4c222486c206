"""Routes against real AIS tracks: Suez Canal transits of March 2021.

Run ``.venv/bin/python benchmarks/tracks.py``. The tracks are the extract in
``tests/fixtures/ais/`` (its README gives the source). For every transit (a vessel's fixes from
north of Port Said's breakwaters, 31.25 N, to south of Port Tewfik, 29.95 N, or the other way,
without a gap of more than a day) it routes from the first fix to the last and measures each
fix's distance from the route (median and 95th percentile per transit) and the route's length
against the length sailed (fix to fix). Then it asks ``future_positions`` for every fix and
counts those refused as on land. It prints the medians over transits and asserts nothing.
"""

from __future__ import annotations

import csv
import statistics
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

import sealane
from _util import fmt, machine_lines, render_table
from sealane.routing.geodesy import (
    GEOD,
    MEAN_EARTH_RADIUS_M,
    arc_normals,
    nearest_on_arcs,
    unit_vector,
    unit_vectors,
)

FIXES = Path(__file__).resolve().parents[1] / "tests/fixtures/ais/suez_canal_2021-03.csv"
NORTH_OF, SOUTH_OF = 31.25, 29.95
MAX_GAP = timedelta(days=1)
#: The ports a fix's vessel is taken to sail between, by the way it heads.
NORTHBOUND, SOUTHBOUND = ("SAJED", "GRPIR"), ("GRPIR", "SAJED")


@dataclass(frozen=True)
class Fix:
    """One AIS position: vessel, time, lon and lat in degrees."""

    vessel: str
    time: datetime
    lon: float
    lat: float


def read_fixes(path: Path = FIXES) -> dict[str, list[Fix]]:
    """The fixes per vessel, in time order."""
    by_vessel: dict[str, list[Fix]] = defaultdict(list)
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            when = datetime.strptime(row["time"], "%Y-%m-%dT%H:%MZ")
            fix = Fix(row["vessel"], when, float(row["lon"]), float(row["lat"]))
            by_vessel[fix.vessel].append(fix)
    return {vessel: sorted(fixes, key=lambda f: f.time) for vessel, fixes in by_vessel.items()}


def transits(by_vessel: dict[str, list[Fix]]) -> list[list[Fix]]:
    """Each run of a vessel's fixes from one end of the canal to the other, without a gap of
    more than :data:`MAX_GAP`: from its last fix beyond one end to its first beyond the other."""
    found = []
    for fixes in by_vessel.values():
        start = None
        for i, fix in enumerate(fixes):
            if i and fix.time - fixes[i - 1].time > MAX_GAP:
                start = None
            if fix.lat > NORTH_OF or fix.lat < SOUTH_OF:
                if start is not None and (fix.lat > NORTH_OF) != (fixes[start].lat > NORTH_OF):
                    found.append(fixes[start : i + 1])
                    start = None
                else:
                    start = i
    return found


@dataclass(frozen=True)
class Fidelity:
    """How a route follows one transit: fixes' distances from it (m) and the two lengths (m)."""

    median_m: float
    p95_m: float
    route_m: float
    sailed_m: float


def fidelity(transit: list[Fix]) -> Fidelity:
    """The route from the transit's first fix to its last, against its fixes."""
    first, last = transit[0], transit[-1]
    route = sealane.route((first.lon, first.lat), (last.lon, last.lat))
    coords = route.coordinates
    a = unit_vectors(coords[:-1, 0], coords[:-1, 1])
    b = unit_vectors(coords[1:, 0], coords[1:, 1])
    normals = arc_normals(a, b)
    off = [
        nearest_on_arcs(unit_vector(f.lon, f.lat), a, b, normals)[1] * MEAN_EARTH_RADIUS_M
        for f in transit
    ]
    lons = np.array([f.lon for f in transit])
    lats = np.array([f.lat for f in transit])
    _, _, steps = GEOD.inv(lons[:-1], lats[:-1], lons[1:], lats[1:])
    return Fidelity(
        float(np.median(off)), float(np.percentile(off, 95)), route.distance_m, float(np.sum(steps))
    )


def refused(by_vessel: dict[str, list[Fix]]) -> tuple[int, int, list[Fix]]:
    """How many fixes ``future_positions`` takes, how many it refuses as on land, and those."""
    taken, on_land = 0, []
    for fixes in by_vessel.values():
        for i, fix in enumerate(fixes):
            later = fixes[min(i + 1, len(fixes) - 1)]
            previous, destination = NORTHBOUND if later.lat >= fix.lat else SOUTHBOUND
            try:
                sealane.future_positions((fix.lon, fix.lat), previous, destination, step_s=600)
                taken += 1
            except sealane.RoutingError as error:
                if error.code != "on_land":
                    raise
                on_land.append(fix)
    return taken, len(on_land), on_land


def main() -> None:
    by_vessel = read_fixes()
    runs = transits(by_vessel)
    measured = [fidelity(run) for run in runs]
    med = statistics.median
    rows = [
        ["transits", str(len(measured))],
        ["fixes in them", str(sum(len(run) for run in runs))],
        ["median of per-transit median distance from the route (m)",
         fmt(med(m.median_m for m in measured))],
        ["median of per-transit p95 distance from the route (m)",
         fmt(med(m.p95_m for m in measured))],
        ["largest per-transit p95 (m)", fmt(max(m.p95_m for m in measured))],
        ["median route / sailed length", fmt(med(m.route_m / m.sailed_m for m in measured), 3)],
        ["range of route / sailed length",
         f"{min(m.route_m / m.sailed_m for m in measured):.3f}"
         f" - {max(m.route_m / m.sailed_m for m in measured):.3f}"],
    ]  # fmt: skip
    print(render_table("Suez Canal transits, March 2021: route against fixes", ["", ""], rows))
    taken, on_land, which = refused(by_vessel)
    print(
        f"future_positions: {taken} of {taken + on_land} fixes taken, {on_land} refused as on land"
    )
    in_canal = sum(30.0 <= f.lat <= 31.2 for f in which)
    print(f"  of the refused, {in_canal} inside the canal (30.0-31.2 N)")
    print("\n".join(machine_lines(["numpy", "pyproj"])))


if __name__ == "__main__":
    main()

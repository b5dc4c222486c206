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

import statistics
import sys
from pathlib import Path

import sealane
from _util import fmt, machine_lines, render_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fixtures.ais_tracks import Fix, fidelity, fixes, ports_for, transits


def refused() -> tuple[int, int, list[Fix]]:
    """How many fixes ``future_positions`` takes, how many it refuses as on land, and those."""
    taken, on_land = 0, []
    for track in fixes().values():
        for i, fix in enumerate(track):
            previous, destination = ports_for(track, i)
            try:
                sealane.future_positions((fix.lon, fix.lat), previous, destination, step_s=600)
                taken += 1
            except sealane.RoutingError as error:
                if error.code != "on_land":
                    raise
                on_land.append(fix)
    return taken, len(on_land), on_land


def main() -> None:
    runs = transits()
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
    taken, on_land, which = refused()
    print(
        f"future_positions: {taken} of {taken + on_land} fixes taken, {on_land} refused as on land"
    )
    in_canal = sum(30.0 <= f.lat <= 31.2 for f in which)
    print(f"  of the refused, {in_canal} inside the canal (30.0-31.2 N)")
    print("\n".join(machine_lines(["numpy", "pyproj"])))


if __name__ == "__main__":
    main()

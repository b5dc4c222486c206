"""Where a route's time goes: a fresh coordinate's route and a warm port-to-port route, part by
part, in CPU time.

Run ``.venv/bin/python benchmarks/route_parts.py`` (``--points N`` random ocean points, default
300, drawn as ``fresh.py`` draws them; ``--seed S``). Each point is routed to one of five ports
the first time (nothing about it remembered) and the route from its nearest busy port to the
same port after three untimed calls; the engine's parts are wrapped so that each call adds the
CPU time (``time.process_time``, which a shared machine's load stretches far less than the
wall clock) spent in each. It prints the median and mean per route of each part; parts nest
(the leg holds the searches, which hold the hierarchy's kernels). It asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from types import ModuleType
from typing import Any

import sealane
from _util import render_table
from fresh import DESTINATIONS, nearest_ports, ocean_points
from sealane.routing import legs, paths, routes

#: The parts timed: (module, function, label), outermost last.
PARTS = (
    (routes, "afloat", "water judgement of a coordinate"),
    (legs, "snap_open", "lane snaps, both ends"),
    (legs, "_on_shortcut", "shortcut snaps"),
    (legs, "slanted_joins", "slanted joins offered"),
    (legs, "at_sea_between", "a slanted join checked for land"),
    (paths, "_climb", "hierarchy kernels (climb, meet, climb_to)"),
    (legs, "shortest_path_among", "searches, kernels included"),
    (routes, "sail_trimmed", "the leg: snaps, searches, unfolding, laying"),
)


def wrapped(spent: dict[str, float], module: ModuleType, name: str, label: str) -> None:
    """Replace ``module.name`` by itself adding its CPU time to ``spent[label]``."""
    inner: Callable[..., Any] = getattr(module, name)

    @functools.wraps(inner)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - start

    setattr(module, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=300)
    parser.add_argument("--seed", type=int, default=39)
    args = parser.parse_args()
    sealane.route("CNSHA", "NLRTM")
    points = ocean_points(args.points, args.seed)
    origins = nearest_ports(points)
    for i, origin in enumerate(origins):
        for _ in range(3):
            sealane.route(origin, DESTINATIONS[i % len(DESTINATIONS)])
    spent: dict[str, float] = defaultdict(float)
    for module, name, label in PARTS:
        wrapped(spent, module, name, label)
    per_call: dict[tuple[str, str], list[float]] = defaultdict(list)
    for kind in ("fresh coordinate", "port to port, warm"):
        for i, (lon, lat) in enumerate(points):
            spent.clear()
            destination = DESTINATIONS[i % len(DESTINATIONS)]
            start = time.process_time()
            if kind == "fresh coordinate":
                sealane.route((lon + 3e-7, lat), destination)  # moved: no memo holds it
            else:
                sealane.route(origins[i], destination)
            per_call[(kind, "route, all of it")].append(time.process_time() - start)
            for _, _, label in PARTS:
                per_call[(kind, label)].append(spent[label])
    rows = [
        [
            kind,
            label,
            f"{statistics.median(values) * 1e6:.1f}",
            f"{statistics.fmean(values) * 1e6:.1f}",
        ]
        for (kind, label), values in per_call.items()
    ]
    title = f"CPU time per route, {len(points)} points (us; parts nest)"
    print(render_table(title, ["route", "part", "median", "mean"], rows))


if __name__ == "__main__":
    main()

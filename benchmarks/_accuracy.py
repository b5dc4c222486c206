"""Accuracy tables for benchmarks/routes.py: the published-distance set and the 100x100 land check.

Both run sealane, searoute and scgraph on the same end points. The distance set is
``tests/routing/data/published_distances.csv`` (NGA Pub. 151 figures); the land check routes
every pair of ``tests/routing/data/top100_container_ports.csv`` and samples each distinct leg of
each tool's answer every 100 m along its geodesic against the GSHHG full-resolution coastline.
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import numpy as np

import sealane
from _util import fmt, render_table

DATA = Path(__file__).resolve().parents[1] / "tests" / "routing" / "data"
Point = tuple[float, float]
#: A tool's route: (lon, lat) points and length in nm, from two end points and passage options.
Router = Callable[[Point, Point, tuple[str, ...], tuple[str, ...]], tuple[list[Point], float]]


@dataclass(frozen=True)
class Published:
    """One row of the distance set."""

    origin: str
    destination: str
    avoid: tuple[str, ...]
    allow: tuple[str, ...]
    published_nm: float
    kind: str
    source: str


def point(text: str) -> Point:
    """A LOCODE's port position, or a 'lon/lat' junction point."""
    if "/" in text:
        lon, lat = text.split("/")
        return (float(lon), float(lat))
    port = sealane.get_port(text)
    return (port.lon, port.lat)


def distance_set() -> list[Published]:
    """The published-distance rows."""
    with (DATA / "published_distances.csv").open(encoding="utf-8") as handle:
        return [
            Published(
                r["origin"],
                r["destination"],
                tuple(filter(None, r["avoid"].split(";"))),
                tuple(filter(None, r["allow"].split(";"))),
                float(r["published_nm"]),
                r["kind"],
                r["source"],
            )
            for r in csv.DictReader(handle)
        ]


def errors_of(rows: Sequence[Published], router: Router) -> list[float | None]:
    """Signed relative error of each row's route (None where the tool failed)."""
    out: list[float | None] = []
    for row in rows:
        try:
            _, nm = router(point(row.origin), point(row.destination), row.avoid, row.allow)
        except Exception:
            out.append(None)
            continue
        out.append(nm / row.published_nm - 1.0)
    return out


def stats(errors: Sequence[float | None]) -> tuple[float, float, int, int]:
    """Median and worst |error| (%), pairs within 5 %, pairs measured."""
    got = [abs(e) * 100.0 for e in errors if e is not None]
    within = sum(e <= 5.0 for e in got)
    return statistics.median(got), max(got), within, len(got)


def print_distance_set(routers: dict[str, Router]) -> None:
    """Table 6: every tool against every published figure, with the summary per tool."""
    rows = distance_set()
    errors = {name: errors_of(rows, router) for name, router in routers.items()}
    headers = ["pair", "kind", "avoid/allow", "published", *(f"{n} %" for n in routers)]
    table = []
    for k, row in enumerate(rows):
        options = "+".join(row.avoid) + ("/" + "+".join(row.allow) if row.allow else "")
        cells = [f"{row.origin}-{row.destination}", row.kind, options or "-"]
        cells.append(fmt(row.published_nm))
        for name in routers:
            e = errors[name][k]
            cells.append("error" if e is None else f"{e * 100:+.1f}")
        table.append(cells)
    title = f"Table 6. Distance set: {len(rows)} pairs, % error against NGA Pub. 151"
    print(render_table(title, headers, table, left=(0, 1, 2)))
    for name in routers:
        median, worst, within, count = stats(errors[name])
        print(
            f"{name:<9} median |error| {median:5.2f} %, worst {worst:5.1f} %, "
            f"within 5 %: {within}/{count} ({100.0 * within / count:.0f} %)"
        )
    print("(searoute and scgraph get the same end points; passages they cannot avoid or open are")
    print(" left to their defaults, scgraph has no restrictions at all)")
    print()


def land_figures(
    routers: dict[str, Router], codes: Sequence[str]
) -> dict[str, tuple[int, int, int]]:
    """Per tool: routes with a land sample outside the corridors, such samples, routes tried."""
    from sealane.routing.build.coast import coastline, sample_geodesics
    from sealane.routing.build.corridors import CorridorIndex, read_geojson
    from sealane.routing.data import data_dir

    coast = coastline()
    corridors = CorridorIndex(read_geojson(data_dir() / "corridors.geojson"))
    out: dict[str, tuple[int, int, int]] = {}
    for name, router in routers.items():
        leg_ids: dict[tuple[float, ...], int] = {}
        route_legs: list[list[int]] = []
        for a, b in combinations(codes, 2):
            try:
                points, _ = router(point(a), point(b), (), ())
            except Exception:
                continue
            ids = [leg_ids.setdefault((*p, *q), len(leg_ids)) for p, q in pairwise(points)]
            route_legs.append(ids)
        legs = np.array(list(leg_ids.keys()))
        lon, lat, leg, _ = sample_geodesics(legs[:, 0], legs[:, 1], legs[:, 2], legs[:, 3], 100.0)
        land = np.flatnonzero(coast.is_land(lon, lat))
        outside = land[~corridors.contains(lon[land], lat[land])]
        bad = set(leg[outside].tolist())
        on_land = sum(any(i in bad for i in ids) for ids in route_legs)
        out[name] = (on_land, int(outside.size), len(route_legs))
    return out


def print_land(routers: dict[str, Router]) -> None:
    """Table 7: routes between the 100 busiest container ports that touch land."""
    with (DATA / "top100_container_ports.csv").open(encoding="utf-8") as handle:
        codes = [r["locode"] for r in csv.DictReader(handle)]
    figures = land_figures(routers, codes)
    headers = ["tool", "routes", "routes on land", "share", "land samples (100 m)"]
    table = [
        [name, str(n), str(bad), f"{100.0 * bad / n:.1f} %", str(samples)]
        for name, (bad, samples, n) in figures.items()
    ]
    title = (
        f"Table 7. Land check: the {len(codes) * (len(codes) - 1) // 2} port pairs of the 100 "
        "busiest container ports, each distinct leg sampled every 100 m (GSHHG full); land "
        "inside sealane's named corridors not counted"
    )
    print(render_table(title, headers, table, left=(0,)))
    print()


def sealane_router(
    origin: Point, destination: Point, avoid: tuple[str, ...], allow: tuple[str, ...]
) -> tuple[list[Point], float]:
    """sealane on points (ports are given as their positions, like the other tools)."""
    found = sealane.route(origin, destination, avoid=avoid, allow=allow)
    return [tuple(p) for p in found.coordinates.tolist()], found.distance_nm  # type: ignore[misc]


#: Issue 28's measure of the distance set: a container ship of 12 m draft, or of the draft of the
#: row's own canal or strait where that is less (Kiel 9.5 m, the Oresund 7.7 m, Corinth 7.3 m):
#: the published figure is that passage's way (as ``tests/routing/test_published_distances.py``).
DRAFT_M = 12.0


def sealane_draft_router(
    origin: Point, destination: Point, avoid: tuple[str, ...], allow: tuple[str, ...]
) -> tuple[list[Point], float]:
    """sealane on points for a ship of ``DRAFT_M`` (or its row's passage's draft, if less)."""
    from sealane.routing.limits import passage_limits

    way = sealane.route(origin, destination, avoid=avoid, allow=allow).passages
    takes: dict[str, float] = {}
    for limit in passage_limits():
        if limit.passage.value in way and limit.draft_m is not None:
            takes[limit.passage.value] = max(takes.get(limit.passage.value, 0.0), limit.draft_m)
    draft = min([DRAFT_M, *takes.values()])
    found = sealane.route(origin, destination, avoid=avoid, allow=allow, draft_m=draft)
    return [tuple(p) for p in found.coordinates.tolist()], found.distance_nm  # type: ignore[misc]


def searoute_router(
    origin: Point, destination: Point, avoid: tuple[str, ...], _allow: tuple[str, ...]
) -> tuple[list[Point], float]:
    """searoute with its defaults; restrictions it knows are added to its default ['northwest']."""
    import searoute

    known = {"suez", "panama", "malacca", "gibraltar", "babalmandab", "bosporus", "ormuz", "sunda"}
    options: dict[str, Any] = {"units": "naut"}
    if set(avoid) & known:
        options["restrictions"] = ["northwest", *sorted(set(avoid) & known)]
    got = searoute.searoute(list(origin), list(destination), **options)
    return [tuple(p) for p in got["geometry"]["coordinates"]], float(got["properties"]["length"])


def scgraph_router(graph: Any) -> Router:
    """scgraph's marnet shortest path (no restrictions)."""

    def run(
        origin: Point, destination: Point, _a: tuple[str, ...], _b: tuple[str, ...]
    ) -> tuple[list[Point], float]:
        got = graph.get_shortest_path(
            {"latitude": origin[1], "longitude": origin[0]},
            {"latitude": destination[1], "longitude": destination[0]},
            output_units="km",
        )
        return [(lon, lat) for lat, lon in got["coordinate_path"]], got["length"] / 1.852

    return run

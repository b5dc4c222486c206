"""Sea-route engines side by side: sealane, searoute and scgraph (marnet), in one run.

Run ``.venv/bin/python benchmarks/routes.py`` (``--quick`` for a short run, ``--repeat N`` for
the number of timed calls per route, ``--land`` to add the 100x100 land check). It prints
plain-text tables of distances against published figures, warm and first-call latencies, cold
start and memory; it asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Protocol, TypeVar

import searoute
from scgraph import GeoGraph

import sealane
from _accuracy import (
    print_distance_set,
    print_land,
    scgraph_router,
    sealane_draft_router,
    sealane_router,
    searoute_router,
)
from _util import (
    ERROR,
    NA,
    NONE,
    anchors_dir,
    fmt,
    fmt_ms,
    fmt_pct,
    machine_lines,
    median,
    render_table,
    timed_s,
    warm_median_ms,
)

#: Where the scgraph marnet graph is kept (it cannot be downloaded here): ../shared/anchors/scgraph.
SCGRAPH_CACHE = anchors_dir("scgraph")
METRES_PER_NM = 1852.0
#: Latitude of the Arctic Circle; a route beyond it is taken to sail an Arctic passage.
ARCTIC_CIRCLE = 66.56
#: Tools whose distances differ by more than this share are listed in the notes.
DISAGREEMENT = 0.05
#: Base offset, degrees, that makes a "fresh" point no cache has seen.
JITTER_DEG = 0.01
#: searoute's own default restriction, kept when the benchmark adds restrictions of its own.
SEAROUTE_DEFAULT_RESTRICTIONS = ("northwest",)
COLD_PAIR = ("CNSHA", "NLRTM")

Point = tuple[float, float]
T = TypeVar("T")


@dataclass(frozen=True)
class Case:
    """A port pair to route, with passages to avoid and the published distance if there is one."""

    origin: str
    destination: str
    lane: str
    published_nm: float | None = None
    avoid: tuple[str, ...] = ()
    source: str = "port-distance tables"

    @property
    def label(self) -> str:
        """The pair as 'ORIGN-DESTN'."""
        return f"{self.origin}-{self.destination}"

    @property
    def title(self) -> str:
        """The pair and, when there are any, the passages it avoids."""
        return f"{self.label} avoid {'+'.join(self.avoid)}" if self.avoid else self.label


PORT_ECONOMICS = "Port Economics"
NGA_151 = "NGA Pub. 151"

#: Unrestricted pairs over the main lanes; the first ones carry a published distance.
CASES: tuple[Case, ...] = (
    Case("CNSHA", "NLRTM", "Asia-Europe", 10600, source=PORT_ECONOMICS),
    Case("SGSIN", "NLRTM", "Asia-Europe", 8290),
    Case("CNSHA", "USLAX", "transpacific", 5710),
    Case("JPYOK", "USLGB", "transpacific", 4830),
    Case("KRPUS", "USLGB", "transpacific", 5250),
    Case("USNYC", "NLRTM", "transatlantic", 3450),
    Case("CNSHA", "USNYC", "Asia-USEC (Panama)", 10570),
    Case("HKHKG", "SGSIN", "intra-Asia", 1460),
    Case("SGSIN", "LKCMB", "intra-Asia", 1570),
    Case("CNSHA", "SGSIN", "intra-Asia", 2190),
    Case("BRSSZ", "NLRTM", "South America", 5430),
    Case("NLRTM", "BEANR", "short-sea", 117, source=NGA_151),
    Case("GBFXT", "NLRTM", "short-sea", 121, source=NGA_151),
    Case("AEJEA", "INNSA", "Gulf"),
    Case("QAHMD", "SAJED", "Gulf-Red Sea"),
    Case("DEHAM", "USNYC", "transatlantic"),
    Case("USHOU", "NLRTM", "US Gulf-Europe"),
    Case("USSAV", "ESALG", "transatlantic"),
    Case("ZADUR", "SGSIN", "Africa"),
    Case("NGLOS", "NLRTM", "Africa"),
    Case("KEMBA", "AEJEA", "Africa"),
    Case("EGPSD", "ITGOA", "Mediterranean"),
    Case("NLRTM", "GRPIR", "Europe-Med"),
    Case("DEHAM", "PLGDN", "short-sea (Baltic)"),
    Case("AUMEL", "SGSIN", "Oceania"),
    Case("NZAKL", "USLAX", "transpacific (south)"),
    Case("CAVAN", "JPYOK", "transpacific (north)"),
    Case("CLVAP", "ARBUE", "South America"),
    Case("JPTYO", "CNSHA", "intra-Asia"),
)

#: Runs with closed passages, for the tools that support them (sealane and searoute).
RESTRICTED: tuple[Case, ...] = (
    Case("CNSHA", "NLRTM", "Asia-Europe", 13800, ("suez", "panama"), PORT_ECONOMICS),
    Case("CNSHA", "NLRTM", "Asia-Europe", None, ("suez",)),
    Case("SGSIN", "NLRTM", "Asia-Europe", None, ("suez",)),
    Case("AEJEA", "NLRTM", "Gulf-Europe", None, ("suez",)),
    Case("CNSHA", "USNYC", "Asia-USEC", None, ("panama",)),
    Case("USHOU", "CNSHA", "US Gulf-Asia", None, ("panama",)),
    Case("HKHKG", "LKCMB", "intra-Asia", None, ("malacca",)),
    Case("CNSHA", "AEJEA", "Asia-Gulf", None, ("malacca",)),
    Case("CNSHA", "NLRTM", "Asia-Europe", None, ("babalmandab",)),
    Case("NLRTM", "GRPIR", "Europe-Med", None, ("gibraltar",)),
)


@dataclass(frozen=True)
class Trip:
    """One query: end points as (lon, lat), their LOCODEs when they are ports, passages to avoid."""

    origin: Point
    destination: Point
    avoid: tuple[str, ...] = ()
    origin_code: str | None = None
    destination_code: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What a tool returned, reduced to what the tables compare."""

    distance_nm: float
    lonlat: list[Point]
    passages: tuple[str, ...] = ()


class Unsupported(Exception):
    """The tool cannot express this query (shown as 'n/a')."""


class Engine(Protocol):
    """A routing tool as the benchmark drives it."""

    name: str

    def query(self, trip: Trip) -> Any:
        """The tool's own call for ``trip``; this is what is timed."""

    def outcome(self, raw: Any) -> Outcome:
        """Distance and geometry from the tool's raw answer (not timed)."""

    def forget(self) -> None:
        """Drop any cache the tool keeps between calls, so the next call is a first call."""


class SealaneEngine:
    """sealane.route with LOCODEs when known, else (lon, lat) points; Arctic closed."""

    name = "sealane"

    def query(self, trip: Trip) -> Any:
        """Route with sealane."""
        return sealane.route(
            trip.origin_code or trip.origin,
            trip.destination_code or trip.destination,
            avoid=trip.avoid,
            allow_arctic=False,
        )

    def outcome(self, raw: Any) -> Outcome:
        """Distance, coordinates and passages of a sealane Route."""
        points = [(lon, lat) for lon, lat in raw.coordinates.tolist()]
        return Outcome(raw.distance_nm, points, tuple(raw.passages))

    def forget(self) -> None:
        """Nothing to drop: fresh points already miss the per-coordinate snapping memo."""


class SearouteEngine:
    """searoute.searoute with its defaults; restrictions add to its default ['northwest']."""

    name = "searoute"

    def query(self, trip: Trip) -> Any:
        """Route with searoute, in nautical miles."""
        options: dict[str, Any] = {"units": "naut"}
        if trip.avoid:
            options["restrictions"] = [*SEAROUTE_DEFAULT_RESTRICTIONS, *trip.avoid]
        return searoute.searoute(list(trip.origin), list(trip.destination), **options)

    def outcome(self, raw: Any) -> Outcome:
        """Length and coordinates of a searoute Feature."""
        points = [(lon, lat) for lon, lat in raw["geometry"]["coordinates"]]
        return Outcome(float(raw["properties"]["length"]), points)

    def forget(self) -> None:
        """Nothing to drop: searoute keeps no per-query cache."""


@dataclass
class ScgraphEngine:
    """scgraph's marnet GeoGraph.get_shortest_path, with its default or a named algorithm."""

    graph: Any
    name: str = "scgraph"
    algorithm: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """Pass the algorithm only when one is named, so the default stays the tool's default."""
        if self.algorithm is not None:
            self.options["algorithm_fn"] = self.algorithm

    def query(self, trip: Trip) -> Any:
        """Route with scgraph in km (it has no nautical-mile unit); no restrictions possible."""
        if trip.avoid:
            raise Unsupported("scgraph has no passage restrictions")
        origin = {"latitude": trip.origin[1], "longitude": trip.origin[0]}
        destination = {"latitude": trip.destination[1], "longitude": trip.destination[0]}
        return self.graph.get_shortest_path(origin, destination, output_units="km", **self.options)

    def outcome(self, raw: Any) -> Outcome:
        """Length (km to nm) and coordinates (lat/lon to lon/lat) of an scgraph answer."""
        points = [(lon, lat) for lat, lon in raw["coordinate_path"]]
        return Outcome(raw["length"] * 1000.0 / METRES_PER_NM, points)

    def forget(self) -> None:
        """Drop the cached shortest-path trees (only the cached algorithm uses them)."""
        self.graph.graph_object.reset_cache()


@dataclass
class Bench:
    """The engines, run settings and the failures met on the way."""

    engines: list[Engine]
    repeat: int
    fresh: int
    failures: list[str] = field(default_factory=list)

    def engine(self, name: str) -> Engine:
        """The engine called ``name``."""
        return next(engine for engine in self.engines if engine.name == name)

    def attempt(self, engine: Engine, label: str, call: Callable[[], T]) -> T | str:
        """``call()``, or NA when unsupported, or ERROR (recorded) when the tool raises."""
        try:
            return call()
        except Unsupported:
            return NA
        except Exception as error:
            self.failures.append(f"{engine.name} {label}: {type(error).__name__}: {error}")
            return ERROR

    def outcome(self, engine: Engine, case: Case) -> Outcome | str:
        """The tool's outcome for ``case``, or NA / ERROR."""
        trip = port_trip(case)
        return self.attempt(engine, case.label, lambda: engine.outcome(engine.query(trip)))

    def warm_ms(self, engine: Engine, case: Case) -> float | str:
        """Median warm latency of ``case`` in ms, or NA / ERROR."""
        trip = port_trip(case)
        return self.attempt(
            engine, case.label, lambda: warm_median_ms(lambda: engine.query(trip), self.repeat)
        )

    def first_call_ms(self, engine: Engine, case: Case) -> float | str:
        """Median latency of first calls on points jittered so that no cache has seen them."""

        def sample(k: int) -> float:
            """Time one query on the k-th jittered copy of the pair."""
            trip = jittered_trip(case, k)
            engine.forget()
            return timed_s(lambda: engine.query(trip)) * 1e3

        return self.attempt(
            engine, case.label, lambda: statistics.median(sample(k) for k in range(self.fresh))
        )


def port_point(code: str) -> Point:
    """The (lon, lat) sealane gives for a LOCODE; every tool is given the same point."""
    port = sealane.get_port(code)
    return (port.lon, port.lat)


def port_trip(case: Case) -> Trip:
    """The trip between the case's ports, named by LOCODE for the tools that take one."""
    return Trip(
        port_point(case.origin),
        port_point(case.destination),
        case.avoid,
        case.origin,
        case.destination,
    )


def jittered_trip(case: Case, k: int) -> Trip:
    """The case's trip moved by about 0.01 degree (distinct for each ``k``), as bare points."""
    step = JITTER_DEG + k * 1e-4
    (olon, olat), (dlon, dlat) = port_point(case.origin), port_point(case.destination)
    return Trip((olon + step, olat + step), (dlon - step, dlat + step), case.avoid)


def pct_error(outcome: Outcome | str, published: float | None) -> float | str | None:
    """Signed % error of the outcome against the published distance."""
    if published is None:
        return None
    if isinstance(outcome, str):
        return outcome
    return (outcome.distance_nm - published) / published * 100.0


def distance(outcome: Outcome | str) -> float | str:
    """The distance of an outcome, or its NA / ERROR marker."""
    return outcome if isinstance(outcome, str) else outcome.distance_nm


def ratio(a: float | str, b: float | str) -> float | str | None:
    """a / b when both are numbers, else None."""
    if isinstance(a, float) and isinstance(b, float) and b > 0:
        return a / b
    return None


def crosses_antimeridian(points: Sequence[Point]) -> bool:
    """Whether the polyline crosses the +-180 meridian."""
    lons = [lon for lon, _ in points]
    jumps = any(abs(b - a) > 180.0 for a, b in pairwise(lons))
    return jumps or any(abs(lon) > 180.0 for lon in lons)


def in_arctic(points: Sequence[Point]) -> bool:
    """Whether the polyline goes north of the Arctic Circle."""
    return any(lat > ARCTIC_CIRCLE for _, lat in points)


def shape(outcome: Outcome | str) -> str:
    """A short tag for the route shape: X crosses +-180, A goes through the Arctic."""
    if isinstance(outcome, str):
        return outcome
    tags = ("X" if crosses_antimeridian(outcome.lonlat) else "") + (
        "A" if in_arctic(outcome.lonlat) else ""
    )
    return tags or "."


def known_locodes(cases: Sequence[Case]) -> list[Case]:
    """The cases whose two LOCODEs sealane knows; unknown ones are reported and skipped."""
    kept = []
    for case in cases:
        try:
            port_point(case.origin)
            port_point(case.destination)
        except sealane.UnknownPortError as error:
            print(f"skipping {case.label}: {error}")
            continue
        kept.append(case)
    return kept


def distance_table(bench: Bench, cases: Sequence[Case]) -> dict[Case, dict[str, Outcome | str]]:
    """Every engine's outcome for every case."""
    return {case: {e.name: bench.outcome(e, case) for e in bench.engines} for case in cases}


def print_distances(cases: Sequence[Case], outcomes: dict[Case, dict[str, Outcome | str]]) -> None:
    """Table 1: distances, % error against the published figure, sealane passages."""
    names = ["sealane", "searoute", "scgraph"]
    headers = ["pair", "lane", *(f"{n} nm" for n in names), "published"]
    headers += [f"{n} %" for n in names] + ["shape sl/sr/sc", "sealane passages"]
    rows = []
    for case in cases:
        got = outcomes[case]
        row = [case.label, case.lane, *(fmt(distance(got[n])) for n in names)]
        row.append(fmt(case.published_nm))
        row += [fmt_pct(pct_error(got[n], case.published_nm)) for n in names]
        row.append("/".join(shape(got[n]) for n in names))
        row.append(passages_of(got["sealane"]))
        rows.append(row)
    title = "Table 1. Distance (nm) per pair, % error against the published figure"
    print(render_table(title, headers, rows, left=(0, 1, len(headers) - 2, len(headers) - 1)))


def passages_of(outcome: Outcome | str) -> str:
    """The sealane passages, comma-separated, or '-' for none."""
    if isinstance(outcome, str):
        return outcome
    return ",".join(outcome.passages) or NONE


def latency_table(bench: Bench, cases: Sequence[Case]) -> dict[Case, dict[str, float | str]]:
    """Median warm latency (ms) of every engine for every case."""
    return {case: {e.name: bench.warm_ms(e, case) for e in bench.engines} for case in cases}


def print_latencies(cases: Sequence[Case], warm: dict[Case, dict[str, float | str]]) -> None:
    """Table 2: median warm latency per pair and sealane's ratio to the others."""
    headers = ["pair", "sealane ms", "searoute ms", "scgraph ms", "scgraph-cached ms"]
    headers += [f"sl/{n.replace('scgraph-cached', 'scg-cached')}" for n in ENGINE_NAMES[1:]]
    rows = []
    for case in cases:
        got = warm[case]
        row = [case.label, *(fmt_ms(got[n]) for n in ENGINE_NAMES)]
        row += [fmt(ratio(got["sealane"], got[n]), 3) for n in ENGINE_NAMES[1:]]
        rows.append(row)
    title = "Table 2. Median warm latency per route (ms; ratio < 1 means sealane is faster)"
    print(render_table(title, headers, rows))


def print_restricted(
    cases: Sequence[Case],
    outcomes: dict[Case, dict[str, Outcome | str]],
    warm: dict[Case, dict[str, float | str]],
) -> None:
    """Table 3: restricted runs, sealane against searoute (scgraph cannot restrict)."""
    headers = ["pair", "avoid", "sealane nm", "searoute nm", "scgraph", "published"]
    headers += ["sl %", "sr %", "sealane ms", "searoute ms", "sl/sr", "sealane passages"]
    rows = []
    for case in cases:
        got, ms = outcomes[case], warm[case]
        row = [case.label, "+".join(case.avoid)]
        row += [fmt(distance(got["sealane"])), fmt(distance(got["searoute"])), NA]
        row += [fmt(case.published_nm)]
        row += [fmt_pct(pct_error(got[n], case.published_nm)) for n in ("sealane", "searoute")]
        row += [fmt_ms(ms["sealane"]), fmt_ms(ms["searoute"])]
        row += [fmt(ratio(ms["sealane"], ms["searoute"]), 3), passages_of(got["sealane"])]
        rows.append(row)
    title = (
        "Table 3. Restricted runs (searoute is given restrictions=['northwest', *avoid], "
        "keeping its own default)"
    )
    print(render_table(title, headers, rows, left=(0, 1, len(headers) - 1)))


def print_first_calls(
    bench: Bench, cases: Sequence[Case], warm: dict[Case, dict[str, float | str]]
) -> dict[str, list[float]]:
    """Table 4: first call for a pair (fresh jittered points) against warm; returns the samples."""
    headers = ["pair", "sealane first ms", "sealane warm ms", "first/warm"]
    headers += ["searoute first ms", "scgraph first ms", "scg-cached first ms"]
    rows = []
    firsts: dict[str, list[float]] = {name: [] for name in ENGINE_NAMES}
    for case in cases:
        got = {e.name: bench.first_call_ms(e, case) for e in bench.engines}
        for name, value in got.items():
            if isinstance(value, float):
                firsts[name].append(value)
        row = [case.label, fmt_ms(got["sealane"]), fmt_ms(warm[case]["sealane"])]
        row.append(fmt(ratio(got["sealane"], warm[case]["sealane"]), 2))
        row += [fmt_ms(got[name]) for name in ENGINE_NAMES[1:]]
        rows.append(row)
    title = (
        f"Table 4. First call for a pair: median of {bench.fresh} calls on points jittered "
        f"by ~{JITTER_DEG} deg (no snapping memo applies; scgraph-cached trees reset)"
    )
    print(render_table(title, headers, rows))
    return firsts


def numbers(values: Sequence[float | str]) -> list[float]:
    """The numeric values only."""
    return [value for value in values if isinstance(value, float)]


def error_stats(
    outcomes: dict[Case, dict[str, Outcome | str]], name: str
) -> tuple[float | None, float | None, int]:
    """Median absolute % error, share (%) within 5 % and the number of published pairs used."""
    errors = [pct_error(got[name], case.published_nm) for case, got in outcomes.items()]
    absolute = [abs(value) for value in errors if isinstance(value, float)]
    within = 100.0 * sum(value <= 5.0 for value in absolute) / len(absolute) if absolute else None
    return median(absolute), within, len(absolute)


def print_summary(
    outcomes: dict[Case, dict[str, Outcome | str]],
    warm: dict[Case, dict[str, float | str]],
    restricted_warm: dict[Case, dict[str, float | str]],
    firsts: dict[str, list[float]],
) -> None:
    """Summary lines: overall medians, ratios and accuracy against published figures."""
    overall = {name: median(numbers([got[name] for got in warm.values()])) for name in ENGINE_NAMES}
    limited = {
        name: median(numbers([got[name] for got in restricted_warm.values()]))
        for name in ("sealane", "searoute")
    }
    print("Summary")
    print("=======")
    for name in ENGINE_NAMES:
        first = median(firsts[name])
        print(
            f"{name:<16} median warm {fmt_ms(overall[name]):>9} ms over {len(warm)} pairs;"
            f" median first call {fmt_ms(first):>9} ms"
        )
    for name in ENGINE_NAMES[1:]:
        ratios = [ratio(got["sealane"], got[name]) for got in warm.values()]
        per_pair = [value for value in ratios if isinstance(value, float)]
        print(
            f"sealane/{name:<16} ratio of medians {fmt(ratio_of(overall, name), 3):>8};"
            f" median of per-pair ratios {fmt(median(per_pair), 3):>8}"
        )
    print(
        f"restricted runs  median warm sealane {fmt_ms(limited['sealane'])} ms, searoute "
        f"{fmt_ms(limited['searoute'])} ms, sealane/searoute "
        f"{fmt(ratio_of(limited, 'searoute'), 3)} ({len(restricted_warm)} runs)"
    )
    for name in ("sealane", "searoute", "scgraph"):
        mae, within, count = error_stats(outcomes, name)
        print(
            f"{name:<16} vs published: median |error| {fmt(mae, 1, '%'):>6},"
            f" within 5 %: {fmt(within, 0, '%'):>4} of {count} published figures"
        )
    print()


def ratio_of(medians: dict[str, float | None], name: str) -> float | None:
    """sealane's median over ``name``'s, when both exist."""
    mine, theirs = medians["sealane"], medians[name]
    return mine / theirs if mine is not None and theirs else None


CHILD = """\
import json, time
def memory_kb():
    fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
rss_before, _ = memory_kb()
t0 = time.perf_counter()
{imports}
t1 = time.perf_counter()
{first_route}
t2 = time.perf_counter()
rss_after, peak = memory_kb()
print(json.dumps({{"import_s": t1 - t0, "first_s": t2 - t1,
                  "rss_kb": rss_after - rss_before, "peak_kb": peak - rss_before}}))
"""


def child_programs() -> dict[str, tuple[str, str]]:
    """Per tool, the import statement and the first route a fresh process runs."""
    (olon, olat), (dlon, dlat) = port_point(COLD_PAIR[0]), port_point(COLD_PAIR[1])
    origin = {"latitude": olat, "longitude": olon}
    destination = {"latitude": dlat, "longitude": dlon}
    return {
        "python (no engine)": ("pass", "pass"),
        "sealane": ("import sealane", f"sealane.route({COLD_PAIR[0]!r}, {COLD_PAIR[1]!r})"),
        "searoute": (
            "import searoute",
            f"searoute.searoute([{olon}, {olat}], [{dlon}, {dlat}], units='naut')",
        ),
        "scgraph (+ load)": (
            "from scgraph import GeoGraph",
            f"GeoGraph.load_geograph('marnet', cache_dir={str(SCGRAPH_CACHE)!r})"
            f".get_shortest_path({origin!r}, {destination!r}, output_units='km')",
        ),
    }


def run_child(imports: str, first_route: str) -> tuple[dict[str, float], float]:
    """Run one fresh interpreter; its own measurements and the wall time seen from outside."""
    code = CHILD.format(imports=imports, first_route=first_route)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    return json.loads(done.stdout.strip().splitlines()[-1]), wall


def print_cold_start(repeat: int) -> None:
    """Table 5: import + first route in a fresh process, and the resident memory it adds.
    sealane's modules are byte-compiled first, as pip leaves an installed package (searoute's
    and scgraph's are): in a checkout under PYTHONDONTWRITEBYTECODE every process would compile
    them again."""
    compileall.compile_dir(Path(sealane.__file__).parent, quiet=1)
    headers = ["engine", "import ms", "first route ms", "import+first ms", "process wall ms"]
    headers += ["RSS added MB", "peak added MB"]
    rows = []
    for name, (imports, first_route) in child_programs().items():
        try:
            runs = [run_child(imports, first_route) for _ in range(repeat)]
        except (subprocess.CalledProcessError, ValueError) as error:
            rows.append([name, *[ERROR] * 6])
            print(f"cold start of {name} failed: {error}")
            continue
        inner = [stats for stats, _ in runs]

        def mid(key: str, scale: float, runs: list[dict[str, float]] = inner) -> float:
            """The median of one child measurement, scaled."""
            return statistics.median(stats[key] for stats in runs) * scale

        total = statistics.median(s["import_s"] + s["first_s"] for s in inner) * 1e3
        walls = statistics.median(wall for _, wall in runs) * 1e3
        rows.append(
            [
                name,
                fmt(mid("import_s", 1e3), 1),
                fmt(mid("first_s", 1e3), 1),
                fmt(total, 1),
                fmt(walls, 1),
                fmt(mid("rss_kb", 1 / 1024), 1),
                fmt(mid("peak_kb", 1 / 1024), 1),
            ]
        )
    title = (
        f"Table 5. Cold start and memory: fresh process, import + first route "
        f"{'-'.join(COLD_PAIR)}, median of {repeat} (VmRSS/VmHWM from /proc/self/status)"
    )
    print(render_table(title, headers, rows))


def disagreement_notes(outcomes: dict[Case, dict[str, Outcome | str]]) -> list[str]:
    """One line per pair where sealane, searoute and scgraph differ by more than 5 % in distance."""
    notes = []
    for case, got in outcomes.items():
        compared = {n: o for n in COMPARED if isinstance(o := got[n], Outcome)}
        values = {n: o.distance_nm for n, o in compared.items()}
        if len(values) < 2 or max(values.values()) <= (1 + DISAGREEMENT) * min(values.values()):
            continue
        spread = max(values.values()) / min(values.values()) - 1
        shown = ", ".join(f"{n} {o.distance_nm:,.0f} [{shape(o)}]" for n, o in compared.items())
        notes.append(f"{case.title}: spread {spread:.0%} ({shown})")
    return notes


def cached_mismatches(outcomes: dict[Case, dict[str, Outcome | str]]) -> list[str]:
    """Pairs where scgraph's cached algorithm finds a different length than its default."""
    mismatches = []
    for case, got in outcomes.items():
        plain, cached = got["scgraph"], got["scgraph-cached"]
        if not (isinstance(plain, Outcome) and isinstance(cached, Outcome)):
            continue
        if abs(plain.distance_nm - cached.distance_nm) > 1e-6 * plain.distance_nm:
            mismatches.append(f"{case.title} {plain.distance_nm:,.1f}/{cached.distance_nm:,.1f}")
    return mismatches


def source_line(cases: Sequence[Case]) -> str:
    """Which published figure comes from which source."""
    by_source: dict[str, list[str]] = {}
    for case in cases:
        if case.published_nm is not None:
            by_source.setdefault(case.source, []).append(case.title)
    return "; ".join(f"{source}: {', '.join(titles)}" for source, titles in by_source.items())


def print_notes(bench: Bench, outcomes: dict[Case, dict[str, Outcome | str]]) -> None:
    """Pairs where tools disagree, route-shape flags, failures and what the figures rest on."""
    print("Notes")
    print("=====")
    notes = disagreement_notes(outcomes)
    print(f"Pairs where the tools differ by more than {DISAGREEMENT:.0%} in distance: {len(notes)}")
    for note in notes:
        print(f"  {note}")
    print("shape: X = crosses the antimeridian, A = goes north of the Arctic Circle, . = neither")
    mismatches = cached_mismatches(outcomes)
    print("scgraph default vs cached lengths differ on: " + (", ".join(mismatches) or "none"))
    print("Failures (shown as 'error'):" + ("" if bench.failures else " none"))
    for failure in bench.failures:
        print(f"  {failure}")
    print(f"Published figures (nm, rounded): {source_line(list(outcomes))}")
    print()


ENGINE_NAMES = ("sealane", "searoute", "scgraph", "scgraph-cached")
#: The tools whose distances are compared (scgraph-cached repeats scgraph's graph).
COMPARED = ("sealane", "searoute", "scgraph")


def make_engines() -> list[Engine]:
    """sealane, searoute, scgraph (default algorithm) and scgraph's cached_shortest_path."""
    marnet = GeoGraph.load_geograph("marnet", cache_dir=str(SCGRAPH_CACHE))
    return [
        SealaneEngine(),
        SearouteEngine(),
        ScgraphEngine(marnet),
        ScgraphEngine(marnet, name="scgraph-cached", algorithm="cached_shortest_path"),
    ]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=30, help="timed calls per route (30)")
    parser.add_argument("--fresh", type=int, default=5, help="first-call samples per pair (5)")
    parser.add_argument("--cold", type=int, default=5, help="fresh processes per tool (5)")
    parser.add_argument("--quick", action="store_true", help="fewer pairs and repeats")
    parser.add_argument(
        "--land", action="store_true", help="also the 100x100 land check (several minutes)"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.fresh, args.cold = min(args.repeat, 5), 2, 2
    return args


def print_header(args: argparse.Namespace, cases: int, restricted: int) -> None:
    """Machine, versions and run settings."""
    print("Sea-route engines side by side")
    for line in machine_lines(["sealane", "searoute", "scgraph", "numpy", "networkx"]):
        print(line)
    print(
        f"settings: {cases} pairs + {restricted} restricted runs, warm = median of "
        f"{args.repeat} calls after one untimed call, {args.fresh} first-call samples, "
        f"{args.cold} cold starts per tool"
    )
    print(
        "tools   : sealane.route(allow_arctic=False); searoute defaults (units='naut'); "
        "scgraph marnet get_shortest_path default algorithm (km -> nm), "
        "scgraph-cached = algorithm_fn='cached_shortest_path'"
    )
    print()


def main(argv: Sequence[str] | None = None) -> None:
    """Run every measurement and print the tables."""
    args = parse_args(argv)
    cases = known_locodes(CASES[:10] if args.quick else CASES)
    restricted = known_locodes(RESTRICTED[:3] if args.quick else RESTRICTED)
    print_header(args, len(cases), len(restricted))
    bench = Bench(make_engines(), args.repeat, args.fresh)
    outcomes = distance_table(bench, [*cases, *restricted])
    print_distances(cases, outcomes)
    warm = latency_table(bench, cases)
    print_latencies(cases, warm)
    restricted_warm = latency_table(bench, restricted)
    print_restricted(restricted, outcomes, restricted_warm)
    firsts = print_first_calls(bench, cases, warm)
    print_summary(outcomes, warm, restricted_warm, firsts)
    print_cold_start(args.cold)
    scgraph = bench.engine("scgraph")
    routers = {
        "sealane": sealane_router,
        "searoute": searoute_router,
        "scgraph": scgraph_router(scgraph.graph),  # type: ignore[attr-defined]
    }
    print_distance_set({"sealane 12m": sealane_draft_router, **routers})
    if args.land:
        print_land(routers)
    print_notes(bench, outcomes)


if __name__ == "__main__":
    main()

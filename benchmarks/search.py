"""sealane's searches against each other on the same graph, in one process.

Run ``.venv/bin/python benchmarks/search.py`` (``--pairs N`` to time every N-th pair of the 100
busiest container ports, ``--repeat R`` timed calls per pair and way, ``--avoid NAME`` to close
a passage besides the default ones). Every route is timed every way, interleaved: through the
default passages' own hierarchy (when no passage is avoided), through the masked hierarchy (what
any other restriction set uses) and by A* with both hierarchies switched off (a graph file
without them). It prints the medians by route length and checks that every way finds the same
distance; it asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path

import sealane
from _util import fmt, fmt_ms, machine_lines, render_table, timed_s
from sealane.routing.graph import SeaGraph, default_graph
from sealane.routing.hierarchy import CoreHierarchy

TOP100 = Path(__file__).resolve().parents[1] / "tests/routing/data/top100_container_ports.csv"
BANDS_NM = ((0, 500), (500, 2_000), (2_000, 6_000), (6_000, 12_000), (12_000, 40_000))
#: A timed pair: median ms per way, and the distance (nm) each way found.
Timed = tuple[dict[str, float], dict[str, float]]


def busiest_pairs(step: int) -> list[tuple[str, str]]:
    """Every ``step``-th unordered pair of the 100 busiest container ports."""
    with TOP100.open(encoding="utf-8") as handle:
        codes = [row["locode"] for row in csv.DictReader(handle)]
    pairs = [(a, b) for i, a in enumerate(codes) for b in codes[i + 1 :]]
    return pairs[::step]


def ways(graph: SeaGraph, avoided: bool) -> dict[str, tuple[CoreHierarchy | None, ...]]:
    """The searches to compare, as the (hierarchy, masked hierarchy) a graph keeps for each."""
    both = (graph.hierarchy, graph.masked_hierarchy)
    found = {"masked": (None, both[1]), "A*": (None, None)}
    return found if avoided else {"hierarchy": both, **found}


def timed_ways(pair: tuple[str, str], avoid: tuple[str, ...], repeat: int) -> Timed:
    """Median ms and distance (nm) of the route through each way, timed interleaved."""
    graph = default_graph()
    kept = (graph.hierarchy, graph.masked_hierarchy)
    chosen = ways(graph, bool(avoid))

    def route() -> sealane.Route:
        return sealane.route(*pair, avoid=avoid)

    def switched(way: str, call: Callable[[], float]) -> float:
        graph.hierarchy, graph.masked_hierarchy = chosen[way]
        try:
            return call()
        finally:
            graph.hierarchy, graph.masked_hierarchy = kept

    distances = {way: switched(way, lambda: route().distance_nm) for way in chosen}
    samples: dict[str, list[float]] = {way: [] for way in chosen}
    for _ in range(repeat):
        for way in chosen:
            samples[way].append(switched(way, lambda: timed_s(route)))
    return {way: statistics.median(s) * 1e3 for way, s in samples.items()}, distances


def band_rows(results: Sequence[Timed], names: Sequence[str]) -> list[list[str]]:
    """One row per length band: pairs, median ms each way, median of per-pair ratios to the
    first way."""
    rows = []
    first = names[0]
    for low, high in (*BANDS_NM, (0, 40_000)):
        inside = [r for r in results if low <= r[1][first] < high]
        if not inside:
            continue
        label = "all" if (low, high) == (0, 40_000) else f"{low:,}-{high:,} nm"
        row = [label, str(len(inside))]
        row += [fmt_ms(statistics.median(r[0][way] for r in inside)) for way in names]
        row += [
            fmt(statistics.median(r[0][way] / r[0][first] for r in inside), 2, "x")
            for way in names[1:]
        ]
        rows.append(row)
    return rows


def main() -> None:
    """Time the pairs every way and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=5, help="time every N-th pair")
    parser.add_argument("--repeat", type=int, default=15, help="timed calls per pair and way")
    parser.add_argument("--avoid", action="append", default=[], help="a passage to close too")
    args = parser.parse_args()
    graph = default_graph()
    if graph.hierarchy is None or graph.masked_hierarchy is None:
        raise SystemExit("the shipped marnet.npz has no hierarchies: rebuild it (make data)")
    avoid = tuple(args.avoid)
    pairs = busiest_pairs(args.pairs)
    for pair in pairs[:50]:
        sealane.route(*pair)  # warm the snapping caches the way a serving process is warm
    results: list[Timed] = []
    for pair in pairs:
        try:
            results.append(timed_ways(pair, avoid, args.repeat))
        except sealane.NoRouteError:
            continue  # the avoided passage was the only way
    names = list(ways(graph, bool(avoid)))
    differ = [r for r in results if max(r[1].values()) - min(r[1].values()) > 1e-6]
    print("\n".join(machine_lines(["numpy"])), end="\n\n")
    closed = "default passages" + "".join(f" + {name}" for name in avoid)
    print(
        render_table(
            f"Warm route, {closed}: {' vs '.join(names)} ({len(results)} pairs of the 100 "
            f"busiest container ports, median of {args.repeat} calls each way)",
            ["route length", "pairs", *(f"{n} ms" for n in names)]
            + [f"{n}/{names[0]}" for n in names[1:]],
            band_rows(results, names),
        )
    )
    print(f"pairs whose distances differ between the searches: {len(differ)}")


if __name__ == "__main__":
    main()

"""The contraction hierarchy against A* on the same graph, in one process.

Run ``.venv/bin/python benchmarks/search.py`` (``--pairs N`` to time every N-th pair of the 100
busiest container ports, ``--repeat R`` timed calls per pair). Every route is timed both ways,
interleaved, under the default passages: through the hierarchy, and by A* with the hierarchy
switched off (what any other restriction set uses). It prints the medians by route length and
checks that both searches find the same distance; it asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections.abc import Sequence
from pathlib import Path

import sealane
from _util import fmt, fmt_ms, machine_lines, render_table, timed_s
from sealane.routing.graph import default_graph

TOP100 = Path(__file__).resolve().parents[1] / "tests/routing/data/top100_container_ports.csv"
BANDS_NM = ((0, 500), (500, 2_000), (2_000, 6_000), (6_000, 12_000), (12_000, 40_000))


def busiest_pairs(step: int) -> list[tuple[str, str]]:
    """Every ``step``-th unordered pair of the 100 busiest container ports."""
    with TOP100.open(encoding="utf-8") as handle:
        codes = [row["locode"] for row in csv.DictReader(handle)]
    pairs = [(a, b) for i, a in enumerate(codes) for b in codes[i + 1 :]]
    return pairs[::step]


def timed_both(pair: tuple[str, str], repeat: int) -> tuple[float, float, float, float]:
    """Median ms through the hierarchy and by A*, and the two distances (nm)."""
    graph = default_graph()
    hierarchy = graph.hierarchy

    def route() -> sealane.Route:
        return sealane.route(*pair)

    climbed = route().distance_nm
    graph.hierarchy = None
    searched = route().distance_nm
    graph.hierarchy = hierarchy
    with_h, without = [], []
    for _ in range(repeat):
        with_h.append(timed_s(route))
        graph.hierarchy = None
        without.append(timed_s(route))
        graph.hierarchy = hierarchy
    return (
        statistics.median(with_h) * 1e3,
        statistics.median(without) * 1e3,
        climbed,
        searched,
    )


def band_rows(results: Sequence[tuple[float, float, float, float]]) -> list[list[str]]:
    """One row per length band: pairs, median ms each way, median of per-pair speed-ups."""
    rows = []
    for low, high in (*BANDS_NM, (0, 40_000)):
        inside = [r for r in results if low <= r[2] < high]
        if not inside:
            continue
        label = "all" if (low, high) == (0, 40_000) else f"{low:,}-{high:,} nm"
        rows.append(
            [
                label,
                str(len(inside)),
                fmt_ms(statistics.median(r[0] for r in inside)),
                fmt_ms(statistics.median(r[1] for r in inside)),
                fmt(statistics.median(r[1] / r[0] for r in inside), 2, "x"),
                fmt(sum(r[1] < r[0] for r in inside) / len(inside) * 100, 0, "%"),
            ]
        )
    return rows


def main() -> None:
    """Time the pairs both ways and print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=5, help="time every N-th pair")
    parser.add_argument("--repeat", type=int, default=15, help="timed calls per pair and way")
    args = parser.parse_args()
    if default_graph().hierarchy is None:
        raise SystemExit("the shipped marnet.npz has no hierarchy: rebuild it (make data)")
    pairs = busiest_pairs(args.pairs)
    for pair in pairs[:50]:
        sealane.route(*pair)  # warm the snapping caches the way a serving process is warm
    results = [timed_both(pair, args.repeat) for pair in pairs]
    differ = [p for p, r in zip(pairs, results, strict=True) if abs(r[2] - r[3]) > 1e-6]
    print("\n".join(machine_lines(["numpy"])), end="\n\n")
    print(
        render_table(
            f"Warm route, default passages: hierarchy vs A* ({len(pairs)} pairs of the 100 "
            f"busiest container ports, median of {args.repeat} calls each)",
            ["route length", "pairs", "hierarchy ms", "A* ms", "A*/hierarchy", "A* faster"],
            band_rows(results),
        )
    )
    print(f"pairs whose distances differ between the two searches: {len(differ)} {differ[:5]}")


if __name__ == "__main__":
    main()

"""Routes for a vessel against the default route, side by side in one process.

Run ``.venv/bin/python benchmarks/vessel.py`` (``--pairs N`` to take every N-th pair of the 100
busiest container ports, ``--repeat R`` timed calls per pair and way, ``--draft``, ``--beam``,
``--length``, ``--air-draft`` for the vessel). Each pair is routed warm both ways, interleaved:
with no dimensions (the default passages' own hierarchy) and with the vessel's (every passage it
does not fit closed, searched in the masked hierarchy). It prints the medians per pair and the
ratio vessel/default, and asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import csv
import statistics
from collections.abc import Callable
from pathlib import Path

import sealane
from _util import fmt, fmt_ms, machine_lines, render_table, timed_s

TOP100 = Path(__file__).resolve().parents[1] / "tests/routing/data/top100_container_ports.csv"
#: The pairs issue 28 names, routed whatever the sampling.
NAMED_PAIRS = (("DEHAM", "PLGDN"), ("CNSHA", "NLRTM"), ("USNYC", "USLAX"), ("JPYOK", "CAVAN"))


def busiest_pairs(step: int) -> list[tuple[str, str]]:
    """Every ``step``-th unordered pair of the 100 busiest container ports."""
    with TOP100.open(encoding="utf-8") as handle:
        codes = [row["locode"] for row in csv.DictReader(handle)]
    pairs = [(a, b) for i, a in enumerate(codes) for b in codes[i + 1 :]]
    return pairs[::step]


def interleaved_ms(calls: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median ms of each call, after one untimed call each, timed in turn ``repeat`` times."""
    for call in calls.values():
        call()
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            samples[name].append(timed_s(call) * 1e3)
    return {name: statistics.median(values) for name, values in samples.items()}


def timed_pair(
    pair: tuple[str, str], vessel: dict[str, float], repeat: int
) -> tuple[dict[str, float], sealane.Route, sealane.Route | str]:
    """Median ms of the default and the vessel's route, and both routes (or why none)."""
    default = sealane.route(*pair)
    try:
        sized: sealane.Route | str = sealane.route(*pair, **vessel)
    except sealane.NoRouteError:
        sized = "no route"
    calls: dict[str, Callable[[], object]] = {"default": lambda: sealane.route(*pair)}
    if not isinstance(sized, str):
        calls["vessel"] = lambda: sealane.route(*pair, **vessel)
    return interleaved_ms(calls, repeat), default, sized


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50, help="take every N-th busiest pair")
    parser.add_argument("--repeat", type=int, default=15, help="timed calls per pair and way")
    parser.add_argument("--draft", type=float, default=12.0, help="draft in metres")
    parser.add_argument("--beam", type=float, default=45.0, help="beam in metres")
    parser.add_argument("--length", type=float, default=330.0, help="length overall in metres")
    parser.add_argument("--air-draft", type=float, default=None, help="air draft in metres")
    args = parser.parse_args()
    vessel = {"draft_m": args.draft, "beam_m": args.beam, "length_m": args.length}
    if args.air_draft is not None:
        vessel["air_draft_m"] = args.air_draft
    pairs = list(dict.fromkeys([*NAMED_PAIRS, *busiest_pairs(args.pairs)]))
    rows, ratios, default_ms, vessel_ms = [], [], [], []
    for pair in pairs:
        medians, default, sized = timed_pair(pair, vessel, args.repeat)
        default_ms.append(medians["default"])
        row = [f"{pair[0]}-{pair[1]}", fmt(default.distance_nm), fmt_ms(medians["default"])]
        if isinstance(sized, str):
            rows.append([*row, sized, "-", "-", "-"])
            continue
        ratio = medians["vessel"] / medians["default"]
        ratios.append(ratio)
        vessel_ms.append(medians["vessel"])
        changed = "+".join(sorted(set(default.passages) ^ set(sized.passages))) or "-"
        rows.append(
            [*row, fmt(sized.distance_nm), fmt_ms(medians["vessel"]), f"{ratio:.2f}x", changed]
        )
    dims = ", ".join(f"{name} {value:g}" for name, value in vessel.items())
    print("\n".join(machine_lines(["numpy", "pyproj"])), end="\n\n")
    headers = ["pair", "default nm", "default ms", "vessel nm", "vessel ms", "ratio", "changed"]
    print(render_table(f"Warm route, default against a vessel of {dims}", headers, rows))
    summary = [
        ["pairs routed both ways", str(len(ratios)), f"of {len(pairs)}"],
        ["median default ms", fmt_ms(statistics.median(default_ms)), ""],
        ["median vessel ms", fmt_ms(statistics.median(vessel_ms)), ""],
        ["median of per-pair ratios", f"{statistics.median(ratios):.2f}x", "target <= 1.5x"],
        ["largest per-pair ratio", f"{max(ratios):.2f}x", ""],
    ]
    print(render_table("Summary", ["measure", "value", "note"], summary))


if __name__ == "__main__":
    main()

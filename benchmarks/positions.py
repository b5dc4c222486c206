"""Future positions along a voyage: sealane against plain pyproj loops and vectorised calls.

Run ``.venv/bin/python benchmarks/positions.py`` (``--quick`` for a short run, ``--repeat N`` for
the number of timed calls). It prints plain-text tables of latency, serialisation cost and the
geometry of the placed positions; it asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson
from pyproj import Geod

from _util import fmt, fmt_ms, machine_lines, render_table, timed_s, warm_median_ms
from sealane.api.positions_json import positions_json
from sealane.routing import voyage
from sealane.routing.placement import place_steps_on_profile
from sealane.routing.positions import Positions
from sealane.routing.voyage import future_positions

FloatArray = npt.NDArray[np.float64]
GEOD = Geod(ellps="WGS84")
METRES_PER_NM = 1852.0
STEP_S = 60.0
START_TIME = datetime(2026, 1, 1, tzinfo=UTC)
#: Tolerances of the JSON round trip: the fixed decimals of the API's ``positions_json``.
LONLAT_TOLERANCE = 1e-6
HEADING_TOLERANCE = 0.01


@dataclass(frozen=True)
class Voyage:
    """A vessel at ``start`` on the leg ``previous`` -> ``destination``, sailing at ``speed_kn``."""

    label: str
    start: tuple[float, float]
    previous: str
    destination: str
    speed_kn: float

    @property
    def step_m(self) -> float:
        """Metres sailed between two positions."""
        return self.speed_kn * METRES_PER_NM / 3600.0 * STEP_S

    def sail(self) -> Positions:
        """The sealane positions of this voyage."""
        return future_positions(
            self.start,
            self.previous,
            self.destination,
            speed_kn=self.speed_kn,
            start_time=START_TIME,
            step_s=STEP_S,
        )


MAIN = Voyage("Shanghai -> Rotterdam", (122.5, 31.0), "CNSHA", "NLRTM", 18.0)
OTHERS = (
    MAIN,
    Voyage("Yokohama -> Long Beach (antimeridian)", (150.0, 36.0), "JPYOK", "USLGB", 22.0),
    Voyage("Singapore -> Rotterdam", (80.0, 6.0), "SGSIN", "NLRTM", 12.0),
)


@dataclass(frozen=True)
class Path:
    """A polyline's vertices with the azimuth, length and start distance of each segment."""

    lons: FloatArray
    lats: FloatArray
    azimuths: FloatArray
    lengths: FloatArray
    starts: FloatArray

    @classmethod
    def of(cls, coords: FloatArray) -> Path:
        """Segment geometry of ``coords`` (N x 2 lon/lat) from one vectorised ``Geod.inv``."""
        lons, lats = np.ascontiguousarray(coords[:, 0]), np.ascontiguousarray(coords[:, 1])
        azimuths, _, lengths = GEOD.inv(lons[:-1], lats[:-1], lons[1:], lats[1:])
        lengths = np.asarray(lengths, dtype=np.float64)
        starts = np.concatenate([[0.0], np.cumsum(lengths)])
        return cls(lons, lats, np.asarray(azimuths, dtype=np.float64), lengths, starts)

    @property
    def total_m(self) -> float:
        """Length of the whole polyline in metres."""
        return float(self.starts[-1])


def per_position_loop(coords: FloatArray, step_m: float) -> tuple[FloatArray, FloatArray]:
    """Baseline (a): one scalar ``Geod.fwd`` per position, walking the segments in a loop."""
    path = Path.of(coords)
    vertex_lons, vertex_lats = path.lons.tolist(), path.lats.tolist()
    azimuths, starts = path.azimuths.tolist(), path.starts.tolist()
    lons: list[float] = []
    lats: list[float] = []
    k, last = 0, len(azimuths) - 1
    for distance in np.arange(0.0, path.total_m, step_m).tolist():
        while k < last and starts[k + 1] <= distance:
            k += 1
        lon, lat, _ = GEOD.fwd(vertex_lons[k], vertex_lats[k], azimuths[k], distance - starts[k])
        lons.append(lon)
        lats.append(lat)
    return np.array(lons), np.array(lats)


def vectorised(coords: FloatArray, step_m: float) -> tuple[FloatArray, FloatArray]:
    """Baseline (b): every position from one vectorised ``Geod.fwd`` (no headings or times)."""
    path = Path.of(coords)
    distances = np.arange(0.0, path.total_m, step_m)
    k = np.searchsorted(path.starts, distances, side="right") - 1
    k = np.minimum(k, path.lengths.size - 1)
    lons, lats, _ = GEOD.fwd(
        path.lons[k], path.lats[k], path.azimuths[k], distances - path.starts[k]
    )
    return np.asarray(lons, dtype=np.float64), np.asarray(lats, dtype=np.float64)


def spacing_error(lons: FloatArray, lats: FloatArray, step_m: float) -> float:
    """Largest |distance between consecutive positions - step| / step, over all pairs given."""
    _, _, gaps = GEOD.inv(lons[:-1], lats[:-1], lons[1:], lats[1:])
    return float(np.max(np.abs(np.asarray(gaps) - step_m)) / step_m)


def profile_spacing_error(positions: Positions) -> float:
    """Largest |distance between consecutive positions - the distance the speed profile sails
    in that step| / the open-water step, over all pairs but the arrival (a wait sails none)."""
    profile = positions.route.speed_profile(positions.speed_kn)
    times = np.concatenate([[0.0], np.cumsum(profile.duration_s)])
    metres = np.concatenate([[0.0], np.cumsum(profile.length_m)])
    along = np.interp(np.arange(len(positions) - 1) * positions.step_s, times, metres)
    lons, lats = positions.lons[:-1], positions.lats[:-1]
    _, _, gaps = GEOD.inv(lons[:-1], lats[:-1], lons[1:], lats[1:])
    step_m = positions.speed_kn * METRES_PER_NM / 3600.0 * positions.step_s
    return float(np.max(np.abs(np.asarray(gaps) - np.diff(along))) / step_m)


def heading_error(positions: Positions) -> float:
    """Largest |heading - bearing to the next position| in degrees, over all but the last and
    the pairs less than a metre apart (a wait's positions lie on one point)."""
    lons, lats = positions.lons, positions.lats
    bearings, _, apart = GEOD.inv(lons[:-1], lats[:-1], lons[1:], lats[1:])
    diff = (positions.headings_deg[:-1] - np.asarray(bearings) + 180.0) % 360.0 - 180.0
    return float(np.max(np.abs(diff[np.asarray(apart) > 1.0])))


def median_ms_after(setup: Callable[[], object], fn: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``fn`` over ``repeat`` calls, each after an untimed ``setup``."""
    fn()
    samples = []
    for _ in range(repeat):
        setup()
        samples.append(timed_s(fn))
    return statistics.median(samples) * 1e3


@dataclass(frozen=True)
class Timings:
    """Median milliseconds of sealane (warm and cold leg) and the baselines on one voyage."""

    warm: float
    cold_leg: float
    vectorised: float
    loop: float | None = None


def time_voyage(trip: Voyage, repeat: int, loop_repeat: int = 0) -> Timings:
    """Time sealane and the baselines on ``trip``; the loop only when ``loop_repeat`` > 0."""
    coords = trip.sail().route.coordinates
    warm = warm_median_ms(trip.sail, repeat)
    cold = median_ms_after(voyage._leg.cache_clear, trip.sail, repeat)
    vector = warm_median_ms(lambda: vectorised(coords, trip.step_m), repeat)
    loop = None
    if loop_repeat > 0:
        loop = warm_median_ms(lambda: per_position_loop(coords, trip.step_m), loop_repeat)
    return Timings(warm, cold, vector, loop)


def ratio(numerator: float | None, denominator: float | None) -> str:
    """``numerator / denominator`` with two decimals, or '-' when either is missing."""
    if numerator is None or not denominator:
        return fmt(None)
    return fmt(numerator / denominator, 2)


def verdict(value: float | None, limit: float, at_most: bool) -> str:
    """'met' or 'NOT met' for ``value`` against a ``limit`` it should stay at or below/above."""
    if value is None:
        return fmt(None)
    return "met" if (value <= limit if at_most else value >= limit) else "NOT met"


def print_latency(trip: Voyage, positions: Positions, timings: Timings) -> None:
    """The main voyage's latency table with the two target ratios."""
    methods: list[tuple[str, float | None]] = [
        ("sealane total, warm (leg memoised)", timings.warm),
        ("sealane total, cold leg (_leg cleared)", timings.cold_leg),
        ("(a) per-position Geod.fwd loop", timings.loop),
        ("(b) vectorised Geod.inv + one Geod.fwd", timings.vectorised),
    ]
    rows = [[label, fmt_ms(ms), ratio(ms, timings.warm)] for label, ms in methods]
    title = f"Table 1: {trip.label} at {trip.speed_kn:g} kn, {len(positions):,} positions"
    print(render_table(title, ["method", "median ms", "x sealane warm"], rows))
    warm_b = timings.warm / timings.vectorised
    cold_b = timings.cold_leg / timings.vectorised
    loop_s = timings.loop / timings.warm if timings.loop else None
    targets = [
        ["sealane warm / (b)", fmt(warm_b, 2), "<= 1.0", verdict(warm_b, 1.0, True)],
        ["sealane cold leg / (b)", fmt(cold_b, 2), "<= 1.0", verdict(cold_b, 1.0, True)],
        ["(a) / sealane warm", fmt(loop_s, 1), ">= 10", verdict(loop_s, 10.0, False)],
    ]
    print(render_table("Targets", ["ratio", "value", "target", "status"], targets))


def print_geometry(trip: Voyage, positions: Positions) -> None:
    """Counts, distance, ETA and the spacing/heading checks for sealane and baseline (b)."""
    coords = positions.route.coordinates
    base_lons, base_lats = vectorised(coords, trip.step_m)
    loop_lons, loop_lats = per_position_loop(coords, trip.step_m)
    agree = max(
        float(np.max(np.abs(loop_lons - base_lons))), float(np.max(np.abs(loop_lats - base_lats)))
    )
    n = len(positions)
    rows = [
        ["positions", fmt(n), fmt(base_lons.size)],
        ["path vertices", fmt(coords.shape[0]), fmt(coords.shape[0])],
        ["distance (nm)", fmt(positions.distance_remaining_nm, 1), fmt(None)],
        ["ETA (UTC)", positions.eta.strftime("%Y-%m-%d %H:%M:%S"), fmt(None)],
        ["step (m)", fmt(trip.step_m, 2), fmt(trip.step_m, 2)],
        [
            "max |spacing err| / step",
            f"{profile_spacing_error(positions):.2e}",
            f"{spacing_error(base_lons, base_lats, trip.step_m):.2e}",
        ],
        [
            "max distance to (b)'s positions (m)",
            f"{to_baseline_m(positions, base_lons, base_lats)}",
            fmt(None),
        ],
        ["max |heading - bearing to next| deg", f"{heading_error(positions):.2e}", fmt(None)],
        ["max distance to exact placement (m)", f"{exact_deviation_m(positions):.1e}", fmt(None)],
    ]
    title = "Table 2: geometry of the placed positions"
    print(render_table(title, ["", "sealane", "(b) vectorised"], rows))
    print(
        "sealane spacing is checked over all pairs but the last (the arrival), against the "
        "distance its speed\nprofile sails in each step (less in the canals, rivers and port "
        "approaches, none through a\nwait); (b), at one speed, over all pairs. Both place "
        "along-track steps, so their chords are\nshorter where the track turns. (a) and (b) "
        f"agree to {agree:.1e} deg.\n"
    )


def to_baseline_m(positions: Positions, base_lons: FloatArray, base_lats: FloatArray) -> str:
    """Largest distance between sealane's positions (the arrival left out) and (b)'s, which
    place the same along-track steps; a count mismatch is shown instead."""
    n = len(positions) - 1
    if base_lons.size not in (n, n + 1):
        return f"counts differ: {n} vs {base_lons.size}"
    _, _, apart = GEOD.inv(positions.lons[:n], positions.lats[:n], base_lons[:n], base_lats[:n])
    return f"{float(np.max(apart)):.1e}"


def exact_deviation_m(positions: Positions) -> float:
    """Largest distance from sealane's interpolated positions to the same placement done with
    pyproj for every position, on the route's speed profile (``place_steps_on_profile``)."""
    route = positions.route
    profile = route.speed_profile(positions.speed_kn)
    steps = np.arange(len(positions), dtype=np.int64)
    lons, lats, _, _ = place_steps_on_profile(route.coordinates, profile, positions.step_s, steps)
    _, _, apart = GEOD.inv(positions.lons, positions.lats, lons, lats)
    return float(np.max(apart))


def orjson_arrays(positions: Positions) -> bytes:
    """The same numbers as plain arrays through ``orjson`` (numpy support)."""
    columns = {
        "latitude": positions.lats,
        "longitude": positions.lons,
        "heading": positions.headings_deg,
        "timestamp": positions.times.astype("datetime64[s]"),
    }
    return orjson.dumps(columns, option=orjson.OPT_SERIALIZE_NUMPY)


def round_trip_ok(positions: Positions) -> bool:
    """Whether ``json.loads(positions_json())`` equals the records within the fixed decimals."""
    decoded: list[dict[str, Any]] = json.loads(positions_json(positions))
    records = positions.to_records()
    if len(decoded) != len(records):
        return False
    if any(d.keys() != r.keys() for d, r in zip(decoded, records, strict=True)):
        return False
    for key, tolerance in (
        ("latitude", LONLAT_TOLERANCE),
        ("longitude", LONLAT_TOLERANCE),
        ("heading", HEADING_TOLERANCE),
    ):
        got = np.array([d[key] for d in decoded])
        want = np.array([r[key] for r in records])
        if np.max(np.abs(got - want)) > tolerance:
            return False
    return all(
        d["timestamp"] == r["timestamp"] and d["estimated"] is r["estimated"]
        for d, r in zip(decoded, records, strict=True)
    )


def print_serialisation(positions: Positions, repeat: int) -> None:
    """Serialisation latency and size of all positions, with the to_json target ratio."""
    cases: list[tuple[str, Callable[[], bytes | str]]] = [
        ("sealane positions_json(positions)", partial(positions_json, positions)),
        ("orjson.dumps(column arrays, OPT_SERIALIZE_NUMPY)", lambda: orjson_arrays(positions)),
        ("orjson.dumps(positions.to_records())", lambda: orjson.dumps(positions.to_records())),
        ("json.dumps(positions.to_records())", lambda: json.dumps(positions.to_records())),
        ("  of which positions.to_records()", positions.to_records),
    ]
    medians = {label: warm_median_ms(fn, repeat) for label, fn in cases}
    sizes = {label: fn() for label, fn in cases}
    arrays = medians[cases[1][0]]
    rows = [
        [
            label,
            fmt_ms(medians[label]),
            ratio(medians[label], arrays),
            fmt(len(out) / 1e6, 2) if isinstance(out, bytes | str) else fmt(None),
        ]
        for label, out in sizes.items()
    ]
    title = f"Table 3: serialising {len(positions):,} positions"
    print(render_table(title, ["method", "median ms", "x orjson arrays", "MB"], rows))
    value = medians[cases[0][0]] / arrays
    print(
        f"to_json / orjson arrays = {value:.2f} (target <= 2.0: "
        f"{verdict(value, 2.0, True)}); json.loads(to_json()) vs to_records() within "
        f"{LONLAT_TOLERANCE:g} deg / {HEADING_TOLERANCE:g} deg heading, same timestamps: "
        f"{'ok' if round_trip_ok(positions) else 'MISMATCH'}\n"
    )


def print_voyages(repeat: int) -> None:
    """sealane against baseline (b) on several voyages."""
    rows = []
    for trip in OTHERS:
        positions = trip.sail()
        timings = time_voyage(trip, repeat)
        rows.append(
            [
                trip.label,
                fmt(trip.speed_kn, 0),
                fmt(len(positions)),
                fmt(positions.route.coordinates.shape[0]),
                fmt(positions.distance_remaining_nm, 0),
                fmt_ms(timings.warm),
                fmt_ms(timings.cold_leg),
                fmt_ms(timings.vectorised),
                ratio(timings.warm, timings.vectorised),
                ratio(timings.cold_leg, timings.vectorised),
            ]
        )
    headers = [
        "voyage",
        "kn",
        "positions",
        "vertices",
        "nm",
        "sl warm ms",
        "sl cold-leg ms",
        "(b) ms",
        "warm/(b)",
        "cold/(b)",
    ]
    print(render_table("Table 4: other voyages", headers, rows))


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=15, help="timed calls per measurement (15)")
    parser.add_argument("--quick", action="store_true", help="fewer repeats (5, loop 1)")
    args = parser.parse_args(argv)
    args.loop_repeat = 3
    if args.quick:
        args.repeat, args.loop_repeat = min(args.repeat, 5), 1
    return args


def print_header(args: argparse.Namespace) -> None:
    """Machine, versions and run settings."""
    print("Future positions: sealane vs pyproj baselines")
    for line in machine_lines(["sealane", "numpy", "pyproj", "orjson"]):
        print(line)
    print(
        f"settings: median of {args.repeat} calls after one untimed call "
        f"({args.loop_repeat} for the per-position loop), one position per {STEP_S:g} s; "
        "'cold leg' clears voyage._leg before each call (the graph's snapping memo stays warm)"
    )
    print()


def main(argv: Sequence[str] | None = None) -> None:
    """Run every measurement and print the tables."""
    args = parse_args(argv)
    print_header(args)
    positions = MAIN.sail()
    timings = time_voyage(MAIN, args.repeat, args.loop_repeat)
    print_latency(MAIN, positions, timings)
    print_geometry(MAIN, positions)
    print_serialisation(positions, args.repeat)
    print_voyages(args.repeat)


if __name__ == "__main__":
    main()

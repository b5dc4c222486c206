"""Fleet ETAs: sealane.fleet over a table against plain loops of the single-vessel calls.

Run ``.venv/bin/python benchmarks/fleet.py`` (``--quick`` for 20,000 vessels and smaller loops,
``--vessels N`` to choose). The fleet is realistic: vessels at random minutes of the engine's own
voyages between real ports (some a little off the lane), a mix of speeds and times, about 1 %
bad rows. It prints vessels per second for ``fleet.etas`` on a pandas DataFrame in this process,
for the same rows as a plain loop of ``sealane.route`` (the issue's yardstick: the batch may
cost at most 1.2x that loop) and of ``sealane.future_positions(...).eta`` (on a subsample), and
on a ``dask.distributed.LocalCluster`` of 1 and 2 worker processes; it asserts nothing.
``--cpu`` times the runs in this process by its CPU time (``time.process_time``), which a
shared machine's load stretches far less than the wall clock, and leaves Dask out (its workers'
time is not this process's).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pandas as pd

import sealane
from _util import fmt, machine_lines, render_table, timed_s
from sealane import fleet

START = datetime(2026, 6, 1, tzinfo=UTC)
#: Busy container ports; the pairs among them are the fleet's legs.
PORTS = [
    "CNSHA", "SGSIN", "CNNGB", "CNSZX", "KRPUS", "CNQIN", "HKHKG", "CNTSN", "NLRTM", "AEJEA",
    "MYPKG", "BEANR", "CNXMN", "MYTPP", "USLAX", "DEHAM", "USLGB", "USNYC", "JPTYO", "TWKHH",
    "VNSGN", "THLCH", "LKCMB", "INNSA", "GRPIR", "ESALG", "ESVLC", "ITGOA", "GBFXT", "FRLEH",
    "BRSSZ", "PAMIT", "EGPSD", "SAJED", "OMSLL", "MAPTM", "TRAMB", "AUSYD", "AUMEL", "ZADUR",
]  # fmt: skip


def build_fleet(vessels: int, pairs: int, seed: int) -> pd.DataFrame:
    """``vessels`` rows on ``pairs`` random legs between ``PORTS``, about 1 % of them bad."""
    rng = random.Random(seed)
    legs: list[tuple[str, str, sealane.Positions]] = []
    while len(legs) < pairs:
        previous, destination = rng.sample(PORTS, 2)
        try:
            track = sealane.future_positions(
                sealane.get_port(previous).coordinates, previous, destination, speed_kn=20,
                start_time=START, step_s=600,
            )  # fmt: skip
        except sealane.RoutingError:
            continue
        legs.append((previous, destination, track))
    rows = []
    for i in range(vessels):
        previous, destination, track = legs[rng.randrange(len(legs))]
        j = rng.randrange(len(track))
        off = rng.choice([0.0, 0.0, 0.01, 0.2])
        row = {
            "mmsi": 200_000_000 + i,
            "lon": float(track.lons[j]) + rng.uniform(-off, off),
            "lat": float(track.lats[j]) + rng.uniform(-off, off),
            "previous_port": previous,
            "destination_port": destination,
            "speed_kn": rng.choice([None, 0.3, 12.0, 14.5, 16.0, 18.5, 21.0]),
            "timestamp": START + timedelta(seconds=rng.uniform(0, 3 * 86400)),
        }
        if rng.random() < 0.01:  # an AIS destination typo, or a position inland
            row.update(rng.choice([{"destination_port": "XXXXX"}, {"lon": 10.0, "lat": 50.0}]))
        rows.append(row)
    return pd.DataFrame(rows)


def loop_rate(frame: pd.DataFrame, call: str, clock: Callable[[], float]) -> float:
    """Vessels per second of a plain Python loop of one engine call per row."""

    def run() -> None:
        for row in frame.itertuples():
            try:
                if call == "route":
                    sealane.route((row.lon, row.lat), row.destination_port)
                else:
                    speed = None if pd.isna(row.speed_kn) else row.speed_kn
                    _ = sealane.future_positions(
                        (row.lon, row.lat), row.previous_port, row.destination_port,
                        speed_kn=speed, start_time=row.timestamp.to_pydatetime(),
                    ).eta  # fmt: skip
            except sealane.RoutingError:
                pass

    return len(frame) / timed_s(run, clock)


def cluster_rates(frame: pd.DataFrame, workers: int, partitions: int) -> tuple[float, float]:
    """Vessels per second of ``fleet.etas`` on a Dask DataFrame on ``workers`` processes:
    the first run (workers load the engine and the legs) and the next."""
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        lazy = dd.from_pandas(frame, npartitions=partitions).persist()
        client.wait_for_workers(workers)
        first = timed_s(lambda: fleet.etas(lazy, at=START).compute())
        second = timed_s(lambda: fleet.etas(lazy, at=START).compute())
    return len(frame) / first, len(frame) / second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="20,000 vessels, short loops")
    parser.add_argument("--vessels", type=int, default=None, help="rows in the fleet")
    parser.add_argument("--pairs", type=int, default=300, help="port pairs sailed")
    parser.add_argument("--cpu", action="store_true", help="CPU time of this process, no Dask")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    vessels = args.vessels or (20_000 if args.quick else 100_000)
    route_rows, positions_rows = (2_000, 50) if args.quick else (10_000, 300)
    frame = build_fleet(vessels, args.pairs, seed=32)
    sealane.route("NLRTM", "BEANR")  # the engine loaded once, as every row below finds it

    cold = vessels / timed_s(lambda: fleet.etas(frame, at=START), clock)
    warm = vessels / timed_s(lambda: fleet.etas(frame, at=START), clock)
    out = fleet.etas(frame, at=START)
    sample = frame.sample(route_rows, random_state=1)
    route = loop_rate(sample, "route", clock)
    positions = loop_rate(frame.sample(positions_rows, random_state=2), "future_positions", clock)

    def line(label: str, timed: int, rate: float) -> list[str]:
        return [label, fmt(timed), fmt(rate), fmt(route / rate, 2)]

    rows = [
        line("fleet.etas, pandas, one process (first call)", vessels, cold),
        line("fleet.etas, pandas, one process (legs known)", vessels, warm),
        line("loop of sealane.route(position, destination)", route_rows, route),
        line("loop of sealane.future_positions(...).eta", positions_rows, positions),
    ]
    if not args.cpu:
        one = cluster_rates(frame, 1, 8)
        two = cluster_rates(frame, 2, 8)
        rows += [
            line("fleet.etas, Dask, 1 worker process (first)", vessels, one[0]),
            line("fleet.etas, Dask, 1 worker process (next)", vessels, one[1]),
            line("fleet.etas, Dask, 2 worker processes (first)", vessels, two[0]),
            line("fleet.etas, Dask, 2 worker processes (next)", vessels, two[1]),
        ]
    bad = int(out.error.notna().sum())
    title = f"Fleet ETAs: {vessels:,} vessels on {args.pairs} port pairs, {bad:,} bad rows"
    title += " (CPU time)" if args.cpu else ""
    headers = ["run", "rows timed", "vessels/s", "cost vs route loop"]
    print(render_table(title, headers, rows))
    print("\n".join(machine_lines(["numpy", "pyproj", "pandas", "pyarrow", "dask", "distributed"])))


if __name__ == "__main__":
    main()

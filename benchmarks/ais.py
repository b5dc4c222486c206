"""AIS ingest: sustained messages per second end to end, on SQLite and PostgreSQL, beside pyais.

Run ``.venv/bin/python benchmarks/ais.py`` (``--vessels N``, ``--minutes M``, ``--rounds R``,
``--batch-size B``). Traffic is generated from the routing engine's voyages (type 1 reports every
2-12 s per vessel, type 5 every six minutes, tag-block times) and cached under the system's temp
directory. In one process, round after round, it times:

* ``pyais decode()``: ``pyais.decode(line)`` for each single-sentence line (the library's
  one-call API; multi-sentence type 5 lines are left out of this loop);
* ``pyais stream``: ``pyais.IterMessages(lines)`` with ``.decode()`` of every message (pyais
  reassembles the multi-sentence ones), the decode-only baseline of the ratio;
* ``sealane SQLite`` and ``sealane PostgreSQL``: ``Pipeline.commit`` over batches of the same
  lines into a fresh database holding the vessels (decode, validate, match by MMSI, filter and
  thin, store track points, move vessels), each batch one transaction.

PostgreSQL is the tests' private throwaway server (``tests/pg.py``, unix socket); its server
process runs on the other core. ``CPU`` is the share of one core this process used while timed
and, for PostgreSQL, ``server CPU`` the share the server and its backends used (from ``/proc``),
so that the two together say how much of the machine a rate took; ``msg/CPU-s`` is the rate per
second of this process's CPU, which stays comparable when other jobs share the machine. Prints
plain-text tables and asserts nothing about timings.

``--against REV`` also runs both pipelines as they were at git revision ``REV`` (the package
``sealane.feeds.ais`` of that revision, loaded beside today's), interleaved in the same rounds,
so a change to the ingest is measured before and after in one process.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyais import IterMessages, decode
from sqlalchemy import text

from _util import machine_lines, render_table
from sealane.clock import ManualClock
from sealane.feeds.ais.ingest import Ingestor
from sealane.feeds.ais.pipeline import Pipeline
from sealane.feeds.ais.sample import SampleVessel, sample_lines
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.migrate import upgrade
from sealane.store.models import Vessel

ROUTES = (
    ("CNSHA", "NLRTM"),
    ("SGSIN", "DEHAM"),
    ("USNYC", "BEANR"),
    ("JPYOK", "USLGB"),
    ("KRPUS", "USSAV"),
    ("AEJEA", "GRPIR"),
)
START_S = 1_795_000_000.0


def fleet(count: int) -> list[SampleVessel]:
    """``count`` vessels spread over six long routes, at different points of their voyages."""
    return [
        SampleVessel(
            mmsi=210_000_000 + k,
            imo="9074729",
            name=f"BENCH {k}",
            previous_port=ROUTES[k % len(ROUTES)][0],
            destination_port=ROUTES[k % len(ROUTES)][1],
            speed_kn=10.0 + k % 12,
            hours_sailed=12.0 + (k * 7) % 200,
        )
        for k in range(count)
    ]


def traffic(vessels: int, minutes: float) -> list[bytes]:
    """The generated lines (cached in the temp directory by size)."""
    cache = Path(tempfile.gettempdir()) / f"sealane-ais-bench-{vessels}-{minutes:g}.nmea"
    if not cache.exists():
        lines = sample_lines(fleet(vessels), START_S, minutes * 60.0, seed=11)
        cache.write_text("".join(line + "\n" for line in lines), encoding="ascii")
    return cache.read_bytes().splitlines()


def pyais_decode(lines: list[bytes]) -> Callable[[], int]:
    singles = [line for line in lines if b"!AIVDM,1,1," in line[:40]]

    def run() -> int:
        for line in singles:
            decode(line)
        return len(singles)

    return run


def pyais_stream(lines: list[bytes]) -> Callable[[], int]:
    def run() -> int:
        count = 0
        for message in IterMessages(lines):
            message.decode()
            count += 1
        return len(lines) if count else 0

    return run


def package_at(revision: str, scratch: Path) -> types.ModuleType:
    """``sealane.feeds.ais`` as it was at git ``revision``, importable beside today's as
    ``sealane.feeds.ais_<revision>`` (its modules written under ``scratch``)."""
    root = Path(__file__).resolve().parents[1]
    where = "src/sealane/feeds/ais"

    def git(*arguments: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(root), *arguments], capture_output=True, text=True, check=True
        )
        return done.stdout

    suffix = "".join(c if c.isalnum() else "_" for c in revision)
    folder = scratch / f"ais_{suffix}"
    folder.mkdir()
    for name in git("ls-tree", "--name-only", f"{revision}:{where}").split():
        if name.endswith(".py"):
            (folder / name).write_text(git("show", f"{revision}:{where}/{name}"), encoding="utf-8")
    name = f"sealane.feeds.ais_{suffix}"
    package = types.ModuleType(name)
    package.__path__ = [str(folder)]
    package.__package__ = name
    sys.modules[name] = package
    for module in ("ingest", "pipeline"):
        setattr(package, module, importlib.import_module(f"{name}.{module}"))
    return package


def sealane_ingest(
    url: str,
    lines: list[bytes],
    vessels: int,
    batch: int,
    package: types.ModuleType | None = None,
) -> Callable[[], int]:
    """A run over a fresh schema: every table emptied, the vessels inserted again; with the
    ``Pipeline`` and ``Ingestor`` of ``package`` (another revision's) when given."""
    make_pipeline = package.pipeline.Pipeline if package else Pipeline
    make_ingestor = package.ingest.Ingestor if package else Ingestor
    engine = make_engine(url)
    upgrade(engine)
    sessions = session_factory(engine)

    def reset() -> None:
        with transaction(sessions) as session:
            for table in ("vessel_positions", "vessel_port_calls", "vessels"):
                session.execute(text(f"DELETE FROM {table}"))
            session.add_all(Vessel(name=v.name, imo=None, mmsi=str(v.mmsi)) for v in fleet(vessels))

    server = postmaster_pid(engine) if engine.dialect.name == "postgresql" else None

    def run() -> int:
        reset()
        pipeline = make_pipeline(make_ingestor(sessions, bench_clock()), batch_size=batch)
        triples = [(line, START_S, 0) for line in lines]
        gc.collect()
        server_before = server_cpu_s(server)
        cpu_before = time.process_time()
        started = time.perf_counter()
        for i in range(0, len(triples), batch):
            pipeline.commit(triples[i : i + batch], None)
        run.elapsed = time.perf_counter() - started  # type: ignore[attr-defined]
        run.cpu = (time.process_time() - cpu_before) / run.elapsed  # type: ignore[attr-defined]
        run.server = (server_cpu_s(server) - server_before) / run.elapsed  # type: ignore[attr-defined]
        run.report = pipeline.report  # type: ignore[attr-defined]
        return len(lines)

    return run


def postmaster_pid(engine: Any) -> int:
    """The process id of the PostgreSQL server ``engine`` talks to (from its data directory)."""
    with engine.connect() as connection:
        data_dir = connection.execute(text("SHOW data_directory")).scalar_one()
    return int((Path(data_dir) / "postmaster.pid").read_text().split()[0])


def server_cpu_s(pid: int | None) -> float:
    """CPU seconds used so far by the server ``pid`` and its backends (live ones, and the
    ended ones its counters hold); 0 without a server."""
    if pid is None:
        return 0.0
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while the list was read
        own = stat.parent.name == str(pid)
        if own or fields[1] == str(pid):  # fields[1] is the parent's id
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
            if own:
                ticks += int(fields[13]) + int(fields[14])  # cutime, cstime of ended backends
    return ticks / os.sysconf("SC_CLK_TCK")


def bench_clock() -> ManualClock:
    """The clock of the runs, a day after the traffic starts."""
    return ManualClock(datetime.fromtimestamp(START_S + 86400.0, UTC))


def time_decode(fn: Callable[[], int]) -> float:
    gc.collect()
    cpu_before = time.process_time()
    started = time.perf_counter()
    count = fn()
    elapsed = time.perf_counter() - started
    fn.cpu = (time.process_time() - cpu_before) / elapsed  # type: ignore[attr-defined]
    fn.server = 0.0  # type: ignore[attr-defined]
    return count / elapsed


def time_ingest(fn: Callable[[], int]) -> float:
    count = fn()
    return count / fn.elapsed  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vessels", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=6.0)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--batch-size", type=int, default=5000)
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--against", default=None, help="git revision whose ingest runs beside")
    args = parser.parse_args()
    lines = traffic(args.vessels, args.minutes)
    print("\n".join(machine_lines(["pyais", "sqlalchemy", "psycopg"])))
    print(f"traffic : {len(lines):,} lines, {args.vessels} vessels, {args.minutes:g} min")
    print()
    with tempfile.TemporaryDirectory() as scratch:
        before = package_at(args.against, Path(scratch)) if args.against else None
        runs: dict[str, tuple[Callable[[], int], Callable[[Callable[[], int]], float]]] = {
            "pyais decode()": (pyais_decode(lines), time_decode),
            "pyais stream": (pyais_stream(lines), time_decode),
            "sealane SQLite": (
                sealane_ingest(
                    f"sqlite:///{scratch}/bench.db", lines, args.vessels, args.batch_size
                ),
                time_ingest,
            ),
        }
        if before is not None:
            runs[f"sealane SQLite, {args.against}"] = (
                sealane_ingest(
                    f"sqlite:///{scratch}/before.db", lines, args.vessels, args.batch_size, before
                ),
                time_ingest,
            )
        if args.no_postgres:
            report(runs, args.rounds)
            return
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests import pg  # the tests' private PostgreSQL server

        with pg.postgres_server() as url:
            runs["sealane PostgreSQL"] = (
                sealane_ingest(url, lines, args.vessels, args.batch_size),
                time_ingest,
            )
            if before is not None:  # the same database: each run starts by emptying it
                runs[f"sealane PostgreSQL, {args.against}"] = (
                    sealane_ingest(url, lines, args.vessels, args.batch_size, before),
                    time_ingest,
                )
            report(runs, args.rounds)


def report(
    runs: dict[str, tuple[Callable[[], int], Callable[[Callable[[], int]], float]]], rounds: int
) -> None:
    """Run every case once per round; ratios are taken within a round, then their median."""
    rates: dict[str, list[float]] = {name: [] for name in runs}
    loads: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, (fn, timer) in runs.items():
            rates[name].append(timer(fn))
            loads[name].append((fn.cpu, fn.server))  # type: ignore[attr-defined]
    baseline = rates["pyais stream"]
    rows = []
    for name, values in rates.items():
        ratios = [v / b for v, b in zip(values, baseline, strict=True)]
        rows.append(
            [
                name,
                f"{statistics.median(values):,.0f}",
                f"{min(values):,.0f}",
                f"{max(values):,.0f}",
                f"{statistics.median(ratios):.2f}",
                f"{min(ratios):.2f}-{max(ratios):.2f}",
                per_core(values, loads[name]),
                share([own for own, _server in loads[name]]),
                share([server for _own, server in loads[name]]),
            ]
        )
    headers = [
        *("run", "msg/s median", "min", "max", "x pyais stream", "range"),
        *("msg/CPU-s", "CPU", "server CPU"),
    ]
    print(render_table(f"AIS ingest, {rounds} rounds interleaved", headers, rows))
    for name, (fn, _timer) in runs.items():
        summary = getattr(fn, "report", None)
        if summary is not None:
            print(f"{name}: {summary.summary()}")


def per_core(rates: list[float], loads: list[tuple[float, float]]) -> str:
    """The median rate per second of CPU this process used: what a whole core would do, the
    figure a machine shared with other jobs still gives (the server's CPU not counted)."""
    usable = [rate / own for rate, (own, _server) in zip(rates, loads, strict=True) if own > 0]
    return f"{statistics.median(usable):,.0f}" if usable else "-"


def share(values: list[float]) -> str:
    """The median share of one core, as a percentage; '-' when not measured."""
    return f"{100 * statistics.median(values):.0f} %" if values and any(values) else "-"


if __name__ == "__main__":
    main()

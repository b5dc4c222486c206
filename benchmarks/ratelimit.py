"""The shared rate limiter: the cost of one admitted request as the window fills.

Run ``.venv/bin/python benchmarks/ratelimit.py [--database URL | --postgres] [--samples N]
[--rate R]``. It counts requests of one key under a limit no run reaches, and prints the median,
90th percentile and mean time of ``RateLimiter.hit`` after 0, 1,000, 5,000 and 20,000 earlier
requests in the same minute (a busy key, or an operator's generous limit), with the database
transactions per 1,000 hits; the clock moves ``1/R`` s per timed hit (default 200 requests a
second). SQLite in a temporary directory by default; ``--postgres`` uses the tests' private
PostgreSQL server (``tests/pg.py``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlalchemy import event

from _util import machine_lines, render_table
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.runtime import build_runtime
from sealane.service.core.ratelimit import RateLimiter

FILLS = (0, 1_000, 5_000, 20_000)


def main() -> int:
    """Run on the database the options name."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", default=None, help="database URL (default: SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="the tests' PostgreSQL server")
    parser.add_argument("--samples", type=int, default=1_000, help="timed hits per fill")
    parser.add_argument("--rate", type=float, default=200.0, help="timed hits per clock second")
    args = parser.parse_args()
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests import pg

        with pg.postgres_server() as url:
            return measure(url, args.samples, args.rate)
    return measure(
        args.database or f"sqlite:///{tempfile.mkdtemp()}/ratelimit.db", args.samples, args.rate
    )


def measure(url: str, samples: int, rate: float) -> int:
    """Print one row per window fill: median, p90 and mean of a hit, transactions per 1,000."""
    engine = build_runtime(Settings(database_url=url)).context.engine  # schema made
    begun: list[object] = []
    event.listen(engine, "begin", begun.append)
    clock = ManualClock(datetime.now(UTC))
    limiter = RateLimiter(engine, 10**9, clock)
    key = f"bench:{time.time_ns()}"
    rows = []
    done = 0
    for fill in FILLS:
        while done < fill:  # earlier requests, spread over the last 50 seconds
            clock.advance(50.0 / max(FILLS))
            limiter.hit(key)
            done += 1
        times = []
        begun.clear()
        for _ in range(samples):
            clock.advance(1.0 / rate)
            start = time.perf_counter()
            limiter.hit(key)
            times.append((time.perf_counter() - start) * 1e3)
        done += samples
        times.sort()
        rows.append(
            [
                f"{fill:,}",
                f"{statistics.median(times):.3f}",
                f"{times[int(len(times) * 0.9)]:.3f}",
                f"{statistics.fmean(times):.3f}",
                f"{len(begun) * 1_000 / samples:,.0f}",
            ]
        )
    print("\n".join(machine_lines(["sealane", "sqlalchemy"])))
    print(f"database: {engine.dialect.name}; {samples} timed hits per row, {rate:g} a second\n")
    title = "RateLimiter.hit, one key, earlier requests in the window"
    headers = ["earlier requests", "p50 ms", "p90 ms", "mean ms", "transactions / 1,000"]
    print(render_table(title, headers, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

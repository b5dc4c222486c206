"""The shared rate limiter: the cost of one admitted request as the window fills.

Run ``.venv/bin/python benchmarks/ratelimit.py [--database URL] [--samples N]``. It counts
requests of one key under a limit no run reaches, and prints the median time of
``RateLimiter.hit`` after 0, 1,000, 5,000 and 20,000 earlier requests in the same minute (a busy
key, or an operator's generous limit): with one row per key and second the cost should not grow.
SQLite in a temporary directory by default; pass a PostgreSQL URL to measure there.
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

from _util import machine_lines, render_table
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.runtime import build_runtime
from sealane.service.core.ratelimit import RateLimiter

FILLS = (0, 1_000, 5_000, 20_000)


def main() -> int:
    """Print one row per window fill: rows read, median and p90 of a hit."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", default=None, help="database URL (default: SQLite file)")
    parser.add_argument("--samples", type=int, default=300, help="timed hits per fill")
    args = parser.parse_args()
    url = args.database or f"sqlite:///{tempfile.mkdtemp()}/ratelimit.db"
    engine = build_runtime(Settings(database_url=url)).context.engine  # schema made
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
        for _ in range(args.samples):
            start = time.perf_counter()
            limiter.hit(key)
            times.append((time.perf_counter() - start) * 1e3)
        done += args.samples
        times.sort()
        rows.append(
            [
                f"{fill:,}",
                f"{statistics.median(times):.3f}",
                f"{times[int(len(times) * 0.9)]:.3f}",
            ]
        )
    print("\n".join(machine_lines(["sealane", "sqlalchemy"])))
    print(f"database: {engine.dialect.name}\n")
    title = "RateLimiter.hit, one key, earlier requests in the window"
    print(render_table(title, ["earlier requests", "p50 ms", "p90 ms"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

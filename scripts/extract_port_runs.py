"""Write ``tests/fixtures/ais/us_coast_2020-06.csv``: the runs of the US AIS tracks shipped in the
PyPI package ``tracktable-data`` that end in a registry port's area, thinned (issue 42: the ETA
range checked on voyages other than the Suez Canal's; ``tests/fixtures/ais/README.md``).

Get the tracks (BSD-2-Clause; not a dependency of sealane) and run it from the checkout::

    pip download --no-deps -d /tmp/ttd tracktable-data==1.7.3.1
    unzip -q /tmp/ttd/tracktable_data-1.7.3.1-py3-none-any.whl -d /tmp/ttd
    PYTHONPATH=src .venv/bin/python scripts/extract_port_runs.py \\
        /tmp/ttd/tracktable_data/python_example_data/US_coastal_2020_06_30.traj \\
        /tmp/ttd/tracktable_data/python_example_data/VirginiaBeach_2020_06_04_to_06_filtered.traj

A run starts at a vessel's last fix in a port area, or its first fix after a gap of more than two
hours, and ends at its first fix inside another registry port's area (the observed-speed rule's
:data:`~sealane.routing.observed_speed.PORT_RADIUS_M`; inland ports left out); it is kept when
at least three hours long and 25 nm sailed, straight enough (the distance between its ends at
least half the sailed one) and under way (5 kn or more on average). Its fixes are thinned to one
per :data:`THIN` (its first and last always kept); no position is changed.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from sealane.routing.geodesy import MEAN_EARTH_RADIUS_M, METRES_PER_NM, distance_m
from sealane.routing.observed_speed import PORT_RADIUS_M
from sealane.routing.ports import registry

OUT = Path(__file__).resolve().parents[1] / "tests/fixtures/ais/us_coast_2020-06.csv"
MAX_GAP = timedelta(hours=2)
THIN = timedelta(minutes=10)
Fix = tuple[datetime, float, float]


def read_traj(path: Path) -> dict[str, list[Fix]]:
    """Fixes per MMSI of a tracktable ``.traj`` file (one trajectory a line: a header up to
    ``*P*`` and its properties, then MMSI, time, lon, lat per point)."""
    found: dict[str, set[Fix]] = defaultdict(set)
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split(",")
        at = parts.index("*P*")
        body = parts[at + 6 + 3 * int(parts[at + 5]) :]
        count = int(parts[3])
        stride = len(body) // count
        for k in range(count):
            mmsi, when, lon, lat = body[k * stride : k * stride + 4]
            found[mmsi].add((datetime.strptime(when, "%Y-%m-%d %H:%M:%S"), float(lon), float(lat)))
    return {mmsi: sorted(fixes) for mmsi, fixes in found.items()}


def port_areas() -> tuple[list[str], np.ndarray]:
    """The joined (not inland) registry ports' LOCODEs and unit vectors."""
    ports = [p for p in registry().ports if p.approach != "inland"]
    lon, lat = np.radians([p.lon for p in ports]), np.radians([p.lat for p in ports])
    xyz = np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], -1)
    return [p.locode for p in ports], xyz


def port_of(fix: Fix, codes: list[str], xyz: np.ndarray) -> str | None:
    """The nearest port whose area holds the fix, None at sea."""
    lon, lat = math.radians(fix[1]), math.radians(fix[2])
    point = np.array([math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat)])
    cosines = xyz @ point
    best = int(np.argmax(cosines))
    return codes[best] if cosines[best] >= math.cos(PORT_RADIUS_M / MEAN_EARTH_RADIUS_M) else None


def runs(track: list[Fix], codes: list[str], xyz: np.ndarray) -> list[list[Fix]]:
    """The vessel's runs that end in a port area, kept as above."""
    ports = [port_of(f, codes, xyz) for f in track]
    found, start = [], 0
    for i, fix in enumerate(track):
        if i and fix[0] - track[i - 1][0] > MAX_GAP:
            start = i
        if ports[i] is None:
            continue
        at_sea = all(p is None for p in ports[start + 1 : i])
        if i - start >= 2 and at_sea and ports[start] != ports[i]:
            run = track[start : i + 1]
            hours = (run[-1][0] - run[0][0]).total_seconds() / 3600
            sailed = (
                sum(distance_m(a[1], a[2], b[1], b[2]) for a, b in itertools.pairwise(run))
                / METRES_PER_NM
            )
            direct = distance_m(run[0][1], run[0][2], run[-1][1], run[-1][2]) / METRES_PER_NM
            if hours >= 3 and sailed >= 25 and direct >= sailed / 2 and sailed / hours >= 5:
                found.append(run)
        start = i
    return found


def thinned(run: list[Fix]) -> list[Fix]:
    """One fix per :data:`THIN`, the run's first and last kept."""
    kept = [run[0]]
    for fix in run[1:-1]:
        if fix[0] - kept[-1][0] >= THIN:
            kept.append(fix)
    return [*kept, run[-1]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traj", nargs="+", type=Path, help="tracktable .traj files")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    codes, xyz = port_areas()
    rows = []
    for path in args.traj:
        for mmsi, track in sorted(read_traj(path).items()):
            for run in runs(track, codes, xyz):
                rows.extend(
                    (mmsi, f"{t:%Y-%m-%dT%H:%M:%SZ}", f"{lon:.5f}", f"{lat:.5f}")
                    for t, lon, lat in thinned(run)
                )
    with args.out.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(("vessel", "time", "lon", "lat"))
        writer.writerows(rows)
    print(f"wrote {len(rows)} fixes of {len({r[0] for r in rows})} vessels to {args.out}")


if __name__ == "__main__":
    main()

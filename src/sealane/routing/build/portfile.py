"""``ports.csv``: one row per UN/LOCODE with its stable id, berth position, time zone and approach.

Time zones come from ``timezonefinder`` once, at build time (the engine reads the column).
Build-time only.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from ..data import data_dir
from ..ports import port_id
from .berths import PortSite
from .joins import log
from .shortcuts import Training

#: Columns of ``ports.csv``, in order.
COLUMNS = (
    "locode",
    "id",
    "name",
    "country",
    "country_name",
    "lon",
    "lat",
    "time_zone",
    "approach",
    "approach_m",
)


def write_ports(out: Path, sites: list[PortSite]) -> None:
    """Write ``ports.csv``: one row per UN/LOCODE with id, position, time zone and approach."""
    from timezonefinder import TimezoneFinder

    finder = TimezoneFinder(in_memory=True)
    with (out / "ports.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows(port_row(site, finder) for site in sites)
    log(f"ports.csv: {len(sites)} ports")


def port_row(site: PortSite, finder: Any) -> list[str]:
    """A site's row of :data:`COLUMNS` (``finder``: a ``timezonefinder.TimezoneFinder``)."""
    return [
        site.locode,
        port_id(site.locode),
        site.name,
        site.locode[:2],
        site.country_name,
        f"{site.lon:.6f}",
        f"{site.lat:.6f}",
        time_zone(finder, site.lon, site.lat),
        site.status,
        f"{site.moved_m:.0f}",
    ]


def time_zone(finder: Any, lon: float, lat: float) -> str:
    """IANA zone of a coastal point: the land zone there, else the nearest one within ~50 km."""
    zone = finder.timezone_at_land(lng=lon, lat=lat)
    step = 0.05
    while zone is None and step <= 0.5:
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            zone = finder.timezone_at_land(lng=lon + dx * step, lat=lat + dy * step)
            if zone:
                break
        step += 0.05
    return str(zone or finder.timezone_at(lng=lon, lat=lat))


def read_ports(out: Path) -> list[tuple[str, float, float, bool]]:
    """(locode, lon, lat, joined) per row of ``ports.csv`` in ``out``; joined: not inland."""
    with (out / "ports.csv").open(encoding="utf-8") as handle:
        return [
            (row["locode"], float(row["lon"]), float(row["lat"]), row["approach"] != "inland")
            for row in csv.DictReader(handle)
        ]


def training(rows: list[tuple[str, float, float, bool]]) -> Training:
    """The build's shortcut training from (locode, lon, lat, joined) rows: every joined port, and
    the busiest container ports (those ``terminals.csv`` lists terminals for)."""
    with (data_dir() / "terminals.csv").open(encoding="utf-8") as handle:
        busiest = {row["port_locode"] for row in csv.DictReader(handle)}
    joined = [(lon, lat) for _, lon, lat, ok in rows if ok]
    hubs = [(lon, lat) for locode, lon, lat, ok in rows if ok and locode in busiest]
    log(f"shortcuts: {len(joined)} ports, {len(hubs)} of them busiest container ports")
    return Training(joined=joined, busiest=hubs)

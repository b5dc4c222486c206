"""Ports for the build: searoute's list, corrected positions, berths on water, inland flags.

Positions come from searoute's port list, replaced where ``data/port_positions.csv`` (a sourced
list of corrections, and of official codes searoute lacks) says so; searoute's codes that
``data/port_aliases.csv`` makes aliases of an official port are left out. A port on land is
moved to the nearest navigable water (raster water, or a named corridor) within ``PORT_MOVE_M``;
one farther from it is flagged ``inland`` and gets no approach. Build-time only.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..geodesy import distance_m, unit_vectors
from .coast import Coastline, sample_geodesics
from .corridors import Corridor, CorridorIndex
from .grid import Water
from .waterpath import Grid

#: A UN/LOCODE: two-letter country code and three letters or digits 2-9.
LOCODE = re.compile(r"[A-Z]{2}[A-Z2-9]{3}")
#: A port on land is moved to navigable water at most this far, metres; farther, it is inland.
PORT_MOVE_M = 5_000.0


@dataclass(frozen=True)
class PortSite:
    """One port as the build places it: LOCODE, name, country name, position and status."""

    locode: str
    name: str
    country_name: str
    lon: float
    lat: float
    #: ``water`` (listed position is at sea), ``moved`` (moved onto water), ``inland``.
    status: str = "water"
    #: How far the position was moved (moved) or how far water is at least (inland), metres.
    moved_m: float = 0.0
    #: Where the position comes from when it was corrected, else "".
    source: str = ""


def searoute_ports() -> list[PortSite]:
    """searoute's ports, one per UN/LOCODE (a repeated code keeps the entry with a port type)."""
    from searoute.data.ports_dict import node_list

    chosen: dict[str, dict[str, Any]] = {}
    for props in node_list.values():
        code = str(props["port"]).upper()
        if not LOCODE.fullmatch(code):  # searoute has a few malformed codes (e.g. "EG")
            continue
        if code not in chosen or (chosen[code].get("t") is None and props.get("t") is not None):
            chosen[code] = props
    return [
        PortSite(
            code,
            str(p["name"]),
            str(p["cty"]).replace("_", " "),
            float(p["x"]),
            float(p["y"]),
        )
        for code, p in sorted(chosen.items())
    ]


def corrected(ports: list[PortSite], path: Path) -> list[PortSite]:
    """Ports with the positions (and names, where given) of the corrections file applied, and
    its rows for official codes searoute lacks added (named, in a country searoute knows)."""
    with path.open(encoding="utf-8") as handle:
        fixes = {row["locode"]: row for row in csv.DictReader(handle)}
    out = []
    for port in ports:
        fix = fixes.pop(port.locode, None)
        if fix is not None:
            port = replace(
                port,
                lon=float(fix["lon"]),
                lat=float(fix["lat"]),
                name=fix["name"] or port.name,
                source=fix["source"],
            )
        out.append(port)
    countries = {port.locode[:2]: port.country_name for port in ports}
    for code, fix in fixes.items():
        if not fix["name"] or code[:2] not in countries:
            raise ValueError(f"{path.name}: {code} is new, so it needs a name and a known country")
        out.append(
            PortSite(
                code,
                fix["name"],
                countries[code[:2]],
                float(fix["lon"]),
                float(fix["lat"]),
                source=fix["source"],
            )
        )
    return sorted(out, key=lambda port: port.locode)


def without_aliases(ports: list[PortSite], path: Path) -> list[PortSite]:
    """Ports less those whose code ``path`` (``port_aliases.csv``) makes an alias of an official
    port: the official port's row stands for them."""
    with path.open(encoding="utf-8") as handle:
        aliases = {row["alias"]: row["locode"] for row in csv.DictReader(handle)}
    codes = {port.locode for port in ports}
    missing = sorted(f"{a} -> {c}" for a, c in aliases.items() if c not in codes)
    if missing:
        raise ValueError(f"{path.name}: aliases of unknown ports: {', '.join(missing)}")
    return [port for port in ports if port.locode not in aliases]


@dataclass(frozen=True)
class Alias:
    """A code that stands for a port of the registry (``official_aliases.csv``), by ``kind``:
    ``renamed``, a network port's code the code list lacks, the port now under the official
    code; ``duplicate``, such a code beside another network port with an official code, the
    same port; ``same port``, the official seaport code of a network port that carriers know
    by another official code (``CNSGH`` for ``CNSHA``, Shanghai); ``replaced``, an inland
    network port whose code is the list's seaport elsewhere (no ``locode``: the code is the
    official port's now)."""

    alias: str
    locode: str
    kind: str
    distance_m: float
    #: The code list's name of ``locode`` (the renamed port's new name); empty otherwise.
    name: str = ""


def read_aliases(path: Path) -> list[Alias]:
    """The rows of an ``official_aliases.csv`` (none when there is no such file)."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            Alias(r["alias"], r["locode"], r["kind"], float(r["distance_km"]) * 1000.0, r["name"])
            for r in csv.DictReader(handle)
        ]


def renamed(sites: list[PortSite], aliases: list[Alias]) -> list[PortSite]:
    """The network's ports with the renamed ones under their official code and name, and the
    duplicates and replaced ones left out."""
    to = {a.alias: a for a in aliases if a.kind == "renamed"}
    gone = {a.alias for a in aliases if a.kind in ("duplicate", "replaced")}
    out = [
        replace(s, locode=to[s.locode].locode, name=to[s.locode].name) if s.locode in to else s
        for s in sites
        if s.locode not in gone
    ]
    return sorted(out, key=lambda s: s.locode)


class Navigable:
    """Navigable water for placing ports: raster water, and the corridors' traced lines."""

    def __init__(self, coast: Coastline, corridors: list[Corridor]) -> None:
        from scipy.spatial import cKDTree

        self.coast = coast
        self.index = CorridorIndex(corridors)
        lines = [c.line for c in corridors]
        if lines:
            lon, lat, _, _ = sample_geodesics(
                np.concatenate([ln[:-1, 0] for ln in lines]),
                np.concatenate([ln[:-1, 1] for ln in lines]),
                np.concatenate([ln[1:, 0] for ln in lines]),
                np.concatenate([ln[1:, 1] for ln in lines]),
                100.0,
            )
        else:
            lon, lat = np.zeros(1), np.full(1, 90.0)
        self.line_lon, self.line_lat = lon, lat
        self.tree = cKDTree(unit_vectors(lon, lat))

    def place(self, port: PortSite) -> PortSite:
        """The port at sea as listed, moved onto navigable water nearby, or flagged inland."""
        here_lon, here_lat = np.array([port.lon]), np.array([port.lat])
        if (
            not self.coast.is_land(here_lon, here_lat)[0]
            or self.index.contains(here_lon, here_lat)[0]
        ):
            return port
        moved, lon, lat = min(_nearest_raster_water(port, self.coast), self._nearest_line(port))
        if moved > PORT_MOVE_M:
            return replace(port, status="inland", moved_m=round(moved))
        return replace(port, lon=lon, lat=lat, status="moved", moved_m=round(moved))

    def _nearest_line(self, port: PortSite) -> tuple[float, float, float]:
        """(metres, lon, lat) of the nearest point of a corridor line."""
        _, k = self.tree.query(unit_vectors(port.lon, port.lat))
        lon, lat = float(self.line_lon[k]), float(self.line_lat[k])
        return (distance_m(port.lon, port.lat, lon, lat), lon, lat)


def _nearest_raster_water(port: PortSite, coast: Coastline) -> tuple[float, float, float]:
    """(metres, lon, lat) of the nearest raster-water cell centre within reach, or infinity."""
    grid = Grid(coast, np.array([[port.lon, port.lat]]), PORT_MOVE_M * 1.5, Water.CLEAR)
    cells = int(PORT_MOVE_M * 1.5 / (grid.window.step_deg * 111_000.0)) + 2
    lon, lat = grid.nearest_water(port.lon, port.lat, cells)
    if coast.maybe_land(np.array([lon]), np.array([lat]))[0]:
        return (float("inf"), port.lon, port.lat)
    lon = ((lon + 180.0) % 360.0) - 180.0
    return (distance_m(port.lon, port.lat, lon, lat), lon, lat)

"""The registry step: ``official_ports.csv``, the official seaports the network's own port list
lacks, with ``official_aliases.csv`` (:mod:`.sameports`) and ``ports.csv``'s renamed rows.

Rows are the UN/LOCODE code list's entries with the port function (function code 1), less
those ``ports.csv`` already holds (the ports the network build joined) and the codes of
``port_aliases.csv``. A port's position is its entry in NGA's World Port Index (Pub. 150) where
the index names its UN/LOCODE (a harbour, not the town), else the mean position of the container
terminals the SMDG Terminal Code List gives under the code, else the code list's own coordinates
(the place, to the minute); entries with none are left out. A code the code list holds with
another function is a port too when SMDG lists terminals under it (Lekki, ``NGLKK``). Each is
placed as the network build places its ports (moved onto water within 5 km, else ``inland``),
then checked for the way the engine reaches a port that is not a node of the network: the
straight join from the berth to the nearest lane must cross no land cell of the land mask
outside the corridors and the mapped water; a port whose join would is ``unjoined`` (refused,
like an inland port, until a network rebuild joins it). Build-time only.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..data import data_dir
from ..geodesy import distance_m, from_unit_vectors, unit_vector
from ..graph import SeaGraph, default_graph
from ..landmask import LandMask, default_landmask
from ..ports import port_id
from ..water import corridors, shoreline_water
from .berths import Alias, Navigable, PortSite, read_aliases, renamed
from .coast import coastline
from .codelist import (
    CodeEntry,
    is_seaport,
    read_code_list,
    read_countries,
    read_terminal_codes,
    read_world_port_index,
)
from .corridors import read_geojson
from .joins import log
from .portfile import COLUMNS as PORT_COLUMNS
from .portfile import port_row
from .sameports import (
    carriers_codes,
    duplicates,
    name_key,
    replaced,
    same_name,
    same_ports,
    write_aliases,
)

#: Join samples this close to the berth are not tested: a berth in a harbour lies in the land
#: mask's coastal cells (one arc minute, about 1.8 km).
BERTH_CLEAR_M = 2_500.0
#: The straight join is tested at points at most this far apart, metres.
JOIN_SAMPLE_M = 500.0
#: A position from the World Port Index and the code list's farther apart than this, metres,
#: is counted as moved (the README's figure).
MOVED_M = 5_000.0
#: A network port farther than this from the World Port Index's position of its code (the code
#: list agreeing with the index) is misplaced, metres.
MISPLACED_M = 20_000.0
#: A network port farther than this from its ``port_positions.csv`` correction was corrected
#: after the network was built (a correction places a berth within 5 km of it), metres.
STALE_M = 6_000.0
#: Columns of ``official_ports.csv``: those of ``ports.csv`` and where the position comes from.
COLUMNS = (*PORT_COLUMNS, "source")


@dataclass(frozen=True)
class Counts:
    """What the registry step found, for the log and ``data/README.md``."""

    seaports: int
    in_network: int
    without_position: int
    from_index: int
    from_terminals: int
    from_code_list: int
    index_moved: int
    checked: int

    def line(self) -> str:
        """The counts as the log and ``data/README.md`` give them."""
        return (
            f"{self.seaports} seaports in the code list (or SMDG terminal codes), "
            f"{self.in_network} in ports.csv, {self.without_position} without a position; "
            f"added from the World Port Index {self.from_index}, from SMDG's terminals "
            f"{self.from_terminals}, from the code list {self.from_code_list}; of "
            f"{self.checked} ports.csv ports the index places, {self.index_moved} more than "
            "5 km away"
        )


def candidates(
    code_list: dict[str, CodeEntry],
    index: dict[str, tuple[str, float, float]],
    terminals: dict[str, tuple[float, float]],
    known: dict[str, tuple[float, float]],
    aliases: set[str],
    countries: dict[str, str],
) -> tuple[list[PortSite], Counts]:
    """The official seaports ``known`` (the codes of ``ports.csv`` with their positions) lacks,
    with the code list's codes that SMDG lists container terminals under whatever their
    function, each positioned by the World Port Index, else its SMDG terminals' mean position
    (a berth, not the town), else the code list; with the counts, among them: of ``known``'s
    ports the index names (``checked``), how many it places more than :data:`MOVED_M` away
    (``index_moved``)."""
    seaports = {c: e for c, e in code_list.items() if is_seaport(e) or c in terminals}
    sites: list[PortSite] = []
    without, moved = 0, 0
    sources = {"wpi": 0, "smdg": 0, "unlocode": 0}
    for code, entry in sorted(seaports.items()):
        if code in known or code in aliases:
            continue
        listed, berths = index.get(code), terminals.get(code)
        if listed is not None:
            (lon, lat), source = (listed[1], listed[2]), "wpi"
        elif berths is not None:
            (lon, lat), source = berths, "smdg"
        elif entry.position is not None:
            (lon, lat), source = entry.position, "unlocode"
        else:
            without += 1
            continue
        sources[source] += 1
        country = countries.get(code[:2], code[:2])
        sites.append(PortSite(code, entry.name, country, lon, lat, source=source))
    checked = 0
    for code, (lon, lat) in known.items():
        listed = index.get(code)
        if listed is not None:
            checked += 1
            moved += distance_m(lon, lat, listed[1], listed[2]) > MOVED_M
    counts = Counts(
        seaports=len(seaports),
        in_network=sum(code in known for code in seaports),
        without_position=without,
        from_index=sources["wpi"],
        from_terminals=sources["smdg"],
        from_code_list=sources["unlocode"],
        index_moved=moved,
        checked=checked,
    )
    return sites, counts


class JoinCheck:
    """Whether the engine's join from a berth to the nearest lane stays on water."""

    def __init__(self, graph: SeaGraph, mask: LandMask) -> None:
        self.graph, self.mask = graph, mask
        self.water, self.corridors = shoreline_water(), corridors()

    def joined(self, lon: float, lat: float) -> bool:
        """Whether the great circle from (lon, lat) to its snap onto the lanes crosses no land
        cell (beyond :data:`BERTH_CLEAR_M` of the berth) that is not mapped water or in a
        corridor."""
        snap = self.graph.snap(lon, lat)
        far = snap.distance_m - BERTH_CLEAR_M
        if far <= 0.0:
            return True
        count = max(int(far // JOIN_SAMPLE_M), 1)
        a, b = unit_vector(lon, lat), unit_vector(snap.lon, snap.lat)
        start = BERTH_CLEAR_M / snap.distance_m
        t = start + (1.0 - start) * np.arange(count)[:, None] / count
        points = a * (1.0 - t) + b * t
        lons, lats = from_unit_vectors(points / np.linalg.norm(points, axis=1)[:, None])
        land = self.mask.land_at(lons, lats)
        for x, y in zip(lons[land], lats[land], strict=True):
            if not self.water.holds(float(x), float(y)) and not any(
                c.holds(float(x), float(y)) for c in self.corridors
            ):
                return False
        return True


def placed(sites: list[PortSite], navigable: Navigable, check: JoinCheck) -> list[PortSite]:
    """Each site at sea, moved onto water, ``inland``, or ``unjoined`` (on water, but its join
    to the lanes would cross land)."""
    out = []
    for k, site in enumerate(sites):
        if k % 1000 == 0:
            log(f"official ports: placing {k} of {len(sites)}")
        site = navigable.place(site)
        if site.status != "inland" and not check.joined(site.lon, site.lat):
            snap = check.graph.snap(site.lon, site.lat)
            site = replace(site, status="unjoined", moved_m=round(snap.distance_m))
        out.append(site)
    return out


def write_official_ports(out: Path, sites: list[PortSite]) -> None:
    """Write ``official_ports.csv``: the columns of ``ports.csv`` and the position's source."""
    from timezonefinder import TimezoneFinder

    finder = TimezoneFinder(in_memory=True)
    with (out / "official_ports.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(COLUMNS)
        for site in sorted(sites, key=lambda s: s.locode):
            writer.writerow([*port_row(site, finder), site.source])


def network_ports(path: Path) -> dict[str, PortSite]:
    """``ports.csv``'s ports as sites (code, name, position, approach), by LOCODE."""
    with path.open(encoding="utf-8", newline="") as handle:
        return {
            r["locode"]: PortSite(
                r["locode"],
                r["name"],
                r["country_name"],
                float(r["lon"]),
                float(r["lat"]),
                r["approach"],
                float(r["approach_m"]),
            )
            for r in csv.DictReader(handle)
        }


def rename_rows(
    source: Path, target: Path, aliases: list[Alias], drop: frozenset[str] = frozenset()
) -> None:
    """Copy ``ports.csv`` from ``source`` to ``target`` with the renamed ports' code, id and
    name replaced (position, time zone and approach kept: the network joined that berth), and
    the duplicates, replaced rows and ``drop`` left out."""
    to = {a.alias: a for a in aliases if a.kind == "renamed"}
    gone = {a.alias for a in aliases if a.kind in ("duplicate", "replaced")} | drop
    with source.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle) if row[0] not in gone]
    for row in rows[1:]:
        if row[0] in to:
            row[0], row[1], row[2] = to[row[0]].locode, port_id(to[row[0]].locode), to[row[0]].name
    rows[1:] = sorted(rows[1:], key=lambda row: row[0])
    with target.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)  # the line ends portfile.write_ports writes


def misplaced(
    network: dict[str, PortSite],
    code_list: dict[str, CodeEntry],
    index: dict[str, tuple[str, float, float]],
    fixed: set[str],
) -> list[list[str]]:
    """``port_positions.csv`` rows for the network's seaports placed far from their own code:
    the World Port Index names the port (same folded name, "Saint" read as "St") more than
    :data:`MISPLACED_M` from the row, and the code list's own position agrees with the index
    within that distance (the index alone is wrong at times: its ``RULED`` lies in Florida).
    Codes ``fixed`` (corrected by hand before) are left alone."""
    out = []
    for code, site in sorted(network.items()):
        entry, listed = code_list.get(code), index.get(code)
        if code in fixed or entry is None or listed is None or entry.position is None:
            continue
        if not is_seaport(entry) or not same_name(saints(site.name), saints(listed[0])):
            continue
        _, lon, lat = listed
        off = distance_m(site.lon, site.lat, lon, lat)
        agree = distance_m(*entry.position, lon, lat)
        if off > MISPLACED_M and agree <= MISPLACED_M:
            source = (
                f"NGA World Port Index (Pub. 150) '{listed[0]}', {agree / 1000:.0f} km from the "
                f"UN/LOCODE list's position of {code}; searoute's {off / 1000:.0f} km away "
                "(issue 38's registry step)"
            )
            out.append([code, "", f"{lon:.6f}", f"{lat:.6f}", source])
    return out


def saints(name: str) -> str:
    """:func:`~.sameports.name_key` with "Saint" read as "St" (St Petersburg's two spellings)."""
    return name_key(re.sub(r"(?i)\bsaint\b", "St", name))


def write_positions(source: Path, target: Path, added: list[list[str]]) -> None:
    """Copy ``port_positions.csv`` from ``source`` to ``target`` with ``added`` rows after it."""
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    with target.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows + added)


def stale(network: dict[str, PortSite], fixes: dict[str, tuple[float, float]]) -> set[str]:
    """The network's ports whose row lies farther than :data:`STALE_M` from the position
    ``port_positions.csv`` gives them: corrected since the network was built, they are placed
    and joined as the official ports are until a network rebuild joins their new berth."""
    return {
        code
        for code, site in network.items()
        if code in fixes and distance_m(site.lon, site.lat, *fixes[code]) > STALE_M
    }


def build_registry(
    out: Path, code_list: Path, world_port_index: Path, countries: Path, terminal_codes: Path
) -> None:
    """Write ``official_ports.csv`` and ``official_aliases.csv`` into ``out``, and ``ports.csv``
    with the renamed ports, from the code list's YAML folder, the World Port Index's CSV, the
    list's country names and the SMDG Terminal Code List, against the shipped network.
    Renames made before are kept."""
    with (data_dir() / "port_aliases.csv").open(encoding="utf-8") as handle:
        aliases = {row["alias"] for row in csv.DictReader(handle)}
    entries = read_code_list(code_list)
    before = [
        a
        for a in read_aliases(data_dir() / "official_aliases.csv")
        if a.kind in ("renamed", "duplicate", "replaced")
    ]
    network = {
        s.locode: s for s in renamed(list(network_ports(data_dir() / "ports.csv").values()), before)
    }
    index = read_world_port_index(world_port_index)
    terminals = read_terminal_codes(terminal_codes)
    before += [a for a in replaced(network, entries, index) if a not in before]
    gone = {a.alias for a in before if a.kind in ("duplicate", "replaced")}
    network = {code: site for code, site in network.items() if code not in gone}
    with (data_dir() / "port_positions.csv").open(encoding="utf-8") as handle:
        fixes = {r["locode"]: (float(r["lon"]), float(r["lat"])) for r in csv.DictReader(handle)}
    # A renamed port took its code by name and distance already: it is not checked again.
    renamed_to = {a.locode for a in before if a.kind == "renamed"}
    corrections = misplaced(network, entries, index, set(fixes) | renamed_to)
    fixes |= {row[0]: (float(row[2]), float(row[3])) for row in corrections}
    moved_since = frozenset(stale(network, fixes))
    network = {code: site for code, site in network.items() if code not in moved_since}
    log(f"official ports: {len(corrections)} misplaced, {len(moved_since)} to place anew")
    sites, counts = candidates(
        entries,
        index,
        terminals,
        {code: (s.lon, s.lat) for code, s in network.items()},
        aliases,
        read_countries(countries),
    )
    log(f"official ports: {counts.line()}")
    matches = before + same_ports(sites, network, entries)
    moved = {a.alias for a in matches}
    matches += [a for a in duplicates(network, entries) if a.alias not in moved]
    taken = {a.alias for a in matches if a.kind == "same port"}
    taken |= {a.locode for a in matches if a.kind == "renamed"}
    sites = [s for s in sites if s.locode not in taken]
    log(f"official ports: {len(matches)} matched to the network's ports")
    corridor_lines = read_geojson(data_dir() / "corridors.geojson")
    navigable = Navigable(coastline(), corridor_lines)
    sites = placed(sites, navigable, JoinCheck(default_graph(), default_landmask()))
    # A code that is a port only by SMDG's terminals, and that routes would be refused to, is
    # better an alias of the port ships reach beside it (carriers_codes below).
    sites = [s for s in sites if is_seaport(entries[s.locode]) or s.status in ("water", "moved")]
    statuses = {s: sum(p.status == s for p in sites) for s in ("water", "moved", "inland")}
    unjoined = sum(p.status == "unjoined" for p in sites)
    log(f"official ports: {len(sites)} written, {statuses}, unjoined {unjoined}")
    known = set(network) | {s.locode for s in sites} | {a.alias for a in matches}
    known |= {a.locode for a in matches if a.kind == "renamed"}
    with (data_dir() / "port_aliases.csv").open(encoding="utf-8") as handle:
        known |= {row["alias"] for row in csv.DictReader(handle)}
    every = [*renamed(list(network.values()), matches), *sites]
    smdg = carriers_codes(terminals, every, known)
    log(f"official ports: {len(smdg)} SMDG codes made aliases")
    matches += smdg
    rename_rows(data_dir() / "ports.csv", out / "ports.csv", matches, moved_since)
    write_positions(data_dir() / "port_positions.csv", out / "port_positions.csv", corrections)
    write_official_ports(out, sites)
    write_aliases(out, matches)

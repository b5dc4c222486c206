"""``official_ports.csv``: the official seaports that the network's own port list lacks.

Rows are the UN/LOCODE code list's entries with the port function (function code 1), less
those ``ports.csv`` already holds (the ports the network build joined) and the codes of
``port_aliases.csv``. A port's position is its entry in NGA's World Port Index (Pub. 150) where
the index names its UN/LOCODE (a harbour, not the town), else the code list's own coordinates
(the place, to the minute); entries with neither are left out. Each is placed as the network
build places its ports (moved onto water within 5 km, else ``inland``), then checked for the
way the engine reaches a port that is not a node of the network: the straight join from the
berth to the nearest lane must cross no land cell of the land mask outside the corridors and
the mapped water; a port whose join would is ``unjoined`` (refused, like an inland port, until
a network rebuild joins it). Build-time only.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..data import data_dir
from ..geodesy import distance_m, from_unit_vectors, unit_vector
from ..graph import SeaGraph, default_graph
from ..landmask import LandMask, default_landmask
from ..ports import port_id
from ..water import corridors, shoreline_water
from .berths import LOCODE, Alias, Navigable, PortSite, read_aliases, renamed
from .coast import coastline
from .corridors import read_geojson
from .joins import log
from .portfile import time_zone

#: Join samples this close to the berth are not tested: a berth in a harbour lies in the land
#: mask's coastal cells (one arc minute, about 1.8 km).
BERTH_CLEAR_M = 2_500.0
#: The straight join is tested at points at most this far apart, metres.
JOIN_SAMPLE_M = 500.0
#: A position from the World Port Index and the code list's farther apart than this, metres,
#: is counted as moved (the README's figure).
MOVED_M = 5_000.0
#: An official seaport and a network port of the same country and name at most this far apart,
#: metres, are one port (the code list places a town to the minute, searoute its harbour).
SAME_PORT_M = 30_000.0
#: A network port is renamed to an official code whose name only holds its name, or is held by
#: it, when at most this far apart, metres (else the names must be the same).
RENAME_M = 5_000.0
#: A network port this far from the code list's place of its code is another place, metres.
OTHER_PLACE_M = 100_000.0
#: Words a port's name may carry or not ("Ningbo Pt", "Port of Brisbane") and still be the same.
PORT_WORDS = re.compile(r"\b(pt|port|porto|puerto|apt|harbour|harbor|terminal|of)\b")
#: Columns of ``official_ports.csv``: those of ``ports.csv`` and where the position comes from.
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
    "source",
)


@dataclass(frozen=True)
class CodeEntry:
    """One entry of the UN/LOCODE code list: code, name, status, function and position."""

    locode: str
    name: str
    status: str
    function: str
    #: (lon, lat) in degrees from the list's ``DDMMN DDDMME`` coordinates, or None.
    position: tuple[float, float] | None


def read_code_list(folder: Path) -> dict[str, CodeEntry]:
    """The code list's entries from its per-country YAML files (``xx.yaml``: a list of maps
    with ``locode`` as ``'CC LLL'``, ``name``, ``status``, ``function``, ``coordinates``),
    read line by line (the files are regular; some names hold control characters)."""
    entries: dict[str, CodeEntry] = {}
    for path in sorted(folder.glob("*.yaml")):
        fields: dict[str, str] = {}
        for line in [*path.read_text(encoding="utf-8", errors="replace").splitlines(), "-"]:
            if line == "-":
                entry = _entry(fields)
                if entry is not None:
                    entries[entry.locode] = entry
                fields = {}
            elif line.startswith("    ") and ":" in line:
                key, value = line.strip().split(":", 1)
                fields[key] = _unquoted(value.strip())
    return entries


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def _entry(fields: dict[str, str]) -> CodeEntry | None:
    code = fields.get("locode", "").replace(" ", "").upper()
    if not LOCODE.fullmatch(code):
        return None
    return CodeEntry(
        code,
        fields.get("name", ""),
        fields.get("status", ""),
        fields.get("function", ""),
        parse_coordinates(fields.get("coordinates", "")),
    )


def parse_coordinates(text: str) -> tuple[float, float] | None:
    """(lon, lat) from the code list's ``DDMMN DDDMME`` form; None when empty or malformed.

    >>> parse_coordinates("5155N 00430E")
    (4.5, 51.916666666666664)
    >>> parse_coordinates("") is None
    True
    """
    parts = text.split()
    if len(parts) != 2 or len(parts[0]) != 5 or len(parts[1]) != 6:
        return None
    lat_text, lon_text = parts
    try:
        lat = int(lat_text[:2]) + int(lat_text[2:4]) / 60.0
        lon = int(lon_text[:3]) + int(lon_text[3:5]) / 60.0
    except ValueError:
        return None
    if lat_text[4] not in "NS" or lon_text[5] not in "EW" or lat > 90.0 or lon > 180.0:
        return None
    lat = -lat if lat_text[4] == "S" else lat
    lon = -lon if lon_text[5] == "W" else lon
    return (-180.0 if lon == 180.0 else lon, lat)


def is_seaport(entry: CodeEntry) -> bool:
    """An entry with the port function, not marked for removal (status ``XX``)."""
    return entry.function[:1] == "1" and entry.status != "XX"


def read_world_port_index(path: Path) -> dict[str, tuple[str, float, float]]:
    """LOCODE -> (main port name, lon, lat) of the World Port Index entries that name one."""
    out: dict[str, tuple[str, float, float]] = {}
    with path.open(encoding="utf-8-sig", newline="") as handle:
        for row in csv.DictReader(handle):
            code = row["UN/LOCODE"].replace(" ", "").upper()
            if LOCODE.fullmatch(code) and code not in out:
                out[code] = (
                    row["Main Port Name"],
                    float(row["Longitude"]),
                    float(row["Latitude"]),
                )
    return out


def read_countries(path: Path) -> dict[str, str]:
    """ISO country code -> name (``CountryCode,CountryName``), without a trailing "(the)"."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return {
            row["CountryCode"]: row["CountryName"].removesuffix(" (the)")
            for row in csv.DictReader(handle)
        }


@dataclass(frozen=True)
class Counts:
    """What the registry step found, for the log and ``data/README.md``."""

    seaports: int
    in_network: int
    without_position: int
    from_index: int
    from_code_list: int
    index_moved: int
    checked: int

    def line(self) -> str:
        """The counts as the log and ``data/README.md`` give them."""
        return (
            f"{self.seaports} seaports in the code list, {self.in_network} in ports.csv, "
            f"{self.without_position} without a position; added from the World Port Index "
            f"{self.from_index}, from the code list {self.from_code_list}; of {self.checked} "
            f"ports.csv ports the index places, {self.index_moved} more than 5 km away"
        )


def candidates(
    code_list: dict[str, CodeEntry],
    index: dict[str, tuple[str, float, float]],
    known: dict[str, tuple[float, float]],
    aliases: set[str],
    countries: dict[str, str],
) -> tuple[list[PortSite], Counts]:
    """The official seaports ``known`` (the codes of ``ports.csv`` with their positions) lacks,
    positioned by the World Port Index or the code list, with the counts: of those both place,
    how many lie more than :data:`MOVED_M` apart; of ``known``'s ports the index names, how
    many it places that far off (``index_moved``, ``checked``)."""
    seaports = {code: e for code, e in code_list.items() if is_seaport(e)}
    sites: list[PortSite] = []
    without, from_index, moved = 0, 0, 0
    for code, entry in sorted(seaports.items()):
        if code in known or code in aliases:
            continue
        listed = index.get(code)
        if listed is not None:
            lon, lat = listed[1], listed[2]
            source = "wpi"
            from_index += 1
        elif entry.position is not None:
            lon, lat = entry.position
            source = "unlocode"
        else:
            without += 1
            continue
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
        from_index=from_index,
        from_code_list=len(sites) - from_index,
        index_moved=moved,
        checked=checked,
    )
    return sites, counts


def name_key(name: str) -> str:
    """A port's name folded for comparison: ASCII letters only, lower case, without
    :data:`PORT_WORDS`.

    >>> name_key("Port of Brisbane") == name_key("Brisbane")
    True
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", PORT_WORDS.sub(" ", ascii_name.lower()))


def _same_name(a: str, b: str) -> bool:
    """Equal folded names, or one holding the other when the shorter has five letters or more
    ("Bahia Blanca" in "Ingeniero White/Bahia Blanca")."""
    if not a or not b:
        return False
    return a == b or (min(len(a), len(b)) >= 5 and (a in b or b in a))


def same_ports(
    sites: list[PortSite], network: dict[str, PortSite], code_list: dict[str, CodeEntry]
) -> list[Alias]:
    """The official seaports (``sites``) that are a network port already: same country, same
    name (:func:`_same_name`), within :data:`SAME_PORT_M`; the nearest such port wins. A network
    port whose code the code list lacks is renamed to the official code (once); one with an
    official code of its own (``CNSHA``, the code carriers use for Shanghai, whose seaport code
    is ``CNSGH``) keeps it, and the official seaport code becomes its alias."""
    by_country: dict[str, list[tuple[str, PortSite]]] = {}
    for site in network.values():
        by_country.setdefault(site.locode[:2], []).append((name_key(site.name), site))
    out: list[Alias] = []
    renamed: set[str] = set()
    for site in sites:
        key = name_key(site.name)
        best: tuple[float, str] | None = None
        for other_key, other in by_country.get(site.locode[:2], ()):
            if _same_name(key, other_key):
                d = distance_m(site.lon, site.lat, other.lon, other.lat)
                if d <= SAME_PORT_M and (best is None or d < best[0]):
                    best = (d, other.locode)
        if best is None:
            continue
        d, code = best
        if code in code_list:
            out.append(Alias(site.locode, code, "same port", d))
        elif code not in renamed and (d <= RENAME_M or key == name_key(network[code].name)):
            renamed.add(code)
            out.append(Alias(code, site.locode, "renamed", d, site.name))
    return out


def duplicates(network: dict[str, PortSite], code_list: dict[str, CodeEntry]) -> list[Alias]:
    """The network's ports under a code the code list lacks that are another network port with
    an official code (same country and name, within :data:`SAME_PORT_M`: searoute's ``MGTOA``
    beside Toamasina's ``MGTMM``): each becomes an alias of that port and leaves the list."""
    out = []
    for code, site in sorted(network.items()):
        if code in code_list:
            continue
        key = name_key(site.name)
        best: tuple[float, str] | None = None
        for other in network.values():
            if other.locode[:2] != code[:2] or other.locode not in code_list:
                continue
            if _same_name(key, name_key(other.name)):
                d = distance_m(site.lon, site.lat, other.lon, other.lat)
                if d <= SAME_PORT_M and (best is None or d < best[0]):
                    best = (d, other.locode)
        if best is not None:
            out.append(Alias(code, best[1], "duplicate", best[0]))
    return out


def replaced(
    network: dict[str, PortSite],
    code_list: dict[str, CodeEntry],
    index: dict[str, tuple[str, float, float]],
) -> list[Alias]:
    """The network's inland ports whose code is the code list's seaport of another place (name
    unlike, more than :data:`OTHER_PLACE_M` away: searoute's ``CNQIN`` "Qingxi" for the list's
    Qingdao): routes to them were refused anyway, so the code goes to the official seaport."""
    out = []
    for code, site in sorted(network.items()):
        entry = code_list.get(code)
        if site.status != "inland" or entry is None or not is_seaport(entry):
            continue
        listed = index.get(code)
        position = (listed[1], listed[2]) if listed is not None else entry.position
        if position is None or _same_name(name_key(site.name), name_key(entry.name)):
            continue
        if distance_m(site.lon, site.lat, *position) > OTHER_PLACE_M:
            out.append(Alias(code, "", "replaced", 0.0, site.name))
    return out


def read_terminal_codes(path: Path) -> dict[str, tuple[float, float]]:
    """The SMDG Terminal Code List's port codes (``UNLOCODE`` and ``Alternative UNLOCODE``,
    the codes carriers name ports by), each with the mean position of its terminals."""
    sums: dict[str, list[float]] = {}
    with path.open(encoding="utf-8-sig", newline="") as handle:
        for row in csv.DictReader(handle):
            if not (row["Latitude"].strip() and row["Longitude"].strip()):
                continue
            for column in ("UNLOCODE", "Alternative UNLOCODE"):
                code = row[column].strip().upper()
                if LOCODE.fullmatch(code):
                    total = sums.setdefault(code, [0.0, 0.0, 0.0])
                    total[0] += float(row["Longitude"])
                    total[1] += float(row["Latitude"])
                    total[2] += 1.0
    return {code: (t[0] / t[2], t[1] / t[2]) for code, t in sums.items()}


def carriers_codes(
    terminals: dict[str, tuple[float, float]], ports: list[PortSite], known: set[str]
) -> list[Alias]:
    """Aliases for the SMDG codes the registry does not know (``known``: its codes and
    aliases): the nearest port ships reach within :data:`SAME_PORT_M` of the code's
    terminals (``CNQDG``, a carriers' Qingdao, for ``CNTAO``)."""
    reached = [p for p in ports if p.status not in ("inland", "unjoined")]
    out = []
    for code, (lon, lat) in sorted(terminals.items()):
        if code in known:
            continue
        near = [
            (distance_m(lon, lat, p.lon, p.lat), p.locode)
            for p in reached
            if p.locode[:2] == code[:2]
        ]
        best = min(near, default=None)
        if best is not None and best[0] <= SAME_PORT_M:
            out.append(Alias(code, best[1], "smdg", best[0]))
    return out


def write_aliases(out: Path, aliases: list[Alias]) -> None:
    """Write ``official_aliases.csv``: alias, the registry's code, kind, distance (km) and the
    renamed port's official name."""
    with (out / "official_aliases.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["alias", "locode", "kind", "distance_km", "name"])
        for a in sorted(aliases, key=lambda a: a.alias):
            writer.writerow([a.alias, a.locode, a.kind, f"{a.distance_m / 1000.0:.1f}", a.name])


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
            writer.writerow(
                [
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
                    site.source,
                ]
            )


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


def rename_rows(source: Path, target: Path, aliases: list[Alias]) -> None:
    """Copy ``ports.csv`` from ``source`` to ``target`` with the renamed ports' code, id and
    name replaced (position, time zone and approach kept: the network joined that berth) and
    the duplicates left out."""
    to = {a.alias: a for a in aliases if a.kind == "renamed"}
    gone = {a.alias for a in aliases if a.kind in ("duplicate", "replaced")}
    with source.open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.reader(handle) if row[0] not in gone]
    for row in rows[1:]:
        if row[0] in to:
            row[0], row[1], row[2] = to[row[0]].locode, port_id(to[row[0]].locode), to[row[0]].name
    rows[1:] = sorted(rows[1:], key=lambda row: row[0])
    with target.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)  # the line ends portfile.write_ports writes


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
    before += [a for a in replaced(network, entries, index) if a not in before]
    gone = {a.alias for a in before if a.kind in ("duplicate", "replaced")}
    network = {code: site for code, site in network.items() if code not in gone}
    sites, counts = candidates(
        entries,
        index,
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
    statuses = {s: sum(p.status == s for p in sites) for s in ("water", "moved", "inland")}
    unjoined = sum(p.status == "unjoined" for p in sites)
    log(f"official ports: {len(sites)} written, {statuses}, unjoined {unjoined}")
    known = set(network) | {s.locode for s in sites} | {a.alias for a in matches}
    known |= {a.locode for a in matches if a.kind == "renamed"}
    with (data_dir() / "port_aliases.csv").open(encoding="utf-8") as handle:
        known |= {row["alias"] for row in csv.DictReader(handle)}
    every = [*renamed(list(network.values()), matches), *sites]
    smdg = carriers_codes(read_terminal_codes(terminal_codes), every, known)
    log(f"official ports: {len(smdg)} SMDG codes made aliases")
    matches += smdg
    rename_rows(data_dir() / "ports.csv", out / "ports.csv", matches)
    write_official_ports(out, sites)
    write_aliases(out, matches)

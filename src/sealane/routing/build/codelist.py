"""The sources of the port registry, read at build time: the UN/LOCODE code list (one YAML file
per country), its country names, NGA's World Port Index (Pub. 150) and the SMDG Terminal Code
List. Build-time only.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from .berths import LOCODE


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

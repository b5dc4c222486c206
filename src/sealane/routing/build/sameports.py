"""One port under two codes: the official seaport code of a network port, a network port under a
code the code list lacks (renamed to the official one, or a duplicate of another port), an
inland network row whose code is the list's seaport elsewhere, and carriers' SMDG codes; written
as ``official_aliases.csv`` (:class:`~.berths.Alias`). Build-time only.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from pathlib import Path

from ..geodesy import distance_m
from .berths import Alias, PortSite
from .codelist import CodeEntry, is_seaport

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


def name_key(name: str) -> str:
    """A port's name folded for comparison: ASCII letters only, lower case, without
    :data:`PORT_WORDS`.

    >>> name_key("Port of Brisbane") == name_key("Brisbane")
    True
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", PORT_WORDS.sub(" ", ascii_name.lower()))


def same_name(a: str, b: str) -> bool:
    """Equal folded names, or one holding the other when the shorter has five letters or more
    ("Bahia Blanca" in "Ingeniero White/Bahia Blanca")."""
    if not a or not b:
        return False
    return a == b or (min(len(a), len(b)) >= 5 and (a in b or b in a))


def same_ports(
    sites: list[PortSite], network: dict[str, PortSite], code_list: dict[str, CodeEntry]
) -> list[Alias]:
    """The official seaports (``sites``) that are a network port already: same country, same
    name (:func:`same_name`), within :data:`SAME_PORT_M`; the nearest such port wins. A network
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
            if same_name(key, other_key):
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
            if same_name(key, name_key(other.name)):
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
        if position is None or same_name(name_key(site.name), name_key(entry.name)):
            continue
        if distance_m(site.lon, site.lat, *position) > OTHER_PLACE_M:
            out.append(Alias(code, "", "replaced", 0.0, site.name))
    return out


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

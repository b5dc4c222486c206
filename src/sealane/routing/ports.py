"""Port registry: the official seaports of the UN/LOCODE code list, berth positions, approach
status, IANA time zones and stable ids.

``data/ports.csv`` holds the ports the network build joined (searoute's list, corrected, with
the official codes it lacked); ``data/official_ports.csv`` the code list's other seaports
(function 1), placed from NGA's World Port Index or the list's coordinates and reached by the
engine's join to the nearest lane. A code in both is the first file's. ``data/official_aliases.csv``
adds the codes that stand for one of them (searoute's own codes, the official seaport code of a
port carriers name by another, ``CNSGH`` for ``CNSHA``).

A port's ``id`` is the uuid5 of its UN/LOCODE in a fixed namespace, so every install gives the same
id. Lookups accept a LOCODE (any case) or an id; name search and nearest-port queries serve the
service and the CLI. ``data/port_aliases.csv`` names codes that stand for an official port
(searoute's ``MATNG`` for Tanger Med, ``MAPTM``): such a code, and the id handed out for it
before, resolve to the official port.
"""

from __future__ import annotations

import csv
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from .data import data_dir
from .errors import UnknownPortError
from .geodesy import FloatArray, unit_vector, unit_vectors

#: Approaches of the ports routes are refused to (:attr:`Port.inland`).
REFUSED_APPROACHES = ("inland", "unjoined")
#: Namespace of port ids: ``uuid5(PORT_NAMESPACE, LOCODE)``. Never change it: ids are public.
PORT_NAMESPACE = uuid.UUID("6f1f1f52-2c4e-5b8e-9a57-5ea1a4e5ea1a")


def port_id(locode: str) -> str:
    """The stable id of the port with UN/LOCODE ``locode``.

    >>> port_id("NLRTM") == port_id("nlrtm")
    True
    """
    return str(uuid.uuid5(PORT_NAMESPACE, locode.strip().upper()))


@dataclass(frozen=True, slots=True)
class Port:
    """A sea port: UN/LOCODE, name, ISO country code, position (degrees) and IANA time zone."""

    locode: str
    id: str
    name: str
    country: str
    country_name: str
    lon: float
    lat: float
    time_zone: str
    #: How the port meets the sea: ``water`` (listed position at sea), ``moved`` (moved onto
    #: navigable water nearby), ``inland`` (no water approach; routes to it are refused) or
    #: ``unjoined`` (on water, but the network does not reach it yet: its straight join to the
    #: lanes would cross land; refused like an inland port).
    approach: str = "water"
    #: Metres the position was moved (``moved``), the least distance to water (``inland``), or
    #: the length of the join that would cross land (``unjoined``).
    approach_m: float = 0.0

    @property
    def inland(self) -> bool:
        """Whether routes to the port are refused: it has no water approach (``inland``) or
        none the network reaches (``unjoined``)."""
        return self.approach in REFUSED_APPROACHES

    @property
    def coordinates(self) -> tuple[float, float]:
        """(lon, lat) in degrees."""
        return (self.lon, self.lat)


class PortRegistry:
    """All known ports, indexed by LOCODE and id, with name search and a nearest-port search.

    Built from the CSV's lines; a :class:`Port` object is made when a port is first asked for, so
    loading the registry costs a split of the files, not 14,000 object constructions. A code
    listed twice keeps its first line. ``more`` gives further lines read only when a lookup
    misses the first ones (the official ports the network lacks: a route between the network's
    ports never reads them); aliases resolve once every line is read.
    """

    def __init__(
        self,
        lines: list[str],
        aliases: dict[str, str] | None = None,
        more: Callable[[], list[str]] | None = None,
    ) -> None:
        self._lines: dict[str, str] = {}
        for line in lines:
            self._lines.setdefault(line[:5], line)
        self._id_to_locode = {line[6:42]: code for code, line in self._lines.items()}
        self._given_aliases = aliases or {}
        self._aliases: dict[str, str] = {}
        self._more = more
        self._made: dict[str, Port] = {}
        self._all: tuple[Port, ...] | None = None
        self._columns: tuple[list[str], list[str], FloatArray, npt.NDArray[np.bool_]] | None = None
        self._xyz: FloatArray | None = None
        if more is None:
            self._complete()

    def _complete(self) -> None:
        """Read the further lines (once) and resolve the aliases against every line: an alias
        names a listed port and is not itself listed; its own id resolves too."""
        if self._more is not None:
            for line in self._more():
                code = line[:5]
                if code not in self._lines:
                    self._lines[code] = line
                    self._id_to_locode[line[6:42]] = code
            self._more = None
        self._aliases = {
            a: c
            for a, c in self._given_aliases.items()
            if c in self._lines and a not in self._lines
        }
        self._id_to_locode.update({port_id(a): c for a, c in self._aliases.items()})

    def __len__(self) -> int:
        self._complete_once()
        return len(self._lines)

    def _complete_once(self) -> None:
        if self._more is not None:
            self._complete()

    @property
    def ports(self) -> tuple[Port, ...]:
        """Every port, sorted by LOCODE."""
        if self._all is None:
            self._complete_once()
            self._all = tuple(self._port(code) for code in sorted(self._lines))
        return self._all

    def _table(self) -> tuple[list[str], list[str], FloatArray, npt.NDArray[np.bool_]]:
        """Every port's LOCODE (sorted), lower-case name, (lon, lat) and whether routes to it
        are refused, from one pass of the csv module over the lines (kept, not the rows)."""
        if self._columns is None:
            self._complete_once()
            codes = sorted(self._lines)
            names, lonlat, refused = [], [], []
            for row in csv.reader([self._lines[code] for code in codes]):
                names.append(row[2].lower())
                lonlat.append((float(row[5]), float(row[6])))
                refused.append(len(row) > 8 and row[8] in REFUSED_APPROACHES)
            self._columns = (
                codes,
                names,
                np.array(lonlat, dtype=np.float64).reshape(-1, 2),
                np.array(refused, dtype=np.bool_),
            )
        return self._columns

    def _port(self, locode: str) -> Port:
        port = self._made.get(locode)
        if port is None:
            row = next(csv.reader([self._lines[locode]]))
            port = Port(
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                float(row[5]),
                float(row[6]),
                row[7],
                *((row[8], float(row[9])) if len(row) > 9 else ()),
            )
            self._made[locode] = port
        return port

    def get(self, key: str) -> Port:
        """The port with this LOCODE (case-insensitive), alias or id (an alias's id included);
        :class:`UnknownPortError` if none.

        >>> registry().get("matng").locode  # searoute's code for Tanger Med
        'MAPTM'
        """
        if not isinstance(key, str):
            raise UnknownPortError(f"a port is named by its UN/LOCODE or id, got {key!r}")
        text = key.strip()
        code = text.upper() if text.upper() in self._lines else None
        code = code or self._id_to_locode.get(text.lower())
        if code is None:
            self._complete_once()
            code = text.upper() if text.upper() in self._lines else self._aliases.get(text.upper())
            code = code or self._id_to_locode.get(text.lower())
        if code is None:
            raise UnknownPortError(f"unknown port {key!r}: not a known UN/LOCODE or port id")
        return self._port(code)

    def find(self, query: str, *, limit: int = 10) -> list[Port]:
        """Ports matching ``query`` by name or LOCODE: exact first, then prefix, then substring
        (names compared from the parsed lines; a :class:`Port` is made only for a match)."""
        needle = query.strip().lower()
        if not needle:
            return []
        ranked: list[tuple[int, str, str]] = []
        codes, names, _, _ = self._table()
        for code, name in zip(codes, names, strict=True):
            if code.lower() == needle or name == needle:
                rank = 0
            elif name.startswith(needle):
                rank = 1
            elif needle in name:
                rank = 2
            else:
                continue
            ranked.append((rank, name, code))
        ranked.sort(key=lambda item: (item[0], item[1]))
        return [self._port(code) for _, _, code in ranked[:limit]]

    def positions(self, *, reached: bool = False) -> FloatArray:
        """Every port's (lon, lat) in LOCODE order, as an (N, 2) array; only the ports routes
        are not refused to (not ``inland`` nor ``unjoined``) when ``reached``."""
        _, _, lonlat, refused = self._table()
        return lonlat[~refused] if reached else lonlat

    def nearest(self, lon: float, lat: float) -> Port:
        """The port closest to (lon, lat) on the sphere."""
        codes, _, lonlat, _ = self._table()
        if self._xyz is None:
            self._xyz = unit_vectors(lonlat[:, 0], lonlat[:, 1])
        return self._port(codes[int(np.argmax(self._xyz @ unit_vector(lon, lat)))])


@cache
def registry() -> PortRegistry:
    """The shipped port registry (the network's ports, then the other official ones), loaded
    once."""
    aliases: dict[str, str] = {}
    for name in ("port_aliases.csv", "official_aliases.csv"):
        aliases |= _aliases((data_dir() / name).read_text(encoding="utf-8").splitlines())
    return PortRegistry(_lines("ports.csv"), aliases, lambda: _lines("official_ports.csv"))


def _lines(name: str) -> list[str]:
    """The lines of a shipped port table, less its header."""
    return (data_dir() / name).read_text(encoding="utf-8").splitlines()[1:]


def _aliases(lines: list[str]) -> dict[str, str]:
    """Alias -> official LOCODE from the lines of ``port_aliases.csv`` or
    ``official_aliases.csv`` (their first two columns, five-letter codes, so a split on the
    first commas reads them without the csv module; a row naming no port is skipped)."""
    return {line[:5]: line[6:11] for line in lines[1:] if line[5:6] == line[11:12] == ","}


def get_port(key: str) -> Port:
    """The port with this LOCODE or id (see :meth:`PortRegistry.get`).

    >>> get_port("nlrtm").name
    'Rotterdam'
    """
    return registry().get(key)

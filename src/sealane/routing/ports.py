"""Port registry: searoute's port list with IANA time zones and stable ids.

A port's ``id`` is the uuid5 of its UN/LOCODE in a fixed namespace, so every install gives the same
id. Lookups accept a LOCODE (any case) or an id; name search and nearest-port queries are offered for
the service and the CLI.
"""

from __future__ import annotations

import csv
import uuid
from dataclasses import dataclass
from functools import cache

import numpy as np

from .datafiles import data_dir
from .errors import UnknownPortError
from .geodesy import FloatArray, unit_vectors

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

    @property
    def coordinates(self) -> tuple[float, float]:
        """(lon, lat) in degrees."""
        return (self.lon, self.lat)


class PortRegistry:
    """All known ports, indexed by LOCODE and id, with a vectorised nearest-port search."""

    def __init__(self, ports: list[Port]) -> None:
        self.ports: tuple[Port, ...] = tuple(ports)
        self._by_locode = {p.locode: p for p in ports}
        self._by_id = {p.id: p for p in ports}
        self._xyz: FloatArray | None = None

    def __len__(self) -> int:
        return len(self.ports)

    def get(self, key: str) -> Port:
        """The port with this LOCODE (case-insensitive) or id; :class:`UnknownPortError` if none."""
        if not isinstance(key, str):
            raise UnknownPortError(f"a port is named by its UN/LOCODE or id, got {key!r}")
        text = key.strip()
        port = self._by_locode.get(text.upper()) or self._by_id.get(text.lower())
        if port is None:
            raise UnknownPortError(f"unknown port {key!r}: not a known UN/LOCODE or port id")
        return port

    def find(self, query: str, *, limit: int = 10) -> list[Port]:
        """Ports whose name or LOCODE matches ``query``: exact first, then prefix, then substring."""
        needle = query.strip().lower()
        if not needle:
            return []
        ranked: list[tuple[int, str, Port]] = []
        for port in self.ports:
            name = port.name.lower()
            if port.locode.lower() == needle or name == needle:
                rank = 0
            elif name.startswith(needle):
                rank = 1
            elif needle in name:
                rank = 2
            else:
                continue
            ranked.append((rank, name, port))
        ranked.sort(key=lambda item: (item[0], item[1]))
        return [port for _, _, port in ranked[:limit]]

    def nearest(self, lon: float, lat: float) -> Port:
        """The port closest to (lon, lat) on the sphere."""
        if self._xyz is None:
            self._xyz = unit_vectors([p.lon for p in self.ports], [p.lat for p in self.ports])
        point = unit_vectors(lon, lat)
        return self.ports[int(np.argmax(self._xyz @ point))]


@cache
def registry() -> PortRegistry:
    """The shipped port registry, loaded once."""
    with (data_dir() / "ports.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return PortRegistry(
        [
            Port(
                locode=row["locode"],
                id=row["id"],
                name=row["name"],
                country=row["country"],
                country_name=row["country_name"],
                lon=float(row["lon"]),
                lat=float(row["lat"]),
                time_zone=row["time_zone"],
            )
            for row in rows
        ]
    )


def get_port(key: str) -> Port:
    """The port with this LOCODE or id (see :meth:`PortRegistry.get`).

    >>> get_port("nlrtm").name
    'Rotterdam'
    """
    return registry().get(key)

"""Port areas: a circle per port (radius configurable per LOCODE), entered and left with hysteresis.

A vessel is in a port once within the radius of its centre and leaves it only beyond
``radius x exit_factor``, so a ship swinging at anchor on the edge makes one call, not many.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from ...routing.ports import get_port
from .tracks import distance_nm

METRES_PER_NM = 1852.0


@dataclass(frozen=True, slots=True)
class PortAreas:
    """Radii (metres) of the port areas that AIS arrivals and departures are judged against."""

    default_radius_m: float = 10_000.0
    radius_m: Mapping[str, float] = field(default_factory=dict)
    exit_factor: float = 1.25
    #: Within this distance of the port's position (set on its terminals) a vessel is at berth;
    #: in the area but farther out, it waits at anchor.
    berth_radius_m: float = 3_000.0

    def radius_of(self, locode: str) -> float:
        """The area's radius around ``locode``'s position, in metres."""
        return self.radius_m.get(locode.upper(), self.default_radius_m)

    def locate(
        self, lon: float, lat: float, candidates: Iterable[str], current: str | None
    ) -> str | None:
        """The port among ``candidates`` (LOCODEs) whose area holds (lon, lat), else None.

        ``current`` is the port the vessel is in now: it is kept until the vessel is beyond the
        exit radius, so the answer changes only on a real arrival or departure.
        """
        exit_m = self.radius_of(current) * self.exit_factor if current else 0.0
        if current is not None and self._distance_m(current, lon, lat) <= exit_m:
            return current
        best: tuple[float, str] | None = None
        for locode in candidates:
            distance = self._distance_m(locode, lon, lat)
            if distance <= self.radius_of(locode) and (best is None or distance < best[0]):
                best = (distance, locode)
        return best[1] if best else None

    def at_berth(self, locode: str, lon: float, lat: float) -> bool:
        """Whether (lon, lat) is within the berth radius of ``locode``."""
        return self._distance_m(locode, lon, lat) <= self.berth_radius_m

    @staticmethod
    def _distance_m(locode: str, lon: float, lat: float) -> float:
        port_lon, port_lat = _position(locode)
        return distance_nm(port_lon, port_lat, lon, lat) * METRES_PER_NM


@lru_cache(maxsize=4096)
def _position(locode: str) -> tuple[float, float]:
    """A port's (lon, lat), looked up once: the registry does not change while a process runs,
    and every point of a followed vessel is measured against its ports."""
    port = get_port(locode)
    return port.lon, port.lat

"""Read models of the reference data: shipping lines, terminals, metropolitan areas, and the
positions vessels reported."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ...routing.ports import Port


@dataclass(frozen=True, slots=True)
class ShippingLineRecord:
    """An ocean carrier."""

    id: str
    scac: str
    name: str
    short_name: str
    bill_of_lading_prefixes: tuple[str, ...]
    #: Other SCACs a tracking request may name this carrier by.
    alternative_scacs: tuple[str, ...] = ()
    #: ISO 6346 owner codes of the carrier's own containers, and its booking number format.
    container_owner_codes: tuple[str, ...] = ()
    booking_number_pattern: str = ""
    bill_of_lading_tracking_support: bool = False
    booking_number_tracking_support: bool = False
    container_number_tracking_support: bool = False

    @property
    def supported_request_types(self) -> frozenset[str]:
        """The tracking request types the carrier's tracking supports."""
        flags = (
            ("bill_of_lading", self.bill_of_lading_tracking_support),
            ("booking_number", self.booking_number_tracking_support),
            ("container", self.container_number_tracking_support),
        )
        return frozenset(name for name, supported in flags if supported)


@dataclass(frozen=True, slots=True)
class TerminalRecord:
    """A container terminal at a port."""

    id: str
    name: str
    port_locode: str
    firms_code: str | None
    smdg_code: str | None
    operator: str | None
    lon: float
    lat: float
    nickname: str | None = None
    street: str | None = None
    city: str | None = None
    state: str | None = None
    state_abbr: str | None = None
    zip: str | None = None
    #: Country name of the terminal's port.
    country: str | None = None


@dataclass(frozen=True, slots=True)
class MetroAreaRecord:
    """The metropolitan area named by a UN/LOCODE, with its own id (uuid5 of the LOCODE)."""

    id: str
    port: Port


@dataclass(frozen=True, slots=True)
class RecordedPosition:
    """A position a vessel reported: degrees WGS84, knots, degrees from true north."""

    longitude: float
    latitude: float
    heading_degrees: float | None
    speed_knots: float | None
    timestamp: datetime

"""Read models of a container's route: its port calls, and the map drawn from them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from ...routing.ports import Port
from ...vocabulary.vessels import VesselRecord
from ..core.engine import NO_SIZE, VesselSize
from ..reference.records import TerminalRecord
from ..tracking.records import ShipmentRecord


@dataclass(frozen=True, slots=True)
class RouteLocationRecord:
    """One port call: the port (None when the engine does not know its LOCODE), terminal, the
    legs in and out (mode, carrier, vessel, voyage) and its times, estimated and actual (UTC).

    ``inbound_vessel``, ``outbound_vessel`` and ``terminal`` are filled when asked for.
    """

    id: str
    route_id: str
    sequence: int
    port_locode: str
    port: Port | None
    terminal_id: str | None
    inbound_mode: str | None
    inbound_scac: str | None
    inbound_vessel_id: str | None
    inbound_voyage_number: str | None
    inbound_eta_at: datetime | None
    inbound_ata_at: datetime | None
    outbound_mode: str | None
    outbound_scac: str | None
    outbound_vessel_id: str | None
    outbound_voyage_number: str | None
    outbound_etd_at: datetime | None
    outbound_atd_at: datetime | None
    created_at: datetime
    updated_at: datetime
    inbound_vessel: VesselRecord | None = None
    outbound_vessel: VesselRecord | None = None
    terminal: TerminalRecord | None = None

    @property
    def arrival_at(self) -> datetime | None:
        """The actual arrival, else the estimated one."""
        return self.inbound_ata_at or self.inbound_eta_at

    @property
    def departure_at(self) -> datetime | None:
        """The actual departure, else the estimated one."""
        return self.outbound_atd_at or self.outbound_etd_at


@dataclass(frozen=True, slots=True)
class ContainerRoute:
    """A container's route: its port calls in order, from the port of lading to the port of
    discharge. ``id`` is derived from the container's id, so it is stable; ``created_at`` and
    ``updated_at`` are the earliest and latest of its calls (the container's without calls)."""

    id: str
    container_id: str
    shipment_id: str
    created_at: datetime
    updated_at: datetime
    locations: tuple[RouteLocationRecord, ...]
    shipment: ShipmentRecord | None = None


class Phase(StrEnum):
    """Where a container is on its route."""

    NOT_DEPARTED = "not_departed"
    AT_SEA = "at_sea"
    IN_PORT = "in_port"
    DELIVERED = "delivered"
    #: No port calls are known yet.
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class MapFeatures:
    """A container's route drawn for a map: RFC 7946 features (ports, the track sailed, the
    vessel, the legs to come) in route order, and the phase they show."""

    container_id: str
    phase: Phase
    features: tuple[dict[str, Any], ...]
    #: The dimensions the legs were routed for, and the vessel that reported them (the one
    #: sailing the leg under way, else the next leg's; None: no vessel known).
    size: VesselSize = NO_SIZE
    sized_by: str | None = None

    def to_geojson(self) -> dict[str, Any]:
        """The GeoJSON FeatureCollection, with a foreign member ``meta`` (RFC 7946 section 6.1)
        saying which vessel dimensions the routes were computed for."""
        meta = {"vessel_id": self.sized_by, "vessel_dimensions": self.size.meta()}
        return {"type": "FeatureCollection", "features": list(self.features), "meta": meta}

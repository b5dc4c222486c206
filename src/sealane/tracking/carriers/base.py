"""The carrier adapter interface: look a number up, then report what has happened by now.

A real integration (a shipping line's API or EDI feed) implements the same two calls; the
service never knows which carrier it talks to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class PlannedContainer:
    """A container as the carrier reports it."""

    number: str
    seal_number: str
    equipment_type: str
    equipment_length: int
    equipment_height: str
    weight_in_lbs: int


@dataclass(frozen=True, slots=True)
class PlannedLeg:
    """One ocean leg: a vessel's voyage from ``origin`` to ``destination`` (LOCODEs)."""

    vessel_name: str
    vessel_imo: str
    #: None when the carrier does not say (DCSA does not; AIS learns it from the IMO number).
    vessel_mmsi: str | None
    voyage_number: str
    origin: str
    destination: str
    depart_at: datetime
    arrive_at: datetime
    distance_nm: float
    #: Speed the vessel actually sails at, and the speed the carrier's estimates assume.
    speed_kn: float
    nominal_speed_kn: float


@dataclass(frozen=True, slots=True)
class PlannedEvent:
    """A transport event of one container (``container`` indexes the plan's containers)."""

    container: int
    sequence: int
    event: str
    at: datetime
    locode: str
    leg: int | None
    data_source: str = "shipping_line"


@dataclass(frozen=True, slots=True)
class PlannedUpdate:
    """Terminal-side facts of a container that change at ``at`` (attribute -> new value)."""

    container: int
    at: datetime
    changes: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MissedSailing:
    """The sailing a shipment was booked on and rolled off: its voyage number, when it left,
    and when the carrier said so (until then its estimates are those of this sailing)."""

    voyage_number: str
    depart_at: datetime
    announced_at: datetime


@dataclass(frozen=True, slots=True)
class ShipmentPlan:
    """Everything the carrier knows about a shipment, as a timeline."""

    scac: str
    bill_of_lading_number: str
    booking_number: str
    port_of_lading: str
    port_of_discharge: str
    transshipments: tuple[str, ...]
    legs: tuple[PlannedLeg, ...]
    containers: tuple[PlannedContainer, ...]
    events: tuple[PlannedEvent, ...]
    updates: tuple[PlannedUpdate, ...]
    #: Picks the terminal at the port of discharge among those known (index modulo their count).
    terminal_choice: int
    epoch: datetime
    #: The first sailing, when the cargo was rolled off it to the one the legs sail.
    missed: MissedSailing | None = None


@dataclass(frozen=True, slots=True)
class CallEstimate:
    """The carrier's current estimates at one port of the plan (UTC; None where it gives none)."""

    arrival_at: datetime | None
    departure_at: datetime | None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the carrier reports at a moment: events and updates so far, the current estimate."""

    plan: ShipmentPlan
    events: tuple[PlannedEvent, ...]
    updates: tuple[PlannedUpdate, ...]
    #: None when the carrier has published no estimate yet.
    pod_eta: datetime | None
    pod_ata: datetime | None
    #: Position of the vessel currently carrying the containers: (leg, lon, lat, heading, knots).
    vessel_position: tuple[int, float, float, float, float] | None = field(default=None)
    #: When that position was taken; None for the time of the report.
    vessel_position_at: datetime | None = field(default=None)
    #: Estimates at each port of the plan in order (port of lading, transshipments, port of
    #: discharge); empty when the carrier states none, and the legs' planned times stand in.
    call_estimates: tuple[CallEstimate, ...] = field(default=())
    #: The voyage the estimate at the port of discharge is for; None: the last leg's.
    pod_voyage_number: str | None = field(default=None)


@dataclass(frozen=True, slots=True)
class Found:
    """The number is known: here is the shipment's plan."""

    plan: ShipmentPlan


@dataclass(frozen=True, slots=True)
class AwaitingManifest:
    """The booking or BL exists but its manifest is not published yet."""

    retry_at: datetime


@dataclass(frozen=True, slots=True)
class UnknownNumber:
    """The carrier does not know the number; ``final`` when asking again cannot help (the
    request fails at once instead of retrying with backoff)."""

    reason: str = "not_found"
    final: bool = False


@dataclass(frozen=True, slots=True)
class Unreachable:
    """The carrier could not be asked (a transient failure)."""

    reason: str = "shipping_line_unreachable"


LookupResult = Found | AwaitingManifest | UnknownNumber | Unreachable


class CarrierAdapter(Protocol):
    """A shipping line integration."""

    scacs: frozenset[str]

    def lookup(
        self, request_type: str, number: str, *, requested_at: datetime, now: datetime
    ) -> LookupResult:
        """Find the shipment behind ``number`` as of ``now``."""
        ...

    def snapshot(self, plan_key: tuple[str, str, datetime], now: datetime) -> Snapshot:
        """The shipment's state at ``now``; ``plan_key`` is (request_type, number, epoch)."""
        ...

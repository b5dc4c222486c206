"""A container's milestone timeline: what happened (transport events, in order), then what is
still expected on its way from the port of lading through each transshipment to the port of
discharge, with the carrier's estimate where one is known (departure ETD, arrival ETA)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ...routing import Port
from ...vocabulary.events import TRANSPORT
from ..reference.ports import known_port
from .records import ContainerRecord, ShipmentRecord

AT_ORIGIN = ("empty_out", "full_in", "vessel_loaded", "vessel_departed")
AT_TRANSSHIPMENT = (
    "transshipment_arrived",
    "transshipment_discharged",
    "transshipment_loaded",
    "transshipment_departed",
)
AT_DESTINATION = ("vessel_arrived", "vessel_discharged", "available", "full_out", "empty_in")


@dataclass(frozen=True, slots=True)
class TimelineStep:
    """One step of the timeline: ``actual`` when it happened at ``at``; otherwise expected,
    with ``at`` the estimate when the carrier gave one (else None)."""

    event: str
    port: Port | None
    at: datetime | None
    actual: bool
    voyage_number: str | None = None
    data_source: str | None = None


@dataclass(frozen=True, slots=True)
class Timeline:
    """The milestones in order: every actual one, then the expected ones."""

    milestones: tuple[TimelineStep, ...]

    @property
    def next_expected(self) -> TimelineStep | None:
        """The first milestone still ahead, or None when the journey is complete."""
        return next((m for m in self.milestones if not m.actual), None)


def plan(shipment: ShipmentRecord) -> list[tuple[str, str]]:
    """(event, LOCODE) of each step a container of ``shipment`` is expected to take."""
    steps = [(TRANSPORT + name, shipment.port_of_lading.locode) for name in AT_ORIGIN]
    for locode in shipment.transshipment_locodes:
        steps += [(TRANSPORT + name, locode) for name in AT_TRANSSHIPMENT]
    steps += [(TRANSPORT + name, shipment.port_of_discharge.locode) for name in AT_DESTINATION]
    return steps


def container_timeline(shipment: ShipmentRecord, container: ContainerRecord) -> Timeline:
    """The timeline of ``container`` (loaded with its transport events) in ``shipment``."""
    events = container.events or ()
    actual = [
        TimelineStep(
            event=e.event,
            port=known_port(e.location_locode),
            at=e.timestamp,
            actual=True,
            voyage_number=e.voyage_number,
            data_source=e.data_source,
        )
        for e in events
    ]
    steps = plan(shipment)
    reached = -1
    for e in events:
        for index, (name, locode) in enumerate(steps):
            if name == e.event and (e.location_locode in (None, locode)) and index > reached:
                reached = index
                break
    estimates = {
        (TRANSPORT + "vessel_departed", shipment.port_of_lading.locode): shipment.pol_etd_at,
        (TRANSPORT + "vessel_arrived", shipment.port_of_discharge.locode): shipment.pod_eta_at,
    }
    expected = [
        TimelineStep(
            event=name, port=known_port(locode), at=estimates.get((name, locode)), actual=False
        )
        for name, locode in steps[reached + 1 :]
    ]
    return Timeline(tuple(actual + expected))

"""Raw events: a container's milestones as its carrier states them, past and planned.

Transport events are the verified past; raw events add the carrier's schedule of what is still
to come (``estimated``). They are read from the carrier adapter's snapshot, never stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..vocabulary.events import TRANSPORT
from .carriers.base import Snapshot

#: Milestone names a raw event may carry; others (``vessel_berthed``) keep only their wording.
RAW_EVENT_NAMES = frozenset(
    {
        "empty_out",
        "full_in",
        "positioned_in",
        "positioned_out",
        "vessel_loaded",
        "vessel_departed",
        "transshipment_arrived",
        "transshipment_discharged",
        "transshipment_loaded",
        "transshipment_departed",
        "feeder_arrived",
        "feeder_discharged",
        "feeder_loaded",
        "feeder_departed",
        "rail_loaded",
        "rail_departed",
        "rail_arrived",
        "rail_unloaded",
        "vessel_arrived",
        "vessel_discharged",
        "arrived_at_destination",
        "delivered",
        "full_out",
        "empty_in",
        "vgm_received",
        "carrier_release",
        "customs_release",
        "available",
    }
)


@dataclass(frozen=True, slots=True)
class RawMilestone:
    """One milestone of a container: ``name`` after ``container.transport.``, where and when."""

    sequence: int
    name: str
    at: datetime
    estimated: bool
    locode: str
    #: The ocean leg (index into the plan's legs) for vessel milestones, else None.
    leg: int | None

    @property
    def normalized(self) -> str | None:
        """The milestone's name if it is one of :data:`RAW_EVENT_NAMES`, else None."""
        return self.name if self.name in RAW_EVENT_NAMES else None

    @property
    def wording(self) -> str:
        """How a carrier would word it: ``Vessel loaded``."""
        return self.name.replace("_", " ").capitalize()


def milestones(snapshot: Snapshot, container_number: str, now: datetime) -> list[RawMilestone]:
    """Every planned milestone of the container ``container_number``, in time order; those
    after ``now`` are estimates. Empty when the carrier does not list the container."""
    numbers = [planned.number for planned in snapshot.plan.containers]
    if container_number not in numbers:
        return []
    index = numbers.index(container_number)
    found = [
        RawMilestone(
            sequence=event.sequence,
            name=event.event.removeprefix(TRANSPORT),
            at=event.at,
            estimated=event.at > now,
            locode=event.locode,
            leg=event.leg,
        )
        for event in snapshot.plan.events
        if event.container == index
    ]
    return sorted(found, key=lambda m: (m.at, m.sequence))

"""DCSA event codes to sealane's event names and container statuses: the table.

A row matches an actual (ACT) event by its type, code, mode of transport, empty/laden and the
role of its place in the shipment (port of lading, transshipment port, port of discharge, or
elsewhere). Planned and estimated events never become transport events: the adapter reads the
port of discharge's EST/PLN arrivals as the shipment's ETA. Codes with no row (STUF, STRP,
document events, codes of later versions) record nothing; their containers keep their status.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ...tracking.events import status_after
from ...vocabulary.statuses import ContainerStatus
from .events import DcsaEvent

T = "container.transport."


class Role(StrEnum):
    """What the event's place is to the shipment."""

    ORIGIN = "origin"
    TRANSSHIPMENT = "transshipment"
    DESTINATION = "destination"
    ELSEWHERE = "elsewhere"


ANY = None
SEA = ("VESSEL", "BARGE")


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table; ``None`` in a condition column matches anything."""

    event_type: str
    code: str
    modes: tuple[str, ...] | None
    empty: bool | None
    roles: tuple[Role, ...] | None
    event: str

    def matches(self, event: DcsaEvent, role: Role) -> bool:
        """Whether this row applies to ``event`` happening at a place of ``role``."""
        mode = event.call.mode if event.call else None
        return (
            self.event_type == event.event_type
            and self.code == event.code
            and (self.modes is None or mode in self.modes)
            and (self.empty is None or self.empty == event.empty)
            and (self.roles is None or role in self.roles)
        )


POL, TS, POD, OTHER = Role.ORIGIN, Role.TRANSSHIPMENT, Role.DESTINATION, Role.ELSEWHERE
TABLE: tuple[Row, ...] = (
    Row("TRANSPORT", "DEPA", SEA, ANY, (POL,), T + "vessel_departed"),
    Row("TRANSPORT", "ARRI", SEA, ANY, (TS,), T + "transshipment_arrived"),
    Row("TRANSPORT", "DEPA", SEA, ANY, (TS,), T + "transshipment_departed"),
    Row("TRANSPORT", "ARRI", SEA, ANY, (POD,), T + "vessel_arrived"),
    Row("TRANSPORT", "DEPA", ("RAIL",), ANY, ANY, T + "rail_departed"),
    Row("TRANSPORT", "ARRI", ("RAIL",), ANY, ANY, T + "rail_arrived"),
    Row("EQUIPMENT", "GTOT", ANY, True, (POL, OTHER), T + "empty_out"),
    Row("EQUIPMENT", "GTIN", ANY, False, (POL,), T + "full_in"),
    Row("EQUIPMENT", "LOAD", SEA, ANY, (POL,), T + "vessel_loaded"),
    Row("EQUIPMENT", "DISC", SEA, ANY, (TS,), T + "transshipment_discharged"),
    Row("EQUIPMENT", "LOAD", SEA, ANY, (TS,), T + "transshipment_loaded"),
    Row("EQUIPMENT", "DISC", SEA, ANY, (POD,), T + "vessel_discharged"),
    Row("EQUIPMENT", "LOAD", ("RAIL",), ANY, ANY, T + "rail_loaded"),
    Row("EQUIPMENT", "DISC", ("RAIL",), ANY, ANY, T + "rail_unloaded"),
    Row("EQUIPMENT", "GTOT", ANY, False, (POD, OTHER), T + "full_out"),
    Row("EQUIPMENT", "GTIN", ANY, True, (POD, OTHER), T + "empty_in"),
    # PICK and DROP (commented out of the 2.2 enum, back in later versions): a pick-up of the
    # laden box at the destination and the drop-off of the empty.
    Row("EQUIPMENT", "PICK", ANY, False, (POD, OTHER), T + "full_out"),
    Row("EQUIPMENT", "PICK", ANY, True, (POL, OTHER), T + "empty_out"),
    Row("EQUIPMENT", "DROP", ANY, True, (POD, OTHER), T + "empty_in"),
    Row("EQUIPMENT", "DROP", ANY, False, (POL,), T + "full_in"),
)

#: Every code T&T 2.2 (and its PICK/DROP successors) defines, per event type.
KNOWN_CODES = {
    "TRANSPORT": frozenset({"ARRI", "DEPA"}),
    "EQUIPMENT": frozenset({"LOAD", "DISC", "GTIN", "GTOT", "STUF", "STRP", "PICK", "DROP"}),
    "SHIPMENT": frozenset(
        {"RECE", "DRFT", "PENA", "PENU", "REJE", "APPR", "ISSU", "SURR", "SUBM", "VOID", "CONF"}
    ),
}
#: Shipment events about a booking that mean it will not sail.
CANCELLING = frozenset({"REJE", "VOID"})


def is_known(event: DcsaEvent) -> bool:
    """Whether the event's code is one T&T defines for its type."""
    return event.code in KNOWN_CODES[event.event_type]


def sealane_event(event: DcsaEvent, role: Role) -> str | None:
    """The sealane event name of an actual event at a place of ``role`` (None: no event)."""
    if not event.actual:
        return None
    for row in TABLE:
        if row.matches(event, role):
            return row.event
    return None


def status_of(event_name: str) -> ContainerStatus | None:
    """The container status after ``event_name`` (the tracking engine's own rule)."""
    return status_after(event_name)


def cancels_booking(event: DcsaEvent) -> bool:
    """A booking rejected or voided by the carrier."""
    return (
        event.event_type == "SHIPMENT"
        and event.document_type == "BKG"
        and event.code in CANCELLING
        and event.actual
    )

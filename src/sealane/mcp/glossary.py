"""The milestone glossary: every event name of the interface document, what it means and where it
usually falls in a container's journey (the ``service://docs/milestone-glossary`` resource)."""

from __future__ import annotations

from typing import NamedTuple

from ..tracking.events import EVENT_NAMES


class Milestone(NamedTuple):
    """An event name, a short label, its meaning, and its stage (1 = first in a journey; 0 for
    events that are not steps of the journey)."""

    name: str
    label: str
    meaning: str
    stage: int


_T = "container.transport."
#: (name, label, meaning, stage) in the usual order of an ocean journey with one transshipment.
MILESTONES = (
    Milestone(f"{_T}empty_out", "Empty out", "The empty container left the depot to be packed.", 1),
    Milestone(
        f"{_T}full_in", "Full in", "The packed container was gated in at the port of lading.", 2
    ),
    Milestone(
        f"{_T}vessel_loaded",
        "Vessel loaded",
        "Loaded onto the ocean vessel at the port of lading.",
        3,
    ),
    Milestone(f"{_T}vessel_departed", "Vessel departed", "The vessel left the port of lading.", 4),
    Milestone(
        f"{_T}feeder_loaded",
        "Feeder loaded",
        "Loaded onto a smaller feeder vessel for a short leg.",
        4,
    ),
    Milestone(f"{_T}feeder_departed", "Feeder departed", "The feeder vessel left port.", 4),
    Milestone(
        f"{_T}feeder_arrived", "Feeder arrived", "The feeder vessel reached the next port.", 5
    ),
    Milestone(f"{_T}feeder_discharged", "Feeder discharged", "Unloaded from the feeder vessel.", 5),
    Milestone(
        f"{_T}transshipment_arrived",
        "Transshipment arrived",
        "The vessel reached a transshipment port on the way.",
        5,
    ),
    Milestone(
        f"{_T}transshipment_discharged",
        "Transshipment discharged",
        "Unloaded at the transshipment port to change vessels.",
        6,
    ),
    Milestone(
        f"{_T}transshipment_loaded",
        "Transshipment loaded",
        "Loaded onto the next vessel at the transshipment port.",
        7,
    ),
    Milestone(
        f"{_T}transshipment_departed",
        "Transshipment departed",
        "The next vessel left the transshipment port.",
        8,
    ),
    Milestone(
        "shipment.estimated.arrival",
        "Estimated arrival",
        "The carrier or terminal changed the estimated arrival at the port of discharge.",
        8,
    ),
    Milestone(
        f"{_T}vessel_arrived", "Vessel arrived", "The vessel reached the port of discharge.", 9
    ),
    Milestone(
        f"{_T}vessel_berthed",
        "Vessel berthed",
        "The vessel tied up at its berth at the port of discharge.",
        10,
    ),
    Milestone(
        f"{_T}vessel_discharged",
        "Vessel discharged",
        "Unloaded from the vessel at the port of discharge.",
        11,
    ),
    Milestone(
        "container.pod_terminal_changed",
        "Terminal changed",
        "The container's terminal at the port of discharge changed.",
        11,
    ),
    Milestone(
        f"{_T}available",
        "Available",
        "Released by the terminal: free of holds and ready to be picked up.",
        12,
    ),
    Milestone(
        "container.pickup_lfd.changed",
        "Last free day changed",
        "The terminal changed the last free day before demurrage is charged.",
        12,
    ),
    Milestone(
        "container.pickup_lfd_line.changed",
        "Line last free day changed",
        "The shipping line changed its last free day (line demurrage).",
        12,
    ),
    Milestone(
        f"{_T}full_out", "Full out", "The loaded container left the terminal (picked up).", 13
    ),
    Milestone(f"{_T}rail_loaded", "Rail loaded", "Loaded onto a train for the inland leg.", 13),
    Milestone(
        f"{_T}rail_departed", "Rail departed", "The train left for the inland destination.", 14
    ),
    Milestone(
        f"{_T}rail_arrived", "Rail arrived", "The train reached the inland rail terminal.", 15
    ),
    Milestone(
        f"{_T}rail_unloaded",
        "Rail unloaded",
        "Unloaded from the train at the inland rail terminal.",
        16,
    ),
    Milestone(
        f"{_T}estimated.arrived_at_inland_destination",
        "Estimated inland arrival",
        "An estimate of when the container reaches its inland destination.",
        16,
    ),
    Milestone(
        f"{_T}arrived_at_inland_destination",
        "Arrived inland",
        "The container reached its inland destination.",
        17,
    ),
    Milestone(
        f"{_T}empty_in",
        "Empty in",
        "The emptied container was returned to the depot: the journey is over.",
        18,
    ),
    Milestone(
        "tracking_request.succeeded",
        "Tracking started",
        "The carrier found the number; the shipment and its containers are tracked.",
        0,
    ),
    Milestone(
        "tracking_request.awaiting_manifest",
        "Awaiting manifest",
        "The carrier knows the number but has not published the shipment yet; retried later.",
        0,
    ),
    Milestone(
        "tracking_request.failed",
        "Tracking failed",
        "The number could not be tracked (see failed_reason).",
        0,
    ),
    Milestone(
        "tracking_request.tracking_stopped",
        "Tracking stopped",
        "Updates stopped: on request, or some weeks after the journey ended.",
        0,
    ),
    Milestone(
        "container.created", "Container added", "A container was added to a tracked shipment.", 0
    ),
    Milestone(
        "container.updated",
        "Container updated",
        "Terminal facts changed: availability, holds, fees, last free day or pickup appointment.",
        0,
    ),
    Milestone(
        "document.extracted",
        "Document read",
        "A shipping document was read and its data taken in.",
        0,
    ),
    Milestone(
        "document.extraction_failed",
        "Document unreadable",
        "A shipping document could not be read.",
        0,
    ),
)

_BY_NAME = {milestone.name: milestone for milestone in MILESTONES}


def label(event: str) -> str:
    """A short readable label for an event name (the name itself when it is not in the glossary)."""
    found = _BY_NAME.get(event)
    return found.label if found else event


def glossary_markdown() -> str:
    """The glossary as Markdown: journey milestones in their usual order, then the other events."""
    journey = sorted((m for m in MILESTONES if m.stage), key=lambda m: m.stage)
    others = [m for m in MILESTONES if not m.stage]
    lines = [
        "# Milestone glossary",
        "",
        "Event names of the tracking service, what each means, and the order in which they",
        "usually occur. Not every journey has every step: feeder, transshipment and rail",
        "events appear only when the container takes such a leg; steps with the same number",
        "can come in either order.",
        "",
        "## A container's journey, in the usual order",
        "",
        "| step | event | label | meaning |",
        "|---|---|---|---|",
    ]
    lines += [f"| {m.stage} | `{m.name}` | {m.label} | {m.meaning} |" for m in journey]
    lines += ["", "## Other events", "", "| event | label | meaning |", "|---|---|---|"]
    lines += [f"| `{m.name}` | {m.label} | {m.meaning} |" for m in others]
    lines += [
        "",
        "Container `current_status` follows the latest step: `new` before loading, `on_ship`",
        "from loading to arrival, `grounded` / `available` / `not_available` after discharge,",
        "`picked_up` after full out, `on_rail` inland, `delivered`, `empty_returned`.",
    ]
    return "\n".join(lines) + "\n"


def missing_names() -> list[str]:
    """Event names of the document without a glossary entry (none: a test keeps it so)."""
    return [name for name in EVENT_NAMES if name not in _BY_NAME]

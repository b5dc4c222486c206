"""The event table, shared by every layer: every event name of the interface document, written
once, with its label, meaning, stage in a container's journey and category.

Everything that names or explains an event reads this table: the event names a webhook may
subscribe to (:data:`EVENT_NAMES`), the API's event catalogue
(:data:`~sealane.tracking.catalog.CATEGORIES`), the MCP milestone glossary and the words of the
web pages. Rows come in the catalogue's order (grouped by category); ``stage`` gives the
journey's order.
"""

from __future__ import annotations

from typing import NamedTuple

#: The prefix of every transport event name.
TRANSPORT = "container.transport."


class EventTerm(NamedTuple):
    """One event: its ``name``, a short ``label`` (words for a page or a glossary), what it
    means, its ``stage`` in the usual journey (1 = first; steps with one number can come in
    either order; 0 = not a step of the journey), and the key of its ``category``."""

    name: str
    label: str
    meaning: str
    stage: int
    category: str


#: (key, name) of each category of events, in the catalogue's order.
CATEGORY_NAMES = (
    ("vessel", "Vessel"),
    ("rail", "Rail"),
    ("transshipment", "Transshipment"),
    ("feeder", "Feeder"),
    ("gate", "Gate and equipment"),
    ("inland", "Inland and availability"),
    ("estimates", "Estimates"),
    ("tracking_request", "Tracking request"),
    ("container", "Container"),
    ("documents", "Documents"),
)

#: Every event, once.
EVENTS = (
    EventTerm(
        TRANSPORT + "vessel_arrived",
        "Vessel arrived",
        "The vessel reached the port of discharge.",
        9,
        "vessel",
    ),
    EventTerm(
        TRANSPORT + "vessel_discharged",
        "Vessel discharged",
        "Unloaded from the vessel at the port of discharge.",
        11,
        "vessel",
    ),
    EventTerm(
        TRANSPORT + "vessel_loaded",
        "Vessel loaded",
        "Loaded onto the ocean vessel at the port of lading.",
        3,
        "vessel",
    ),
    EventTerm(
        TRANSPORT + "vessel_departed",
        "Vessel departed",
        "The vessel left the port of lading.",
        4,
        "vessel",
    ),
    EventTerm(
        TRANSPORT + "vessel_berthed",
        "Vessel berthed",
        "The vessel tied up at its berth at the port of discharge.",
        10,
        "vessel",
    ),
    EventTerm(
        TRANSPORT + "rail_departed",
        "Rail departed",
        "The train left for the inland destination.",
        14,
        "rail",
    ),
    EventTerm(
        TRANSPORT + "rail_arrived",
        "Rail arrived",
        "The train reached the inland rail terminal.",
        15,
        "rail",
    ),
    EventTerm(
        TRANSPORT + "rail_loaded",
        "Rail loaded",
        "Loaded onto a train for the inland leg.",
        13,
        "rail",
    ),
    EventTerm(
        TRANSPORT + "rail_unloaded",
        "Rail unloaded",
        "Unloaded from the train at the inland rail terminal.",
        16,
        "rail",
    ),
    EventTerm(
        TRANSPORT + "transshipment_arrived",
        "Transshipment arrived",
        "The vessel reached a transshipment port on the way.",
        5,
        "transshipment",
    ),
    EventTerm(
        TRANSPORT + "transshipment_discharged",
        "Transshipment discharged",
        "Unloaded at the transshipment port to change vessels.",
        6,
        "transshipment",
    ),
    EventTerm(
        TRANSPORT + "transshipment_loaded",
        "Transshipment loaded",
        "Loaded onto the next vessel at the transshipment port.",
        7,
        "transshipment",
    ),
    EventTerm(
        TRANSPORT + "transshipment_departed",
        "Transshipment departed",
        "The next vessel left the transshipment port.",
        8,
        "transshipment",
    ),
    EventTerm(
        TRANSPORT + "feeder_arrived",
        "Feeder arrived",
        "The feeder vessel reached the next port.",
        5,
        "feeder",
    ),
    EventTerm(
        TRANSPORT + "feeder_discharged",
        "Feeder discharged",
        "Unloaded from the feeder vessel.",
        5,
        "feeder",
    ),
    EventTerm(
        TRANSPORT + "feeder_loaded",
        "Feeder loaded",
        "Loaded onto a smaller feeder vessel for a short leg.",
        4,
        "feeder",
    ),
    EventTerm(
        TRANSPORT + "feeder_departed",
        "Feeder departed",
        "The feeder vessel left port.",
        4,
        "feeder",
    ),
    EventTerm(
        TRANSPORT + "empty_out",
        "Empty out",
        "The empty container left the depot to be packed.",
        1,
        "gate",
    ),
    EventTerm(
        TRANSPORT + "full_in",
        "Full in",
        "The packed container was gated in at the port of lading.",
        2,
        "gate",
    ),
    EventTerm(
        TRANSPORT + "full_out",
        "Full out",
        "The loaded container left the terminal (picked up).",
        13,
        "gate",
    ),
    EventTerm(
        TRANSPORT + "empty_in",
        "Empty in",
        "The emptied container was returned to the depot: the journey is over.",
        18,
        "gate",
    ),
    EventTerm(
        TRANSPORT + "arrived_at_inland_destination",
        "Arrived inland",
        "The container reached its inland destination.",
        17,
        "inland",
    ),
    EventTerm(
        TRANSPORT + "estimated.arrived_at_inland_destination",
        "Estimated inland arrival",
        "An estimate of when the container reaches its inland destination.",
        16,
        "inland",
    ),
    EventTerm(
        TRANSPORT + "available",
        "Available",
        "Released by the terminal: free of holds and ready to be picked up.",
        12,
        "inland",
    ),
    EventTerm(
        "shipment.estimated.arrival",
        "Estimated arrival",
        "The carrier or terminal changed the estimated arrival at the port of discharge.",
        8,
        "estimates",
    ),
    EventTerm(
        "tracking_request.succeeded",
        "Tracking started",
        "The carrier found the number; the shipment and its containers are tracked.",
        0,
        "tracking_request",
    ),
    EventTerm(
        "tracking_request.failed",
        "Tracking failed",
        "The number could not be tracked (see failed_reason).",
        0,
        "tracking_request",
    ),
    EventTerm(
        "tracking_request.awaiting_manifest",
        "Awaiting manifest",
        "The carrier knows the number but has not published the shipment yet; retried later.",
        0,
        "tracking_request",
    ),
    EventTerm(
        "tracking_request.tracking_stopped",
        "Tracking stopped",
        "Updates stopped: on request, or some weeks after the journey ended.",
        0,
        "tracking_request",
    ),
    EventTerm(
        "container.created",
        "Container added",
        "A container was added to a tracked shipment.",
        0,
        "container",
    ),
    EventTerm(
        "container.updated",
        "Container updated",
        "Terminal facts changed: availability, holds, fees, last free day or pickup appointment.",
        0,
        "container",
    ),
    EventTerm(
        "container.pod_terminal_changed",
        "Terminal changed",
        "The container's terminal at the port of discharge changed.",
        11,
        "container",
    ),
    EventTerm(
        "container.pickup_lfd.changed",
        "Last free day changed",
        "The terminal changed the last free day before demurrage is charged.",
        12,
        "container",
    ),
    EventTerm(
        "container.pickup_lfd_line.changed",
        "Line last free day changed",
        "The shipping line changed its last free day (line demurrage).",
        12,
        "container",
    ),
    EventTerm(
        "document.extracted",
        "Document read",
        "A shipping document was read and its data taken in.",
        0,
        "documents",
    ),
    EventTerm(
        "document.extraction_failed",
        "Document unreadable",
        "A shipping document could not be read.",
        0,
        "documents",
    ),
)

#: Every event name a webhook may subscribe to (the interface document's Events part).
EVENT_NAMES = tuple(term.name for term in EVENTS)

_BY_NAME = {term.name: term for term in EVENTS}


def event_label(name: str) -> str:
    """Words for an event: its label, or for a name outside the table the name in words.

    >>> event_label("container.transport.vessel_departed"), event_label("x.custom_thing")
    ('Vessel departed', 'X custom thing')
    """
    term = _BY_NAME.get(name)
    if term is not None:
        return term.label
    return name.removeprefix(TRANSPORT).replace("_", " ").replace(".", " ").capitalize()


def journey() -> list[EventTerm]:
    """The events that are steps of a journey, in their usual order (ties in table order)."""
    return sorted((term for term in EVENTS if term.stage), key=lambda term: term.stage)

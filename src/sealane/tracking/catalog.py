"""The event catalogue: every webhook event, grouped by category, with what it means.

A view of the event table (:mod:`~sealane.vocabulary.events`); groups follow the interface
document's Events part.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..vocabulary.events import CATEGORY_NAMES, EVENTS, TRANSPORT


@dataclass(frozen=True, slots=True)
class EventCategory:
    """A group of events: a stable ``key``, a human ``name``, and (event, description) pairs."""

    key: str
    name: str
    events: tuple[tuple[str, str], ...]


#: The catalogue: each category of the event table with its events and what each means.
CATEGORIES = tuple(
    EventCategory(key, name, tuple((t.name, t.meaning) for t in EVENTS if t.category == key))
    for key, name in CATEGORY_NAMES
)


def reference_type(event: str) -> str:
    """The type of the object a notification of ``event`` refers to.

    >>> reference_type("container.transport.vessel_loaded"), reference_type("container.created")
    ('transport_event', 'container_updated_event')
    """
    if event.startswith("tracking_request."):
        return "tracking_request"
    if event.startswith(TRANSPORT) or event.startswith("container.pickup_lfd"):
        return "transport_event"
    if event in ("container.created", "container.updated", "container.pod_terminal_changed"):
        return "container_updated_event"
    return "estimated_event"  # shipment.estimated.arrival and the document events

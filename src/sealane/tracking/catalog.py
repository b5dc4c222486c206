"""The event catalogue: every webhook event, grouped by category, with what it means.

Groups follow the interface document's Events part; ``tests/tracking/test_catalog.py`` checks
that the catalogue lists exactly the names of :data:`~sealane.tracking.events.EVENT_NAMES`.
"""

from __future__ import annotations

from dataclasses import dataclass

T = "container.transport."


@dataclass(frozen=True, slots=True)
class EventCategory:
    """A group of events: a stable ``key``, a human ``name``, and (event, description) pairs."""

    key: str
    name: str
    events: tuple[tuple[str, str], ...]


CATEGORIES = (
    EventCategory(
        "vessel",
        "Vessel",
        (
            (T + "vessel_arrived", "The vessel carrying the container arrived at the port."),
            (T + "vessel_discharged", "The container was discharged from the vessel."),
            (T + "vessel_loaded", "The container was loaded onto the vessel."),
            (T + "vessel_departed", "The vessel carrying the container left the port."),
            (T + "vessel_berthed", "The vessel carrying the container berthed at the terminal."),
        ),
    ),
    EventCategory(
        "rail",
        "Rail",
        (
            (T + "rail_departed", "The train carrying the container departed."),
            (T + "rail_arrived", "The train carrying the container arrived."),
            (T + "rail_loaded", "The container was loaded onto a train."),
            (T + "rail_unloaded", "The container was unloaded from a train."),
        ),
    ),
    EventCategory(
        "transshipment",
        "Transshipment",
        (
            (T + "transshipment_arrived", "The container arrived at a transshipment port."),
            (T + "transshipment_discharged", "The container was discharged for transshipment."),
            (T + "transshipment_loaded", "The container was loaded onto its next vessel."),
            (T + "transshipment_departed", "The next vessel left the transshipment port."),
        ),
    ),
    EventCategory(
        "feeder",
        "Feeder",
        (
            (T + "feeder_arrived", "The feeder vessel carrying the container arrived."),
            (T + "feeder_discharged", "The container was discharged from a feeder vessel."),
            (T + "feeder_loaded", "The container was loaded onto a feeder vessel."),
            (T + "feeder_departed", "The feeder vessel carrying the container departed."),
        ),
    ),
    EventCategory(
        "gate",
        "Gate and equipment",
        (
            (T + "empty_out", "The empty container left the depot for loading."),
            (T + "full_in", "The loaded container was gated in at the port of lading."),
            (T + "full_out", "The loaded container was picked up at the port of discharge."),
            (T + "empty_in", "The empty container was returned."),
        ),
    ),
    EventCategory(
        "inland",
        "Inland and availability",
        (
            (T + "arrived_at_inland_destination", "The container reached its inland destination."),
            (
                T + "estimated.arrived_at_inland_destination",
                "The estimated arrival at the inland destination changed.",
            ),
            (T + "available", "The container became available for pickup at the terminal."),
        ),
    ),
    EventCategory(
        "estimates",
        "Estimates",
        (("shipment.estimated.arrival", "The estimated arrival at the port of discharge moved."),),
    ),
    EventCategory(
        "tracking_request",
        "Tracking request",
        (
            ("tracking_request.succeeded", "The carrier found the shipment; tracking started."),
            (
                "tracking_request.failed",
                "The tracking request failed for good (see failed_reason).",
            ),
            (
                "tracking_request.awaiting_manifest",
                "The carrier knows the number but has not published its manifest yet.",
            ),
            ("tracking_request.tracking_stopped", "The shipment is no longer followed."),
        ),
    ),
    EventCategory(
        "container",
        "Container",
        (
            ("container.created", "A container was added to a tracked shipment."),
            ("container.updated", "Terminal facts of a container changed (see the changeset)."),
            ("container.pod_terminal_changed", "The terminal at the port of discharge changed."),
            ("container.pickup_lfd.changed", "The last free day for pickup changed."),
            (
                "container.pickup_lfd_line.changed",
                "The last free day given by the shipping line changed.",
            ),
        ),
    ),
    EventCategory(
        "documents",
        "Documents",
        (
            ("document.extracted", "Data was extracted from an uploaded document."),
            ("document.extraction_failed", "Data could not be extracted from a document."),
        ),
    ),
)


def reference_type(event: str) -> str:
    """The type of the object a notification of ``event`` refers to.

    >>> reference_type("container.transport.vessel_loaded"), reference_type("container.created")
    ('transport_event', 'container_updated_event')
    """
    if event.startswith("tracking_request."):
        return "tracking_request"
    if event.startswith("container.transport.") or event.startswith("container.pickup_lfd"):
        return "transport_event"
    if event in ("container.created", "container.updated", "container.pod_terminal_changed"):
        return "container_updated_event"
    return "estimated_event"  # shipment.estimated.arrival and the document events

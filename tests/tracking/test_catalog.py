"""The event catalogue lists exactly the subscribable events, once each, and the reference type
of each event is the one its notifications carry."""

from __future__ import annotations

import pytest

from sealane.tracking.catalog import CATEGORIES, reference_type
from sealane.vocabulary.events import EVENT_NAMES

DOCUMENTED_TYPES = {
    "tracking_request",
    "estimated_event",
    "transport_event",
    "container_updated_event",
}


def test_catalog__every_event_once() -> None:
    names = [name for category in CATEGORIES for name, _ in category.events]
    assert sorted(names) == sorted(EVENT_NAMES)
    assert len(set(names)) == len(names)


def test_catalog__keys_unique_descriptions_given() -> None:
    assert len({c.key for c in CATEGORIES}) == len(CATEGORIES)
    assert all(text.endswith(".") for c in CATEGORIES for _, text in c.events)


@pytest.mark.parametrize("event", EVENT_NAMES)
def test_reference_type__documented(event: str) -> None:
    assert reference_type(event) in DOCUMENTED_TYPES


@pytest.mark.parametrize(
    ("event", "kind"),
    [
        ("tracking_request.failed", "tracking_request"),
        ("container.transport.vessel_arrived", "transport_event"),
        ("container.pickup_lfd.changed", "transport_event"),
        ("shipment.estimated.arrival", "estimated_event"),
        ("container.updated", "container_updated_event"),
        ("container.created", "container_updated_event"),
        ("document.extracted", "estimated_event"),
    ],
)
def test_reference_type__per_event(event: str, kind: str) -> None:
    assert reference_type(event) == kind

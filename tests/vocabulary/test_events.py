"""The event table: every event once, complete, and the one source of the names, the catalogue
and the journey order."""

from __future__ import annotations

from sealane.tracking.catalog import CATEGORIES
from sealane.vocabulary import events as vocabulary
from sealane.vocabulary.events import CATEGORY_NAMES, EVENT_NAMES, EVENTS, TRANSPORT, event_label

#: Every event name of the interface document's Events part, written out here on purpose.
DOCUMENTED = {
    *(
        TRANSPORT + short
        for short in [
            "vessel_arrived",
            "vessel_discharged",
            "vessel_loaded",
            "vessel_departed",
            "vessel_berthed",
            "rail_departed",
            "rail_arrived",
            "rail_loaded",
            "rail_unloaded",
            "transshipment_arrived",
            "transshipment_discharged",
            "transshipment_loaded",
            "transshipment_departed",
            "feeder_arrived",
            "feeder_discharged",
            "feeder_loaded",
            "feeder_departed",
            "empty_out",
            "full_in",
            "full_out",
            "empty_in",
            "arrived_at_inland_destination",
            "estimated.arrived_at_inland_destination",
            "available",
        ]
    ),
    "shipment.estimated.arrival",
    "tracking_request.succeeded",
    "tracking_request.failed",
    "tracking_request.awaiting_manifest",
    "tracking_request.tracking_stopped",
    "container.created",
    "container.updated",
    "container.pod_terminal_changed",
    "container.pickup_lfd.changed",
    "container.pickup_lfd_line.changed",
    "document.extracted",
    "document.extraction_failed",
}


def test_events__every_documented_name_exactly_one_row() -> None:
    names = [term.name for term in EVENTS]
    assert len(names) == len(set(names))
    assert set(names) == DOCUMENTED


def test_events__every_row_complete() -> None:
    keys = {key for key, _ in CATEGORY_NAMES}
    for term in EVENTS:
        assert term.label and term.label[0].isupper(), term
        assert term.meaning.endswith("."), term
        assert term.stage >= 0, term
        assert term.category in keys, term
    assert all(any(t.category == key for t in EVENTS) for key in keys)


def test_event_names__read_the_table() -> None:
    assert tuple(term.name for term in EVENTS) == EVENT_NAMES


def test_catalog__reads_the_table() -> None:
    assert [(c.key, c.name) for c in CATEGORIES] == list(CATEGORY_NAMES)
    listed = {name: (c.key, text) for c in CATEGORIES for name, text in c.events}
    assert listed == {t.name: (t.category, t.meaning) for t in EVENTS}


def test_journey__steps_in_stage_order() -> None:
    stages = [term.stage for term in vocabulary.journey()]
    assert stages == sorted(stages) and 0 not in stages
    assert {t.name for t in vocabulary.journey()} == {t.name for t in EVENTS if t.stage}


def test_event_label__the_table_or_the_name_in_words() -> None:
    assert event_label(TRANSPORT + "vessel_loaded") == "Vessel loaded"
    assert event_label("shipment.estimated.arrival") == "Estimated arrival"
    assert event_label(TRANSPORT + "positioned_in") == "Positioned in"

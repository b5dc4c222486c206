"""The page's words: events in the event table's labels, times in UTC and a port's zone, ports
by name."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from sealane.vocabulary.events import EVENTS
from sealane.web.present import event_label, port_name, when


def test_event_label__the_tables_label() -> None:
    assert all(event_label(term.name) == term.label for term in EVENTS)


def test_when__utc_for_the_attribute_local_for_the_text() -> None:
    moment = datetime(2026, 11, 21, 14, 0, 30, tzinfo=timezone(timedelta(hours=1)))
    shown = when(moment, "Europe/Amsterdam")
    assert shown is not None
    assert shown.iso == "2026-11-21T13:00:30Z"
    assert shown.text == "2026-11-21 14:00 CET"
    naive = when(datetime(2026, 11, 21, 13, 0))
    assert naive is not None and naive.iso == "2026-11-21T13:00:00Z"
    assert when(None) is None
    assert when(datetime(2026, 1, 1, tzinfo=UTC), "Not/AZone") is not None


def test_port_name__known_and_unknown() -> None:
    assert port_name("NLRTM") == "Rotterdam (NLRTM)"
    assert port_name("XXXXX") == "XXXXX"

"""The event vocabulary as the shells reach it: the tracking domain's event table (each event's
name, label, meaning, journey stage and category), re-exported so that the API, the MCP server
and the web pages read the one table without importing the domain."""

from __future__ import annotations

from ...tracking.events import EVENT_NAMES
from ...tracking.vocabulary import (
    CATEGORY_NAMES,
    EVENTS,
    TRANSPORT,
    EventTerm,
    event_label,
    event_term,
    journey,
)

__all__ = [
    "CATEGORY_NAMES",
    "EVENTS",
    "EVENT_NAMES",
    "TRANSPORT",
    "EventTerm",
    "event_label",
    "event_term",
    "journey",
]

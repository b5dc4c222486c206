"""The event vocabulary as the shells reach it: the tracking domain's event table (each event's
name, label, meaning and journey stage), re-exported so that the API, the MCP server and the web
pages read the one table without importing the domain."""

from __future__ import annotations

from ...tracking.events import EVENT_NAMES
from ...tracking.vocabulary import EVENTS, event_label, journey

__all__ = ["EVENTS", "EVENT_NAMES", "event_label", "journey"]

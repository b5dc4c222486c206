"""How values read on a page: times in a port's own time zone, event and status names in words."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..routing.errors import UnknownPortError
from ..routing.ports import get_port
from ..tracking.events import TRANSPORT

#: Words for the transport events (the part after ``container.transport.``).
EVENT_WORDS = {
    "empty_out": "Empty container picked up",
    "full_in": "Full container in at the terminal",
    "vessel_loaded": "Loaded on the vessel",
    "vessel_departed": "Vessel departed",
    "transshipment_arrived": "Arrived at transshipment port",
    "transshipment_discharged": "Discharged at transshipment port",
    "transshipment_loaded": "Loaded at transshipment port",
    "transshipment_departed": "Departed transshipment port",
    "feeder_arrived": "Feeder arrived",
    "feeder_discharged": "Discharged from feeder",
    "feeder_loaded": "Loaded on feeder",
    "feeder_departed": "Feeder departed",
    "vessel_arrived": "Vessel arrived",
    "vessel_berthed": "Vessel berthed",
    "vessel_discharged": "Discharged from the vessel",
    "available": "Available for pickup",
    "full_out": "Picked up (full out)",
    "empty_in": "Empty container returned",
    "rail_loaded": "Loaded on rail",
    "rail_departed": "Rail departed",
    "rail_arrived": "Rail arrived",
    "rail_unloaded": "Unloaded from rail",
    "arrived_at_inland_destination": "Arrived at inland destination",
}


@dataclass(frozen=True, slots=True)
class When:
    """A moment for a page: ``iso`` (UTC, for ``<time datetime>``) and ``text`` in a zone."""

    iso: str
    text: str


@lru_cache(maxsize=512)
def _zone(name: str | None) -> ZoneInfo | None:
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def when(moment: datetime | None, zone: str | None = None) -> When | None:
    """``moment`` as ``2026-11-21 14:00 CET`` in the IANA ``zone`` (UTC when unknown)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone(_zone(zone) or UTC)
    name = local.tzname() or "UTC"
    if name[:1] in "+-":  # zones without an abbreviation
        name = "UTC" + name
    iso = moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return When(iso=iso, text=f"{local:%Y-%m-%d %H:%M} {name}")


def event_label(event: str) -> str:
    """Words for an event name: ``container.transport.vessel_departed`` -> Vessel departed."""
    short = event.removeprefix(TRANSPORT)
    return EVENT_WORDS.get(short) or short.replace("_", " ").replace(".", " ").capitalize()


def status_label(status: str | None) -> str:
    """Words for a status value: ``on_ship`` -> On ship."""
    return (status or "unknown").replace("_", " ").capitalize()


def port_name(locode: str) -> str:
    """``Tanjung Pelepas (MYTPP)`` for a LOCODE (the code alone when it is not a known port)."""
    try:
        return f"{get_port(locode).name} ({locode})"
    except UnknownPortError:
        return locode

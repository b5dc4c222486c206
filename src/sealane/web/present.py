"""How values read on a page: times in a port's own time zone, event and status names in words
(events in the words of the application layer's event table)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..clock import utc_iso
from ..service.reference.ports import known_port
from ..vocabulary.events import event_label as event_label


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
    return When(iso=utc_iso(moment), text=f"{local:%Y-%m-%d %H:%M} {name}")


def status_label(status: str | None) -> str:
    """Words for a status value: ``on_ship`` -> On ship."""
    return (status or "unknown").replace("_", " ").capitalize()


def port_name(locode: str) -> str:
    """``Tanjung Pelepas (MYTPP)`` for a LOCODE (the code alone when it is not a known port)."""
    port = known_port(locode)
    return f"{port.name} ({locode})" if port is not None else locode

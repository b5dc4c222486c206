"""A vessel as every layer passes it: read by the store in one query, returned by the
application layer, rendered by the shells. Defined below all of them so none re-exports it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class VesselRecord:
    """A vessel's identity and latest known position, as read in one query."""

    id: str
    name: str
    imo: str | None
    mmsi: str | None
    latitude: float | None
    longitude: float | None
    nautical_speed_knots: float | None
    navigational_heading_degrees: float | None
    position_timestamp: datetime | None
    #: What the vessel reported of itself (AIS static data, the position feed): call sign, AIS
    #: ship type code, length, beam and draught in metres, who reported the dimensions
    #: (``ais`` or ``position_feed``) and when, its destination and ETA, and when the latest
    #: static report came. None where nothing usable was reported.
    call_sign: str | None = None
    ship_type: int | None = None
    length_m: float | None = None
    beam_m: float | None = None
    draught_m: float | None = None
    dimensions_source: str | None = None
    dimensions_updated_at: datetime | None = None
    reported_destination: str | None = None
    reported_eta: datetime | None = None
    static_updated_at: datetime | None = None

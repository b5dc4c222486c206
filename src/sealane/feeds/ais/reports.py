"""Typed AIS reports and the reasons a sentence or a value is dropped.

Times are UNIX seconds (float, UTC) inside the ingest path, where building datetimes per message
would cost more than the rest of the validation; they become datetimes when stored.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class PositionReport(NamedTuple):
    """A vessel's position at ``time_s``: (``lon``, ``lat``) in degrees WGS84, units in names."""

    mmsi: int
    time_s: float
    lon: float
    lat: float
    speed_kn: float | None = None
    course_deg: float | None = None
    heading_deg: float | None = None
    #: AIS navigational status (0 under way using engine, 1 at anchor, 5 moored, ...).
    status: int | None = None


class StaticReport(NamedTuple):
    """A vessel's identity as it broadcasts it (types 5, 19 and 24)."""

    mmsi: int
    time_s: float
    imo: str | None = None
    name: str | None = None
    callsign: str | None = None
    destination: str | None = None


class Drop(StrEnum):
    """Why a sentence, a message or a position was not used (each is counted)."""

    BAD_CHECKSUM = "bad_checksum"
    MALFORMED = "malformed"
    TRUNCATED = "truncated"
    FRAGMENT_MISSING = "fragment_missing"
    BAD_MMSI = "bad_mmsi"
    POSITION_UNAVAILABLE = "position_unavailable"
    POSITION_OUT_OF_RANGE = "position_out_of_range"
    IMPLAUSIBLE_JUMP = "implausible_jump"
    STALE = "stale"
    UNKNOWN_VESSEL = "unknown_vessel"
    #: A JSON message (AISStream) of a type not in the feed's documented list.
    UNKNOWN_TYPE = "unknown_type"
    #: An ``{"error": ...}`` message from a JSON feed (AISStream), which then closes.
    SERVER_ERROR = "server_error"


class Blank(StrEnum):
    """A field that was 'not available' or out of range: the value is dropped, the report kept."""

    SPEED = "speed_unavailable"
    COURSE = "course_unavailable"
    HEADING = "heading_unavailable"

"""Typed AIS reports and the reasons a sentence or a value is dropped.

Times are UNIX seconds (float, UTC) inside the ingest path, where building datetimes per message
would cost more than the rest of the validation; they become datetimes when stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
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
    """A vessel's identity, type and size as it broadcasts them (types 5, 19 and 24).

    A field is None when the message carries no such field (a type 24 part A has only the name).
    Numbers are kept as broadcast, AIS "not available" codes included (0 for a dimension, the
    draught or the ship type; 511 and 63 mean "that or more" for bow/stern and port/starboard,
    25.5 m of draught "25.5 m or more"): :mod:`.statics` reads them when it stores the report, so
    every source (NMEA, AISStream) is read by the same rules. Text is trimmed, None when blank.
    """

    mmsi: int
    time_s: float
    imo: str | None = None
    name: str | None = None
    callsign: str | None = None
    destination: str | None = None
    #: AIS ship and cargo type code (70-79 cargo, 80-89 tanker, ...; 0 not available).
    ship_type: int | None = None
    #: Metres from the position reference point to the bow, stern, port and starboard sides.
    to_bow_m: int | None = None
    to_stern_m: int | None = None
    to_port_m: int | None = None
    to_starboard_m: int | None = None
    #: Maximum present static draught in metres (type 5 only; 0 not available).
    draught_m: float | None = None
    #: Estimated time of arrival at ``destination``, UNIX seconds UTC (see :func:`eta_time_s`).
    eta_s: float | None = None


def eta_time_s(month: int, day: int, hour: int, minute: int, time_s: float) -> float | None:
    """The UNIX time (UTC) of an AIS ETA, which has no year, reported at ``time_s``.

    The year chosen puts the ETA nearest to the report (a December report's January ETA is next
    year's, a stale ETA a few weeks old stays in the past). None when any part is "not
    available" (month or day 0, hour 24, minute 60) or the date does not exist (30 February).
    """
    if not (1 <= month <= 12 and 1 <= day <= 31 and 0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    year = datetime.fromtimestamp(time_s, UTC).year
    best: float | None = None
    for candidate in (year - 1, year, year + 1):
        try:
            eta = datetime(candidate, month, day, hour, minute, tzinfo=UTC).timestamp()
        except ValueError:  # 29 February outside a leap year, 31 April, ...
            continue
        if best is None or abs(eta - time_s) < abs(best - time_s):
            best = eta
    return best


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
    #: A batch of a live feed (AISStream) whose commit kept failing, dropped so the feed goes on.
    WRITE_FAILED = "write_failed"


class Blank(StrEnum):
    """A field that was 'not available' or out of range: the value is dropped, the report kept."""

    SPEED = "speed_unavailable"
    COURSE = "course_unavailable"
    HEADING = "heading_unavailable"

"""AISStream's JSON messages to the typed reports the NMEA decoder makes, checked by its rules.

A message is ``{"MessageType": T, "MetaData": {..., "time_utc": ...}, "Message": {T: {...}}}``
(field names as AISStream's published OpenAPI models, ``aisstream/ais-message-models``
``type-definition.yaml``, name them). Positions (``PositionReport``: types 1-3;
``StandardClassBPositionReport``: 18; ``ExtendedClassBPositionReport``: 19) are handed to the
NMEA decoder's own position check, so "not available" values (Sog 102.3, Cog 360, TrueHeading
511, Latitude 91, Longitude 181), out-of-range positions and bad MMSIs are blanked or dropped
exactly as for NMEA; ``Timestamp`` (the report's UTC second) refines the time as there. Static
data (``ShipStaticData``: type 5; ``StaticDataReport``: type 24 parts A and B; the static half
of type 19) becomes a :class:`~.reports.StaticReport` with the same IMO and text rules.

Nothing here raises: invalid JSON, JSON nested deeper than :data:`MAX_DEPTH`, a missing field or
one of the wrong type, or a value out of range for its arithmetic is ``malformed``;
a ``MessageType`` outside AISStream's documented list is ``unknown_type``; one of the listed
types sealane does not use (base stations, aids to navigation, ...) is counted as ignored.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from .decoding import Decoded, ais_text, position_of, valid_imo
from .positionbits import PositionFields
from .reports import Drop, StaticReport, eta_time_s

#: The message types sealane reads, which a subscription asks for (``FilterMessageTypes``).
USED_TYPES = (
    "PositionReport",
    "StandardClassBPositionReport",
    "ExtendedClassBPositionReport",
    "ShipStaticData",
    "StaticDataReport",
)
#: AISStream's other documented types: received only without a type filter, then ignored.
OTHER_TYPES = frozenset(
    {
        "UnknownMessage",
        "AddressedSafetyMessage",
        "AddressedBinaryMessage",
        "AidsToNavigationReport",
        "AssignedModeCommand",
        "BaseStationReport",
        "BinaryAcknowledge",
        "BinaryBroadcastMessage",
        "ChannelManagement",
        "CoordinatedUTCInquiry",
        "DataLinkManagementMessage",
        "DataLinkManagementMessageData",
        "GroupAssignmentCommand",
        "GnssBroadcastBinaryMessage",
        "Interrogation",
        "LongRangeAisBroadcastMessage",
        "MultiSlotBinaryMessage",
        "SafetyBroadcastMessage",
        "SingleSlotBinaryMessage",
        "StandardSearchAndRescueAircraftReport",
    }
)
#: Seconds a message's own time may be ahead of its receipt (AISStream stamps it when it hears it).
MAX_AHEAD_S = 300.0
#: The earliest year a message's own time is read in (AIS carried no such feed before; an older
#: time, or one past 9999, is unreadable and the time of receipt stands for it).
MIN_YEAR = 2000
#: How deeply arrays and objects may nest in a message (AISStream's nest four levels): deeper
#: is malformed, before anything recurses into it.
MAX_DEPTH = 16
#: The most of a server error's text kept for the log.
MAX_ERROR_CHARS = 300
#: The AIS message type each position message is read as (class A's comes from MessageID).
_POSITION_KIND = {"StandardClassBPositionReport": 18, "ExtendedClassBPositionReport": 19}

#: AISStream's ``time_utc``, Go's time format: ``2022-12-29 18:22:32.318353 +0000 UTC``, with
#: up to nine decimals and sometimes a monotonic-clock suffix (`` m=+293.99``) after the zone.
_TIME_UTC = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))? ([+-])(\d\d)(\d\d)(?:\s|$)"
)


class _Malformed(Exception):
    """A field missing or of the wrong type (caught and counted, never seen outside)."""


def decode_messages(messages: Sequence[tuple[str | bytes, float]]) -> Decoded:
    """Decode ``(text, received_at_s)`` pairs; ``received_at_s`` (UNIX seconds, UTC) times a
    message whose ``MetaData.time_utc`` is missing or unreadable."""
    out = Decoded(sentences=len(messages))
    for text, received_s in messages:
        document = parse_message(text)
        if document is None:
            out.drops[Drop.MALFORMED] += 1
            continue
        try:
            _message(document, received_s, out)
        except (_Malformed, ValueError, TypeError, ArithmeticError):
            out.drops[Drop.MALFORMED] += 1
    return out


def parse_message(text: str | bytes) -> Any:
    """The JSON document of a message, or None when it is not JSON (or holds NaN or infinity)
    or nests deeper than :data:`MAX_DEPTH` (checked without recursion, so no nesting can
    exhaust the stack later)."""
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):  # JSONDecodeError is a ValueError
        return None
    return document if _nesting(document) <= MAX_DEPTH else None


def _nesting(value: Any) -> int:
    """How deeply arrays and objects nest in ``value``, counted up to one past
    :data:`MAX_DEPTH` (iteratively, visiting containers only)."""
    if not isinstance(value, dict | list):
        return 0
    deepest = 0
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if level > MAX_DEPTH:
            return level
        deepest = max(deepest, level)
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, dict | list):
                stack.append((child, level + 1))
    return deepest


def server_error(document: Any) -> str | None:
    """The text of an ``{"error": "..."}`` message (AISStream closes the socket after it), at
    most :data:`MAX_ERROR_CHARS` of it."""
    if isinstance(document, dict) and "error" in document and "MessageType" not in document:
        error = document["error"]
        text = error if isinstance(error, str) else json.dumps(error)
        return text[:MAX_ERROR_CHARS]
    return None


def _message(document: Any, received_s: float, out: Decoded) -> None:
    if server_error(document) is not None:
        out.drops[Drop.SERVER_ERROR] += 1
        return
    kind_name = _str(document, "MessageType")
    if kind_name in OTHER_TYPES:
        out.ignored += 1
        return
    if kind_name not in USED_TYPES:
        out.drops[Drop.UNKNOWN_TYPE] += 1
        return
    body = _object(_object(document, "Message"), kind_name)
    if body.get("Valid", True) is False:  # AISStream's decoder found the message invalid
        out.drops[Drop.MALFORMED] += 1
        return
    time_s = _time(document.get("MetaData"), received_s)
    if kind_name == "ShipStaticData":
        _statics(out, _ship_static(body, time_s))
    elif kind_name == "StaticDataReport":
        _statics(out, _static_report(body, time_s))
    else:
        kind = _POSITION_KIND.get(kind_name) or _int(body, "MessageID", 1, 3)
        fields = _position_fields(body, kind)
        if kind == 19 and 100_000_000 <= fields.mmsi <= 999_999_999:  # else counted once below
            out.statics.append(_extended_static(body, time_s))
        report = position_of(fields, kind, time_s, out)
        if report is not None:
            out.positions.append(report)


def _position_fields(body: Mapping[str, Any], kind: int) -> PositionFields:
    """The fields the NMEA decoder's position check reads, named and scaled as it expects."""
    return PositionFields(
        mmsi=_int(body, "UserID"),
        status=_int(body, "NavigationalStatus", 0, 15) if kind < 18 else 15,
        speed=_number(body, "Sog"),
        lon=_number(body, "Longitude"),
        lat=_number(body, "Latitude"),
        course=_number(body, "Cog"),
        heading=_int(body, "TrueHeading", 0, 511),
        second=_int(body, "Timestamp", 0, 63),
    )


def _statics(out: Decoded, report: StaticReport) -> None:
    if 100_000_000 <= report.mmsi <= 999_999_999:
        out.statics.append(report)
    else:
        out.drops[Drop.BAD_MMSI] += 1


def _sized(report: StaticReport, body: Mapping[str, Any]) -> StaticReport:
    """``report`` with A, B, C, D of ``body``'s ``Dimension``: metres from the position
    reference point to the bow, stern, port and starboard."""
    size = _object(body, "Dimension")
    return report._replace(
        to_bow_m=_int(size, "A", 0, 511),
        to_stern_m=_int(size, "B", 0, 511),
        to_port_m=_int(size, "C", 0, 63),
        to_starboard_m=_int(size, "D", 0, 63),
    )


def _ship_static(body: Mapping[str, Any], time_s: float) -> StaticReport:
    """``ShipStaticData`` (type 5): identity, type, size, draught, destination and ETA."""
    eta = _object(body, "Eta")
    month, day, hour, minute = (
        _int(eta, part, 0, 63) for part in ("Month", "Day", "Hour", "Minute")
    )
    draught_m = _number(body, "MaximumStaticDraught")
    if not 0.0 <= draught_m <= 25.5:
        raise _Malformed("MaximumStaticDraught")
    report = StaticReport(
        _int(body, "UserID"),
        time_s,
        imo=valid_imo(_int(body, "ImoNumber")),
        name=ais_text(_str(body, "Name")),
        callsign=ais_text(_str(body, "CallSign")),
        destination=ais_text(_str(body, "Destination")),
        ship_type=_int(body, "Type", 0, 255),
        draught_m=draught_m,
        eta_s=eta_time_s(month, day, hour, minute, time_s),
    )
    return _sized(report, body)


def _static_report(body: Mapping[str, Any], time_s: float) -> StaticReport:
    """``StaticDataReport`` (type 24): part A (``PartNumber`` false) names the vessel, part B
    gives its type, call sign and dimensions."""
    mmsi = _int(body, "UserID")
    if not _bool(body, "PartNumber"):
        part_a = _object(body, "ReportA")
        return StaticReport(mmsi, time_s, name=ais_text(_str(part_a, "Name")))
    part_b = _object(body, "ReportB")
    report = StaticReport(
        mmsi,
        time_s,
        callsign=ais_text(_str(part_b, "CallSign")),
        ship_type=_int(part_b, "ShipType", 0, 255),
    )
    return _sized(report, part_b)


def _extended_static(body: Mapping[str, Any], time_s: float) -> StaticReport:
    """The static half of an ``ExtendedClassBPositionReport`` (type 19)."""
    report = StaticReport(
        _int(body, "UserID"),
        time_s,
        name=ais_text(_str(body, "Name")),
        ship_type=_int(body, "Type", 0, 255),
    )
    return _sized(report, body)


def _no_constant(name: str) -> float:
    """NaN and Infinity are not JSON (Python's parser would take them)."""
    raise ValueError(f"not JSON: {name}")


def _get(container: Any, name: str) -> Any:
    if not isinstance(container, dict) or name not in container:
        raise _Malformed(name)
    return container[name]


def _object(container: Any, name: str) -> dict[str, Any]:
    value = _get(container, name)
    if not isinstance(value, dict):
        raise _Malformed(name)
    return value


def _str(container: Any, name: str) -> str:
    value = _get(container, name)
    if not isinstance(value, str):
        raise _Malformed(name)
    return value


def _bool(container: Any, name: str) -> bool:
    value = _get(container, name)
    if not isinstance(value, bool):
        raise _Malformed(name)
    return value


def _int(container: Any, name: str, low: int = 0, high: int | None = None) -> int:
    """An integer field (a bool is none) in ``[low, high]``."""
    value = _get(container, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Malformed(name)
    if value < low or (high is not None and value > high):
        raise _Malformed(name)
    return value


def _number(container: Any, name: str) -> float:
    """A number field (an integer too, a bool not) as a float."""
    value = _get(container, name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Malformed(name)
    number = float(value)
    if not math.isfinite(number):  # 1e999 parses as infinity
        raise _Malformed(name)
    return number


def _time(metadata: Any, received_s: float) -> float:
    """``MetaData.time_utc`` in UNIX seconds; the time the message was received when it has
    none, an unreadable one (before :data:`MIN_YEAR` among them), or one more than
    :data:`MAX_AHEAD_S` later (a clock gone wrong
    would otherwise leave the vessel a future point that makes every true report stale)."""
    text = metadata.get("time_utc") if isinstance(metadata, dict) else None
    found = _TIME_UTC.match(text) if isinstance(text, str) else None
    if found is None:
        return received_s
    year, month, day, hour, minute, second = (int(found.group(k)) for k in range(1, 7))
    if year < MIN_YEAR:  # checked before any arithmetic: an offset must not leave year 1
        return received_s
    try:
        moment = datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp()
    except ValueError:
        return received_s
    fraction = found.group(7)
    if fraction:
        moment += int(fraction) / 10 ** len(fraction)
    offset_s = int(found.group(9)) * 3600 + int(found.group(10)) * 60
    moment += -offset_s if found.group(8) == "+" else offset_s
    return received_s if moment > received_s + MAX_AHEAD_S else moment

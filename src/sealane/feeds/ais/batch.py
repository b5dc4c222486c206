"""A JSON batch of positions (``POST /v2/vessel_positions``) validated into typed reports.

The body is ``{"data": [{"mmsi": ..., "latitude": ..., "longitude": ..., "timestamp": ...,
"speed_knots"?, "course_degrees"?, "heading_degrees"?, "navigational_status"?, "imo"?}, ...]}``.
Unlike a radio feed, a client can correct its request, so a bad value is an error naming its
JSON pointer (``/data/3/latitude``), and nothing of a batch with errors is stored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .decoding import valid_imo
from .reports import PositionReport, StaticReport

MAX_POSITIONS = 10_000
#: Timestamps may run ahead of the server's clock by this much (receiver clocks drift).
FUTURE_SLACK = timedelta(minutes=5)
MAX_ERRORS = 100


@dataclass(frozen=True, slots=True)
class FieldError:
    """One invalid field: its JSON pointer, a sentence saying what is wrong, a stable code."""

    pointer: str
    detail: str
    code: str = "invalid"


class BatchInvalid(ValueError):
    """The batch has errors; ``errors`` lists them (at most ``MAX_ERRORS``)."""

    def __init__(self, errors: list[FieldError]) -> None:
        super().__init__(f"{len(errors)} invalid field(s), first: {errors[0].pointer}")
        self.errors = errors


@dataclass(frozen=True, slots=True)
class PositionBatch:
    """The validated batch: positions, and static reports for items that gave an IMO number."""

    positions: list[PositionReport]
    statics: list[StaticReport]


def parse_batch(document: Any, now: datetime) -> PositionBatch:
    """Validate a decoded JSON body; :class:`BatchInvalid` with every error found."""
    if not isinstance(document, dict) or not isinstance(document.get("data"), list):
        raise BatchInvalid([FieldError("/data", "must be an array of positions", "required")])
    items = document["data"]
    if not items or len(items) > MAX_POSITIONS:
        detail = f"must hold 1 to {MAX_POSITIONS} positions, got {len(items)}"
        raise BatchInvalid([FieldError("/data", detail, "size")])
    errors: list[FieldError] = []
    positions: list[PositionReport] = []
    statics: list[StaticReport] = []
    for index, item in enumerate(items):
        parsed = _item(item, f"/data/{index}", now, errors)
        if parsed is not None:
            positions.append(parsed[0])
            if parsed[1] is not None:
                statics.append(parsed[1])
        if len(errors) >= MAX_ERRORS:
            break
    if errors:
        raise BatchInvalid(errors[:MAX_ERRORS])
    return PositionBatch(positions, statics)


def _item(
    item: Any, at: str, now: datetime, errors: list[FieldError]
) -> tuple[PositionReport, StaticReport | None] | None:
    if not isinstance(item, dict):
        errors.append(FieldError(at, "must be an object"))
        return None
    before = len(errors)
    mmsi = _mmsi(item.get("mmsi"), f"{at}/mmsi", errors)
    lat = _number(item, "latitude", at, errors, -90.0, 90.0, required=True)
    lon = _number(item, "longitude", at, errors, -180.0, 180.0, required=True)
    speed = _number(item, "speed_knots", at, errors, 0.0, 102.2)
    course = _number(item, "course_degrees", at, errors, 0.0, 359.9)
    heading = _number(item, "heading_degrees", at, errors, 0.0, 359.0)
    status = _number(item, "navigational_status", at, errors, 0.0, 15.0)
    time_s = _timestamp(item.get("timestamp"), f"{at}/timestamp", now, errors)
    imo = _imo(item.get("imo"), f"{at}/imo", errors)
    if len(errors) > before or mmsi is None or lat is None or lon is None or time_s is None:
        return None
    lon = -180.0 if lon == 180.0 else lon
    report = PositionReport(
        mmsi,
        time_s,
        lon,
        lat,
        speed,
        course,
        None if heading is None else float(heading),
        None if status is None else int(status),
    )
    return report, StaticReport(mmsi, time_s, imo=imo) if imo else None


def _mmsi(value: Any, at: str, errors: list[FieldError]) -> int | None:
    text = str(value) if isinstance(value, int | str) and not isinstance(value, bool) else ""
    if not (text.isascii() and text.isdigit() and len(text) == 9 and text[0] != "0"):
        errors.append(FieldError(at, "must be a 9-digit MMSI (string or integer)", "required"))
        return None
    return int(text)


def _number(
    item: dict[str, Any],
    name: str,
    at: str,
    errors: list[FieldError],
    low: float,
    high: float,
    *,
    required: bool = False,
) -> float | None:
    value = item.get(name)
    if value is None:
        if required:
            errors.append(FieldError(f"{at}/{name}", "is required", "required"))
        return None
    number = (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
    )
    if number is None or not math.isfinite(number) or not low <= number <= high:
        errors.append(FieldError(f"{at}/{name}", f"must be a number from {low:g} to {high:g}"))
        return None
    return number


def _timestamp(value: Any, at: str, now: datetime, errors: list[FieldError]) -> float | None:
    try:
        stamp = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None:
        errors.append(FieldError(at, "must be an ISO 8601 time with a UTC offset", "required"))
        return None
    if stamp > now + FUTURE_SLACK:
        errors.append(FieldError(at, "is in the future"))
        return None
    return stamp.timestamp()


def _imo(value: Any, at: str, errors: list[FieldError]) -> str | None:
    if value is None:
        return None
    text = str(value) if isinstance(value, int | str) and not isinstance(value, bool) else ""
    imo = valid_imo(int(text)) if text.isascii() and text.isdigit() else None
    if imo is None:
        errors.append(FieldError(at, "must be a 7-digit IMO number with its check digit"))
    return imo

"""A JSON batch of positions (``POST /v2/vessel_positions``) validated into typed reports.

The body is ``{"data": [{"type": "vessel_position", "attributes": {"mmsi": ..., "latitude": ...,
"longitude": ..., "timestamp": ..., "speed_knots"?, "course_degrees"?, "heading_degrees"?,
"navigational_status"?, "imo"?, "length_meters"?, "beam_meters"?, "draught_meters"?}}, ...]}``:
JSON:API resource objects without ids. An item may also be the bare attributes object, as an AIS
provider's API lists them, so a relay need not rewrap each one.
An item's size (metres; null or absent: not given) is meant, unlike AIS's codes: a value that is
not a number above 0 and within the routing engine's bound is an error like any other field's.
Unlike a radio feed, a client can correct its request, so a bad value is an error naming its
JSON pointer (``/data/3/latitude``), and nothing of a batch with errors is stored.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ...routing.vessel import MAX_BEAM_M, MAX_DRAFT_M, MAX_LENGTH_M
from .decoding import valid_imo
from .reports import PositionReport, StaticReport
from .statics import POSITION_FEED, VesselStatic

#: Most positions in one batch: a full batch (about 250 bytes a position at most, every field
#: given) stays under the default request size limit of 1 MiB, so the documented maximum can
#: always be sent.
MAX_POSITIONS = 2_000
#: An RFC 3339 date-time (what the OpenAPI ``date-time`` format means): ISO 8601's other forms,
#: which Python would read too, are refused so the document and the server agree.
RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
#: Timestamps may run ahead of the server's clock by this much (receiver clocks drift).
FUTURE_SLACK = timedelta(minutes=5)
MAX_ERRORS = 100
#: The JSON:API type of an item of the batch.
RESOURCE_TYPE = "vessel_position"
#: The optional size attributes of a position, each with its largest value in metres.
DIMENSIONS: dict[str, float] = {
    "length_meters": MAX_LENGTH_M,
    "beam_meters": MAX_BEAM_M,
    "draught_meters": MAX_DRAFT_M,
}


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
    """The validated batch: positions, static reports for items that gave an IMO number, and
    the sizes items gave (:data:`POSITION_FEED` facts timed by their positions)."""

    positions: list[PositionReport]
    statics: list[StaticReport]
    sizes: list[VesselStatic]


def parse_batch(document: Any, now: datetime) -> PositionBatch:
    """Validate a decoded JSON body; :class:`BatchInvalid` with every error found."""
    if not isinstance(document, dict) or not isinstance(document.get("data"), list):
        raise BatchInvalid([FieldError("/data", "must be an array of positions", "required")])
    items = document["data"]
    if not items or len(items) > MAX_POSITIONS:
        detail = f"must hold 1 to {MAX_POSITIONS} positions, got {len(items)}"
        raise BatchInvalid([FieldError("/data", detail, "size")])
    errors: list[FieldError] = []
    batch = PositionBatch([], [], [])
    for index, item in enumerate(items):
        parsed = _item(item, f"/data/{index}", now, errors)
        if parsed is not None:
            position, static, size = parsed
            batch.positions.append(position)
            if static is not None:
                batch.statics.append(static)
            if size is not None:
                batch.sizes.append(size)
        if len(errors) >= MAX_ERRORS:
            break
    if errors:
        raise BatchInvalid(errors[:MAX_ERRORS])
    return batch


def _item(
    item: Any, at: str, now: datetime, errors: list[FieldError]
) -> tuple[PositionReport, StaticReport | None, VesselStatic | None] | None:
    if not isinstance(item, dict):
        errors.append(FieldError(at, "must be an object"))
        return None
    if "attributes" in item or "type" in item:
        item, at = _unwrap(item, at, errors)
        if item is None:
            return None
    before = len(errors)
    mmsi = _mmsi(item.get("mmsi"), f"{at}/mmsi", errors)
    lat = _number(item, "latitude", at, errors, -90.0, 90.0, required=True)
    lon = _number(item, "longitude", at, errors, -180.0, 180.0, required=True)
    speed = _number(item, "speed_knots", at, errors, 0.0, 102.2)
    course = _number(item, "course_degrees", at, errors, 0.0, 359.9)
    heading = _number(item, "heading_degrees", at, errors, 0.0, 359.0)
    status = _number(item, "navigational_status", at, errors, 0.0, 15.0, integral=True)
    time_s = _timestamp(item.get("timestamp"), f"{at}/timestamp", now, errors)
    imo = _imo(item.get("imo"), f"{at}/imo", errors)
    size = {name: _metres(item, name, at, errors) for name in DIMENSIONS}
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
    static = StaticReport(mmsi, time_s, imo=imo) if imo else None
    if all(value is None for value in size.values()):
        return report, static, None
    given = VesselStatic(
        mmsi,
        time_s,
        POSITION_FEED,
        length_m=size["length_meters"],
        beam_m=size["beam_meters"],
        draught_m=size["draught_meters"],
    )
    return report, static, given


def _unwrap(
    resource: dict[str, Any], at: str, errors: list[FieldError]
) -> tuple[dict[str, Any] | None, str]:
    """The attributes of a ``vessel_position`` resource object, and their pointer."""
    if resource.get("type") != RESOURCE_TYPE:
        errors.append(FieldError(f"{at}/type", f"must be {RESOURCE_TYPE!r}", "required"))
        return None, at
    attributes = resource.get("attributes")
    if not isinstance(attributes, dict):
        errors.append(FieldError(f"{at}/attributes", "must be an object", "required"))
        return None, at
    return attributes, f"{at}/attributes"


def _digits(value: Any, most: int) -> str:
    """The decimal digits of an integer or a text of at most ``most`` characters, else "" (a
    longer one is refused unconverted: Python will not write an integer of more than 4,300
    digits as text, nor read one)."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, int):
        return str(value) if 0 <= value < 10**most else ""
    if isinstance(value, str) and len(value) <= most:
        return value
    return ""


def _mmsi(value: Any, at: str, errors: list[FieldError]) -> int | None:
    text = _digits(value, 9)
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
    integral: bool = False,
) -> float | None:
    value = item.get(name)
    if value is None:
        if required:
            errors.append(FieldError(f"{at}/{name}", "is required", "required"))
        return None
    number = None
    if isinstance(value, float) or (
        isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    ):  # an integer is compared before its conversion: one of 309 digits overflows a float
        number = float(value)
    kind = "an integer" if integral else "a number"
    if (
        number is None
        or not math.isfinite(number)
        or not low <= number <= high
        or (integral and not number.is_integer())
    ):
        errors.append(FieldError(f"{at}/{name}", f"must be {kind} from {low:g} to {high:g}"))
        return None
    return number


def _timestamp(value: Any, at: str, now: datetime, errors: list[FieldError]) -> float | None:
    try:
        rfc3339 = isinstance(value, str) and RFC3339.fullmatch(value) is not None
        # RFC 3339 allows a lower-case t and z, which Python does not read
        stamp = datetime.fromisoformat(value.upper()) if rfc3339 else None
        if stamp is not None and stamp.tzinfo is not None:
            stamp.astimezone(UTC)  # OverflowError: before year 1 or after 9999 in UTC
    except (ValueError, OverflowError):
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
    text = _digits(value, 7)
    imo = valid_imo(int(text)) if text.isascii() and text.isdigit() else None
    if imo is None:
        errors.append(FieldError(at, "must be a 7-digit IMO number with its check digit"))
    return imo


def _metres(item: dict[str, Any], name: str, at: str, errors: list[FieldError]) -> float | None:
    """The item's size ``name`` in metres (None: not given); a bad one is added to ``errors``."""
    value = item.get(name)
    if value is None:
        return None
    most = DIMENSIONS[name]
    if not isinstance(value, int | float) or isinstance(value, bool):
        errors.append(FieldError(f"{at}/{name}", "must be a number of metres or null"))
        return None
    # compared, not converted: NaN and infinities fail the comparison, and an integer too large
    # for a float is refused instead of raising
    if not 0 < value <= most:
        detail = f"must be above 0 and at most {most:g} m, got {value!r}"
        errors.append(FieldError(f"{at}/{name}", detail))
        return None
    return float(value)

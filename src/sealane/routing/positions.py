"""``Positions``: a vessel's future track as columns, with the API's record and GeoJSON forms.

The record form is also written as JSON bytes directly: by the compiled renderer (``_render.c``)
when it was built, else by its numpy twin :func:`_positions_json_numpy`, which documents the format
and is the oracle the tests compare the renderer with.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from .geodesy import METRES_PER_NM, SECONDS_PER_HOUR, FloatArray, split_at_antimeridian
from .interop import lines_to_shapely
from .placement import Track
from .routes import Route

if TYPE_CHECKING:
    from shapely.geometry import LineString, MultiLineString

TimeArray = npt.NDArray[np.datetime64]
SecondsArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Positions:
    """Future positions, one per ``step_s`` seconds, the last one at the destination port.

    Columns are read-only numpy arrays: ``lons``/``lats`` in degrees, ``headings_deg`` clockwise
    from true north in [0, 360) (the course steered at that moment, i.e. towards the next
    position), ``times`` as UTC ``datetime64[ms]``.
    """

    lons: FloatArray
    lats: FloatArray
    headings_deg: FloatArray
    times: TimeArray
    #: The route still to sail, from the start coordinate to the destination port.
    route: Route
    speed_kn: float
    step_s: float

    @classmethod
    def from_track(
        cls, track: Track, *, route: Route, speed_kn: float, step_s: float, start_time: datetime
    ) -> Positions:
        """Attach times to a placed track: ``step_s`` apart, the arrival at most one step later."""
        n = track.lons.size
        start = np.datetime64(start_time.astimezone(UTC).replace(tzinfo=None), "ms")
        offsets_ms = np.arange(n, dtype=np.int64)
        offsets_ms *= round(step_s * 1000)
        if n > 1 and track.final_m > 0:
            # Position k is k steps along the route, so the arrival is the rest of the route's
            # length at the speed: at most one step after the last position, whatever the step.
            speed_mps = speed_kn * METRES_PER_NM / SECONDS_PER_HOUR
            final_ms = round(track.final_m / speed_mps * 1000)
            offsets_ms[-1] = offsets_ms[-2] + min(max(final_ms, 1), round(step_s * 1000))
        times = offsets_ms.view("timedelta64[ms]") + start
        for column in (track.lons, track.lats, track.headings_deg, times):
            column.setflags(write=False)
        return cls(track.lons, track.lats, track.headings_deg, times, route, speed_kn, step_s)

    def __len__(self) -> int:
        return int(self.lons.size)

    @property
    def eta(self) -> datetime:
        """Arrival time at the destination port (UTC)."""
        return _to_datetime(self.times[-1])

    @property
    def start_time(self) -> datetime:
        """Time of the first position (UTC)."""
        return _to_datetime(self.times[0])

    @property
    def distance_remaining_nm(self) -> float:
        """Nautical miles from the start coordinate to the destination port along the route."""
        return self.route.distance_nm

    def seconds(self) -> npt.NDArray[np.datetime64]:
        """The times to the whole second, as written out: the arrival rounded up (it can fall
        less than a second after the last whole step, and must still read later than it)."""
        seconds = self.times.astype("datetime64[s]")
        if seconds.size > 1 and self.times[-1] > seconds[-1]:
            seconds[-1] += np.timedelta64(1, "s")
        return seconds

    def timestamps(self) -> list[str]:
        """ISO 8601 UTC timestamps to the second (``2026-01-01T00:00:00Z``), one per position,
        as :meth:`seconds` gives them."""
        text = np.datetime_as_string(self.seconds(), timezone="UTC")
        return list(text.tolist())

    def to_records(self) -> list[dict[str, Any]]:
        """The API's position objects: latitude, longitude, heading, timestamp, estimated."""
        return [
            {
                "latitude": lat,
                "longitude": lon,
                "heading": heading,
                "timestamp": stamp,
                "estimated": True,
            }
            for lat, lon, heading, stamp in zip(
                self.lats.tolist(),
                self.lons.tolist(),
                self.headings_deg.tolist(),
                self.timestamps(),
                strict=True,
            )
        ]

    def to_json(self, *, head: bytes = b"", tail: bytes = b"") -> bytes:
        """The records as a JSON array, between ``head`` and ``tail`` (:func:`positions_json`)."""
        return positions_json(self, head=head, tail=tail)

    def to_geojson(self) -> dict[str, Any]:
        """The track as an RFC 7946 Feature (split at the antimeridian), with ETA and speed."""
        parts = split_at_antimeridian(self.lons, self.lats)
        if len(parts) == 1:
            geometry: dict[str, Any] = {"type": "LineString", "coordinates": parts[0]}
        else:
            geometry = {"type": "MultiLineString", "coordinates": parts}
        properties = {
            "start_time": self.timestamps()[0],
            "eta": self.timestamps()[-1],
            "speed_kn": self.speed_kn,
            "step_s": self.step_s,
            "positions": len(self),
            "distance_remaining_nm": self.distance_remaining_nm,
            "passages": list(self.route.passages),
        }
        return {"type": "Feature", "geometry": geometry, "properties": properties}

    def to_shapely(self) -> LineString | MultiLineString:
        """The track through the positions as a shapely LineString, a MultiLineString when it
        crosses the antimeridian (needs the ``geo`` extra)."""
        return lines_to_shapely(self.lons, self.lats)


#: One record of the API's position array, with the widths of its fields (``_`` marks a field).
_TEMPLATE = (
    b'{"latitude":___________,"longitude":___________,"heading":_______,'
    b'"timestamp":"____________________","estimated":true},'
)
_LAT, _LON, _HEADING, _TIME = (
    _TEMPLATE.index(key) + len(key)
    for key in (b'"latitude":', b'"longitude":', b'"heading":', b'"timestamp":"')
)


class Renderer(Protocol):
    """Signature shared by the compiled renderer and :func:`_positions_json_numpy`."""

    def __call__(
        self,
        lats: FloatArray,
        lons: FloatArray,
        headings: FloatArray,
        seconds: SecondsArray,
        head: bytes,
        tail: bytes,
        /,
    ) -> bytes: ...


def positions_json(positions: Positions, *, head: bytes = b"", tail: bytes = b"") -> bytes:
    """Serialise positions as the API's JSON array, written between ``head`` and ``tail``.

    Every record has the same width: numbers are written with fixed decimals (latitude and
    longitude to 1e-6 degrees, about 0.1 m; heading to 0.01 degree) and padded on the left with
    spaces, which JSON allows before a value; timestamps are whole UTC seconds
    (:meth:`Positions.seconds`). ``head`` and
    ``tail`` splice the array into an enclosing document without another copy of it. Raises
    ``ValueError`` for a NaN coordinate or heading, or a year outside 0000-9999.
    """
    seconds = positions.seconds().astype(np.int64)
    columns = (positions.lats, positions.lons, positions.headings_deg)
    lats, lons, headings = (np.ascontiguousarray(c, dtype=np.float64) for c in columns)
    return _render_json(lats, lons, headings, seconds, head, tail)


def _positions_json_numpy(
    lats: FloatArray,
    lons: FloatArray,
    headings: FloatArray,
    seconds: SecondsArray,
    head: bytes,
    tail: bytes,
    /,
) -> bytes:
    """``head + [records] + tail`` column-wise in numpy: the twin of the compiled renderer.

    Latitudes, longitudes and headings are in degrees, ``seconds`` are Unix seconds (UTC). The
    records are rows of one byte matrix that is a view into the output buffer, filled from a
    template and then one digit column at a time.
    """
    n = lats.size
    if not lons.size == headings.size == seconds.size == n:
        raise ValueError("columns differ in length")
    if n == 0:
        return head + b"[]" + tail
    width, start = len(_TEMPLATE), len(head) + 1
    end = start + n * width  # the last record's "," becomes "]"
    buffer = np.empty(end + len(tail), dtype=np.uint8)
    buffer[: start - 1] = np.frombuffer(head, dtype=np.uint8)
    buffer[start - 1] = ord("[")
    out = buffer[start:end].reshape(n, width)
    out[:] = np.frombuffer(_TEMPLATE, dtype=np.uint8)
    lons = np.round(lons, 6)
    lons[lons >= 180.0] -= 360.0  # keep [-180, 180) after rounding
    with np.errstate(invalid="ignore"):  # an infinite heading becomes NaN, rejected below
        headings = np.round(headings, 2) % 360.0
    for column, problem in (
        (lats, "latitude is NaN"),
        (lons, "longitude is NaN"),
        (headings, "heading is NaN or infinite"),
    ):
        if np.isnan(column).any():
            raise ValueError(f"row {np.flatnonzero(np.isnan(column))[0]}: {problem}")
    _write_fixed(out, _LAT, lats, 3, 6)
    _write_fixed(out, _LON, lons, 3, 6)
    _write_fixed(out, _HEADING, headings, 3, 2)
    _write_time(out, _TIME, seconds)
    buffer[end - 1] = ord("]")
    buffer[end:] = np.frombuffer(tail, dtype=np.uint8)
    return buffer.tobytes()


def _write_fixed(
    out: npt.NDArray[np.uint8], at: int, values: FloatArray, int_digits: int, decimals: int
) -> None:
    """Write ``values`` as right-aligned fixed-point text into columns ``at`` onwards.

    The field is ``1 + int_digits + 1 + decimals`` wide: a sign slot, the integer digits (leading
    zeros blanked), the point and the decimals. ``int_digits + decimals`` must be at most 9.
    """
    top = float(10 ** (int_digits + decimals) - 1)
    scaled = np.minimum(np.rint(np.abs(values) * 10**decimals), top).astype(np.uint32)
    point = at + 1 + int_digits
    ten = np.uint32(10)
    rest = scaled
    for column in range(point + decimals, point, -1):
        rest, digit = np.divmod(rest, ten)
        out[:, column] = digit + ord("0")
    out[:, point] = ord(".")
    whole = rest  # the integer part
    for column in range(point - 1, at, -1):
        rest, digit = np.divmod(rest, ten)
        out[:, column] = digit + ord("0")
    out[:, at] = ord(" ")
    shown = np.ones(values.size, dtype=np.int8)  # digits in the integer part
    for k in range(1, int_digits):
        shown += whole >= 10**k
    for k in range(1, int_digits):  # blank the leading zeros
        out[shown <= k, point - 1 - k] = ord(" ")
    negative = np.flatnonzero((values < 0) & (scaled > 0))
    out[negative, point - 1 - shown[negative]] = ord("-")


def _write_time(out: npt.NDArray[np.uint8], at: int, seconds: SecondsArray) -> None:
    """Write Unix ``seconds`` as ``YYYY-MM-DDTHH:MM:SSZ`` into the 20 columns from ``at``.

    Dates are worked out once per distinct day (a voyage spans a few dozen) by the
    proleptic-Gregorian era arithmetic of Hinnant's ``civil_from_days`` and spread to the rows.
    """
    days, second_of_day = np.divmod(seconds, 86_400)
    unique_days, row_day = np.unique(days, return_inverse=True)
    out[:, at : at + 10] = _civil_dates(unique_days)[row_day]
    rest = second_of_day.astype(np.uint32)
    ten = np.uint32(10)
    for column, base in ((at + 18, 60), (at + 15, 60), (at + 12, 24)):  # seconds, minutes, hours
        rest, value = np.divmod(rest, np.uint32(base))
        tens, ones = np.divmod(value, ten)
        out[:, column] = ones + ord("0")
        out[:, column - 1] = tens + ord("0")
    for offset, char in ((10, "T"), (13, ":"), (16, ":"), (19, "Z")):
        out[:, at + offset] = ord(char)


def _civil_dates(days: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """``YYYY-MM-DD`` of each day number (days since 1970-01-01), as rows of 10 bytes.

    Raises ``ValueError`` for a year outside 0000-9999, which four digits cannot show.
    """
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = np.where(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + (month <= 2)
    if year.size and (year.min() < 0 or year.max() > 9999):
        raise ValueError("timestamp's year is outside 0000-9999")
    text = np.empty((days.size, 10), dtype=np.uint8)
    for offset, value, width in ((0, year, 4), (5, month, 2), (8, day, 2)):
        for d in range(width):
            text[:, offset + width - 1 - d] = ord("0") + (value // 10**d) % 10
    text[:, 4] = text[:, 7] = ord("-")
    return text


def _fixed(values: FloatArray, int_digits: int, decimals: int) -> npt.NDArray[np.uint8]:
    """``values`` as fixed-point text rows (what :func:`_write_fixed` writes), for tests.

    >>> bytes(_fixed(np.array([-4.25]), 3, 2)[0])
    b'  -4.25'
    """
    out = np.zeros((values.size, 2 + int_digits + decimals), dtype=np.uint8)
    _write_fixed(out, 0, values, int_digits, decimals)
    return out


def _iso_seconds(times: TimeArray) -> npt.NDArray[np.uint8]:
    """``times`` as ``YYYY-MM-DDTHH:MM:SSZ`` rows (what :func:`_write_time` writes), for tests."""
    out = np.zeros((times.size, 20), dtype=np.uint8)
    _write_time(out, 0, times.astype("datetime64[s]").astype(np.int64))
    return out


def _to_datetime(moment: np.datetime64) -> datetime:
    millis = int(moment.astype("datetime64[ms]").astype(np.int64))
    return datetime.fromtimestamp(millis / 1000, tz=UTC)


def _compiled() -> Renderer:
    try:
        from sealane.routing import _render
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return _positions_json_numpy
    renderer: Renderer = _render.render
    return renderer


_render_json: Renderer = _compiled()

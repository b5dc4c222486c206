"""``Positions``: a vessel's future track as columns, with the API's record and GeoJSON forms."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from .geodesy import METRES_PER_NM, SECONDS_PER_HOUR, FloatArray, split_at_antimeridian
from .placement import Track
from .routes import Route

TimeArray = npt.NDArray[np.datetime64]


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
        """Attach times to a placed track: ``step_s`` apart, the arrival at its own time."""
        n = track.lons.size
        start = np.datetime64(start_time.astimezone(UTC).replace(tzinfo=None), "ms")
        offsets_ms = np.arange(n, dtype=np.int64) * round(step_s * 1000)
        if n > 1 and track.final_m > 0:
            speed_mps = speed_kn * METRES_PER_NM / SECONDS_PER_HOUR
            last_ms = (n - 2) * round(step_s * 1000) + round(track.final_m / speed_mps * 1000)
            offsets_ms[-1] = last_ms
        times = start + offsets_ms.astype("timedelta64[ms]")
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

    def timestamps(self) -> list[str]:
        """ISO 8601 UTC timestamps to the second (``2026-01-01T00:00:00Z``), one per position."""
        text = np.datetime_as_string(self.times.astype("datetime64[s]"), timezone="UTC")
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

    def to_json(self) -> bytes:
        """The records as a JSON array (see :func:`positions_json`)."""
        return positions_json(self)

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


def positions_json(positions: Positions) -> bytes:
    """Serialise positions as the API's JSON array, column-wise in numpy.

    Every record has the same width: numbers are written with fixed decimals (latitude and
    longitude to 1e-6 degrees, about 0.1 m; heading to 0.01 degree) and padded on the left with
    spaces, which JSON allows before a value. The records are then one (n, width) byte matrix.
    """
    n = len(positions)
    if n == 0:
        return b"[]"
    pieces: list[bytes | npt.NDArray[np.uint8]] = [
        b'{"latitude":',
        _fixed(positions.lats, 2, 6),
        b',"longitude":',
        _fixed(positions.lons, 3, 6),
        b',"heading":',
        _fixed(positions.headings_deg, 3, 2),
        b',"timestamp":"',
        _iso_seconds(positions.times),
        b'","estimated":true},',
    ]
    columns: list[npt.NDArray[np.uint8]] = [
        np.broadcast_to(np.frombuffer(piece, dtype=np.uint8), (n, len(piece)))
        if isinstance(piece, bytes)
        else piece
        for piece in pieces
    ]
    body = np.concatenate(columns, axis=1).tobytes()
    return b"[" + body[:-1] + b"]"


def _fixed(values: FloatArray, int_digits: int, decimals: int) -> npt.NDArray[np.uint8]:
    """Numbers as right-aligned fixed-point text, one row of bytes each (vectorised).

    >>> bytes(_fixed(np.array([-4.25]), 3, 2)[0])
    b'  -4.25'
    """
    n = values.size
    scaled = np.round(np.abs(values) * 10**decimals).astype(np.int64)
    powers = 10 ** np.arange(int_digits + decimals - 1, -1, -1, dtype=np.int64)
    text = ((scaled[:, None] // powers) % 10 + ord("0")).astype(np.uint8)
    blank = scaled[:, None] < powers[None, :int_digits]
    blank[:, -1] = False  # always show the units digit
    leading = text[:, :int_digits]
    leading[blank] = ord(" ")
    out = np.empty((n, 1 + int_digits + 1 + decimals), dtype=np.uint8)
    out[:, 0] = ord(" ")
    out[:, 1 : 1 + int_digits] = leading
    out[:, 1 + int_digits] = ord(".")
    out[:, 2 + int_digits :] = text[:, int_digits:]
    rows = np.flatnonzero((values < 0) & (scaled > 0))
    out[rows, blank[rows].sum(axis=1)] = ord("-")
    return out


def _iso_seconds(times: TimeArray) -> npt.NDArray[np.uint8]:
    """``YYYY-MM-DDTHH:MM:SSZ`` for each time (UTC), as rows of 20 bytes (vectorised).

    Dates come from day numbers by the proleptic-Gregorian era arithmetic of Hinnant's
    ``civil_from_days``; years must lie in 0000-9999.
    """
    seconds = times.astype("datetime64[s]").astype(np.int64)
    days, second_of_day = np.divmod(seconds, 86_400)
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = np.where(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + (month <= 2)
    hour, rest = np.divmod(second_of_day, 3600)
    minute, second = np.divmod(rest, 60)
    out = np.empty((seconds.size, 20), dtype=np.uint8)
    for column, (value, width) in zip(
        (0, 5, 8, 11, 14, 17),
        ((year, 4), (month, 2), (day, 2), (hour, 2), (minute, 2), (second, 2)),
        strict=True,
    ):
        for d in range(width):
            out[:, column + width - 1 - d] = ord("0") + (value // 10**d) % 10
    for column, char in ((4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")):
        out[:, column] = ord(char)
    return out


def _to_datetime(moment: np.datetime64) -> datetime:
    millis = int(moment.astype("datetime64[ms]").astype(np.int64))
    return datetime.fromtimestamp(millis / 1000, tz=UTC)

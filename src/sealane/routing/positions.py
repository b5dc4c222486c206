"""``Positions``: a vessel's future track as columns, with its record and GeoJSON forms (the
API shell writes its JSON wire format from the columns: :mod:`sealane.api.positions_json`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .eta_range import eta_model
from .geodesy import METRES_PER_NM, SECONDS_PER_HOUR, FloatArray, split_at_antimeridian
from .interop import lines_to_shapely
from .placement import Track
from .routes import Route

TimeArray = npt.NDArray[np.datetime64]

if TYPE_CHECKING:
    from shapely.geometry import LineString, MultiLineString


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
    #: Where ``speed_kn`` came from: ``given`` by the caller, the engine's ``default``, or (set
    #: by the service) the vessel's ``observed`` speed at sea or its last ``reported`` one.
    speed_source: str = "given"
    #: The spread (standard deviation over mean) of the vessel's observed speeds, when known:
    #: a feature of the ETA range.
    speed_variability: float | None = None

    @classmethod
    def from_track(
        cls,
        track: Track,
        *,
        route: Route,
        speed_kn: float,
        step_s: float,
        start_time: datetime,
        arrival_ms: int | None = None,
        speed_source: str = "given",
    ) -> Positions:
        """Attach times to a placed track: ``step_s`` apart, the arrival at most one step later,
        or ``arrival_ms`` after the start on a speed profile."""
        n = track.lons.size
        start = np.datetime64(start_time.astimezone(UTC).replace(tzinfo=None), "ms")
        offsets_ms = np.arange(n, dtype=np.int64)
        offsets_ms *= round(step_s * 1000)
        if n > 1 and arrival_ms is not None:
            # On a speed profile the arrival is timed by the profile (``Route.duration_h``),
            # still after the last position.
            offsets_ms[-1] = max(arrival_ms, int(offsets_ms[-2]) + 1)
        elif n > 1 and track.final_m > 0:
            # Position k is k steps along the route, so the arrival is the rest of the route's
            # length at the speed: at most one step after the last position, whatever the step.
            speed_mps = speed_kn * METRES_PER_NM / SECONDS_PER_HOUR
            final_ms = round(track.final_m / speed_mps * 1000)
            offsets_ms[-1] = offsets_ms[-2] + min(max(final_ms, 1), round(step_s * 1000))
        times = offsets_ms.view("timedelta64[ms]") + start
        for column in (track.lons, track.lats, track.headings_deg, times):
            column.setflags(write=False)
        return cls(
            track.lons, track.lats, track.headings_deg, times, route, speed_kn, step_s, speed_source
        )

    def __len__(self) -> int:
        return int(self.lons.size)

    @property
    def eta(self) -> datetime:
        """Arrival time at the destination port (UTC)."""
        return _to_datetime(self.times[-1])

    @property
    def eta_range(self) -> tuple[datetime, datetime]:
        """(P10, P90): the arrival lies between them 8 times in 10, by the model of ETA error
        fitted on real voyages (:mod:`.eta_range`); ``p10 <= eta <= p90``."""
        return eta_model().eta_range(
            self.start_time,
            self.eta,
            distance_nm=self.distance_remaining_nm,
            passages=len(self.route.passages),
            speed_cv=self.speed_variability,
        )

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

    def to_geojson(self) -> dict[str, Any]:
        """The track as an RFC 7946 Feature (split at the antimeridian), with ETA and speed."""
        parts = split_at_antimeridian(self.lons, self.lats)
        if len(parts) == 1:
            geometry: dict[str, Any] = {"type": "LineString", "coordinates": parts[0]}
        else:
            geometry = {"type": "MultiLineString", "coordinates": parts}
        p10, p90 = self.eta_range
        properties = {
            "start_time": self.timestamps()[0],
            "eta": self.timestamps()[-1],
            "eta_p10": _iso(p10),
            "eta_p90": _iso(p90),
            "speed_source": self.speed_source,
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


def _to_datetime(moment: np.datetime64) -> datetime:
    millis = int(moment.astype("datetime64[ms]").astype(np.int64))
    return datetime.fromtimestamp(millis / 1000, tz=UTC)


def _iso(moment: datetime) -> str:
    """ISO 8601 UTC to the second, as the timestamps are written."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

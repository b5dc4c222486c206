"""Outputs of the routing tools: a vessel's estimated voyage and a planned sea route."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .outputs import Output, PortRef


class Vessel(Output):
    """A vessel and its last reported position (degrees, knots)."""

    id: str
    name: str | None = None
    imo: str | None = None
    mmsi: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    speed_kn: float | None = None
    heading_deg: float | None = None
    position_timestamp: str | None = None


class TrackPoint(Output):
    """An estimated position: degrees, heading clockwise from true north, ISO time."""

    longitude: float
    latitude: float
    heading_deg: float
    timestamp: str


class SpeedUsed(Output):
    """The speed an ETA sailed at (knots) and where it came from: ``given`` by the caller, the
    vessel's ``observed`` speed at sea over the last hours, its last ``reported`` speed, or the
    engine's ``default``."""

    knots: float
    source: str
    positions: int | None = Field(
        default=None, description="observed: how many AIS positions the speed was taken from"
    )
    window_hours: float | None = None
    observed_from: str | None = None
    observed_to: str | None = None
    variability: float | None = Field(
        default=None, description="observed: the speeds' standard deviation over their mean"
    )


class VesselDimensions(Output):
    """The vessel dimensions (metres) a route was computed for: ``given`` by the caller,
    ``reported`` by the vessel (AIS, the position feed), ``mixed``, or ``default`` (none known:
    the engine's default vessel)."""

    source: str
    draft_m: float | None = None
    beam_m: float | None = None
    length_m: float | None = None
    air_draft_m: float | None = None
    sources: dict[str, str] | None = Field(
        default=None, description="where each dimension came from: given, reported or default"
    )
    reported_by: str | None = Field(
        default=None, description="who reported the dimensions used: ais or position_feed"
    )
    reported_set_aside: str | None = Field(
        default=None,
        description="why the vessel's reported dimensions were not used (no route for them)",
    )


class FuturePositions(Output):
    """Where a vessel will be: its ETA, the distance left and a sampled track to the port."""

    vessel: Vessel
    previous_port: PortRef
    destination_port: PortRef
    eta: str | None
    eta_p10: str | None = Field(
        default=None,
        description="the arrival's 10th percentile by the model of ETA error (at most eta)",
    )
    eta_p90: str | None = Field(
        default=None,
        description="the arrival's 90th percentile by the model of ETA error (at least eta)",
    )
    speed: SpeedUsed | None = None
    distance_remaining_nm: float
    positions_total: int = Field(description="positions one minute apart from start to arrival")
    track_points: int
    track: list[TrackPoint] = Field(description="first and last position, and evenly between")
    ports_source: str | None = Field(
        default=None,
        description="where the ports came from: given, tracked_shipment, ais_port_call or mixed",
    )
    vessel_dimensions: VesselDimensions | None = None

    def summary(self) -> str:
        """ETA, distance left and the size of the track."""
        name = self.vessel.name or self.vessel.id
        return (
            f"{name}: {self.previous_port.locode} -> {self.destination_port.locode} "
            f"({self.destination_port.name or ''}), ETA {self.eta} "
            f"(P10 {self.eta_p10}, P90 {self.eta_p90}){self._speed()}, "
            f"{self.distance_remaining_nm:,.1f} nm to go; {self.track_points} of "
            f"{self.positions_total} positions (one per minute) in the track."
        )

    def _speed(self) -> str:
        if self.speed is None:
            return ""
        return f" at {self.speed.knots:g} kn ({self.speed.source})"


class Place(Output):
    """A route end: a port (LOCODE and name) or a point, in degrees."""

    longitude: float
    latitude: float
    locode: str | None = None
    name: str | None = None


class SeaRoute(Output):
    """A planned sea route: distance, duration at a speed, passages, and the path as GeoJSON."""

    origin: Place
    destination: Place
    distance_nm: float
    distance_km: float
    speed_kn: float
    duration_h: float
    duration_days: float
    passages: list[str]
    avoided: list[str]
    vessel_dimensions: VesselDimensions | None = None
    geojson: dict[str, Any] = Field(description="RFC 7946 Feature, split at the antimeridian")

    def summary(self) -> str:
        """Distance, duration and passages."""
        ends = " -> ".join(
            p.locode or f"{p.longitude:.3f},{p.latitude:.3f}"
            for p in (self.origin, self.destination)
        )
        via = ", ".join(self.passages) or "no named passage"
        return (
            f"{ends}: {self.distance_nm:,.1f} nm, {self.duration_h:,.1f} h "
            f"({self.duration_days:.2f} days) at {self.speed_kn:g} kn, via {via}."
        )


class SeaRouteOption(Output):
    """One way between two places: what it avoids, its distance, its time on the speed profile
    and the passages it sails."""

    rank: int
    option: str = Field(description="'shortest', or which major passages it avoids")
    avoided: list[str]
    distance_nm: float
    duration_h: float
    duration_days: float
    passages: list[str]


class SeaRouteOptions(Output):
    """The ways between two places side by side, fastest first, at a speed in open water
    (canals, straits, rivers and port approaches at their own speeds, convoy waits included)."""

    origin: Place
    destination: Place
    speed_kn: float
    avoided: list[str]
    options: list[SeaRouteOption]
    vessel_dimensions: VesselDimensions | None = None

    def summary(self) -> str:
        """One line per option."""
        ends = " -> ".join(
            p.locode or f"{p.longitude:.3f},{p.latitude:.3f}"
            for p in (self.origin, self.destination)
        )
        lines = [f"{ends} at {self.speed_kn:g} kn, fastest first:"]
        lines += [
            f"{o.rank}. {o.option}: {o.distance_nm:,.1f} nm, {o.duration_h:,.1f} h "
            f"({o.duration_days:.2f} days), via {', '.join(o.passages) or 'no named passage'}"
            for o in self.options
        ]
        return "\n".join(lines)

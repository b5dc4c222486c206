"""A container's map features (an RFC 7946 FeatureCollection of Points and LineStrings, the
``feature_type`` vocabulary of container maps) turned into what the SVG map draws.

Map units are degrees: x is the longitude, y the latitude negated (plate carree). The map is
centred on the middle of the smallest longitude range holding every feature, and each line is
unwrapped vertex by vertex, so a route across the antimeridian is one continuous line in the
middle of the map, never a stroke across the whole world; the land is drawn three times (one
world to each side) so it is there whatever the centre.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

#: Smallest view, in degrees of longitude, and the view's width : height.
MIN_WIDTH_DEG = 24.0
ASPECT = 2.0
PADDING = 0.12
#: Line kinds by feature type: the track sailed, and the route still ahead.
SAILED = ("past_vessel_locations",)
AHEAD = ("estimated_partial_leg", "estimated_full_legs")


@dataclass(frozen=True, slots=True)
class MapPort:
    """A port on the map: position (map units), role label (POL, TS1, POD), name, LOCODE."""

    x: float
    y: float
    label: str
    name: str
    locode: str
    eta: datetime | None
    time_zone: str | None
    #: Where the label goes: ``start`` (right of the port) or ``end`` (left, near the right
    #: edge of the view, so it is not cut off).
    anchor: str = "start"


@dataclass(frozen=True, slots=True)
class MapLine:
    """A drawn line: SVG path data, ``sailed`` or ``ahead``, and its leg's number."""

    d: str
    kind: str
    leg: int


@dataclass(frozen=True, slots=True)
class MapVessel:
    """The vessel: position (map units), heading (degrees clockwise from north), when."""

    x: float
    y: float
    heading_deg: float
    at: datetime | None
    eta: datetime | None


@dataclass(frozen=True, slots=True)
class MapView:
    """Everything the map template draws, and the initial view box (x, y, width, height)."""

    view_box: tuple[float, float, float, float]
    ports: tuple[MapPort, ...]
    lines: tuple[MapLine, ...]
    vessel: MapVessel | None

    @property
    def view_box_text(self) -> str:
        """The ``viewBox`` attribute."""
        return " ".join(f"{v:.2f}" for v in self.view_box)

    @property
    def label_size(self) -> float:
        """Font size of the labels in map units, about 13 px on a 780 px wide map."""
        return round(self.view_box[2] / 60.0, 3)

    @property
    def eta(self) -> datetime | None:
        """The estimated arrival at the last port, when known."""
        if self.vessel is not None and self.vessel.eta is not None:
            return self.vessel.eta
        return self.ports[-1].eta if self.ports else None


def wrap(delta_deg: float) -> float:
    """A longitude difference brought into [-180, 180)."""
    return (delta_deg + 180.0) % 360.0 - 180.0


def centre_longitude(lons: Iterable[float]) -> float:
    """The middle of the smallest longitude range (on the circle) that holds every ``lons``."""
    ordered = sorted({wrap(lon) for lon in lons})
    if not ordered:
        return 0.0
    gaps = [
        ((ordered[(i + 1) % len(ordered)] - ordered[i]) % 360.0 or 360.0, i)
        for i in range(len(ordered))
    ]
    widest, after = max(gaps)
    start = ordered[(after + 1) % len(ordered)]
    return wrap(start + (360.0 - widest) / 2.0)


def map_view(collection: dict[str, Any]) -> MapView:
    """The drawing of ``collection`` (features of another type are ignored)."""
    features = [f for f in collection.get("features", ()) if isinstance(f, dict)]
    lons = [lon for f in features for lon, _ in _coordinates(f)]
    centre = centre_longitude(lons)
    ports: list[MapPort] = []
    lines: list[MapLine] = []
    vessel: MapVessel | None = None
    for feature in features:
        props = feature.get("properties") or {}
        kind = props.get("feature_type")
        points = _coordinates(feature)
        if kind == "port" and points:
            x, y = _place(points[0], centre)
            ports.append(_port(x, y, props))
        elif kind == "current_vessel" and points:
            x, y = _place(points[0], centre)
            vessel = MapVessel(
                x=x,
                y=y,
                heading_deg=float(props.get("vessel_location_heading") or 0.0),
                at=_moment(props.get("vessel_location_timestamp")),
                eta=_moment(props.get("arrival_port_eta")),
            )
        elif kind in SAILED + AHEAD and len(points) >= 2:
            d = path_data(points, centre)
            leg = int(props.get("ports_sequence") or 0)
            lines.append(MapLine(d=d, kind="sailed" if kind in SAILED else "ahead", leg=leg))
    placed = [(p.x, p.y) for p in ports] + ([(vessel.x, vessel.y)] if vessel else [])
    placed += [_place(pt, centre) for f in features for pt in _coordinates(f)]
    box = _view_box(placed, centre)
    right = box[0] + box[2] * 0.7
    ports = [replace(p, anchor="end") if p.x > right else p for p in ports]
    return MapView(box, tuple(ports), tuple(lines), vessel)


def path_data(points: Sequence[tuple[float, float]], centre: float) -> str:
    """``M x y L ...`` of a line, each vertex unwrapped against the one before it."""
    x, y = _place(points[0], centre)
    parts = [f"M{x:.2f} {y:.2f}"]
    previous = points[0][0]
    for lon, lat in points[1:]:
        x += wrap(lon - previous)
        previous = lon
        parts.append(f"L{x:.2f} {-lat:.2f}")
    return "".join(parts)


def _place(point: tuple[float, float], centre: float) -> tuple[float, float]:
    lon, lat = point
    return centre + wrap(lon - centre), -lat


def _coordinates(feature: dict[str, Any]) -> list[tuple[float, float]]:
    geometry = feature.get("geometry") or {}
    raw = geometry.get("coordinates")
    if geometry.get("type") == "Point" and isinstance(raw, list) and len(raw) >= 2:
        return [(float(raw[0]), float(raw[1]))]
    if geometry.get("type") == "LineString" and isinstance(raw, list):
        return [(float(p[0]), float(p[1])) for p in raw if isinstance(p, list) and len(p) >= 2]
    return []


def _port(x: float, y: float, props: dict[str, Any]) -> MapPort:
    return MapPort(
        x=x,
        y=y,
        label=str(props.get("label") or ""),
        name=str(props.get("name") or props.get("locode") or ""),
        locode=str(props.get("locode") or ""),
        eta=_moment(props.get("inbound_eta_at")),
        time_zone=props.get("time_zone"),
    )


def _moment(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def _view_box(
    points: Sequence[tuple[float, float]], centre: float
) -> tuple[float, float, float, float]:
    """A box around ``points`` with some margin, at least :data:`MIN_WIDTH_DEG` wide, in the
    map's proportions and within the latitudes drawn."""
    if not points:
        return (centre - 180.0, -90.0, 360.0, 180.0)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width = max(max(xs) - min(xs), MIN_WIDTH_DEG) * (1 + 2 * PADDING)
    height = max(max(ys) - min(ys), MIN_WIDTH_DEG / ASPECT) * (1 + 2 * PADDING)
    width, height = max(width, height * ASPECT), max(height, width / ASPECT)
    width, height = min(width, 360.0), min(height, 180.0)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    top = min(max(cy - height / 2, -90.0), 90.0 - height)
    return (cx - width / 2, top, width, height)

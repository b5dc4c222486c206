"""The routing engine: sea-lane graph, ports, passages, sea routes, future positions, itineraries.

Pure and importable alone: it depends on numpy and pyproj only, and never does network or
database I/O.
"""

from .errors import (
    InvalidCoordinateError,
    InvalidSpeedError,
    InvalidVesselError,
    NoRouteError,
    OnLandError,
    RoutingError,
    UnknownPassageError,
    UnknownPortError,
)
from .itinerary import InvalidItineraryError, Itinerary, itinerary
from .itinerary_parts import Leg, LegUnderway, PortCall
from .locations import Location
from .options import RouteOption, route_options
from .passages import ARCTIC, Passage
from .ports import Port, get_port, port_id, registry
from .positions import Positions
from .progress import Progress
from .routes import Route, route
from .vessel import Vessel
from .voyage import future_positions

__all__ = [
    "ARCTIC",
    "InvalidCoordinateError",
    "InvalidItineraryError",
    "InvalidSpeedError",
    "InvalidVesselError",
    "Itinerary",
    "Leg",
    "LegUnderway",
    "Location",
    "NoRouteError",
    "OnLandError",
    "Passage",
    "Port",
    "PortCall",
    "Positions",
    "Progress",
    "Route",
    "RouteOption",
    "RoutingError",
    "UnknownPassageError",
    "UnknownPortError",
    "Vessel",
    "future_positions",
    "get_port",
    "itinerary",
    "port_id",
    "registry",
    "route",
    "route_options",
]

"""sealane: container tracking with a vessel routing and future-position engine.

``import sealane`` gives the engine only (``sealane.route``, ``sealane.future_positions``,
``sealane.itinerary``, ``sealane.get_port``, ...); the service layers live in subpackages and are
imported on their own.
"""

from .routing import (
    ARCTIC,
    InvalidCoordinateError,
    InvalidItineraryError,
    InvalidSpeedError,
    Itinerary,
    Leg,
    LegUnderway,
    Location,
    NoRouteError,
    Passage,
    Port,
    PortCall,
    Positions,
    Progress,
    Route,
    RoutingError,
    UnknownPassageError,
    UnknownPortError,
    future_positions,
    get_port,
    itinerary,
    port_id,
    route,
)

__version__ = "0.1.0"

__all__ = [
    "ARCTIC",
    "InvalidCoordinateError",
    "InvalidItineraryError",
    "InvalidSpeedError",
    "Itinerary",
    "Leg",
    "LegUnderway",
    "Location",
    "NoRouteError",
    "Passage",
    "Port",
    "PortCall",
    "Positions",
    "Progress",
    "Route",
    "RoutingError",
    "UnknownPassageError",
    "UnknownPortError",
    "__version__",
    "future_positions",
    "get_port",
    "itinerary",
    "port_id",
    "route",
]

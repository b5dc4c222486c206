"""sealane: container tracking with a vessel routing and future-position engine.

``import sealane`` gives the engine only (``sealane.route``, ``sealane.get_port``, ...); the service
layers live in subpackages and are imported on their own.
"""

from .routing import (
    ARCTIC,
    InvalidCoordinateError,
    InvalidSpeedError,
    Location,
    NoRouteError,
    Passage,
    Port,
    Route,
    RoutingError,
    UnknownPassageError,
    UnknownPortError,
    get_port,
    port_id,
    route,
)

__version__ = "0.1.0"

__all__ = [
    "ARCTIC",
    "InvalidCoordinateError",
    "InvalidSpeedError",
    "Location",
    "NoRouteError",
    "Passage",
    "Port",
    "Route",
    "RoutingError",
    "UnknownPassageError",
    "UnknownPortError",
    "__version__",
    "get_port",
    "port_id",
    "route",
]

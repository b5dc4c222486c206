"""The routing engine: sea-lane graph, ports, passages, shortest sea routes.

Pure and importable alone: it depends on numpy and pyproj only, and never does network or
database I/O.
"""

from .errors import (
    InvalidCoordinateError,
    InvalidSpeedError,
    NoRouteError,
    RoutingError,
    UnknownPassageError,
    UnknownPortError,
)
from .passages import ARCTIC, Passage
from .ports import Port, get_port, port_id, registry
from .routes import Location, Route, route

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
    "get_port",
    "port_id",
    "registry",
    "route",
]

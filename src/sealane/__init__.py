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
    InvalidVesselError,
    Itinerary,
    Leg,
    LegUnderway,
    Location,
    NoRouteError,
    OnLandError,
    Passage,
    Port,
    PortCall,
    Positions,
    Progress,
    Route,
    RouteOption,
    RoutingError,
    UnknownPassageError,
    UnknownPortError,
    Vessel,
    future_positions,
    get_port,
    itinerary,
    port_id,
    route,
    route_options,
)


def __getattr__(name: str) -> str:
    """``sealane.__version__``: the installed distribution's version, whose one source is
    ``pyproject.toml``. Looked up on first use and kept, because importing
    ``importlib.metadata`` would add tens of milliseconds to every engine cold start."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("sealane")
    except PackageNotFoundError:  # the sources put on sys.path by hand, never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found


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
    "__version__",
    "future_positions",
    "get_port",
    "itinerary",
    "port_id",
    "route",
    "route_options",
]

"""Typed errors of the engine.

Each carries a stable ``code`` and a human ``title`` so the service layers (API, MCP, CLI) can map
them to their own error documents in one place. They subclass :class:`ValueError` because each one
is a bad argument from the caller's point of view.
"""

from __future__ import annotations


class RoutingError(ValueError):
    """Base class: a request the engine cannot answer, with a message naming the bad value."""

    code = "routing_error"
    title = "Routing error"


class InvalidCoordinateError(RoutingError):
    """A longitude/latitude that is not finite or out of range, or a malformed point."""

    code = "invalid_coordinate"
    title = "Invalid coordinate"


class UnknownPortError(RoutingError):
    """No port has the given UN/LOCODE or id."""

    code = "unknown_port"
    title = "Unknown port"


class UnknownPassageError(RoutingError):
    """A passage name that the engine does not know."""

    code = "unknown_passage"
    title = "Unknown passage"


class NoRouteError(RoutingError):
    """No sea route joins the two points with the passages that were left open."""

    code = "no_route"
    title = "No sea route"


class InvalidSpeedError(RoutingError):
    """A speed that is not a finite positive number of knots."""

    code = "invalid_speed"
    title = "Invalid speed"


class OnLandError(InvalidCoordinateError):
    """A vessel position on land, too far from both the sea and a port to be a berth."""

    code = "on_land"
    title = "Position on land"


class InvalidTimeError(RoutingError):
    """A start time that is not a datetime."""

    code = "invalid_time"
    title = "Invalid time"


class InvalidVesselError(RoutingError):
    """A vessel dimension that is not a finite positive number of metres within its bound;
    ``parameter`` names it (``draft_m``, ``beam_m``, ``length_m`` or ``air_draft_m``)."""

    code = "invalid_vessel"
    title = "Invalid vessel dimension"

    def __init__(self, message: str, *, parameter: str = "") -> None:
        super().__init__(message)
        #: The keyword argument that was refused.
        self.parameter = parameter

"""The status and type words of tracking requests and containers: a tracking request's
``request_type`` and ``status``, a container's ``current_status``. Written once here, read by the
tracking domain that moves between them and by every shell that lists them (a filter, a body
schema, a tool argument)."""

from __future__ import annotations

from enum import StrEnum


class RequestStatus(StrEnum):
    """``tracking_request.status``."""

    PENDING = "pending"
    AWAITING_MANIFEST = "awaiting_manifest"
    CREATED = "created"
    FAILED = "failed"
    TRACKING_STOPPED = "tracking_stopped"


#: What a tracking request may ask the carrier to look up.
REQUEST_TYPES = ("bill_of_lading", "booking_number", "container")


class ContainerStatus(StrEnum):
    """Every value of ``container.current_status``."""

    NEW = "new"
    ON_SHIP = "on_ship"
    AVAILABLE = "available"
    NOT_AVAILABLE = "not_available"
    GROUNDED = "grounded"
    ON_RAIL = "on_rail"
    PICKED_UP = "picked_up"
    OFF_DOCK = "off_dock"
    DELIVERED = "delivered"
    DROPPED = "dropped"
    LOADED = "loaded"
    EMPTY_RETURNED = "empty_returned"
    AWAITING_INLAND_TRANSFER = "awaiting_inland_transfer"

"""Carrier adapters: one per shipping line integration, behind :class:`CarrierAdapter`."""

from .base import (
    AwaitingManifest,
    CallEstimate,
    CarrierAdapter,
    Found,
    LookupResult,
    NotFound,
    PlannedContainer,
    PlannedEvent,
    PlannedLeg,
    PlannedUpdate,
    ShipmentPlan,
    Snapshot,
    Unreachable,
)
from .simulated import SimulatedCarrier

__all__ = [
    "AwaitingManifest",
    "CallEstimate",
    "CarrierAdapter",
    "Found",
    "LookupResult",
    "NotFound",
    "PlannedContainer",
    "PlannedEvent",
    "PlannedLeg",
    "PlannedUpdate",
    "ShipmentPlan",
    "SimulatedCarrier",
    "Snapshot",
    "Unreachable",
]

"""Carrier adapters: one per shipping line integration, behind :class:`CarrierAdapter`.

The interface and the simulated carrier live here; real integrations (DCSA Track & Trace in
:mod:`sealane.feeds.dcsa.carrier`) live with their feeds and are registered by the runtime.
"""

from .base import (
    AwaitingManifest,
    CallEstimate,
    CarrierAdapter,
    Found,
    LookupResult,
    PlannedContainer,
    PlannedEvent,
    PlannedLeg,
    PlannedUpdate,
    ShipmentPlan,
    Snapshot,
    UnknownNumber,
    Unreachable,
)
from .simulated import SimulatedCarrier

__all__ = [
    "AwaitingManifest",
    "CallEstimate",
    "CarrierAdapter",
    "Found",
    "LookupResult",
    "PlannedContainer",
    "PlannedEvent",
    "PlannedLeg",
    "PlannedUpdate",
    "ShipmentPlan",
    "SimulatedCarrier",
    "Snapshot",
    "UnknownNumber",
    "Unreachable",
]

"""Read models returned by the application layer: plain frozen values, loaded once per request.

Shells render these; they never see a database row, so nothing they touch can run a query. A
related object is ``None`` (or an empty tuple) when it was not asked for; relationship ids are
always filled, since every rendering of an object names what it points to. They are defined by
family in :mod:`.reference.records`, :mod:`.tracking.records` and :mod:`.webhooks.records`, and
gathered here.
"""

from __future__ import annotations

from ..store.vessels import VesselRecord
from .reference.records import MetroAreaRecord, RecordedPosition, ShippingLineRecord, TerminalRecord
from .tracking.records import (
    ContainerRecord,
    ContainerUpdatedEventRecord,
    EstimatedEventRecord,
    PartyRecord,
    RawEventRecord,
    ShipmentRecord,
    TrackingRequestRecord,
    TransportEventRecord,
)
from .webhooks.records import NotificationLogRecord, NotificationRecord, Reference, WebhookRecord

__all__ = [
    "ContainerRecord",
    "ContainerUpdatedEventRecord",
    "EstimatedEventRecord",
    "MetroAreaRecord",
    "NotificationLogRecord",
    "NotificationRecord",
    "PartyRecord",
    "RawEventRecord",
    "RecordedPosition",
    "Reference",
    "ShipmentRecord",
    "ShippingLineRecord",
    "TerminalRecord",
    "TrackingRequestRecord",
    "TransportEventRecord",
    "VesselRecord",
    "WebhookRecord",
]

"""SQLAlchemy models, one module per concept. Ids are uuid strings so SQLite and PostgreSQL
store them alike. Importing this package maps every table."""

from .accounts import (
    Account,
    ApiKey,
    BrowserSession,
    InstallationSecret,
    Party,
    RateLimitCount,
)
from .base import Base, UTCDateTime, new_id
from .custom_fields import CustomField, CustomFieldDefinition, CustomFieldOption
from .events import ContainerUpdatedEvent, EstimatedEvent, TransportEvent
from .reference import (
    CarrierEvent,
    CarrierEventRef,
    FeedCheckpoint,
    ShippingLine,
    Terminal,
    Vessel,
    VesselPortCall,
    VesselPosition,
)
from .tracking import (
    OPEN_REQUEST_STATUSES,
    Container,
    ListStamp,
    RouteLocation,
    Shipment,
    TrackingRequest,
)
from .webhooks import OutboxEvent, Webhook, WebhookNotification, WebhookNotificationLog

__all__ = [
    "OPEN_REQUEST_STATUSES",
    "Account",
    "ApiKey",
    "Base",
    "BrowserSession",
    "CarrierEvent",
    "CarrierEventRef",
    "Container",
    "ContainerUpdatedEvent",
    "CustomField",
    "CustomFieldDefinition",
    "CustomFieldOption",
    "EstimatedEvent",
    "FeedCheckpoint",
    "InstallationSecret",
    "ListStamp",
    "OutboxEvent",
    "Party",
    "RateLimitCount",
    "RouteLocation",
    "Shipment",
    "ShippingLine",
    "Terminal",
    "TrackingRequest",
    "TransportEvent",
    "UTCDateTime",
    "Vessel",
    "VesselPortCall",
    "VesselPosition",
    "Webhook",
    "WebhookNotification",
    "WebhookNotificationLog",
    "new_id",
]

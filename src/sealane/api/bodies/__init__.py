"""JSON Schemas of the request bodies, for the OpenAPI document: each write operation's JSON:API
document with its resource type and its attributes (type, length, values), and no others.

The application layer checks the bodies (the ``.of`` constructors in ``service/``); these schemas
say the same from the same constants, and ``tests/api/test_schemathesis.py`` holds the two to
each other. The rules a schema cannot state (a check digit, an id or a carrier that must exist, a
duplicate, a URL that must resolve) are listed in that suite's docstring.
"""

from .document import COMPONENTS, SCAC, body
from .fields import (
    DEFINITION_CHANGES,
    FIELD_CHANGE,
    NEW_DEFINITION,
    NEW_FIELD,
    NEW_OBJECT_FIELD,
    NEW_OPTION,
    OBJECT_FIELD_CHANGE,
    OPTION_CHANGES,
)
from .tracking import (
    CONTAINER_CHANGES,
    INFER_NUMBER,
    NEW_PARTY,
    NEW_TRACKING_REQUEST,
    PARTY_CHANGES,
    SHIPMENT_CHANGES,
    TRACKING_REQUEST_CHANGES,
)
from .webhooks import NEW_WEBHOOK, TRIAL, WEBHOOK_CHANGES

__all__ = [
    "COMPONENTS",
    "CONTAINER_CHANGES",
    "DEFINITION_CHANGES",
    "FIELD_CHANGE",
    "INFER_NUMBER",
    "NEW_DEFINITION",
    "NEW_FIELD",
    "NEW_OBJECT_FIELD",
    "NEW_OPTION",
    "NEW_PARTY",
    "NEW_TRACKING_REQUEST",
    "NEW_WEBHOOK",
    "OBJECT_FIELD_CHANGE",
    "OPTION_CHANGES",
    "PARTY_CHANGES",
    "SCAC",
    "SHIPMENT_CHANGES",
    "TRACKING_REQUEST_CHANGES",
    "TRIAL",
    "WEBHOOK_CHANGES",
    "body",
]

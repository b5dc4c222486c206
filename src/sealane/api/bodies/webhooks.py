"""Bodies of the webhook operations: a subscription to create or change, and a test delivery."""

from __future__ import annotations

from typing import Any

from ...service.webhooks.trials import MAX_SECRET_CHARS
from ...vocabulary.webhooks import FORBIDDEN_HEADERS, HEADER_NAME, MAX_HEADERS, SECRET_PREFIX
from ..regexes import any_case, nullable
from .document import ref, resource

#: A URL the delivery policy may accept: the policy (https, a host that resolves to a public
#: address) is checked when the URL is given (422 ``unsafe_url``).
URL: dict[str, Any] = {
    "type": "string",
    "format": "uri",
    "maxLength": 2048,
    "pattern": "^https?://",
    "description": "https, to a host that resolves to public addresses only",
}
_HEADER = {
    "type": "object",
    "required": ["name", "value"],
    "additionalProperties": False,
    "properties": {
        "name": {
            "type": "string",
            "pattern": HEADER_NAME.pattern,
            "not": {"pattern": any_case(FORBIDDEN_HEADERS)},
            "description": "not a hop-by-hop, framing, identity or signature header",
        },
        "value": {"type": "string", "maxLength": 1024, "pattern": r"^[\x20-\x7e]*$"},
    },
}
_ATTRIBUTES: dict[str, Any] = {
    "url": URL,
    "events": {
        "type": "array",
        "minItems": 1,
        "uniqueItems": True,
        "items": ref("EventName"),
        "description": "left out of a new webhook: every event",
    },
    "active": {"type": "boolean"},
    "headers": nullable({"type": "array", "maxItems": MAX_HEADERS, "items": _HEADER}),
}

_EXAMPLE_URL = "https://hooks.example.com/sealane"
NEW_WEBHOOK = resource(
    "webhook",
    _ATTRIBUTES,
    required=("url",),
    example={"url": _EXAMPLE_URL, "events": ["container.transport.vessel_arrived"]},
)
WEBHOOK_CHANGES = resource("webhook", _ATTRIBUTES, update=True)

#: A Standard Webhooks secret: the prefix, then base64 of at least 16 bytes.
_B64 = "[A-Za-z0-9+/]"
SECRET = {
    "type": "string",
    "maxLength": MAX_SECRET_CHARS,
    "pattern": f"^{SECRET_PREFIX}({_B64}{{4}}){{5,}}({_B64}{{4}}|{_B64}{{3}}=|{_B64}{{2}}==)$",
}
#: ``POST /webhooks/trigger``: a plain object (as the reference API has it).
TRIAL: dict[str, Any] = {
    "type": "object",
    "required": ["url", "event"],
    "properties": {
        "url": URL,
        "event": ref("EventName"),
        "secret": nullable(SECRET),
    },
    "examples": [{"url": _EXAMPLE_URL, "event": "container.transport.vessel_arrived"}],
}

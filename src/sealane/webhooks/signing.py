"""Standard Webhooks signatures: ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from ..vocabulary.webhooks import SECRET_PREFIX


def new_secret() -> str:
    """A fresh signing secret in the Standard Webhooks form (``whsec_`` + base64 of 24 bytes)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header value for one delivery.

    >>> signature("whsec_" + base64.b64encode(b"k" * 24).decode(), "msg_1", 1, b"{}")[:3]
    'v1,'
    """
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signed_headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The three Standard Webhooks headers."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(secret, message_id, timestamp, body),
    }

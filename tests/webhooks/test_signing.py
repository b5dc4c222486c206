"""Standard Webhooks signatures, checked by the independent ``standardwebhooks`` library."""

from __future__ import annotations

import base64
import re
import time
from datetime import UTC, datetime

import pytest
from standardwebhooks.webhooks import Webhook as StandardWebhook
from standardwebhooks.webhooks import WebhookVerificationError

from sealane.webhooks.signing import new_secret, signature, signed_headers

BODY = b'{"data":{"id":"n1","type":"webhook_notification"},"included":[]}'


def test_new_secret__whsec_and_24_random_bytes() -> None:
    secret = new_secret()
    assert re.fullmatch(r"whsec_[A-Za-z0-9+/]{32}", secret), secret
    assert len(base64.b64decode(secret.removeprefix("whsec_"))) == 24
    assert new_secret() != secret


def test_signed_headers__verified_by_standardwebhooks() -> None:
    secret = new_secret()
    now = int(time.time())
    headers = signed_headers(secret, "msg_1", now, BODY)
    assert set(headers) == {"webhook-id", "webhook-timestamp", "webhook-signature"}
    assert headers["webhook-id"] == "msg_1"
    assert headers["webhook-timestamp"] == str(now)
    assert StandardWebhook(secret).verify(BODY, headers) == {
        "data": {"id": "n1", "type": "webhook_notification"},
        "included": [],
    }


def test_signature__same_as_the_reference_signer() -> None:
    secret = new_secret()
    reference = StandardWebhook(secret)
    moment = datetime.fromtimestamp(1_700_000_000, UTC)
    assert signature(secret, "msg_2", 1_700_000_000, BODY) == reference.sign(
        "msg_2", moment, BODY.decode()
    )


@pytest.mark.parametrize(
    ("change", "value"),
    [
        ("webhook-id", "msg_other"),
        ("webhook-timestamp", "OFFSET"),
        ("webhook-signature", "v1,AAAA"),
    ],
)
def test_signed_headers__a_changed_header_fails_verification(change: str, value: str) -> None:
    secret = new_secret()
    now = int(time.time())
    headers = signed_headers(secret, "msg_1", now, BODY)
    headers[change] = str(now - 1) if value == "OFFSET" else value
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(secret).verify(BODY, headers)


def test_signed_headers__a_changed_body_fails_verification() -> None:
    secret = new_secret()
    headers = signed_headers(secret, "msg_1", int(time.time()), BODY)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(secret).verify(BODY.replace(b"n1", b"n2"), headers)


def test_signed_headers__another_secret_fails_verification() -> None:
    headers = signed_headers(new_secret(), "msg_1", int(time.time()), BODY)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(new_secret()).verify(BODY, headers)

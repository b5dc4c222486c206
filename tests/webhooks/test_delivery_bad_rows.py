"""One account's bad webhook never stalls delivery for anybody else.

Regression: ``https://93.184.215.14/\\x7f`` was accepted (201), and the worker then raised
``httpx.InvalidURL`` while building the request, outside its ``try``: the whole claimed batch
aborted, other accounts' notifications stayed pending and were later sent twice.
"""

from __future__ import annotations

import uuid

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from sealane.store.database import transaction
from sealane.store.models import Webhook
from sealane.webhooks.urlpolicy import UnsafeUrl, check_url

from .receiver import receiving
from .support import deliver, emit_event, logs, notifications
from .world import World, world_on

CONTROL_URLS = [
    "https://93.184.215.14/\x7f",
    "https://93.184.215.14/\x00",
    "https://93.184.215.14/\x01",
    "https://93.184.215.14/a b",
    "https://exa\x00mple.com/",
    "https://93.184.215.14/a\u0085b",
]


@pytest.mark.parametrize("url", CONTROL_URLS)
def test_check_url__control_characters_refused(url: str) -> None:
    with pytest.raises(UnsafeUrl, match=r"control characters|spaces"):
        check_url(url, allow_private=True, resolver=lambda host, port: ["93.184.215.14"])


@pytest.mark.parametrize("url", CONTROL_URLS[:3])
def test_create_webhook__control_characters_422_unsafe_url(world: World, url: str) -> None:
    response = world.client.post(
        "/v2/webhooks",
        json={
            "data": {"type": "webhook", "attributes": {"url": url, "events": ["container.created"]}}
        },
        headers={
            "Authorization": f"Token {world.key}",
            "Content-Type": "application/vnd.api+json",
        },
    )
    assert response.status_code == 422
    (error,) = response.json()["errors"]
    assert error["code"] == "unsafe_url"
    assert error["source"] == {"pointer": "/data/attributes/url"}


@pytest.mark.parametrize(
    "corruption",
    [{"url": "\x7f"}, {"secret": "whsec_not*base64"}],
    ids=["url-with-control-character", "secret-not-base64"],
)
def test_worker__a_corrupt_row_fails_alone(
    world: World, app: FastAPI, corruption: dict[str, str]
) -> None:
    """A webhook stored before today's rules (a URL the client cannot build, a secret that does
    not decode) gets failed attempts; every other notification in the same batch is delivered
    exactly once."""
    with receiving() as receiver, world_on(app, "Second Co") as other:
        bad = world.webhook(receiver.url)
        good = other.webhook(receiver.url)
        values = {"url": receiver.url + corruption["url"]} if "url" in corruption else corruption
        with transaction(app.state.sealane.sessions) as session:
            session.execute(update(Webhook).where(Webhook.id == bad["id"]).values(**values))
        for _ in range(25):  # events about distinct objects, so none is deduplicated
            emit_event(app, other.account, str(uuid.uuid4()))
            emit_event(app, world.account, str(uuid.uuid4()))
        assert deliver(app) == 50
        by_webhook: dict[str, list[str]] = {}
        for notification in notifications(app):
            by_webhook.setdefault(notification.webhook_id, []).append(notification.delivery_status)
        assert by_webhook[good["id"]] == ["succeeded"] * 25
        assert by_webhook[bad["id"]] == ["pending"] * 25  # retried on schedule, not lost
        assert len(receiver.received) == 25  # each good one exactly once
        bad_logs = [
            log for n in notifications(app) if n.webhook_id == bad["id"] for log in logs(app, n.id)
        ]
        assert len(bad_logs) == 25
        assert all(log.error and log.status_code is None for log in bad_logs)

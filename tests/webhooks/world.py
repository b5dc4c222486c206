"""A test world: an app with a client, one account and a tracking request that events point at."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.store.models import WebhookNotification
from tests.toolkit import Scenario

from .support import (
    create_webhook,
    deliver,
    emit_event,
    only_notification,
    patch_webhook,
)


@dataclass(frozen=True)
class World:
    """One account of ``app``, reached through ``client``."""

    app: FastAPI
    client: TestClient
    key: str
    account: str
    request_id: str

    def webhook(self, url: str, events: list[str] | None = None, **attributes: Any) -> Any:
        """Create a webhook through the API; its resource object (with the secret)."""
        return create_webhook(self.client, self.key, url, events, **attributes)

    def patch(self, webhook_id: str, **attributes: Any) -> Any:
        return patch_webhook(self.client, self.key, webhook_id, **attributes)

    def event(self, event: str = "tracking_request.succeeded") -> None:
        """The tracking request's ``event`` enters the outbox."""
        emit_event(self.app, self.account, self.request_id, event)

    def deliver(self) -> int:
        return deliver(self.app)

    def advance(self, seconds: float) -> None:
        self.app.state.sealane.clock.advance(seconds)

    def notification(self) -> WebhookNotification:
        return only_notification(self.app)

    def until_due(self) -> None:
        """Move the clock to the only notification's next attempt."""
        due = self.notification().next_attempt_at
        assert due is not None
        now = self.app.state.sealane.clock.now()
        self.advance(max((due - now).total_seconds(), 0.0) + 0.001)

    def seconds_to_next_attempt(self) -> float:
        due = self.notification().next_attempt_at
        assert due is not None
        delta: timedelta = due - self.app.state.sealane.clock.now()
        return delta.total_seconds()


@contextmanager
def world_on(app: FastAPI, name: str = "Hooks Co") -> Iterator[World]:
    """A :class:`World` on ``app`` with a new account (the client runs the app's lifespan)."""
    scenario = Scenario.on(app)
    key = scenario.account(name, routing=True)
    with TestClient(app, raise_server_exceptions=False) as client:
        request_id = scenario.with_client(client).track(name, "TEST-TR-SUCCEEDED")
        yield World(app, client, key.secret, key.account_id, request_id)

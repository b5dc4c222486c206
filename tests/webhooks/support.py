"""Helpers of the webhook tests: an app that may call 127.0.0.1, webhooks made through the API,
events put in the outbox the way the tracking service does, and reads of the stored rows."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook as StandardWebhook

from sealane.api.app import create_app
from sealane.clock import Clock
from sealane.config import Settings
from sealane.store.accounts import account_for_key
from sealane.store.database import transaction
from sealane.store.models import (
    WebhookNotification,
    WebhookNotificationLog,
)
from sealane.tracking.carrier_sync import emit
from sealane.webhooks.notifications import fan_out
from tests.api.jsonapi_asserts import JSONAPI
from tests.toolkit import auth

from .receiver import Received

#: A short retry schedule (seconds): four attempts in all.
SCHEDULE = (1, 1, 1)
#: The worker multiplies each delay by a jitter factor in [0.9, 1.1].
JITTER = (0.9, 1.1)


def private_settings(settings: Settings, schedule: tuple[int, ...] = SCHEDULE) -> Settings:
    """``settings`` allowing http and 127.0.0.1 receivers, with a short retry schedule."""
    return replace(settings, webhook_allow_private=True, webhook_retry_schedule=schedule)


def private_app(settings: Settings, clock: Clock, schedule: tuple[int, ...] = SCHEDULE) -> FastAPI:
    """An app on ``settings`` whose webhooks may call local receivers."""
    return create_app(private_settings(settings, schedule), clock=clock)


def close_app(app: FastAPI) -> None:
    """Release the app's delivery worker and database connections."""
    app.state.sealane.webhooks.close()
    app.state.sealane.engine.dispose()


def write_headers(key: str) -> dict[str, str]:
    return {**auth(key), "Content-Type": JSONAPI}


def webhook_document(**attributes: Any) -> dict[str, Any]:
    return {"data": {"type": "webhook", "attributes": attributes}}


def create_webhook(
    client: TestClient,
    key: str,
    url: str,
    events: list[str] | None = None,
    **attributes: Any,
) -> dict[str, Any]:
    """POST a webhook that must be accepted; its resource object (with the secret)."""
    events = events if events is not None else ["tracking_request.succeeded"]
    response = client.post(
        "/v2/webhooks",
        json=webhook_document(url=url, events=events, **attributes),
        headers=write_headers(key),
    )
    assert response.status_code == 201, response.text[:500]
    data: dict[str, Any] = response.json()["data"]
    return data


def patch_webhook(client: TestClient, key: str, webhook_id: str, **attributes: Any) -> Any:
    response = client.patch(
        f"/v2/webhooks/{webhook_id}",
        json={"data": {"type": "webhook", "id": webhook_id, "attributes": attributes}},
        headers=write_headers(key),
    )
    assert response.status_code == 200, response.text[:500]
    return response.json()["data"]


def account_id(app: FastAPI, key: str) -> str:
    with app.state.sealane.sessions() as session:
        account = account_for_key(session, key)
        assert account is not None
        return str(account.id)


def tracking_request(client: TestClient, key: str, number: str = "TEST-TR-SUCCEEDED") -> str:
    """Create a (pending) tracking request; its id, a real object for events to point at."""
    response = client.post(
        "/v2/tracking_requests",
        json={
            "data": {
                "type": "tracking_request",
                "attributes": {
                    "request_type": "bill_of_lading",
                    "request_number": number,
                    "scac": "TEST",
                },
            }
        },
        headers=write_headers(key),
    )
    assert response.status_code == 201, response.text[:500]
    return str(response.json()["data"]["id"])


def emit_event(
    app: FastAPI,
    account: str,
    reference_id: str,
    event: str = "tracking_request.succeeded",
    reference_type: str = "tracking_request",
) -> None:
    """Put one event in the outbox, as the tracking service does."""
    with transaction(app.state.sealane.sessions) as session:
        emit(session, account, event, reference_type, reference_id, app.state.sealane.clock.now())


def fan_out_only(app: FastAPI) -> int:
    """Turn the outbox into notifications without sending anything."""
    state = app.state.sealane
    with transaction(state.sessions) as session:
        return fan_out(session, state.clock.now(), state.webhooks.render)


def deliver(app: FastAPI) -> int:
    """One pass of the app's delivery worker; the number of attempts made."""
    attempts: int = app.state.sealane.webhooks.run_once()
    return attempts


def notifications(app: FastAPI) -> list[WebhookNotification]:
    """Every notification, oldest first."""
    with app.state.sealane.sessions() as session:
        return list(
            session.scalars(
                select(WebhookNotification).order_by(
                    WebhookNotification.created_at, WebhookNotification.id
                )
            )
        )


def only_notification(app: FastAPI) -> WebhookNotification:
    rows = notifications(app)
    assert len(rows) == 1, [(row.event, row.webhook_id) for row in rows]
    return rows[0]


def logs(app: FastAPI, notification_id: str) -> list[WebhookNotificationLog]:
    """The delivery attempts of one notification, in order."""
    with app.state.sealane.sessions() as session:
        return list(
            session.scalars(
                select(WebhookNotificationLog)
                .where(WebhookNotificationLog.notification_id == notification_id)
                .order_by(WebhookNotificationLog.attempt)
            )
        )


def verify(secret: str, received: Received) -> Any:
    """The body, after the independent Standard Webhooks library has checked the signature."""
    return StandardWebhook(secret).verify(received.body, received.headers)

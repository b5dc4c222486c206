"""Helpers shared by the tracking tests: creating requests through the API, ticking, the outbox."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from sealane.clock import ManualClock
from sealane.store.models import ContainerUpdatedEvent, OutboxEvent, TrackingRequest
from tests.api.jsonapi_asserts import JSONAPI
from tests.toolkit import auth

HOUR = 3600.0
DAY = 24 * HOUR
#: A valid ISO 6346 number whose simulated voyage is CNSHA -> SGSIN -> USSAV with one container.
CONTAINER = "CSQU3054383"


def write_headers(key: str) -> dict[str, str]:
    """Headers of a write request by the holder of ``key``."""
    return {**auth(key), "Content-Type": JSONAPI}


def request_document(
    request_type: str, number: str, scac: str = "TEST", **attributes: Any
) -> dict[str, Any]:
    """A tracking request creation document."""
    return {
        "data": {
            "type": "tracking_request",
            "attributes": {
                "request_type": request_type,
                "request_number": number,
                "scac": scac,
                **attributes,
            },
        }
    }


def create_request(
    client: TestClient,
    key: str,
    number: str,
    *,
    request_type: str = "bill_of_lading",
    scac: str = "TEST",
    **attributes: Any,
) -> dict[str, Any]:
    """POST a tracking request that must be accepted; its resource object."""
    response = client.post(
        "/v2/tracking_requests",
        json=request_document(request_type, number, scac, **attributes),
        headers=write_headers(key),
    )
    assert response.status_code == 201, response.text[:500]
    data: dict[str, Any] = response.json()["data"]
    return data


def get_json(client: TestClient, key: str, url: str, **params: Any) -> Any:
    """GET ``url`` that must answer 200; the body."""
    response = client.get(url, params=params, headers=auth(key))
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-type"] == JSONAPI
    return response.json()


def patch_json(client: TestClient, key: str, url: str, body: Any = None) -> Any:
    """PATCH ``url`` (with a JSON:API body or none) that must answer 200; the body."""
    if body is None:
        response = client.patch(url, headers=write_headers(key))
    else:
        response = client.patch(url, json=body, headers=write_headers(key))
    assert response.status_code == 200, response.text[:500]
    return response.json()


def tick(app: FastAPI) -> None:
    """One pass of the tracking service at the app clock's time."""
    app.state.sealane.tracking.tick()


def advance(app: FastAPI, clock: ManualClock, seconds: float) -> None:
    """Move time forward, then run one pass."""
    clock.advance(seconds)
    tick(app)


def outbox(app: FastAPI) -> list[OutboxEvent]:
    """Every outbox row, in insertion order."""
    with app.state.sealane.sessions() as session:
        return list(session.scalars(select(OutboxEvent).order_by(OutboxEvent.id)))


def outbox_counts(app: FastAPI) -> Counter[tuple[str, str, str]]:
    """Outbox rows counted by (event, reference_type, reference_id)."""
    return Counter((row.event, row.reference_type, row.reference_id) for row in outbox(app))


def containers_created(app: FastAPI) -> Counter[str]:
    """How many ``container.created`` events each container has (by container id): each one
    refers to a container-updated event (empty changeset) of that container."""
    with app.state.sealane.sessions() as session:
        rows = session.scalars(
            select(ContainerUpdatedEvent.container_id).join(
                OutboxEvent,
                (OutboxEvent.reference_id == ContainerUpdatedEvent.id)
                & (OutboxEvent.reference_type == "container_updated_event")
                & (OutboxEvent.event == "container.created"),
            )
        ).all()
    return Counter(rows)


def stored_request(app: FastAPI, request_id: str) -> TrackingRequest:
    """The tracking request row, freshly read."""
    with app.state.sealane.sessions() as session:
        row = session.get(TrackingRequest, request_id)
        assert row is not None
        return row


def retry_until_settled(app: FastAPI, clock: ManualClock, request_id: str) -> list[TrackingRequest]:
    """Tick, then jump to the request's next attempt, until none is due; each state seen."""
    seen = []
    for _ in range(20):
        tick(app)
        row = stored_request(app, request_id)
        seen.append(row)
        if row.next_attempt_at is None:
            return seen
        clock.advance(max((row.next_attempt_at - clock.now()).total_seconds(), 0.0))
    raise AssertionError(f"request {request_id} still retrying after 20 attempts")


def run_until(
    app: FastAPI, clock: ManualClock, end: datetime, step_s: float = 6 * HOUR
) -> Iterator[datetime]:
    """Advance in steps of ``step_s`` and tick, up to the first step at or after ``end``."""
    while clock.now() < end:
        advance(app, clock, step_s)
        yield clock.now()

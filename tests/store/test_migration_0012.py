"""Migration 0012 on a database with data (SQLite and PostgreSQL): outbox rows stored before it
are each the first occurrence of their event; a downgrade drops the later occurrences together
with the notifications made from them, on SQLite too, where migrations run without foreign keys."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from sealane.store.migrate import downgrade, upgrade

AT = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
ACCOUNT = "11111111-1111-4111-8111-111111111111"
REQUEST = "22222222-2222-4222-8222-222222222222"
WEBHOOK = "44444444-4444-4444-8444-444444444444"
STOPPED = "tracking_request.tracking_stopped"


def insert(connection: sa.Connection, table: str, **values: Any) -> None:
    columns = ", ".join(values)
    marks = ", ".join(f":{name}" for name in values)
    connection.execute(sa.text(f"INSERT INTO {table} ({columns}) VALUES ({marks})"), values)


def stamp(engine: Engine) -> datetime:
    return AT.replace(tzinfo=None) if engine.dialect.name == "sqlite" else AT


def outbox_row(connection: sa.Connection, at: datetime, **occurrence: int) -> int:
    insert(
        connection,
        "outbox_events",
        account_id=ACCOUNT,
        event=STOPPED,
        reference_type="tracking_request",
        reference_id=REQUEST,
        created_at=at,
        **occurrence,
    )
    found = connection.scalar(sa.text("SELECT max(id) FROM outbox_events"))
    assert found is not None
    return int(found)


def notify(connection: sa.Connection, at: datetime, outbox_id: int, key: str) -> None:
    insert(
        connection,
        "webhook_notifications",
        id=key,
        account_id=ACCOUNT,
        webhook_id=WEBHOOK,
        outbox_event_id=outbox_id,
        event=STOPPED,
        reference_type="tracking_request",
        reference_id=REQUEST,
        delivery_status="succeeded",
        attempts=1,
        payload="{}",
        created_at=at,
        updated_at=at,
    )
    insert(
        connection,
        "webhook_notification_logs",
        id="66666666-6666-4666-8666-" + key[-12:],
        notification_id=key,
        attempt=1,
        attempted_at=at,
        status_code=200,
        duration_ms=1.0,
    )


def seed_at_0011(engine: Engine) -> None:
    """An account with a webhook and a notified tracking_stopped outbox row, as 0011 stored it."""
    at = stamp(engine)
    with engine.begin() as c:
        insert(c, "accounts", id=ACCOUNT, name="A", routing_enabled=False, created_at=at)
        insert(
            c,
            "webhooks",
            id=WEBHOOK,
            account_id=ACCOUNT,
            url="https://example.com/h",
            active=True,
            events=f'["{STOPPED}"]',
            secret="whsec_x",
            headers="[]",
            created_at=at,
            updated_at=at,
        )
        notify(c, at, outbox_row(c, at), "55555555-5555-4555-8555-555555555555")


def counts(engine: Engine) -> tuple[int, ...]:
    """Rows in the outbox, the notifications and their delivery log."""
    with engine.connect() as c:
        return tuple(
            int(c.scalar(sa.text(f"SELECT count(*) FROM {table}")) or 0)
            for table in ("outbox_events", "webhook_notifications", "webhook_notification_logs")
        )


def test_0012__rows_stored_before_it_are_first_occurrences(engine: Engine) -> None:
    upgrade(engine, "0011")
    seed_at_0011(engine)
    upgrade(engine, "0012")
    with engine.connect() as c:
        assert c.scalars(sa.text("SELECT occurrence FROM outbox_events")).all() == [0]
    assert counts(engine) == (1, 1, 1)


def test_0012__downgrade_drops_later_occurrences_with_their_notifications(
    engine: Engine,
) -> None:
    upgrade(engine, "0011")
    seed_at_0011(engine)
    upgrade(engine, "0012")
    with engine.begin() as c:
        again = outbox_row(c, stamp(engine), occurrence=1)
        notify(c, stamp(engine), again, "55555555-5555-4555-8555-555555555556")
    assert counts(engine) == (2, 2, 2)
    downgrade(engine, "0011")
    assert counts(engine) == (1, 1, 1)
    upgrade(engine)  # and up again
    assert counts(engine) == (1, 1, 1)

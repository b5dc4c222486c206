"""Migration 0005 on a database with data (SQLite and PostgreSQL): a ``container.created`` event
that referred to the container itself comes to refer to a container-updated event with an
empty changeset (outbox and notifications alike), and back on a downgrade."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from sealane.store.migrate import downgrade, upgrade

AT = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
IDS = {
    "account": "11111111-1111-4111-8111-111111111111",
    "shipment": "22222222-2222-4222-8222-222222222222",
    "container": "33333333-3333-4333-8333-333333333333",
    "webhook": "44444444-4444-4444-8444-444444444444",
    "notification": "55555555-5555-4555-8555-555555555555",
}


def insert(connection: sa.Connection, table: str, **values: Any) -> None:
    columns = ", ".join(values)
    marks = ", ".join(f":{name}" for name in values)
    connection.execute(sa.text(f"INSERT INTO {table} ({columns}) VALUES ({marks})"), values)


def seed_at_0003(engine: Engine) -> None:
    """An account with a shipment, its container, the container.created outbox row and its
    notification, as revision 0003 stored them."""
    stamp = AT.replace(tzinfo=None) if engine.dialect.name == "sqlite" else AT
    with engine.begin() as c:
        insert(c, "accounts", id=IDS["account"], name="A", routing_enabled=False, created_at=stamp)
        insert(
            c,
            "shipments",
            id=IDS["shipment"],
            account_id=IDS["account"],
            ref_numbers="[]",
            shipping_line_scac="TEST",
            port_of_lading_locode="CNSHA",
            port_of_discharge_locode="NLRTM",
            transshipment_locodes="[]",
            carrier_request_type="bill_of_lading",
            carrier_number="BL-1",
            carrier_epoch=stamp,
            created_at=stamp,
            updated_at=stamp,
        )
        insert(
            c,
            "containers",
            id=IDS["container"],
            account_id=IDS["account"],
            shipment_id=IDS["shipment"],
            number="CSQU3054383",
            equipment_type="dry",
            equipment_length=40,
            equipment_height="standard",
            weight_in_lbs=1000,
            current_status="new",
            ref_numbers="[]",
            fees_at_pod_terminal="[]",
            holds_at_pod_terminal="[]",
            availability_known=False,
            created_at=stamp,
            updated_at=stamp,
        )
        insert(
            c,
            "outbox_events",
            account_id=IDS["account"],
            event="container.created",
            reference_type="container",
            reference_id=IDS["container"],
            created_at=stamp,
        )
        outbox_id = c.scalar(sa.text("SELECT id FROM outbox_events"))
        insert(
            c,
            "webhooks",
            id=IDS["webhook"],
            account_id=IDS["account"],
            url="https://example.com/h",
            active=True,
            events='["container.created"]',
            secret="whsec_x",
            headers="[]",
            created_at=stamp,
            updated_at=stamp,
        )
        insert(
            c,
            "webhook_notifications",
            id=IDS["notification"],
            account_id=IDS["account"],
            webhook_id=IDS["webhook"],
            outbox_event_id=outbox_id,
            event="container.created",
            reference_type="container",
            reference_id=IDS["container"],
            delivery_status="succeeded",
            attempts=1,
            payload="{}",
            created_at=stamp,
            updated_at=stamp,
        )


def references(engine: Engine) -> set[tuple[str, str]]:
    with engine.connect() as c:
        rows = c.execute(
            sa.text(
                "SELECT reference_type, reference_id FROM outbox_events UNION "
                "SELECT reference_type, reference_id FROM webhook_notifications"
            )
        ).all()
    return {(row[0], row[1]) for row in rows}


def test_0005__container_created_refers_to_a_container_updated_event(engine: Engine) -> None:
    upgrade(engine, "0003")
    seed_at_0003(engine)
    upgrade(engine, "0005")
    [(kind, event_id)] = references(engine)
    assert kind == "container_updated_event"
    with engine.connect() as c:
        row = c.execute(
            sa.text(
                "SELECT container_id, changeset, data_source FROM container_updated_events "
                "WHERE id = :id"
            ),
            {"id": event_id},
        ).one()
    changeset = row[1] if isinstance(row[1], dict) else json.loads(row[1])
    assert (row[0], changeset, row[2]) == (IDS["container"], {}, "terminal")


def test_0005__downgrade_restores_the_container_reference(engine: Engine) -> None:
    upgrade(engine, "0003")
    seed_at_0003(engine)
    upgrade(engine, "0005")
    downgrade(engine, "0003")
    assert references(engine) == {("container", IDS["container"])}
    with engine.connect() as c:
        assert c.scalar(sa.text("SELECT count(*) FROM container_updated_events")) == 0

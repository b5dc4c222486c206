"""Migration 0016 on a database with data (SQLite and PostgreSQL): a port stored under a code
that is now an alias of an official port (searoute's MATNG for Tanger Med) is stored under the
official code afterwards, in plain code columns and in a shipment's transshipment list; other
codes are left alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine

from sealane.store.migrate import upgrade

AT = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
ACCOUNT = "11111111-1111-4111-8111-111111111111"
SHIPMENT = "33333333-3333-4333-8333-333333333333"


def insert(connection: sa.Connection, table: str, **values: Any) -> None:
    columns = ", ".join(values)
    marks = ", ".join(f":{name}" for name in values)
    connection.execute(sa.text(f"INSERT INTO {table} ({columns}) VALUES ({marks})"), values)


def seed_at_0015(engine: Engine) -> None:
    """A shipment Tanger Med -> Dammam via Seville and Singapore, and a terminal at Tanger Med,
    all under searoute's codes as 0015 stored them."""
    at = AT.replace(tzinfo=None) if engine.dialect.name == "sqlite" else AT
    with engine.begin() as c:
        insert(c, "accounts", id=ACCOUNT, name="A", routing_enabled=False, created_at=at)
        insert(
            c,
            "shipments",
            id=SHIPMENT,
            account_id=ACCOUNT,
            ref_numbers="[]",
            shipping_line_scac="TEST",
            port_of_lading_locode="MATNG",
            port_of_discharge_locode="SADMN",
            transshipment_locodes=json.dumps(["ESSEV", "SGSIN"]),
            carrier_request_type="bill_of_lading",
            carrier_number="TEST1",
            carrier_epoch=at,
            created_at=at,
            updated_at=at,
        )
        for key, code in (("t-maptm", "MATNG"), ("t-nlrtm", "NLRTM")):
            insert(c, "terminals", id=key, name=key, port_locode=code, lon=0.0, lat=0.0)


def test_0016__alias_codes_stored_before_become_the_official_codes(engine: Engine) -> None:
    upgrade(engine, "0015_port_call_berthing")
    seed_at_0015(engine)
    upgrade(engine, "0016_official_port_codes")
    with engine.connect() as c:
        row = c.execute(
            sa.text(
                "SELECT port_of_lading_locode, port_of_discharge_locode, transshipment_locodes "
                "FROM shipments"
            )
        ).one()
        terminals = dict(c.execute(sa.text("SELECT id, port_locode FROM terminals")).all())
    lading, discharge, stored = row
    via = json.loads(stored) if isinstance(stored, str) else stored
    assert (lading, discharge, via) == ("MAPTM", "SADMM", ["ESSVQ", "SGSIN"])
    assert terminals == {"t-maptm": "MAPTM", "t-nlrtm": "NLRTM"}

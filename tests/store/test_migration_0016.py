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


def seed_codes(engine: Engine, lading: str, discharge: str, via: list[str], terminal: str) -> None:
    """A shipment ``lading`` -> ``discharge`` through ``via``, and terminals at ``terminal``
    (id ``t-<code>``) and at NLRTM, stored under these codes."""
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
            port_of_lading_locode=lading,
            port_of_discharge_locode=discharge,
            transshipment_locodes=json.dumps(via),
            carrier_request_type="bill_of_lading",
            carrier_number="TEST1",
            carrier_epoch=at,
            created_at=at,
            updated_at=at,
        )
        for key, code in ((f"t-{terminal.lower()}", terminal), ("t-nlrtm", "NLRTM")):
            insert(c, "terminals", id=key, name=key, port_locode=code, lon=0.0, lat=0.0)


def stored_codes(engine: Engine) -> tuple[str, str, list[str], dict[str, str]]:
    """The shipment's lading, discharge and transshipment codes, and each terminal's code."""
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
    return lading, discharge, via, terminals


def test_0016__alias_codes_stored_before_become_the_official_codes(engine: Engine) -> None:
    # Tanger Med -> Dammam via Seville and Singapore, under searoute's codes as 0015 stored them
    upgrade(engine, "0015_port_call_berthing")
    seed_codes(engine, "MATNG", "SADMN", ["ESSEV", "SGSIN"], "MATNG")
    upgrade(engine, "0016_official_port_codes")
    assert stored_codes(engine) == (
        "MAPTM",
        "SADMM",
        ["ESSVQ", "SGSIN"],
        {"t-matng": "MAPTM", "t-nlrtm": "NLRTM"},
    )

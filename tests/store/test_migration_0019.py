"""Migration 0019 on a database with data (SQLite and PostgreSQL): a port stored under one of
searoute's codes that the UN/LOCODE list lacks (Perth's ``AUPTH``, now ``AUPER``; ``MGTOA``'s
duplicate ``ASPGO`` of Pago Pago, now ``ASPPG``) is stored under the official code afterwards,
in plain code columns and in a shipment's transshipment list; other codes are left alone."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import Engine

import sealane.store
from sealane.routing import registry
from sealane.store.migrate import upgrade

from .test_migration_0016 import ACCOUNT, AT, SHIPMENT, insert


def seed_at_0016(engine: Engine) -> None:
    """A shipment Perth -> Pago Pago via Tel Aviv and Singapore, and a terminal at Perth, all
    under searoute's codes as 0016 left them."""
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
            port_of_lading_locode="AUPTH",
            port_of_discharge_locode="ASPGO",
            transshipment_locodes=json.dumps(["ILTAV", "SGSIN"]),
            carrier_request_type="bill_of_lading",
            carrier_number="TEST1",
            carrier_epoch=at,
            created_at=at,
            updated_at=at,
        )
        for key, code in (("t-auper", "AUPTH"), ("t-nlrtm", "NLRTM")):
            insert(c, "terminals", id=key, name=key, port_locode=code, lon=0.0, lat=0.0)


def test_0019__searoute_codes_stored_before_become_the_official_codes(engine: Engine) -> None:
    upgrade(engine, "0016_official_port_codes")
    seed_at_0016(engine)
    upgrade(engine, "0019_official_seaport_codes")
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
    assert (lading, discharge, via) == ("AUPER", "ASPPG", ["ILTLV", "SGSIN"])
    assert terminals == {"t-auper": "AUPER", "t-nlrtm": "NLRTM"}


def test_0019__every_code_it_writes_is_a_port_of_the_registry_under_that_code() -> None:
    path = (
        Path(sealane.store.__file__).parent / "migrations/versions/0019_official_seaport_codes.py"
    )
    spec = importlib.util.spec_from_file_location("migration_0019", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    ports = registry()
    for old, official in migration.ALIASES.items():
        assert ports.get(official).locode == official
        assert ports.get(old).locode == official  # the old code (and its id) still resolves

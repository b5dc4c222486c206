"""Migration 0019 on a database with data (SQLite and PostgreSQL): a port stored under one of
searoute's codes that the UN/LOCODE list lacks (Perth's ``AUPTH``, now ``AUPER``; ``MGTOA``'s
duplicate ``ASPGO`` of Pago Pago, now ``ASPPG``) is stored under the official code afterwards,
in plain code columns and in a shipment's transshipment list; other codes are left alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from sqlalchemy import Engine

import sealane.store
from sealane.routing import registry
from sealane.store.migrate import upgrade

from .test_migration_0016 import seed_codes, stored_codes


def test_0019__searoute_codes_stored_before_become_the_official_codes(engine: Engine) -> None:
    # Perth -> Pago Pago via Tel Aviv and Singapore, under searoute's codes as 0016 left them
    upgrade(engine, "0016_official_port_codes")
    seed_codes(engine, "AUPTH", "ASPGO", ["ILTAV", "SGSIN"], "AUPTH")
    upgrade(engine, "0019_official_seaport_codes")
    assert stored_codes(engine) == (
        "AUPER",
        "ASPPG",
        ["ILTLV", "SGSIN"],
        {"t-aupth": "AUPER", "t-nlrtm": "NLRTM"},
    )


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

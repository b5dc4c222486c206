"""Reference and demo data on SQLite and PostgreSQL: complete, stable ids, idempotent."""

from __future__ import annotations

import csv
import itertools
import uuid
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.routing.data import data_dir
from sealane.store.accounts import account_for_key
from sealane.store.database import transaction
from sealane.store.models import Account, ShippingLine, Terminal, Vessel, VesselPosition
from sealane.store.seed import (
    DEMO_VESSELS,
    REFERENCE_NAMESPACE,
    load_reference_data,
    reference_id,
    seed_demo,
)

from .conftest import START


def csv_rows(name: str) -> list[dict[str, str]]:
    with (data_dir() / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def ids(session: Session, model: type[ShippingLine] | type[Terminal]) -> set[str]:
    return set(session.scalars(select(model.id)))


def count(session: Session, model: type[object]) -> int:
    return session.scalar(select(func.count()).select_from(model)) or 0


def test_reference_id__is_a_stable_uuid5() -> None:
    value = reference_id("terminal", "nlrtm-ect-delta")
    assert value == str(uuid.uuid5(REFERENCE_NAMESPACE, "terminal:nlrtm-ect-delta"))
    assert uuid.UUID(value).version == 5
    assert value == reference_id("terminal", "nlrtm-ect-delta")
    assert value != reference_id("shipping_line", "nlrtm-ect-delta")
    # Pinned: a changed namespace or key format would orphan every stored reference row.
    assert str(REFERENCE_NAMESPACE) == "0b9a4c1e-3f57-5d35-8f0e-5ea1a4e5ea1a"


def test_load_reference_data__loads_every_carrier_and_terminal(
    sessions: sessionmaker[Session],
) -> None:
    carriers, terminals = csv_rows("shipping_lines.csv"), csv_rows("terminals.csv")
    with transaction(sessions) as session:
        load_reference_data(session)
    with sessions() as session:
        assert count(session, ShippingLine) == len(carriers) >= 30
        assert count(session, Terminal) == len(terminals) >= 60
        assert ids(session, ShippingLine) == {
            str(uuid.uuid5(REFERENCE_NAMESPACE, f"shipping_line:{row['scac']}")) for row in carriers
        }
        assert ids(session, Terminal) == {
            str(uuid.uuid5(REFERENCE_NAMESPACE, f"terminal:{row['id_key']}")) for row in terminals
        }
        maersk = session.scalars(select(ShippingLine).where(ShippingLine.scac == "MAEU")).one()
        assert maersk.id == reference_id("shipping_line", "MAEU")
        assert maersk.short_name == "Maersk"
        rotterdam = session.scalars(select(Terminal).where(Terminal.port_locode == "NLRTM")).all()
        assert rotterdam, "expected terminals at Rotterdam"
        # Empty CSV cells are NULL, not ''.
        assert session.scalar(select(func.count()).where(Terminal.firms_code == "")) == 0
        assert session.scalar(select(func.count()).where(Terminal.smdg_code == "")) == 0


def test_load_reference_data__twice_gives_the_same_rows_and_ids(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as session:
        load_reference_data(session)
    with sessions() as session:
        first = (ids(session, ShippingLine), ids(session, Terminal))
    with transaction(sessions) as session:
        load_reference_data(session)
    with sessions() as session:
        assert (ids(session, ShippingLine), ids(session, Terminal)) == first
        assert count(session, ShippingLine) == len(first[0])
        assert count(session, Terminal) == len(first[1])


def test_load_reference_data__restores_edited_rows(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        load_reference_data(session)
    maersk_id = reference_id("shipping_line", "MAEU")
    with transaction(sessions) as session:
        session.get_one(ShippingLine, maersk_id).name = "Edited"
    with transaction(sessions) as session:
        load_reference_data(session)
    with sessions() as session:
        assert session.get_one(ShippingLine, maersk_id).name == "A.P. Moller - Maersk"


def latest_positions(session: Session) -> dict[str, tuple[int, object]]:
    rows = session.execute(
        select(
            VesselPosition.vessel_id,
            func.count(VesselPosition.id),
            func.max(VesselPosition.timestamp),
        ).group_by(VesselPosition.vessel_id)
    ).all()
    return {vessel_id: (n, latest) for vessel_id, n, latest in rows}


def test_seed_demo__accounts_vessels_and_positions(sessions: sessionmaker[Session]) -> None:
    with transaction(sessions) as session:
        keys = seed_demo(session, START)
    assert [name for name, _ in keys] == ["Demo (routing)", "Demo (no routing)"]
    with sessions() as session:
        accounts = {a.name: a for a in session.scalars(select(Account))}
        assert set(accounts) == {"Demo (routing)", "Demo (no routing)"}
        assert accounts["Demo (routing)"].routing_enabled
        assert not accounts["Demo (no routing)"].routing_enabled
        for name, key in keys:
            account = account_for_key(session, key.secret)
            assert account is not None and account.name == name

        vessels = session.scalars(select(Vessel).order_by(Vessel.imo)).all()
        assert [v.imo for v in vessels] == [d.imo for d in DEMO_VESSELS]
        assert len(vessels) == 4
        for vessel in vessels:
            positions = vessel.positions  # ordered by timestamp
            assert 2 <= len(positions) <= 25
            latest = positions[-1]
            assert vessel.position_timestamp is not None
            assert vessel.position_timestamp.tzinfo is not None
            assert latest.timestamp == vessel.position_timestamp
            assert max(p.timestamp for p in positions) == vessel.position_timestamp
            # "the latest at now": every demo leg is longer than the hours already sailed.
            assert vessel.position_timestamp == START
            assert (vessel.latitude, vessel.longitude) == (latest.latitude, latest.longitude)
            assert vessel.navigational_heading_degrees == latest.heading_degrees
            steps = {b.timestamp - a.timestamp for a, b in itertools.pairwise(positions)}
            assert steps == {timedelta(hours=1)}
        latest_by_query = latest_positions(session)
        assert {v.id: v.position_timestamp for v in vessels} == {
            vessel_id: latest for vessel_id, (_, latest) in latest_by_query.items()
        }


def test_seed_demo__again_adds_no_vessels_positions_or_accounts(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as session:
        first_keys = seed_demo(session, START)
    with sessions() as session:
        vessel_ids = set(session.scalars(select(Vessel.id)))
        account_ids = set(session.scalars(select(Account.id)))
        before = latest_positions(session)
    later = START + timedelta(hours=6)
    with transaction(sessions) as session:
        second_keys = seed_demo(session, later)
    with sessions() as session:
        assert set(session.scalars(select(Vessel.id))) == vessel_ids
        assert set(session.scalars(select(Account.id))) == account_ids
        after = latest_positions(session)
        assert {v: n for v, (n, _) in after.items()} == {v: n for v, (n, _) in before.items()}
        assert count(session, VesselPosition) == sum(n for n, _ in before.values())
        assert {latest for _, latest in after.values()} == {later}
        for vessel in session.scalars(select(Vessel)):
            assert vessel.position_timestamp == later
        # Re-seeding issues new keys to the existing accounts; old and new keys all work.
        for (name, old), (same_name, new) in zip(first_keys, second_keys, strict=True):
            assert name == same_name and old.account_id == new.account_id
            assert old.secret != new.secret
            for key in (old, new):
                account = account_for_key(session, key.secret)
                assert account is not None and account.name == name

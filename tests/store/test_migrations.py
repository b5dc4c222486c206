"""Alembic migrations on SQLite and PostgreSQL: upgrade, idempotence, downgrade, model parity."""

from __future__ import annotations

import warnings
from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, create_engine, func, inspect, select, text
from sqlalchemy.exc import SAWarning

from sealane.store.accounts import create_account
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.migrate import alembic_config, downgrade, upgrade
from sealane.store.models import Account, Base, RouteLocation

from .conftest import START

MODEL_TABLES = {
    "accounts",
    "api_keys",
    "web_sessions",
    "installation_secrets",
    "shipping_lines",
    "terminals",
    "vessels",
    "vessel_positions",
    "tracking_requests",
    "shipments",
    "containers",
    "transport_events",
    "estimated_events",
    "container_updated_events",
    "outbox_events",
    "webhooks",
    "webhook_notifications",
    "webhook_notification_logs",
    "rate_limit_counts",
    "vessel_port_calls",
    "feed_checkpoints",
    "carrier_events",
    "carrier_event_refs",
    "parties",
    "custom_field_definitions",
    "custom_field_options",
    "custom_fields",
    "route_locations",
    "list_stamps",
}
ALL_TABLES = MODEL_TABLES | {"alembic_version"}
#: The newest migration.
HEAD = "0019_official_seaport_codes"


def partitions(engine: Engine) -> set[str]:
    """The partitions of partitioned tables (PostgreSQL's monthly ``vessel_positions_*``)."""
    if engine.dialect.name != "postgresql":
        return set()
    query = text(
        "SELECT relname FROM pg_class WHERE relispartition"
        " AND relnamespace = current_schema()::regnamespace"
    )
    with engine.connect() as connection:
        return set(connection.scalars(query))


def tables(engine: Engine) -> set[str]:
    """The tables, partitions left out (they are their parent's storage, not tables of their
    own for the models)."""
    return set(inspect(engine).get_table_names()) - partitions(engine)


def versions(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.scalars(text("SELECT version_num FROM alembic_version")))


def _not_trigram(*found: object) -> bool:
    """``include_object`` of autogenerate: (object, name, kind, reflected, compared to)."""
    _, name, kind = found[:3]
    return not (kind == "index" and isinstance(name, str) and name.endswith("_trgm"))


def schema_differences(engine: Engine) -> list[object]:
    """What autogenerate would change. SQLite cannot reflect the expression index over open
    tracking requests, so it is left out here and checked on its own (``index_sql``); the
    trigram indexes of PostgreSQL (migration 0017, no model declares them) are checked by
    ``test_upgrade_0017__trigram_indexes_on_postgresql``."""
    with warnings.catch_warnings(), engine.connect() as connection:
        warnings.filterwarnings(
            "ignore", "Skipped unsupported reflection of expression-based index", SAWarning
        )
        warnings.filterwarnings(
            "ignore", "autogenerate skipping metadata-specified expression-based index", UserWarning
        )
        parts = partitions(engine)

        def modelled(found: object, name: str | None, kind: str, *rest: object) -> bool:
            return not (kind == "table" and name in parts) and _not_trigram(found, name, kind)

        context = MigrationContext.configure(
            connection,
            opts={
                "compare_type": True,
                "compare_server_default": True,
                "include_object": modelled,
            },
        )
        return list(compare_metadata(context, Base.metadata))


def test_models__cover_exactly_the_migrated_tables() -> None:
    assert set(Base.metadata.tables) == MODEL_TABLES


def test_upgrade__creates_all_tables(engine: Engine) -> None:
    assert tables(engine) == set()
    upgrade(engine)
    assert tables(engine) == ALL_TABLES
    assert versions(engine) == [HEAD]


def test_upgrade__twice_is_a_no_op(engine: Engine) -> None:
    upgrade(engine)
    with transaction(session_factory(engine)) as session:
        create_account(session, "Kept Co", routing=False, now=START)
    upgrade(engine)
    assert tables(engine) == ALL_TABLES
    assert versions(engine) == [HEAD]
    with session_factory(engine)() as session:
        assert session.scalars(select(Account.name)).all() == ["Kept Co"]


def test_downgrade_to_base__drops_the_tables_and_upgrade_works_again(engine: Engine) -> None:
    upgrade(engine)
    downgrade(engine, "base")
    # Alembic keeps its (now empty) version table; every model table is gone.
    assert tables(engine) == {"alembic_version"}
    assert versions(engine) == []
    upgrade(engine)
    assert tables(engine) == ALL_TABLES
    assert versions(engine) == [HEAD]
    with transaction(session_factory(engine)) as session:
        create_account(session, "Again Co", routing=True, now=START)
    with session_factory(engine)() as session:
        assert session.scalar(select(func.count()).select_from(Account)) == 1


def test_migrated_schema__matches_the_models(engine: Engine) -> None:
    upgrade(engine)
    assert schema_differences(engine) == []


def test_migrated_schema__after_downgrade_and_upgrade_still_matches(engine: Engine) -> None:
    upgrade(engine)
    downgrade(engine, "base")
    upgrade(engine)
    assert schema_differences(engine) == []


def test_make_engine__plain_postgresql_scheme_uses_psycopg(postgres_database_url: str) -> None:
    plain = "postgresql://" + postgres_database_url.partition("://")[2]
    engine = make_engine(plain)
    try:
        assert engine.dialect.driver == "psycopg"
        upgrade(engine)
        assert tables(engine) == ALL_TABLES
    finally:
        engine.dispose()


def test_alembic_config__url_with_percent_encoded_password() -> None:
    """Regression: a URL with % (encoded password, socket host) broke Alembic's config parser."""
    engine = create_engine("postgresql+psycopg://user:p%40ss%25word@db.example/sealane")
    try:
        config = alembic_config(engine)
        assert config.attributes["engine"] is engine
        assert config.get_main_option("sqlalchemy.url") is None  # env.py uses the engine
    finally:
        engine.dispose()


def test_upgrade__url_with_socket_host(fresh_postgres_url: str) -> None:
    engine = make_engine(fresh_postgres_url)
    try:
        upgrade(engine)
        assert tables(engine) == ALL_TABLES
    finally:
        engine.dispose()


def test_schema_comparison__does_detect_drift(engine: Engine) -> None:
    """The parity check above is not vacuous: a dropped index shows up as a difference."""
    upgrade(engine)
    with engine.begin() as connection:
        connection.execute(text("DROP INDEX ix_vessels_name"))
    differences = schema_differences(engine)
    assert [d[0] for d in differences if isinstance(d, tuple)] == ["add_index"]


def index_sql(engine: Engine, name: str) -> str:
    """The definition of index ``name`` as the database keeps it."""
    query = (
        "SELECT sql FROM sqlite_master WHERE name = :name"
        if engine.dialect.name == "sqlite"
        else "SELECT indexdef FROM pg_indexes WHERE indexname = :name"
    )
    with engine.connect() as connection:
        return str(connection.scalar(text(query), {"name": name}) or "")


def test_upgrade__open_request_index_is_unique_partial_and_case_insensitive(engine: Engine) -> None:
    upgrade(engine)
    definition = index_sql(engine, "uq_tracking_requests_open").lower()
    assert "unique" in definition
    assert "upper(" in definition
    assert "where" in definition and "awaiting_manifest" in definition


def test_upgrade_0004__duplicates_stored_before_it_fail_except_the_oldest(engine: Engine) -> None:
    upgrade(engine, "0003")
    account = "a0000000-0000-4000-8000-000000000001"
    with engine.begin() as connection:  # the models describe the newest schema: plain SQL here
        connection.execute(
            text(
                "INSERT INTO accounts (id, name, routing_enabled, created_at)"
                " VALUES (:id, 'Twice Co', :no, :at)"
            ),
            {"id": account, "no": False, "at": "2026-11-21 12:00:00"},
        )
    rows = [
        ("a", "MAEU123", "pending", "2026-11-21 12:00:00"),
        ("b", "maeu123", "created", "2026-11-21 12:00:01"),
        ("c", "MAEU123", "awaiting_manifest", "2026-11-21 12:00:02"),
        ("d", "MAEU123", "failed", "2026-11-21 11:00:00"),
        ("e", "OTHER", "pending", "2026-11-21 12:00:03"),
    ]
    insert = text(
        "INSERT INTO tracking_requests (id, account_id, request_type, request_number, scac,"
        " status, is_retrying, retry_count, ref_numbers, tags, created_at, updated_at)"
        " VALUES (:id, :account, 'bill_of_lading', :number, 'MAEU', :status, :no, 0, '[]', '[]',"
        " :at, :at)"
    )
    with engine.begin() as connection:
        for id_, number, status, at in rows:
            connection.execute(
                insert,
                {
                    "id": id_,
                    "account": account,
                    "number": number,
                    "status": status,
                    "at": at,
                    "no": False,
                },
            )
    upgrade(engine)
    query = text("SELECT id, status || '/' || coalesce(failed_reason, '') FROM tracking_requests")
    with engine.connect() as connection:
        found = {row[0]: row[1] for row in connection.execute(query)}
    assert found == {
        "a": "pending/",
        "b": "failed/duplicate",
        "c": "failed/duplicate",
        "d": "failed/",
        "e": "pending/",
    }


def test_upgrade_0010__duplicate_positions_keep_the_first_by_id(engine: Engine) -> None:
    upgrade(engine, "0009_rate_limit_counts")
    with engine.begin() as connection:  # the models describe the newest schema: plain SQL here
        for vessel in ("v1", "v2"):
            connection.execute(
                text("INSERT INTO vessels (id, name) VALUES (:id, 'Twice')"), {"id": vessel}
            )
        insert = text(
            "INSERT INTO vessel_positions (id, vessel_id, latitude, longitude, timestamp)"
            " VALUES (:id, :vessel, 0, 0, :at)"
        )
        for id_, vessel, at in [
            ("c", "v1", "2026-11-21 12:00:00"),
            ("a", "v1", "2026-11-21 12:00:00"),
            ("b", "v1", "2026-11-21 12:00:00"),
            ("d", "v1", "2026-11-21 13:00:00"),
            ("e", "v2", "2026-11-21 12:00:00"),
        ]:
            connection.execute(insert, {"id": id_, "vessel": vessel, "at": at})
    upgrade(engine)
    with engine.connect() as connection:
        kept = set(connection.scalars(text("SELECT id FROM vessel_positions")))
    assert kept == {"a", "d", "e"}


def test_upgrade__batch_table_copies_keep_rows_that_point_at_them(engine: Engine) -> None:
    """Regression: on SQLite, migration 0006 (feeds) re-created ``accounts`` (batch mode) with
    foreign keys enforced, and dropping the old table deleted every tracking request by cascade."""
    upgrade(engine, "0004")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO accounts (id, name, routing_enabled, created_at)"
                " VALUES ('acc', 'Keep Co', :no, '2026-11-21 12:00:00')"
            ),
            {"no": False},
        )
        connection.execute(
            text(
                "INSERT INTO tracking_requests (id, account_id, request_type, request_number,"
                " scac, status, is_retrying, retry_count, ref_numbers, tags, created_at,"
                " updated_at) VALUES ('req', 'acc', 'bill_of_lading', 'KEEP1', 'TEST', 'pending',"
                " :no, 0, '[]', '[]', '2026-11-21 12:00:00', '2026-11-21 12:00:00')"
            ),
            {"no": False},
        )
    upgrade(engine)
    with engine.connect() as connection:
        kept = connection.scalar(text("SELECT count(*) FROM tracking_requests"))
        enforced = (
            connection.exec_driver_sql("PRAGMA foreign_keys").scalar()
            if engine.dialect.name == "sqlite"
            else 1
        )
    assert kept == 1
    assert enforced == 1, "foreign keys are enforced again after migrating"


def test_upgrade_0007__containers_stored_before_get_their_port_calls(engine: Engine) -> None:
    """A container stored before route locations existed gets one per port of its shipment:
    the departure from the port of lading, the arrival (vessel, voyage, terminal) at the port
    of discharge, as the shipment kept them."""
    upgrade(engine, "0006_feeds")
    with transaction(session_factory(engine)) as session:
        account = create_account(session, "Before Co", routing=True, now=START).account_id
    rows = {
        "vessels": {"id": "v1", "name": "OLD SHIP"},
        "terminals": {"id": "t1", "name": "Berth", "port_locode": "USSAV", "lon": 0.0, "lat": 0.0},
        "shipments": {
            "id": "s1",
            "account_id": account,
            "ref_numbers": "[]",
            "shipping_line_scac": "TEST",
            "port_of_lading_locode": "CNSHA",
            "port_of_discharge_locode": "USSAV",
            "transshipment_locodes": '["SGSIN"]',
            "pod_vessel_id": "v1",
            "pod_voyage_number": "12E",
            "pol_atd_at": "2026-11-01 10:00:00",
            "pod_eta_at": "2026-12-01 08:00:00",
            "carrier_request_type": "bill_of_lading",
            "carrier_number": "X1",
            "carrier_epoch": "2026-10-30 00:00:00",
            "created_at": "2026-10-30 00:00:00",
            "updated_at": "2026-11-02 00:00:00",
        },
        "containers": {
            "id": "c1",
            "account_id": account,
            "shipment_id": "s1",
            "number": "TSTU0000001",
            "equipment_type": "dry",
            "equipment_length": 40,
            "equipment_height": "standard",
            "weight_in_lbs": 1000,
            "current_status": "on_ship",
            "ref_numbers": "[]",
            "pod_terminal_id": "t1",
            "fees_at_pod_terminal": "[]",
            "holds_at_pod_terminal": "[]",
            "availability_known": False,
            "created_at": "2026-10-30 00:00:00",
            "updated_at": "2026-11-02 00:00:00",
        },
    }
    with engine.begin() as connection:
        for table, values in rows.items():
            names = ", ".join(values)
            marks = ", ".join(f":{name}" for name in values)
            connection.execute(text(f"INSERT INTO {table} ({names}) VALUES ({marks})"), values)
    upgrade(engine)
    with session_factory(engine)() as session:
        calls = session.scalars(select(RouteLocation).order_by(RouteLocation.sequence)).all()
        assert [(c.container_id, c.port_locode) for c in calls] == [
            ("c1", "CNSHA"),
            ("c1", "SGSIN"),
            ("c1", "USSAV"),
        ]
        pol, ts, pod = calls
        assert pol.outbound_atd_at == datetime(2026, 11, 1, 10, tzinfo=UTC)
        assert pol.outbound_etd_at is None and pol.inbound_mode is None
        assert (ts.inbound_mode, ts.outbound_mode, ts.outbound_vessel_id) == (
            "vessel",
            "vessel",
            None,
        )
        assert (pod.inbound_vessel_id, pod.inbound_voyage_number, pod.terminal_id) == (
            "v1",
            "12E",
            "t1",
        )
        assert (
            pod.inbound_eta_at == datetime(2026, 12, 1, 8, tzinfo=UTC)
            and pod.inbound_ata_at is None
        )
        assert {c.account_id for c in calls} == {account}
        assert {c.updated_at for c in calls} == {datetime(2026, 11, 2, tzinfo=UTC)}
    downgrade(engine, "0006_feeds")
    assert "route_locations" not in tables(engine)


def test_upgrade_0017__trigram_indexes_on_postgresql(postgres_database_url: str) -> None:
    engine = make_engine(postgres_database_url)
    try:
        upgrade(engine)
        with engine.connect() as connection:
            found = set(
                connection.scalars(
                    text("SELECT indexname FROM pg_indexes WHERE indexname LIKE '%_trgm'")
                )
            )
        assert found == {
            "ix_shipments_bl_trgm",
            "ix_shipments_booking_trgm",
            "ix_shipments_refs_trgm",
            "ix_containers_number_trgm",
            "ix_containers_refs_trgm",
            "ix_tracking_requests_number_trgm",
            "ix_tracking_requests_refs_trgm",
        }
    finally:
        engine.dispose()


def test_upgrade_0017__list_stamp_moves_with_list_tables_not_bookkeeping(engine: Engine) -> None:
    upgrade(engine)

    def version() -> int:
        with engine.connect() as connection:
            return int(connection.scalar(text("SELECT version FROM list_stamps")) or 0)

    before = version()
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO rate_limit_counts (key, second, count) VALUES ('k', 1, 1)")
        )
    assert version() == before
    with transaction(session_factory(engine)) as session:
        create_account(session, "stamped", routing=False, now=START)
    assert version() > before

"""Alembic migrations on SQLite and PostgreSQL: upgrade, idempotence, downgrade, model parity."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, create_engine, func, inspect, select, text

from sealane.store.accounts import create_account
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.migrate import alembic_config, downgrade, upgrade
from sealane.store.models import Account, Base

from .conftest import START

MODEL_TABLES = {
    "accounts",
    "api_keys",
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
    "parties",
    "custom_field_definitions",
    "custom_field_options",
    "custom_fields",
}
ALL_TABLES = MODEL_TABLES | {"alembic_version"}
#: The newest migration.
HEAD = "0005"


def tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names())


def versions(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.scalars(text("SELECT version_num FROM alembic_version")))


def schema_differences(engine: Engine) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
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

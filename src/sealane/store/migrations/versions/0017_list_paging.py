"""list paging: indexes in each list's order, search indexes and a stamp lists can trust

Lists read one account's rows in their order (newest first, ties by the highest id) from an
index ``(account_id, time, id)`` read backwards (shipments and containers by ``updated_at``,
tracking requests by ``created_at``; shipments through a port of discharge filter by
``(account_id, port_of_discharge_locode, updated_at, id)``), and a next page from the previous
page's last key.
Tracking requests get an index on ``shipment_id`` (the loader reads a shipment's request by
it) and containers one by account and number.

On PostgreSQL the numbers search matches (bill of lading, booking, container and reference
numbers, lowercased as the queries compare them) get trigram indexes (``pg_trgm``), which serve
a part of a number (``LIKE '%...%'``) and a whole one alike.

``list_stamps`` holds one version, bumped by triggers on the tables a list page shows, at
commit on PostgreSQL (a deferred trigger, once per transaction), for every row on SQLite. A kept
list page is true while the version is the one it was read under; the rate limiter's counts,
sessions, positions and other bookkeeping have no trigger, so their writes leave pages kept.

Revision ID: 0017_list_paging
Revises: 0016_official_port_codes
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_list_paging"
down_revision = "0016_official_port_codes"
branch_labels = None
depends_on = None

#: The tables whose rows a list page (or what it includes) shows: a write to one bumps the
#: stamp. Bookkeeping tables (rate limit counts, sessions, keys, positions, feed checkpoints,
#: the outbox and webhook deliveries) are left out on purpose.
STAMPED_TABLES = (
    "accounts",
    "shipping_lines",
    "terminals",
    "vessels",
    "vessel_port_calls",
    "tracking_requests",
    "shipments",
    "containers",
    "route_locations",
    "transport_events",
    "estimated_events",
    "container_updated_events",
    "parties",
    "custom_field_definitions",
    "custom_field_options",
    "custom_fields",
    "carrier_events",
    "carrier_event_refs",
)
#: (index name, table, lowercased expression) of the trigram indexes (PostgreSQL).
TRIGRAMS = (
    ("ix_shipments_bl_trgm", "shipments", "lower(bill_of_lading_number)"),
    ("ix_shipments_booking_trgm", "shipments", "lower(booking_number)"),
    ("ix_shipments_refs_trgm", "shipments", "lower(CAST(ref_numbers AS VARCHAR))"),
    ("ix_containers_number_trgm", "containers", "lower(number)"),
    ("ix_containers_refs_trgm", "containers", "lower(CAST(ref_numbers AS VARCHAR))"),
    ("ix_tracking_requests_number_trgm", "tracking_requests", "lower(request_number)"),
    ("ix_tracking_requests_refs_trgm", "tracking_requests", "lower(CAST(ref_numbers AS VARCHAR))"),
)
_PG_FUNCTION = """
CREATE OR REPLACE FUNCTION sealane_bump_list_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('sealane.list_stamped', true) IS DISTINCT FROM 'on' THEN
        PERFORM set_config('sealane.list_stamped', 'on', true);
        UPDATE list_stamps SET version = version + 1;
    END IF;
    RETURN NULL;
END
$$
"""


def _trigram_schema(bind: sa.engine.Connection) -> str:
    """The schema of ``pg_trgm``, installed in ``public`` if it is not there yet (one schema a
    database; the indexes name its operator class by schema, whatever the search path)."""
    found = "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm'"
    schema = bind.scalar(sa.text(found))
    if schema is None:
        public = bind.scalar(sa.text("SELECT count(*) FROM pg_namespace WHERE nspname = 'public'"))
        where = " WITH SCHEMA public" if public else ""
        bind.execute(sa.text(f"CREATE EXTENSION IF NOT EXISTS pg_trgm{where}"))
        schema = bind.scalar(sa.text(found))
    return str(schema).strip('"')


def upgrade() -> None:
    bind = op.get_bind()
    postgresql = bind.dialect.name == "postgresql"
    op.create_index(
        "ix_shipments_account_updated",
        "shipments",
        ["account_id", "updated_at", "id"],
    )
    op.create_index(
        "ix_shipments_account_pod_updated",
        "shipments",
        ["account_id", "port_of_discharge_locode", "updated_at", "id"],
    )
    op.create_index(
        "ix_containers_account_updated",
        "containers",
        ["account_id", "updated_at", "id"],
    )
    op.create_index("ix_containers_account_number", "containers", ["account_id", "number"])
    op.create_index(
        "ix_tracking_requests_account_created",
        "tracking_requests",
        ["account_id", "created_at", "id"],
    )
    op.create_index("ix_tracking_requests_shipment_id", "tracking_requests", ["shipment_id"])
    op.create_table(
        "list_stamps",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
    )
    op.execute("INSERT INTO list_stamps (id, version) VALUES (1, 0)")
    if postgresql:
        schema = _trigram_schema(bind)
        for name, table, expression in TRIGRAMS:
            op.execute(
                f'CREATE INDEX {name} ON {table} USING gin ({expression} "{schema}".gin_trgm_ops)'
            )
        op.execute(_PG_FUNCTION)
        for table in STAMPED_TABLES:
            op.execute(
                f"CREATE CONSTRAINT TRIGGER stamp_{table} AFTER INSERT OR UPDATE OR DELETE"
                f" ON {table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW"
                " EXECUTE FUNCTION sealane_bump_list_stamp()"
            )
    else:
        for table in STAMPED_TABLES:
            for change in ("INSERT", "UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER stamp_{table}_{change.lower()} AFTER {change} ON {table}"
                    " BEGIN UPDATE list_stamps SET version = version + 1; END"
                )


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        for table in STAMPED_TABLES:
            op.execute(f"DROP TRIGGER IF EXISTS stamp_{table} ON {table}")
        op.execute("DROP FUNCTION IF EXISTS sealane_bump_list_stamp()")
        for name, _table, _expression in TRIGRAMS:
            op.execute(f"DROP INDEX IF EXISTS {name}")
    else:
        for table in STAMPED_TABLES:
            for change in ("insert", "update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS stamp_{table}_{change}")
    op.drop_table("list_stamps")
    op.drop_index("ix_tracking_requests_shipment_id", table_name="tracking_requests")
    op.drop_index("ix_tracking_requests_account_created", table_name="tracking_requests")
    op.drop_index("ix_containers_account_number", table_name="containers")
    op.drop_index("ix_containers_account_updated", table_name="containers")
    op.drop_index("ix_shipments_account_pod_updated", table_name="shipments")
    op.drop_index("ix_shipments_account_updated", table_name="shipments")

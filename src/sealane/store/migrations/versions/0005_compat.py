"""Terminal49 compatibility: parties, custom fields, carrier support, new shipment and
container fields; container.created refers to a container_updated_event

Revision ID: 0005
Revises: 0004 (re-pointed at 0004 when the hardening migration lands)
"""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_STAMPS = ("created_at", "updated_at")
_LINE_COLUMNS = (
    "alternative_scacs",
    "container_owner_codes",
    "booking_number_pattern",
    "bill_of_lading_tracking_support",
    "booking_number_tracking_support",
    "container_number_tracking_support",
)


def _stamps() -> list[sa.Column[datetime]]:
    return [sa.Column(name, UTCDateTime(), nullable=False) for name in _STAMPS]


_OPEN = "status IN ('pending', 'awaiting_manifest', 'created')"


@contextmanager
def _open_index_kept() -> Iterator[None]:
    """SQLite: a batch change copies ``tracking_requests`` into a new table, and the copy would
    lose the expression index that keeps one open request per number (SQLAlchemy cannot reflect
    it); so it is dropped first and made again on the new table."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.drop_index("uq_tracking_requests_open", table_name="tracking_requests")
    yield
    if sqlite:
        op.create_index(
            "uq_tracking_requests_open",
            "tracking_requests",
            ["account_id", "scac", sa.text("upper(request_number)")],
            unique=True,
            sqlite_where=sa.text(_OPEN),
        )


def upgrade() -> None:
    _create_parties_and_custom_fields()
    with op.batch_alter_table("shipping_lines", schema=None) as batch_op:
        for name in ("alternative_scacs", "container_owner_codes", "booking_number_pattern"):
            batch_op.add_column(
                sa.Column(name, sa.String(length=200), server_default="", nullable=False)
            )
        for name in (
            "bill_of_lading_tracking_support",
            "booking_number_tracking_support",
            "container_number_tracking_support",
        ):
            batch_op.add_column(
                sa.Column(name, sa.Boolean(), server_default=sa.false(), nullable=False)
            )
    with op.batch_alter_table("shipping_lines", schema=None) as batch_op:
        for name in _LINE_COLUMNS:  # the defaults only filled the existing rows
            batch_op.alter_column(name, server_default=None)
    with op.batch_alter_table("terminals", schema=None) as batch_op:
        for name, length in (
            ("nickname", 100),
            ("street", 200),
            ("city", 100),
            ("state", 100),
            ("state_abbr", 8),
            ("zip", 16),
        ):
            batch_op.add_column(sa.Column(name, sa.String(length=length), nullable=True))
    with _open_index_kept(), op.batch_alter_table("tracking_requests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("shipment_tags", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("initial_custom_fields", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("customer_id", sa.String(length=36), nullable=True))
        batch_op.create_foreign_key(
            "fk_tracking_requests_customer_id_parties",
            "parties",
            ["customer_id"],
            ["id"],
            ondelete="SET NULL",
        )
    with op.batch_alter_table("shipments", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("tracking_stopped_reason", sa.String(length=40), nullable=True)
        )
        batch_op.add_column(sa.Column("tags", sa.JSON(), nullable=True))
        for name in (
            "pod_original_eta_at",
            "line_tracking_last_attempted_at",
            "line_tracking_last_succeeded_at",
        ):
            batch_op.add_column(sa.Column(name, UTCDateTime(), nullable=True))
    with op.batch_alter_table("containers", schema=None) as batch_op:
        for name in ("pod_rail_loaded_at", "pod_rail_departed_at", "ind_rail_unloaded_at"):
            batch_op.add_column(sa.Column(name, UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column("ind_ata_at", UTCDateTime(), nullable=True))
    _created_events_up()


def _create_parties_and_custom_fields() -> None:
    account = sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE")
    op.create_table(
        "parties",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("company_name", sa.String(length=200), nullable=False),
        *_stamps(),
        account,
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_parties_account_id", "parties", ["account_id"])
    op.create_table(
        "custom_field_definitions",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("entity_type", sa.String(length=20), nullable=False),
        sa.Column("api_slug", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("data_type", sa.String(length=20), nullable=False),
        sa.Column("reference_type", sa.String(length=64), nullable=True),
        sa.Column("validation", sa.JSON(), nullable=True),
        sa.Column("default_format", sa.String(length=64), nullable=True),
        sa.Column("default_value", sa.JSON(), nullable=True),
        *_stamps(),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("account_id", "entity_type", "api_slug", name="uq_custom_field_slug"),
    )
    op.create_index(
        "ix_custom_field_definitions_account_id", "custom_field_definitions", ["account_id"]
    )
    definition = sa.ForeignKeyConstraint(
        ["definition_id"], ["custom_field_definitions.id"], ondelete="CASCADE"
    )
    op.create_table(
        "custom_field_options",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("definition_id", sa.String(length=36), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        definition,
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("definition_id", "value", name="uq_custom_field_option_value"),
    )
    op.create_index(
        "ix_custom_field_options_definition_id", "custom_field_options", ["definition_id"]
    )
    op.create_table(
        "custom_fields",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("definition_id", sa.String(length=36), nullable=False),
        sa.Column("entity_type", sa.String(length=20), nullable=False),
        sa.Column("entity_id", sa.String(length=36), nullable=False),
        sa.Column("value", sa.JSON(), nullable=True),
        *_stamps(),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["definition_id"], ["custom_field_definitions.id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("definition_id", "entity_id", name="uq_custom_field_per_entity"),
    )
    for column in ("account_id", "definition_id", "entity_id"):
        op.create_index(f"ix_custom_fields_{column}", "custom_fields", [column])


# -- data: container.created referred to the container itself, a type no client schema lists --

_outbox = sa.table(
    "outbox_events",
    sa.column("id", sa.Integer()),
    sa.column("account_id", sa.String()),
    sa.column("event", sa.String()),
    sa.column("reference_type", sa.String()),
    sa.column("reference_id", sa.String()),
    sa.column("created_at", UTCDateTime()),
)
_notifications = sa.table(
    "webhook_notifications",
    sa.column("outbox_event_id", sa.Integer()),
    sa.column("reference_type", sa.String()),
    sa.column("reference_id", sa.String()),
)
_updates = sa.table(
    "container_updated_events",
    sa.column("id", sa.String()),
    sa.column("account_id", sa.String()),
    sa.column("container_id", sa.String()),
    sa.column("terminal_id", sa.String()),
    sa.column("changeset", sa.JSON()),
    sa.column("timestamp", UTCDateTime()),
    sa.column("timezone", sa.String()),
    sa.column("data_source", sa.String()),
    sa.column("created_at", UTCDateTime()),
)
_containers = sa.table(
    "containers", sa.column("id", sa.String()), sa.column("pod_terminal_id", sa.String())
)


def _repoint(outbox_id: int, kind: str, key: str) -> None:
    bind = op.get_bind()
    for table, match in (
        (_outbox, _outbox.c.id),
        (_notifications, _notifications.c.outbox_event_id),
    ):
        bind.execute(
            sa.update(table).where(match == outbox_id).values(reference_type=kind, reference_id=key)
        )


def _created_events_up() -> None:
    """Each container.created event gets a container_updated_event (empty changeset) to refer
    to, as new ones do; notifications already rendered keep the body they were signed with."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_outbox.c.id, _outbox.c.account_id, _outbox.c.reference_id, _outbox.c.created_at)
        .where(_outbox.c.event == "container.created", _outbox.c.reference_type == "container")
        .order_by(_outbox.c.id)
    ).all()
    for outbox_id, account_id, container_id, created_at in rows:
        terminal_id = bind.scalar(
            sa.select(_containers.c.pod_terminal_id).where(_containers.c.id == container_id)
        )
        event_id = str(uuid.uuid4())
        at = created_at or datetime.now(UTC)
        bind.execute(
            sa.insert(_updates).values(
                id=event_id,
                account_id=account_id,
                container_id=container_id,
                terminal_id=terminal_id,
                changeset={},
                timestamp=at,
                timezone=None,
                data_source="terminal",
                created_at=at,
            )
        )
        _repoint(outbox_id, "container_updated_event", event_id)


def _created_events_down() -> None:
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_outbox.c.id, _outbox.c.reference_id).where(
            _outbox.c.event == "container.created",
            _outbox.c.reference_type == "container_updated_event",
        )
    ).all()
    for outbox_id, event_id in rows:
        container_id = bind.scalar(
            sa.select(_updates.c.container_id).where(_updates.c.id == event_id)
        )
        if container_id is None:
            continue
        _repoint(outbox_id, "container", container_id)
        bind.execute(sa.delete(_updates).where(_updates.c.id == event_id))


def downgrade() -> None:
    _created_events_down()
    with op.batch_alter_table("containers", schema=None) as batch_op:
        for name in ("ind_ata_at", "ind_rail_unloaded_at", "pod_rail_departed_at"):
            batch_op.drop_column(name)
        batch_op.drop_column("pod_rail_loaded_at")
    with op.batch_alter_table("shipments", schema=None) as batch_op:
        for name in (
            "line_tracking_last_succeeded_at",
            "line_tracking_last_attempted_at",
            "pod_original_eta_at",
            "tags",
            "tracking_stopped_reason",
        ):
            batch_op.drop_column(name)
    with _open_index_kept(), op.batch_alter_table("tracking_requests", schema=None) as batch_op:
        batch_op.drop_constraint("fk_tracking_requests_customer_id_parties", type_="foreignkey")
        for name in ("customer_id", "initial_custom_fields", "shipment_tags"):
            batch_op.drop_column(name)
    with op.batch_alter_table("terminals", schema=None) as batch_op:
        for name in ("zip", "state_abbr", "state", "city", "street", "nickname"):
            batch_op.drop_column(name)
    with op.batch_alter_table("shipping_lines", schema=None) as batch_op:
        for name in (
            "container_number_tracking_support",
            "booking_number_tracking_support",
            "bill_of_lading_tracking_support",
            "booking_number_pattern",
            "container_owner_codes",
            "alternative_scacs",
        ):
            batch_op.drop_column(name)
    for column in ("entity_id", "definition_id", "account_id"):
        op.drop_index(f"ix_custom_fields_{column}", table_name="custom_fields")
    op.drop_table("custom_fields")
    op.drop_index("ix_custom_field_options_definition_id", table_name="custom_field_options")
    op.drop_table("custom_field_options")
    op.drop_index("ix_custom_field_definitions_account_id", table_name="custom_field_definitions")
    op.drop_table("custom_field_definitions")
    op.drop_index("ix_parties_account_id", table_name="parties")
    op.drop_table("parties")

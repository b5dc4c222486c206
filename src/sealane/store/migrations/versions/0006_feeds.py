"""live feeds: AIS port calls and course, ingest checkpoints and permission, DCSA events

Revision ID: 0006_feeds (0010 before the files were numbered in chain order)
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0006_feeds"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("ingest_enabled", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    with op.batch_alter_table("vessel_positions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("course_degrees", sa.Float(), nullable=True))

    op.create_table(
        "vessel_port_calls",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("vessel_id", sa.String(length=36), nullable=False),
        sa.Column("locode", sa.String(length=5), nullable=False),
        sa.Column("arrived_at", UTCDateTime(), nullable=False),
        sa.Column("departed_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["vessel_id"], ["vessels.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("vessel_port_calls", schema=None) as batch_op:
        batch_op.create_index(
            "ix_vessel_port_calls_vessel_open", ["vessel_id", "departed_at"], unique=False
        )

    op.create_table(
        "feed_checkpoints",
        sa.Column("source", sa.String(length=512), nullable=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("source"),
    )

    op.create_table(
        "carrier_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("scac", sa.String(length=4), nullable=False),
        sa.Column("event_id", sa.String(length=100), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("received_via", sa.String(length=8), nullable=False),
        sa.Column("received_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("scac", "event_id", name="uq_carrier_event"),
    )

    op.create_table(
        "carrier_event_refs",
        sa.Column("event_row_id", sa.Integer(), nullable=False),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["event_row_id"], ["carrier_events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("event_row_id", "ref"),
    )
    with op.batch_alter_table("carrier_event_refs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_carrier_event_refs_ref"), ["ref"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("carrier_event_refs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_carrier_event_refs_ref"))
    op.drop_table("carrier_event_refs")
    op.drop_table("carrier_events")
    op.drop_table("feed_checkpoints")
    with op.batch_alter_table("vessel_port_calls", schema=None) as batch_op:
        batch_op.drop_index("ix_vessel_port_calls_vessel_open")
    op.drop_table("vessel_port_calls")
    with op.batch_alter_table("vessel_positions", schema=None) as batch_op:
        batch_op.drop_column("course_degrees")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("ingest_enabled")

"""webhooks, notifications and their delivery logs

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("url", sa.String(length=2048), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("secret", sa.String(length=100), nullable=False),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("webhooks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_webhooks_account_id"), ["account_id"], unique=False)

    op.create_table(
        "webhook_notifications",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("webhook_id", sa.String(length=36), nullable=False),
        sa.Column("outbox_event_id", sa.Integer(), nullable=False),
        sa.Column("event", sa.String(length=80), nullable=False),
        sa.Column("reference_type", sa.String(length=40), nullable=False),
        sa.Column("reference_id", sa.String(length=36), nullable=False),
        sa.Column("delivery_status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", UTCDateTime(), nullable=True),
        sa.Column("locked_until", UTCDateTime(), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["outbox_event_id"], ["outbox_events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["webhook_id"], ["webhooks.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("webhook_id", "outbox_event_id", name="uq_notification_per_event"),
    )
    with op.batch_alter_table("webhook_notifications", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_webhook_notifications_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            "ix_webhook_notifications_due", ["delivery_status", "next_attempt_at"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_webhook_notifications_webhook_id"), ["webhook_id"], unique=False
        )

    op.create_table(
        "webhook_notification_logs",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("notification_id", sa.String(length=36), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("attempted_at", UTCDateTime(), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("duration_ms", sa.Float(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("response_excerpt", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["notification_id"], ["webhook_notifications.id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("webhook_notification_logs", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_webhook_notification_logs_notification_id"),
            ["notification_id"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("webhook_notification_logs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webhook_notification_logs_notification_id"))

    op.drop_table("webhook_notification_logs")
    with op.batch_alter_table("webhook_notifications", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webhook_notifications_webhook_id"))
        batch_op.drop_index("ix_webhook_notifications_due")
        batch_op.drop_index(batch_op.f("ix_webhook_notifications_account_id"))

    op.drop_table("webhook_notifications")
    with op.batch_alter_table("webhooks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webhooks_account_id"))

    op.drop_table("webhooks")

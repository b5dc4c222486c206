"""outbox occurrence: an event that happens again to the same object is queued again

The outbox held one row per (event, object), so a tracking request stopped, resumed and stopped
again changed its status without a second ``tracking_request.tracking_stopped`` (its row was
there already). Each row now carries the occurrence of its event for that object (0 for the
first), and the unique key takes it: a repeat of the same occurrence is still refused by the
database, a new occurrence is queued.

Revision ID: 0012_outbox_occurrence
Revises: 0011_vessel_static
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_outbox_occurrence"
down_revision = "0011_vessel_static"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox_events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("occurrence", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.drop_constraint("uq_outbox_event", type_="unique")
        batch_op.create_unique_constraint(
            "uq_outbox_event", ["event", "reference_type", "reference_id", "occurrence"]
        )


def downgrade() -> None:
    # the older key holds only the first occurrence of each event; the notifications made from
    # the others go with them, as ON DELETE CASCADE would (SQLite migrates without foreign keys)
    later = "SELECT id FROM outbox_events WHERE occurrence > 0"
    notified = f"SELECT id FROM webhook_notifications WHERE outbox_event_id IN ({later})"
    op.execute(f"DELETE FROM webhook_notification_logs WHERE notification_id IN ({notified})")
    op.execute(f"DELETE FROM webhook_notifications WHERE outbox_event_id IN ({later})")
    op.execute("DELETE FROM outbox_events WHERE occurrence > 0")
    with op.batch_alter_table("outbox_events", schema=None) as batch_op:
        batch_op.drop_constraint("uq_outbox_event", type_="unique")
        batch_op.create_unique_constraint(
            "uq_outbox_event", ["event", "reference_type", "reference_id"]
        )
        batch_op.drop_column("occurrence")

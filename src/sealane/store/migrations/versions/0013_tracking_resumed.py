"""tracking resumed: when a shipment's tracking was last resumed

Tracking stops 56 days after the shipment arrives. A shipment resumed after that was stopped
again by the next poll, within a minute, so resuming it did nothing; the window now runs from
the later of the arrival and the last resume, which this column records.

Revision ID: 0013_tracking_resumed
Revises: 0012_outbox_occurrence
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0013_tracking_resumed"
down_revision = "0012_outbox_occurrence"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("shipments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tracking_resumed_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("shipments", schema=None) as batch_op:
        batch_op.drop_column("tracking_resumed_at")

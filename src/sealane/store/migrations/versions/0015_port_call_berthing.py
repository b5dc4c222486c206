"""port call berthing: whether a call's arrival was seen, and when the vessel berthed

A vessel's wait at anchor off a port (reliability figures) is the time from entering the port
area to coming within the berth radius; it is known only for calls whose entry AIS saw. The
index serves the figures of one port over a window.

Revision ID: 0015_port_call_berthing
Revises: 0014_installation_secrets
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0015_port_call_berthing"
down_revision = "0014_installation_secrets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("vessel_port_calls", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("arrival_seen", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("berthed_at", UTCDateTime(), nullable=True))
        batch_op.create_index(
            "ix_vessel_port_calls_locode_arrived", ["locode", "arrived_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("vessel_port_calls", schema=None) as batch_op:
        batch_op.drop_index("ix_vessel_port_calls_locode_arrived")
        batch_op.drop_column("berthed_at")
        batch_op.drop_column("arrival_seen")

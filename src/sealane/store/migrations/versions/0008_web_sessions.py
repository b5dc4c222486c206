"""web sessions: the web app's signed-in browsers, shared by every server process

Revision ID: 0008_web_sessions (0007 before the files were numbered in chain order)
Revises: 0007_route_locations
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0008_web_sessions"
down_revision = "0007_route_locations"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("api_key_id", sa.String(length=36), nullable=False),
        sa.Column("csrf_token", sa.String(length=64), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["api_key_id"], ["api_keys.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    op.create_index("ix_web_sessions_api_key_id", "web_sessions", ["api_key_id"])
    op.create_index("ix_web_sessions_expires_at", "web_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_web_sessions_expires_at", table_name="web_sessions")
    op.drop_index("ix_web_sessions_api_key_id", table_name="web_sessions")
    op.drop_table("web_sessions")

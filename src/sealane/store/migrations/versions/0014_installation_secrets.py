"""installation secrets: the web app's signing key, kept in the database

The key signing the web app's cookies and form tokens, when the settings name none, is made
once and kept here, so every process on the database signs alike and nothing is written to
the working directory.

Revision ID: 0014_installation_secrets
Revises: 0013_tracking_resumed
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0014_installation_secrets"
down_revision = "0013_tracking_resumed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "installation_secrets",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("installation_secrets")

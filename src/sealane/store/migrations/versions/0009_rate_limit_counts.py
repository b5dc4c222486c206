"""rate limit counts: one row per key and second instead of one per request

Checking a limit summed one row per request of the window, so its cost grew with the traffic
(thousands of rows for a busy key); a row per second bounds it by the window's length. The
counters are ephemeral: the old rows are dropped, which forgets at most a minute of requests.

Revision ID: 0009_rate_limit_counts (0008 before the files were numbered in chain order)
Revises: 0008_web_sessions
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_rate_limit_counts"
down_revision = "0008_web_sessions"
branch_labels = None
depends_on = None


def _unlogged() -> list[str]:
    # Counters, not records: on PostgreSQL they skip the write-ahead log (a crash empties the
    # table, which only forgets the last minute of requests).
    return ["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else []


def upgrade() -> None:
    op.drop_index("ix_rate_limit_hits_key_at", table_name="rate_limit_hits")
    op.drop_table("rate_limit_hits")
    op.create_table(
        "rate_limit_counts",
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("second", sa.BigInteger(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", "second"),
        prefixes=_unlogged(),
    )


def downgrade() -> None:
    op.drop_table("rate_limit_counts")
    op.create_table(
        "rate_limit_hits",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        prefixes=_unlogged(),
    )
    op.create_index("ix_rate_limit_hits_key_at", "rate_limit_hits", ["key", "at"])

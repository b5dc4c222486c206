"""one open tracking request per number, shared rate-limit counters

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_OPEN = "status IN ('pending', 'awaiting_manifest', 'created')"


def upgrade() -> None:
    # Requests stored twice before the index existed: the oldest stays open, the others fail
    # as duplicates (what the API answers a second request with).
    op.execute(
        sa.text(
            f"""
            UPDATE tracking_requests
            SET status = 'failed', failed_reason = 'duplicate', is_retrying = :no,
                next_attempt_at = NULL
            WHERE {_OPEN} AND EXISTS (
                SELECT 1 FROM tracking_requests AS older
                WHERE older.account_id = tracking_requests.account_id
                  AND older.scac = tracking_requests.scac
                  AND upper(older.request_number) = upper(tracking_requests.request_number)
                  AND older.status IN ('pending', 'awaiting_manifest', 'created')
                  AND (older.created_at < tracking_requests.created_at
                       OR (older.created_at = tracking_requests.created_at
                           AND older.id < tracking_requests.id))
            )
            """
        ).bindparams(no=False)
    )
    op.create_index(
        "uq_tracking_requests_open",
        "tracking_requests",
        ["account_id", "scac", sa.text("upper(request_number)")],
        unique=True,
        sqlite_where=sa.text(_OPEN),
        postgresql_where=sa.text(_OPEN),
    )
    op.create_table(
        "rate_limit_hits",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        # Counters, not records: on PostgreSQL they skip the write-ahead log (a crash empties
        # the table, which only forgets the last minute of requests).
        prefixes=["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else [],
    )
    op.create_index("ix_rate_limit_hits_key_at", "rate_limit_hits", ["key", "at"])


def downgrade() -> None:
    op.drop_index("ix_rate_limit_hits_key_at", table_name="rate_limit_hits")
    op.drop_table("rate_limit_hits")
    op.drop_index("uq_tracking_requests_open", table_name="tracking_requests")

"""position unique: one track point per vessel and time

Identical batches of ``POST /v2/vessel_positions`` sent at once each found the vessel's track
empty and each stored the points (on PostgreSQL, 20 identical batches of 3 stored 6 rows). The
index on (vessel_id, timestamp) becomes unique, and the ingest inserts with ``ON CONFLICT DO
NOTHING``; a point already stored for that time is skipped. Duplicates stored before are
removed first (the first by id is kept).

Revision ID: 0010_position_unique
Revises: 0009_rate_limit_counts
"""

from alembic import op

revision = "0010_position_unique"
down_revision = "0009_rate_limit_counts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # each row with an earlier id at its vessel and time goes: one probe of the index per row
    # (``NOT IN`` a grouped subquery can be rescanned per row on PostgreSQL)
    op.execute(
        "DELETE FROM vessel_positions WHERE EXISTS ("
        " SELECT 1 FROM vessel_positions AS kept"
        " WHERE kept.vessel_id = vessel_positions.vessel_id"
        " AND kept.timestamp = vessel_positions.timestamp AND kept.id < vessel_positions.id)"
    )
    op.drop_index("ix_vessel_positions_vessel_time", table_name="vessel_positions")
    op.create_index(
        "uq_vessel_positions_vessel_time",
        "vessel_positions",
        ["vessel_id", "timestamp"],
        unique=True,
    )


def downgrade() -> None:
    op.drop_index("uq_vessel_positions_vessel_time", table_name="vessel_positions")
    op.create_index(
        "ix_vessel_positions_vessel_time", "vessel_positions", ["vessel_id", "timestamp"]
    )

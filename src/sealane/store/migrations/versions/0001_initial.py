"""Accounts, API keys, shipping lines, terminals, vessels and their positions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("routing_enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "account_id",
            sa.String(36),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("revoked_at", UTCDateTime(), nullable=True),
    )
    op.create_index("ix_api_keys_account_id", "api_keys", ["account_id"])
    op.create_table(
        "shipping_lines",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("scac", sa.String(4), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("short_name", sa.String(100), nullable=False),
        sa.Column("bill_of_lading_prefixes", sa.String(200), nullable=False),
    )
    op.create_table(
        "terminals",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("port_locode", sa.String(5), nullable=False),
        sa.Column("firms_code", sa.String(8), nullable=True),
        sa.Column("smdg_code", sa.String(16), nullable=True),
        sa.Column("operator", sa.String(200), nullable=True),
        sa.Column("lon", sa.Float(), nullable=False),
        sa.Column("lat", sa.Float(), nullable=False),
    )
    op.create_index("ix_terminals_port_locode", "terminals", ["port_locode"])
    op.create_index("ix_terminals_firms_code", "terminals", ["firms_code"])
    op.create_table(
        "vessels",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("imo", sa.String(16), nullable=True, unique=True),
        sa.Column("mmsi", sa.String(16), nullable=True),
        sa.Column("latitude", sa.Float(), nullable=True),
        sa.Column("longitude", sa.Float(), nullable=True),
        sa.Column("nautical_speed_knots", sa.Float(), nullable=True),
        sa.Column("navigational_heading_degrees", sa.Float(), nullable=True),
        sa.Column("position_timestamp", UTCDateTime(), nullable=True),
    )
    op.create_index("ix_vessels_name", "vessels", ["name"])
    op.create_table(
        "vessel_positions",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column(
            "vessel_id",
            sa.String(36),
            sa.ForeignKey("vessels.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("latitude", sa.Float(), nullable=False),
        sa.Column("longitude", sa.Float(), nullable=False),
        sa.Column("speed_knots", sa.Float(), nullable=True),
        sa.Column("heading_degrees", sa.Float(), nullable=True),
        sa.Column("timestamp", UTCDateTime(), nullable=False),
    )
    op.create_index(
        "ix_vessel_positions_vessel_time", "vessel_positions", ["vessel_id", "timestamp"]
    )


def downgrade() -> None:
    for table in (
        "vessel_positions",
        "vessels",
        "terminals",
        "shipping_lines",
        "api_keys",
        "accounts",
    ):
        op.drop_table(table)

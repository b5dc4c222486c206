"""vessel static: what a vessel reports of itself (AIS types 5, 19, 24; the position feed)

Call sign, AIS ship type, length, beam and draught in metres, who reported the dimensions and
when, and the reported destination and ETA. All nullable: nothing is known until reported.

Revision ID: 0011_vessel_static
Revises: 0010_position_unique
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0011_vessel_static"
down_revision = "0010_position_unique"
branch_labels = None
depends_on = None

_COLUMNS = (
    ("call_sign", sa.String(length=16)),
    ("ship_type", sa.Integer()),
    ("length_m", sa.Float()),
    ("beam_m", sa.Float()),
    ("draught_m", sa.Float()),
    ("dimensions_source", sa.String(length=16)),
    ("dimensions_updated_at", UTCDateTime()),
    ("reported_destination", sa.String(length=64)),
    ("reported_eta", UTCDateTime()),
    ("static_updated_at", UTCDateTime()),
)


def upgrade() -> None:
    with op.batch_alter_table("vessels", schema=None) as batch_op:
        for name, kind in _COLUMNS:
            batch_op.add_column(sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("vessels", schema=None) as batch_op:
        for name, _kind in reversed(_COLUMNS):
            batch_op.drop_column(name)

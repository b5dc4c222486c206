"""route locations: each container's port calls, filled in for containers stored before

Revision ID: 0007_route_locations (0006 before the files were numbered in chain order)
Revises: 0006_feeds
"""

import uuid
from typing import Any

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0007_route_locations"
down_revision = "0006_feeds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "route_locations",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("shipment_id", sa.String(length=36), nullable=False),
        sa.Column("container_id", sa.String(length=36), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("port_locode", sa.String(length=5), nullable=False),
        sa.Column("terminal_id", sa.String(length=36), nullable=True),
        sa.Column("inbound_mode", sa.String(length=16), nullable=True),
        sa.Column("inbound_scac", sa.String(length=4), nullable=True),
        sa.Column("inbound_vessel_id", sa.String(length=36), nullable=True),
        sa.Column("inbound_voyage_number", sa.String(length=32), nullable=True),
        sa.Column("inbound_eta_at", UTCDateTime(), nullable=True),
        sa.Column("inbound_ata_at", UTCDateTime(), nullable=True),
        sa.Column("outbound_mode", sa.String(length=16), nullable=True),
        sa.Column("outbound_scac", sa.String(length=4), nullable=True),
        sa.Column("outbound_vessel_id", sa.String(length=36), nullable=True),
        sa.Column("outbound_voyage_number", sa.String(length=32), nullable=True),
        sa.Column("outbound_etd_at", UTCDateTime(), nullable=True),
        sa.Column("outbound_atd_at", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["container_id"], ["containers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["inbound_vessel_id"], ["vessels.id"]),
        sa.ForeignKeyConstraint(["outbound_vessel_id"], ["vessels.id"]),
        sa.ForeignKeyConstraint(["shipment_id"], ["shipments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["terminal_id"], ["terminals.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("container_id", "sequence", name="uq_route_location_sequence"),
    )
    with op.batch_alter_table("route_locations", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_route_locations_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_route_locations_shipment_id"), ["shipment_id"], unique=False
        )
    _fill_from_shipments(table)


def _fill_from_shipments(target: sa.Table) -> None:
    """Port calls of the containers stored before this revision, from what their shipment kept:
    the ports, the departure from the port of lading, the arrival (vessel, voyage, times) at the
    port of discharge. The next sync of a tracked shipment fills in the rest."""
    shipments = sa.table(
        "shipments",
        *(
            sa.column(name)
            for name in (
                "id",
                "shipping_line_scac",
                "port_of_lading_locode",
                "port_of_discharge_locode",
                "pod_vessel_id",
                "pod_voyage_number",
            )
        ),
        sa.column("transshipment_locodes", sa.JSON()),
        *(sa.column(name, UTCDateTime()) for name in ("pol_etd_at", "pol_atd_at")),
        *(sa.column(name, UTCDateTime()) for name in ("pod_eta_at", "pod_ata_at")),
    )
    containers = sa.table(
        "containers",
        *(sa.column(name) for name in ("id", "account_id", "shipment_id", "pod_terminal_id")),
        *(sa.column(name, UTCDateTime()) for name in ("created_at", "updated_at")),
    )
    bind = op.get_bind()
    query = sa.select(*containers.c, *(c for c in shipments.c if c.name != "id")).join(
        shipments, shipments.c.id == containers.c.shipment_id
    )
    rows = [row._mapping for row in bind.execute(query.order_by(containers.c.id))]
    found = [call for row in rows for call in _calls(row)]
    if found:
        bind.execute(target.insert(), found)


def _calls(row: Any) -> list[dict[str, Any]]:
    """The route locations of one container row joined with its shipment."""
    ports = [
        row.port_of_lading_locode,
        *(row.transshipment_locodes or ()),
        row.port_of_discharge_locode,
    ]
    ports = [p for i, p in enumerate(ports) if i == 0 or p != ports[i - 1]]
    direct = len(ports) == 2
    calls = []
    for index, locode in enumerate(ports):
        first, last = index == 0, index == len(ports) - 1
        calls.append(
            {
                "id": str(uuid.uuid4()),
                "account_id": row.account_id,
                "shipment_id": row.shipment_id,
                "container_id": row.id,
                "sequence": index + 1,
                "port_locode": locode,
                "terminal_id": row.pod_terminal_id if last else None,
                "inbound_mode": None if first else "vessel",
                "inbound_scac": None if first else row.shipping_line_scac,
                "inbound_vessel_id": row.pod_vessel_id if last else None,
                "inbound_voyage_number": row.pod_voyage_number if last else None,
                "inbound_eta_at": row.pod_eta_at if last and row.pod_ata_at is None else None,
                "inbound_ata_at": row.pod_ata_at if last else None,
                "outbound_mode": None if last else "vessel",
                "outbound_scac": None if last else row.shipping_line_scac,
                "outbound_vessel_id": row.pod_vessel_id if first and direct else None,
                "outbound_voyage_number": row.pod_voyage_number if first and direct else None,
                "outbound_etd_at": row.pol_etd_at if first and row.pol_atd_at is None else None,
                "outbound_atd_at": row.pol_atd_at if first else None,
                "created_at": row.created_at,
                "updated_at": row.updated_at,
            }
        )
    return calls


def downgrade() -> None:
    with op.batch_alter_table("route_locations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_route_locations_shipment_id"))
        batch_op.drop_index(batch_op.f("ix_route_locations_account_id"))
    op.drop_table("route_locations")

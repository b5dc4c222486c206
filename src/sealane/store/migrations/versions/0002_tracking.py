"""tracking requests, shipments, containers, events and the outbox

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

from sealane.store.models import UTCDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("event", sa.String(length=80), nullable=False),
        sa.Column("reference_type", sa.String(length=40), nullable=False),
        sa.Column("reference_id", sa.String(length=36), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("dispatched_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event", "reference_type", "reference_id", name="uq_outbox_event"),
    )
    with op.batch_alter_table("outbox_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_outbox_events_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_outbox_events_dispatched_at"), ["dispatched_at"], unique=False
        )

    op.create_table(
        "shipments",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("bill_of_lading_number", sa.String(length=64), nullable=True),
        sa.Column("booking_number", sa.String(length=64), nullable=True),
        sa.Column("ref_numbers", sa.JSON(), nullable=False),
        sa.Column("shipping_line_scac", sa.String(length=4), nullable=False),
        sa.Column("port_of_lading_locode", sa.String(length=5), nullable=False),
        sa.Column("port_of_discharge_locode", sa.String(length=5), nullable=False),
        sa.Column("transshipment_locodes", sa.JSON(), nullable=False),
        sa.Column("pod_vessel_id", sa.String(length=36), nullable=True),
        sa.Column("pod_voyage_number", sa.String(length=32), nullable=True),
        sa.Column("pod_terminal_id", sa.String(length=36), nullable=True),
        sa.Column("pol_etd_at", UTCDateTime(), nullable=True),
        sa.Column("pol_atd_at", UTCDateTime(), nullable=True),
        sa.Column("pod_eta_at", UTCDateTime(), nullable=True),
        sa.Column("pod_ata_at", UTCDateTime(), nullable=True),
        sa.Column("tracking_stopped_at", UTCDateTime(), nullable=True),
        sa.Column("carrier_request_type", sa.String(length=32), nullable=False),
        sa.Column("carrier_number", sa.String(length=64), nullable=False),
        sa.Column("carrier_epoch", UTCDateTime(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["pod_terminal_id"],
            ["terminals.id"],
        ),
        sa.ForeignKeyConstraint(
            ["pod_vessel_id"],
            ["vessels.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("shipments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_shipments_account_id"), ["account_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_shipments_bill_of_lading_number"),
            ["bill_of_lading_number"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_shipments_port_of_discharge_locode"),
            ["port_of_discharge_locode"],
            unique=False,
        )
        batch_op.create_index(batch_op.f("ix_shipments_updated_at"), ["updated_at"], unique=False)

    op.create_table(
        "containers",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("shipment_id", sa.String(length=36), nullable=False),
        sa.Column("number", sa.String(length=11), nullable=False),
        sa.Column("seal_number", sa.String(length=32), nullable=True),
        sa.Column("equipment_type", sa.String(length=16), nullable=False),
        sa.Column("equipment_length", sa.Integer(), nullable=False),
        sa.Column("equipment_height", sa.String(length=16), nullable=False),
        sa.Column("weight_in_lbs", sa.Integer(), nullable=False),
        sa.Column("current_status", sa.String(length=32), nullable=False),
        sa.Column("ref_numbers", sa.JSON(), nullable=False),
        sa.Column("pod_terminal_id", sa.String(length=36), nullable=True),
        sa.Column("fees_at_pod_terminal", sa.JSON(), nullable=False),
        sa.Column("holds_at_pod_terminal", sa.JSON(), nullable=False),
        sa.Column("pickup_lfd", UTCDateTime(), nullable=True),
        sa.Column("pickup_appointment_at", UTCDateTime(), nullable=True),
        sa.Column("availability_known", sa.Boolean(), nullable=False),
        sa.Column("available_for_pickup", sa.Boolean(), nullable=True),
        sa.Column("pod_arrived_at", UTCDateTime(), nullable=True),
        sa.Column("pod_discharged_at", UTCDateTime(), nullable=True),
        sa.Column("pod_full_out_at", UTCDateTime(), nullable=True),
        sa.Column("empty_terminated_at", UTCDateTime(), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["pod_terminal_id"],
            ["terminals.id"],
        ),
        sa.ForeignKeyConstraint(["shipment_id"], ["shipments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("containers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_containers_account_id"), ["account_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_containers_number"), ["number"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_containers_shipment_id"), ["shipment_id"], unique=False
        )

    op.create_table(
        "estimated_events",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("shipment_id", sa.String(length=36), nullable=False),
        sa.Column("event", sa.String(length=80), nullable=False),
        sa.Column("estimated_timestamp", UTCDateTime(), nullable=False),
        sa.Column("location_locode", sa.String(length=5), nullable=True),
        sa.Column("timezone", sa.String(length=64), nullable=True),
        sa.Column("voyage_number", sa.String(length=32), nullable=True),
        sa.Column("vessel_id", sa.String(length=36), nullable=True),
        sa.Column("data_source", sa.String(length=16), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["shipment_id"], ["shipments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["vessel_id"],
            ["vessels.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("estimated_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_estimated_events_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_estimated_events_shipment_id"), ["shipment_id"], unique=False
        )

    op.create_table(
        "tracking_requests",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("request_type", sa.String(length=32), nullable=False),
        sa.Column("request_number", sa.String(length=64), nullable=False),
        sa.Column("scac", sa.String(length=4), nullable=False),
        sa.Column("status", sa.String(length=32), nullable=False),
        sa.Column("failed_reason", sa.String(length=64), nullable=True),
        sa.Column("is_retrying", sa.Boolean(), nullable=False),
        sa.Column("retry_count", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", UTCDateTime(), nullable=True),
        sa.Column("ref_numbers", sa.JSON(), nullable=False),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column("shipment_id", sa.String(length=36), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["shipment_id"],
            ["shipments.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tracking_requests", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tracking_requests_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            "ix_tracking_requests_account_number",
            ["account_id", "request_number", "scac"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_tracking_requests_next_attempt_at"), ["next_attempt_at"], unique=False
        )

    op.create_table(
        "container_updated_events",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("container_id", sa.String(length=36), nullable=False),
        sa.Column("terminal_id", sa.String(length=36), nullable=True),
        sa.Column("changeset", sa.JSON(), nullable=False),
        sa.Column("timestamp", UTCDateTime(), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=True),
        sa.Column("data_source", sa.String(length=16), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["container_id"], ["containers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["terminal_id"],
            ["terminals.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("container_updated_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_container_updated_events_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_container_updated_events_container_id"), ["container_id"], unique=False
        )

    op.create_table(
        "transport_events",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("shipment_id", sa.String(length=36), nullable=False),
        sa.Column("container_id", sa.String(length=36), nullable=False),
        sa.Column("event", sa.String(length=80), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("voyage_number", sa.String(length=32), nullable=True),
        sa.Column("timestamp", UTCDateTime(), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=True),
        sa.Column("location_locode", sa.String(length=5), nullable=True),
        sa.Column("vessel_id", sa.String(length=36), nullable=True),
        sa.Column("terminal_id", sa.String(length=36), nullable=True),
        sa.Column("data_source", sa.String(length=16), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["container_id"], ["containers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["shipment_id"], ["shipments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["terminal_id"],
            ["terminals.id"],
        ),
        sa.ForeignKeyConstraint(
            ["vessel_id"],
            ["vessels.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "container_id", "event", "location_locode", "sequence", name="uq_transport_event"
        ),
    )
    with op.batch_alter_table("transport_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_transport_events_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_transport_events_container_id"), ["container_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_transport_events_shipment_id"), ["shipment_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("transport_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transport_events_shipment_id"))
        batch_op.drop_index(batch_op.f("ix_transport_events_container_id"))
        batch_op.drop_index(batch_op.f("ix_transport_events_account_id"))

    op.drop_table("transport_events")
    with op.batch_alter_table("container_updated_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_container_updated_events_container_id"))
        batch_op.drop_index(batch_op.f("ix_container_updated_events_account_id"))

    op.drop_table("container_updated_events")
    with op.batch_alter_table("tracking_requests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tracking_requests_next_attempt_at"))
        batch_op.drop_index("ix_tracking_requests_account_number")
        batch_op.drop_index(batch_op.f("ix_tracking_requests_account_id"))

    op.drop_table("tracking_requests")
    with op.batch_alter_table("estimated_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_estimated_events_shipment_id"))
        batch_op.drop_index(batch_op.f("ix_estimated_events_account_id"))

    op.drop_table("estimated_events")
    with op.batch_alter_table("containers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_containers_shipment_id"))
        batch_op.drop_index(batch_op.f("ix_containers_number"))
        batch_op.drop_index(batch_op.f("ix_containers_account_id"))

    op.drop_table("containers")
    with op.batch_alter_table("shipments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_shipments_updated_at"))
        batch_op.drop_index(batch_op.f("ix_shipments_port_of_discharge_locode"))
        batch_op.drop_index(batch_op.f("ix_shipments_bill_of_lading_number"))
        batch_op.drop_index(batch_op.f("ix_shipments_account_id"))

    op.drop_table("shipments")
    with op.batch_alter_table("outbox_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbox_events_dispatched_at"))
        batch_op.drop_index(batch_op.f("ix_outbox_events_account_id"))

    op.drop_table("outbox_events")

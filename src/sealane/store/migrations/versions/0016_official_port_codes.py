"""official port codes: stored references to a port by a code that is an alias of an official one

The port registry names ports by their official UN/LOCODEs; searoute's own codes for four of them
(``data/port_aliases.csv``: MATNG for Tanger Med, SADMN for Dammam, ESSEV for Seville, CNXIP for
Tianjin Xingang) resolve to the official port but are no longer ports of their own. Every
column that stores a port's code gets the official one, so the service renders the official
port's id and code for shipments, routes, events, terminals and port calls stored before.

The map is written here, not read from the data file, so this migration does the same thing on
every install whatever the shipped data become. A downgrade leaves the codes as they are: the
official codes resolve on either side, and which rows held an alias before is not kept.

Revision ID: 0016_official_port_codes
Revises: 0015_port_call_berthing
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_official_port_codes"
down_revision = "0015_port_call_berthing"
branch_labels = None
depends_on = None

#: Alias -> official UN/LOCODE, as ``data/port_aliases.csv`` had them when this was written.
ALIASES = {"MATNG": "MAPTM", "SADMN": "SADMM", "ESSEV": "ESSVQ", "CNXIP": "CNTXG"}
#: (table, column) of every column holding one port code.
CODE_COLUMNS = (
    ("shipments", "port_of_lading_locode"),
    ("shipments", "port_of_discharge_locode"),
    ("route_locations", "port_locode"),
    ("terminals", "port_locode"),
    ("transport_events", "location_locode"),
    ("estimated_events", "location_locode"),
    ("vessel_port_calls", "locode"),
)


def upgrade() -> None:
    bind = op.get_bind()
    for table, column in CODE_COLUMNS:
        for alias, official in ALIASES.items():
            bind.execute(
                sa.text(f"UPDATE {table} SET {column} = :official WHERE {column} = :alias"),
                {"official": official, "alias": alias},
            )
    # A shipment's transshipment ports are a JSON list of codes: rewritten row by row.
    shipments = sa.table(
        "shipments", sa.column("id", sa.String), sa.column("transshipment_locodes", sa.JSON)
    )
    text = sa.cast(shipments.c.transshipment_locodes, sa.Text)
    held = sa.or_(*(text.like(f'%"{alias}"%') for alias in ALIASES))
    found = bind.execute(sa.select(shipments.c.id, shipments.c.transshipment_locodes).where(held))
    for key, codes in found.all():
        codes_now = [ALIASES.get(code, code) for code in codes or ()]
        bind.execute(
            shipments.update().where(shipments.c.id == key).values(transshipment_locodes=codes_now)
        )


def downgrade() -> None:
    pass

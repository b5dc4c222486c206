"""official seaport codes: stored references to a port by a code the UN/LOCODE list lacks

The port registry is now the code list's seaports (``data/official_ports.csv``,
``data/official_aliases.csv``): 58 of searoute's codes that the list lacks either name a
port the list knows by an official code (the network's port took that code, ``renamed``) or
stand beside another port of the network with an official code (``duplicate``). Both resolve
to the official port, with their old ids; every column that stores a port's code gets the
official one, as 0016 did for its four aliases.

The map is written here, not read from the data file, so this migration does the same thing on
every install whatever the shipped data become. A downgrade leaves the codes as they are.

Revision ID: 0019_official_seaport_codes
Revises: 0016_official_port_codes
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_official_seaport_codes"
down_revision = "0018_position_partitions"
branch_labels = None
depends_on = None

#: Old code -> official UN/LOCODE, as ``data/official_aliases.csv`` had them when this was written.
ALIASES = {
    "AESAD": "AESID",
    "ASPGO": "ASPPG",
    "AUPTH": "AUPER",
    "BHMSN": "BHMIN",
    "BNMUH": "BNMUA",
    "BRVLC": "BRVDC",
    "BZBZC": "BZBZE",
    "CLCBO": "CLBAR",
    "CNCGU": "CNCGS",
    "CNCMG": "CNCGM",
    "CNDFE": "CNDFG",
    "CNHHA": "CNHUH",
    "CNLAI": "CNLZO",
    "CNSNG": "CNSGJ",
    "CNTAS": "CNTGS",
    "CNTGU": "CNTGG",
    "CNWET": "CNWIT",
    "CNXIL": "CNXAO",
    "CNXIU": "CNXYG",
    "CNYQS": "CNBIJ",
    "CNYUY": "CNYYA",
    "CNZAP": "CNZPU",
    "CVPGR": "CVGRA",
    "DKTBH": "DKTUB",
    "DZBEN": "DZBSF",
    "DZDZC": "DZALG",
    "EEMUU": "EEMUG",
    "FITAH": "FITHK",
    "GBAGS": "GBAGL",
    "GBMEV": "GBMVG",
    "GDSGE": "GDSTG",
    "GESUK": "GEABK",
    "GPBAT": "GPBBR",
    "HTLFT": "HTLFF",
    "IDBGI": "IDBJU",
    "IDTOB": "IDTBL",
    "IEBGN": "IEBBG",
    "IELIM": "IELMK",
    "ILTAV": "ILTLV",
    "IRBUS": "IRBUZ",
    "KPNJN": "KPRJN",
    "LCCDC": "LCCDS",
    "LCPCS": "LCCAS",
    "MXROT": "MXRST",
    "MYJOB": "MYJHB",
    "NIPSA": "NIPSN",
    "NOAAR": "NOARD",
    "NOSAD": "NOTRF",
    "SERBN": "SERNB",
    "TCGTK": "TCGDT",
    "THBGP": "THBTC",
    "THSGZ": "THSGK",
    "TNAST": "TNASH",
    "TNLGO": "TNLGN",
    "TNRAD": "TNRDS",
    "VCGEO": "VCGRG",
    "VEECH": "VEELC",
    "VESLO": "VESLV",
}
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

"""Seeds a migrated database at scale straight through the store's tables, for ``scale.py``.

One account (the benchmark's, made beforehand by ``sealane accounts create``) gets N shipments
and four more accounts N/4 each; every shipment has one to three containers with three
transport events each and the tracking request that found it; vessels (one per 200 shipments,
at least 20) carry the shipments, as many more carry none (the ingest's other kind), and all
have P positions between them, one minute apart. Rows go
in by ``COPY`` on PostgreSQL (the events and positions made by the server itself, from
``generate_series``) and ``executemany`` on SQLite, with the list stamp's triggers off
while they do (one bump at the end), then the tables are analysed (PostgreSQL: vacuumed too,
so that counts are answered from the indexes' visibility map as on a settled database).

Numbers are deterministic (``random.Random(41)``): :data:`SEARCHED` names what the benchmark
asks for.
"""

from __future__ import annotations

import io
import json
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, insert, select, text

from sealane.store.accounts import create_account
from sealane.store.database import session_factory, transaction
from sealane.store.models import (
    Account,
    Container,
    Shipment,
    TrackingRequest,
    TransportEvent,
    Vessel,
    VesselPosition,
)
from sealane.store.models.base import new_id

#: The moment the seeded data lead up to.
NOW = datetime(2026, 12, 1, tzinfo=UTC)
SCACS = ("MAEU", "MSCU", "CMDU", "HLCU")
#: Ports of discharge, the last one rare (the selective filter asks for it).
PODS = ("NLRTM", "DEHAM", "BEANR", "USLAX", "USNYC", "SGSIN", "GBFXT", "ESVLC", "ITGOA", "PLGDN")
RARE_POD = "PLGDN"
STATUSES = ("on_ship", "on_ship", "available", "new", "picked_up", "grounded")
EVENTS = (
    "container.transport.vessel_loaded",
    "container.transport.vessel_departed",
    "container.transport.vessel_arrived",
)
#: Rows a COPY or an executemany is given at once.
CHUNK = 20_000
#: Tables whose list-stamp triggers are off while seeding.
STAMPED = ("vessels", "shipments", "containers", "transport_events", "tracking_requests")


#: PostgreSQL: three transport events a container, as :func:`_events` writes them on SQLite.
_PG_EVENTS = """
INSERT INTO transport_events (id, account_id, shipment_id, container_id, event, sequence,
    voyage_number, timestamp, location_locode, vessel_id, data_source, created_at)
SELECT gen_random_uuid()::text, c.account_id, c.shipment_id, c.id,
    (ARRAY['container.transport.vessel_loaded', 'container.transport.vessel_departed',
           'container.transport.vessel_arrived'])[g],
    g, '001W', c.updated_at - make_interval(days => 27 - 7 * g),
    (ARRAY['CNSHA', 'CNSHA', 'NLRTM'])[g], s.pod_vessel_id, 'shipping_line',
    c.updated_at - make_interval(days => 27 - 7 * g)
FROM containers c JOIN shipments s ON s.id = c.shipment_id CROSS JOIN generate_series(1, 3) g
"""
#: PostgreSQL: ``each`` positions a vessel, one minute apart up to ``now``, as
#: :func:`_positions` writes them on SQLite.
_PG_POSITIONS = """
INSERT INTO vessel_positions (id, vessel_id, latitude, longitude, speed_knots, heading_degrees,
    timestamp)
SELECT gen_random_uuid()::text, v.id, -30.0 + v.n % 60 + g * 1e-4,
    -150.0 + (v.n * 7) % 300 + g * 2e-4, 16.0, 90.0,
    CAST(:now AS timestamptz) - make_interval(mins => :each - g)
FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM vessels WHERE id = ANY(:ids)) v
CROSS JOIN generate_series(0, :each - 1) g
"""


@dataclass(frozen=True)
class Seeded:
    """What was seeded, and numbers the benchmark asks for."""

    account_id: str
    shipments: int
    containers: int
    events: int
    positions: int
    seconds: float
    #: A part of a bill of lading number of the account's (7 of its digits, which other
    #: accounts' numbers hold too: the search must keep to the account).
    bl_part: str
    #: A whole container number of the account's.
    container_number: str
    #: Ids of the account's shipments (for the updates under load).
    shipment_ids: tuple[str, ...]


def _bl(account: int, n: int) -> str:
    return f"SLBL{account}{n:08d}"


def seed(engine: Engine, account_id: str, shipments: int, positions: int) -> Seeded:
    """Seed ``engine``'s database (migrated, with the benchmark's account ``account_id``)."""
    started = time.perf_counter()
    rng = random.Random(41)
    sessions = session_factory(engine)
    with transaction(sessions) as session:
        others = [
            create_account(session, f"scale {n}", routing=False, now=NOW).account_id
            for n in range(4)
        ]
    accounts = [(account_id, shipments)] + [(other, shipments // 4) for other in others]
    vessel_ids = [new_id() for _ in range(max(20, shipments // 200))]
    idle_ids = [new_id() for _ in vessel_ids]  # carrying no shipment
    every_vessel = vessel_ids + idle_ids
    counts = {"containers": 0, "events": 0}
    mine: list[str] = []
    postgresql = engine.dialect.name == "postgresql"
    with engine.begin() as connection:
        _triggers(connection, enabled=False)
        _write(connection, Vessel.__table__, _vessels(every_vessel, rng))
        for index, (account, count) in enumerate(accounts):
            rows = list(_shipments(account, index, count, vessel_ids, rng))
            if account == account_id:
                mine = [row["id"] for row in rows]
            _write(connection, Shipment.__table__, rows)
            _write(connection, TrackingRequest.__table__, (_request(row) for row in rows))
            containers = [c for row in rows for c in _containers(row, counts, rng)]
            _write(connection, Container.__table__, containers)
            if not postgresql:
                events = (e for c in containers for e in _events(c, counts))
                _write(connection, TransportEvent.__table__, events)
        if postgresql:  # made by the server: most of the rows, no Python per row
            counts["events"] = connection.execute(text(_PG_EVENTS)).rowcount
            each = positions // len(every_vessel)
            made = connection.execute(
                text(_PG_POSITIONS), {"each": each, "now": NOW, "ids": every_vessel}
            )
            positions = made.rowcount
        else:
            _write(connection, VesselPosition.__table__, _positions(every_vessel, positions))
        _triggers(connection, enabled=True)
        connection.execute(text("UPDATE list_stamps SET version = version + 1"))
    _settle(engine)
    with engine.connect() as connection:
        number = connection.scalar(
            select(Container.number).where(Container.account_id == account_id).limit(1)
        )
    return Seeded(
        account_id=account_id,
        shipments=sum(count for _, count in accounts),
        containers=counts["containers"],
        events=counts["events"],
        positions=positions,
        seconds=time.perf_counter() - started,
        bl_part=_bl(0, shipments // 3)[5:12],
        container_number=str(number),
        shipment_ids=tuple(mine),
    )


def _vessels(ids: Sequence[str], rng: random.Random) -> Iterator[dict[str, Any]]:
    for n, key in enumerate(ids):
        yield {
            "id": key,
            "name": f"SCALE VOYAGER {n}",
            "imo": f"97{n:05d}",
            "mmsi": f"2190{n:05d}",
            "latitude": rng.uniform(-40, 60),
            "longitude": rng.uniform(-170, 170),
            "nautical_speed_knots": 16.0,
            "position_timestamp": NOW,
        }


def _shipments(
    account: str, index: int, count: int, vessels: Sequence[str], rng: random.Random
) -> Iterator[dict[str, Any]]:
    for n in range(count):
        moment = NOW - timedelta(seconds=rng.randrange(90 * 86_400))
        number = _bl(index, n)
        yield {
            "id": new_id(),
            "account_id": account,
            "bill_of_lading_number": number,
            "booking_number": None,
            "ref_numbers": [f"PO{index}{n:07d}"],
            "shipping_line_scac": SCACS[n % len(SCACS)],
            "port_of_lading_locode": "CNSHA",
            "port_of_discharge_locode": RARE_POD if n % 97 == 0 else PODS[n % (len(PODS) - 1)],
            "transshipment_locodes": [],
            "pod_vessel_id": vessels[n % len(vessels)],
            "pod_voyage_number": f"{n % 50:03d}W",
            "pol_etd_at": moment - timedelta(days=20),
            "pol_atd_at": moment - timedelta(days=20),
            "pod_eta_at": moment + timedelta(days=10),
            "tags": [],
            "carrier_request_type": "bill_of_lading",
            "carrier_number": number,
            "carrier_epoch": moment - timedelta(days=30),
            "created_at": moment - timedelta(days=30),
            "updated_at": moment,
        }


def _request(shipment: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": new_id(),
        "account_id": shipment["account_id"],
        "request_type": "bill_of_lading",
        "request_number": shipment["carrier_number"],
        "scac": shipment["shipping_line_scac"],
        "status": "created",
        "is_retrying": False,
        "retry_count": 0,
        "ref_numbers": [],
        "tags": [],
        "shipment_id": shipment["id"],
        "created_at": shipment["created_at"],
        "updated_at": shipment["created_at"],
    }


def _containers(
    shipment: dict[str, Any], counts: dict[str, int], rng: random.Random
) -> Iterator[dict[str, Any]]:
    for _ in range(rng.randint(1, 3)):
        counts["containers"] += 1
        yield {
            "id": new_id(),
            "account_id": shipment["account_id"],
            "shipment_id": shipment["id"],
            "number": f"SLNU{counts['containers']:07d}",
            "equipment_type": "dry",
            "equipment_length": 40,
            "equipment_height": "high_cube",
            "weight_in_lbs": 20_000,
            "current_status": rng.choice(STATUSES),
            "ref_numbers": [],
            "fees_at_pod_terminal": [],
            "holds_at_pod_terminal": [],
            "availability_known": False,
            "created_at": shipment["created_at"],
            "updated_at": shipment["updated_at"],
            # used below, not a column
            "_vessel": shipment["pod_vessel_id"],
            "_moment": shipment["updated_at"],
        }


def _events(container: dict[str, Any], counts: dict[str, int]) -> Iterator[dict[str, Any]]:
    for n, (event, port) in enumerate(zip(EVENTS, ("CNSHA", "CNSHA", "NLRTM"), strict=True)):
        counts["events"] += 1
        moment = container["_moment"] - timedelta(days=20 - 7 * n)
        yield {
            "id": new_id(),
            "account_id": container["account_id"],
            "shipment_id": container["shipment_id"],
            "container_id": container["id"],
            "event": event,
            "sequence": n + 1,
            "voyage_number": "001W",
            "timestamp": moment,
            "location_locode": port,
            "vessel_id": container["_vessel"],
            "data_source": "shipping_line",
            "created_at": moment,
        }


def _positions(vessels: Sequence[str], total: int) -> Iterator[dict[str, Any]]:
    each, extra = divmod(total, len(vessels))
    for n, vessel in enumerate(vessels):
        count = each + (n < extra)
        start = NOW - timedelta(minutes=count)
        lat, lon = -30.0 + n % 60, -150.0 + (n * 7) % 300
        for m in range(count):
            yield {
                "id": new_id(),
                "vessel_id": vessel,
                "latitude": lat + m * 1e-4,
                "longitude": lon + m * 2e-4,
                "speed_knots": 16.0,
                "heading_degrees": 90.0,
                "timestamp": start + timedelta(minutes=m),
            }


def _chunks(rows: Iterable[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    chunk: list[dict[str, Any]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _write(connection: Any, table: Any, rows: Iterable[dict[str, Any]]) -> None:
    """Insert ``rows`` (dicts of column values; keys starting with ``_`` are not columns)."""
    postgresql = connection.dialect.name == "postgresql"
    for chunk in _chunks(rows):
        columns = [name for name in chunk[0] if not name.startswith("_")]
        if not postgresql:
            connection.execute(
                insert(table), [{name: row[name] for name in columns} for row in chunk]
            )
            continue
        cursor = connection.connection.driver_connection.cursor()
        statement = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
        buffer = io.StringIO()
        for row in chunk:
            buffer.write("\t".join(_copied(row[name]) for name in columns))
            buffer.write("\n")
        with cursor.copy(statement) as copy:
            copy.write(buffer.getvalue())


def _copied(value: Any) -> str:
    """``value`` in COPY's text format (no value here holds a tab, newline or backslash)."""
    if value is None:
        return "\\N"
    if isinstance(value, list | dict):
        return json.dumps(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bool):
        return "t" if value else "f"
    return str(value)


def _triggers(connection: Any, *, enabled: bool) -> None:
    """The list stamp's triggers on or off (PostgreSQL; on SQLite they are cheap enough)."""
    if connection.dialect.name != "postgresql":
        return
    for table in STAMPED:
        connection.execute(
            text(f"ALTER TABLE {table} {'ENABLE' if enabled else 'DISABLE'} TRIGGER USER")
        )


def _settle(engine: Engine) -> None:
    """Statistics (and on PostgreSQL the visibility map) as on a settled database."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("VACUUM ANALYZE"))
    else:
        with engine.begin() as connection:
            connection.execute(text("ANALYZE"))


def account_of(engine: Engine, name: str) -> str:
    """The id of the account called ``name``."""
    with engine.connect() as connection:
        found = connection.scalar(select(Account.id).where(Account.name == name))
    if found is None:
        raise RuntimeError(f"no account {name!r}")
    return str(found)

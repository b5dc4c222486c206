"""Reference data (carriers, terminals) and the demo data of ``sealane serve --demo``."""

from __future__ import annotations

import csv
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..routing.data import data_dir
from ..routing.ports import get_port
from ..routing.voyage import future_positions
from .accounts import NewKey, create_account, issue_key
from .models import Account, ShippingLine, Terminal, Vessel, VesselPosition

#: Namespace of the ids of shipped reference rows (stable across installs).
REFERENCE_NAMESPACE = uuid.UUID("0b9a4c1e-3f57-5d35-8f0e-5ea1a4e5ea1a")
#: Carrier columns of ``shipping_lines.csv`` beyond the names: codes, then support flags.
LINE_CODES = ("alternative_scacs", "container_owner_codes", "booking_number_pattern")
SUPPORT_FLAGS = (
    "bill_of_lading_tracking_support",
    "booking_number_tracking_support",
    "container_number_tracking_support",
)
#: Address columns of ``terminals.csv`` (empty when not known).
TERMINAL_ADDRESS = ("nickname", "street", "city", "state", "state_abbr", "zip")


def reference_id(kind: str, key: str) -> str:
    """Stable id of a shipped reference row (``kind`` is e.g. 'terminal', ``key`` its slug)."""
    return str(uuid.uuid5(REFERENCE_NAMESPACE, f"{kind}:{key}"))


def shipped_scacs() -> tuple[str, ...]:
    """Every SCAC of the shipped carriers (their own and their alternative codes), sorted: what
    a tracking request may name, known without a database."""
    with (data_dir() / "shipping_lines.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    codes = {row["scac"] for row in rows}
    codes.update(code for row in rows for code in row["alternative_scacs"].split("|") if code)
    return tuple(sorted(codes))


def load_reference_data(session: Session) -> None:
    """Insert or update the shipped carriers and terminals (idempotent, one query per table)."""
    with (data_dir() / "shipping_lines.csv").open(encoding="utf-8", newline="") as handle:
        lines = [
            ShippingLine(
                id=reference_id("shipping_line", row["scac"]),
                scac=row["scac"],
                name=row["name"],
                short_name=row["short_name"],
                bill_of_lading_prefixes=row["bill_of_lading_prefixes"],
                alternative_scacs=row["alternative_scacs"],
                container_owner_codes=row["container_owner_codes"],
                booking_number_pattern=row["booking_number_pattern"],
                **{name: row[name] == "true" for name in SUPPORT_FLAGS},
            )
            for row in csv.DictReader(handle)
        ]
    with (data_dir() / "terminals.csv").open(encoding="utf-8", newline="") as handle:
        terminals = [
            Terminal(
                id=reference_id("terminal", row["id_key"]),
                name=row["name"],
                port_locode=row["port_locode"],
                firms_code=row["firms_code"] or None,
                smdg_code=row["smdg_code"] or None,
                operator=row["operator"] or None,
                lon=float(row["lon"]),
                lat=float(row["lat"]),
                **{name: row[name] or None for name in TERMINAL_ADDRESS},
            )
            for row in csv.DictReader(handle)
        ]
    line_fields = ("scac", "name", "short_name", "bill_of_lading_prefixes", *LINE_CODES)
    _upsert(session, ShippingLine, lines, (*line_fields, *SUPPORT_FLAGS))
    terminal_fields = ("name", "port_locode", "firms_code", "smdg_code", "operator", "lon", "lat")
    _upsert(session, Terminal, terminals, (*terminal_fields, *TERMINAL_ADDRESS))


def add_carrier_lines(session: Session, lines: dict[str, str]) -> None:
    """Give each SCAC of ``lines`` (SCAC -> carrier name) a shipping line unless one answers
    to it already, so a tracking request can name a carrier configured by the operator."""
    known = {
        code
        for scac, alternatives in session.execute(
            select(ShippingLine.scac, ShippingLine.alternative_scacs)
        )
        for code in (scac, *alternatives.split("|"))
    }
    for scac, name in sorted(lines.items()):
        if scac in known:
            continue
        session.add(
            ShippingLine(
                id=reference_id("shipping_line", scac),
                scac=scac,
                name=name,
                short_name=name[:100],
                bill_of_lading_tracking_support=True,
                booking_number_tracking_support=True,
                container_number_tracking_support=True,
            )
        )


def _upsert(
    session: Session, model: type[ShippingLine | Terminal], rows: list[Any], fields: tuple[str, ...]
) -> None:
    """Add the rows whose id is new and update the fields of those that changed."""
    stored_rows: list[Any] = list(session.scalars(select(model)))
    existing = {row.id: row for row in stored_rows}
    for row in rows:
        stored = existing.get(row.id)
        if stored is None:
            session.add(row)
            continue
        for name in fields:
            if getattr(stored, name) != getattr(row, name):
                setattr(stored, name, getattr(row, name))


@dataclass(frozen=True, slots=True)
class DemoVessel:
    """A demo ship sailing a real leg, placed ``hours_sailed`` into it."""

    name: str
    imo: str
    mmsi: str
    previous_port: str
    destination_port: str
    speed_kn: float
    hours_sailed: float


DEMO_VESSELS = (
    DemoVessel("Sealane Aurora", "9811000", "636019825", "CNSHA", "NLRTM", 18.0, 200.0),
    DemoVessel("Sealane Borealis", "9811001", "636019826", "JPYOK", "USLGB", 20.0, 60.0),
    DemoVessel("Sealane Cygnus", "9811002", "636019827", "SGSIN", "DEHAM", 16.0, 300.0),
    DemoVessel("Sealane Draco", "9811003", "636019828", "USNYC", "BEANR", 17.0, 48.0),
)


def seed_demo(session: Session, now: datetime) -> list[tuple[str, NewKey]]:
    """Demo accounts (with and without routing) and vessels with a day of recent positions.

    Returns the new accounts' keys; an existing demo database gets new keys, not new accounts.
    """
    keys = []
    for name, routing in (("Demo (routing)", True), ("Demo (no routing)", False)):
        existing = session.scalar(select(Account).where(Account.name == name))
        if existing is None:
            keys.append((name, create_account(session, name, routing=routing, now=now)))
        else:
            keys.append((name, issue_key(session, existing, now=now)))
    for demo in DEMO_VESSELS:
        _seed_vessel(session, demo, now)
    return keys


def _seed_vessel(session: Session, demo: DemoVessel, now: datetime) -> None:
    """A vessel whose last 24 h of hourly positions lie on its leg, the latest at ``now``."""
    vessel = session.scalar(select(Vessel).where(Vessel.imo == demo.imo))
    if vessel is None:
        vessel = Vessel(name=demo.name, imo=demo.imo, mmsi=demo.mmsi)
        session.add(vessel)
        session.flush()
    session.execute(delete(VesselPosition).where(VesselPosition.vessel_id == vessel.id))
    departed = now - timedelta(hours=demo.hours_sailed)
    origin = get_port(demo.previous_port)
    track = future_positions(
        origin.coordinates,
        demo.previous_port,
        demo.destination_port,
        speed_kn=demo.speed_kn,
        start_time=departed,
        step_s=3600.0,
    )
    hours = min(int(demo.hours_sailed), len(track) - 1)
    for hour in range(max(hours - 24, 0), hours + 1):
        session.add(
            VesselPosition(
                vessel_id=vessel.id,
                latitude=float(track.lats[hour]),
                longitude=float(track.lons[hour]),
                speed_knots=demo.speed_kn,
                heading_degrees=float(track.headings_deg[hour]),
                timestamp=departed + timedelta(hours=hour),
            )
        )
    vessel.latitude = float(track.lats[hours])
    vessel.longitude = float(track.lons[hours])
    vessel.nautical_speed_knots = demo.speed_kn
    vessel.navigational_heading_degrees = float(track.headings_deg[hours])
    vessel.position_timestamp = departed + timedelta(hours=hours)

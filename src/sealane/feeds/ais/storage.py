"""Bulk reads and writes of the AIS ingest: vessels by MMSI, last stored points, new track points.

On PostgreSQL a batch's points and vessel moves are copied (binary ``COPY``, formatted by
psycopg's C code) into temporary staging tables, then merged with one statement each; SQLite
gets one ``executemany`` each. Both run inside the caller's transaction, so a batch is stored
whole or not at all, with the feed's checkpoint, and both skip a point the vessel already has
for that time (``ON CONFLICT DO NOTHING`` on the unique (vessel_id, timestamp) index):
identical batches sent at once each judge the track empty, and the second must not store the
points again.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, String, Table, any_, func, insert, literal, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from ...store.models import FeedCheckpoint, Vessel, VesselPosition, new_id
from .reports import PositionReport
from .tracks import Track

_POSITIONS: Table = VesselPosition.__table__  # type: ignore[assignment]
_VESSELS: Table = Vessel.__table__  # type: ignore[assignment]
#: Parameters per IN (...) list, well under every driver's limit.
CHUNK = 500
INSERT_SQL = (
    "INSERT INTO vessel_positions (id, vessel_id, latitude, longitude, speed_knots,"
    " heading_degrees, course_degrees, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (vessel_id, timestamp) DO NOTHING"
)
MOVE_SQL = (
    "UPDATE vessels SET latitude = ?, longitude = ?, nautical_speed_knots = ?,"
    " navigational_heading_degrees = ?, position_timestamp = ? WHERE id = ?"
)
_LOW_62 = (1 << 62) - 1
#: PostgreSQL's staging tables: private to the connection, emptied at every commit, (re)made by
#: the first batch of a connection (or after a rollback undid their making).
STAGE_POINTS_SQL = (
    "CREATE TEMP TABLE IF NOT EXISTS ais_stage_points (id varchar(36), vessel_id varchar(36),"
    " latitude float8, longitude float8, speed_knots float8, heading_degrees float8,"
    " course_degrees float8, at timestamptz) ON COMMIT DELETE ROWS"
)
POINT_TYPES = ("varchar", "varchar", *("float8",) * 5, "timestamptz")
MERGE_POINTS_SQL = (
    "INSERT INTO vessel_positions (id, vessel_id, latitude, longitude, speed_knots,"
    " heading_degrees, course_degrees, timestamp)"
    " SELECT id, vessel_id, latitude, longitude, speed_knots, heading_degrees, course_degrees, at"
    " FROM ais_stage_points ON CONFLICT (vessel_id, timestamp) DO NOTHING"
)
STAGE_MOVES_SQL = (
    "CREATE TEMP TABLE IF NOT EXISTS ais_stage_moves (lat float8, lon float8, speed float8,"
    " heading float8, at timestamptz, id varchar(36)) ON COMMIT DELETE ROWS"
)
MOVE_TYPES = (*("float8",) * 4, "timestamptz", "varchar")
MERGE_MOVES_SQL = (
    "UPDATE vessels AS v SET latitude = u.lat, longitude = u.lon, nautical_speed_knots = u.speed,"
    " navigational_heading_degrees = u.heading, position_timestamp = u.at"
    " FROM ais_stage_moves AS u WHERE v.id = u.id"
)


def as_datetime(time_s: float) -> datetime:
    """UNIX seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(time_s, UTC)


def _chunks(values: Sequence[str]) -> Iterable[Sequence[str]]:
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


def _among(session: Session, column: Any, values: Sequence[str]) -> ColumnElement[bool]:
    """``column IN values``: one array parameter on PostgreSQL (``= ANY``), whose driver would
    otherwise parse a placeholder per value on the client."""
    if session.get_bind().dialect.name == "postgresql":
        among: ColumnElement[bool] = column == any_(literal(list(values), ARRAY(String)))
        return among
    result: ColumnElement[bool] = column.in_(values)
    return result


def load_tracks(session: Session, mmsis: Iterable[int]) -> dict[int, Track]:
    """The track state of the vessels with these MMSIs: latest fix and last stored point."""
    keys = sorted({str(m) for m in mmsis})
    tracks: dict[int, Track] = {}
    for part in _chunks(keys):
        rows = session.execute(
            select(
                _VESSELS.c.mmsi,
                _VESSELS.c.id,
                _VESSELS.c.longitude,
                _VESSELS.c.latitude,
                _VESSELS.c.position_timestamp,
            )
            .where(_among(session, _VESSELS.c.mmsi, part))
            .order_by(_VESSELS.c.imo.is_(None), _VESSELS.c.id)  # a duplicated MMSI: IMO first
        )
        for mmsi, vessel_id, lon, lat, at in rows:
            if int(mmsi) in tracks:
                continue
            track = Track(vessel_id)
            if at is not None and lon is not None and lat is not None:
                track.last_s, track.last_lon, track.last_lat = _seconds(at), lon, lat
                track.coslat = math.cos(math.radians(lat))
            tracks[int(mmsi)] = track
    _load_stored(session, {t.vessel_id: t for t in tracks.values()})
    return tracks


def _load_stored(session: Session, by_vessel: dict[str, Track]) -> None:
    """Set each track's last stored point (time and course) from ``vessel_positions``."""
    for part in _chunks(sorted(by_vessel)):
        newest = (
            select(_POSITIONS.c.vessel_id, func.max(_POSITIONS.c.timestamp).label("newest"))
            .where(_among(session, _POSITIONS.c.vessel_id, part))
            .group_by(_POSITIONS.c.vessel_id)
            .subquery()
        )
        rows = session.execute(
            select(
                VesselPosition.vessel_id, VesselPosition.timestamp, VesselPosition.course_degrees
            ).join(
                newest,
                (VesselPosition.vessel_id == newest.c.vessel_id)
                & (VesselPosition.timestamp == newest.c.newest),
            )
        )
        for vessel_id, at, course in rows:
            track = by_vessel[vessel_id]
            track.stored_s, track.stored_course = _seconds(at), course
            if track.last_s is None or track.stored_s > track.last_s:
                track.last_s = track.stored_s


def create_vessels(session: Session, mmsis: Iterable[int]) -> None:
    """A vessel row for each MMSI, named after it until its static data names it."""
    rows = [{"id": new_id(), "name": placeholder_name(m), "mmsi": str(m)} for m in sorted(mmsis)]
    if rows:
        session.execute(insert(_VESSELS), rows)


def placeholder_name(mmsi: int) -> str:
    """The name of a vessel known only by its MMSI."""
    return f"MMSI {mmsi}"


def write_points(session: Session, points: list[tuple[str, PositionReport]]) -> None:
    """Insert track points ``(vessel_id, report)``, skipping those stored already: a COPY and
    one merge on PostgreSQL, executemany on SQLite.

    Both go to the driver directly: the per-row parameter processing of SQLAlchemy would cost
    more than the insert. Times are stored as SQLAlchemy stores them (UTC).
    """
    if not points:
        return
    connection = session.connection()
    postgres = connection.dialect.name == "postgresql"
    stamp = as_datetime if postgres else _sqlite_time
    ids = time_ordered_ids(len(points))
    rows = [
        (
            ids[i],
            vessel_id,
            p.lat,
            p.lon,
            p.speed_kn,
            p.course_deg if p.heading_deg is None else float(p.heading_deg),
            p.course_deg,
            stamp(p.time_s),
        )
        for i, (vessel_id, p) in enumerate(points)
    ]
    driver = connection.connection.driver_connection
    assert driver is not None
    if postgres:
        _copy_merge(
            driver, (STAGE_POINTS_SQL, "ais_stage_points", POINT_TYPES), rows, MERGE_POINTS_SQL
        )
    else:
        driver.executemany(INSERT_SQL, rows)


def move_vessels(session: Session, latest: dict[str, PositionReport]) -> None:
    """Set each vessel's latest position fields to its newest accepted report (a COPY and one
    update on PostgreSQL, one executemany on SQLite)."""
    if not latest:
        return
    connection = session.connection()
    postgres = connection.dialect.name == "postgresql"
    stamp = as_datetime if postgres else _sqlite_time
    rows = [
        (
            p.lat,
            p.lon,
            p.speed_kn,
            p.course_deg if p.heading_deg is None else float(p.heading_deg),
            stamp(p.time_s),
            vessel_id,
        )
        for vessel_id, p in latest.items()
    ]
    driver = connection.connection.driver_connection
    assert driver is not None
    if postgres:
        _copy_merge(driver, (STAGE_MOVES_SQL, "ais_stage_moves", MOVE_TYPES), rows, MERGE_MOVES_SQL)
    else:
        driver.executemany(MOVE_SQL, rows)


def _copy_merge(
    driver: Any, stage: tuple[str, str, Sequence[str]], rows: list[tuple[Any, ...]], merge: str
) -> None:
    """Copy ``rows`` into the staging table ``stage`` (its making, name, column types) in
    binary, then run ``merge`` over it: psycopg formats every row in C, where an array
    parameter would be dumped value by value in Python."""
    make, table, types = stage
    with driver.cursor() as cursor:
        cursor.execute(make)
        with cursor.copy(f"COPY {table} FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(types)
            for row in rows:
                copy.write_row(row)
        cursor.execute(merge)


def time_ordered_ids(count: int) -> list[str]:
    """``count`` new ids in the UUID version 7 layout: a millisecond time prefix, then random.

    Track points arrive by the thousand; ids that sort by time go to the end of the primary
    key's index instead of to random pages of it (uuid4), which PostgreSQL inserts much faster.
    """
    prefix = (time.time_ns() // 1_000_000) << 80 | 0x7 << 76
    noise = os.urandom(10 * count)
    found = []
    for i in range(count):
        r = int.from_bytes(noise[10 * i : 10 * i + 10], "big")
        value = prefix | (r >> 68) << 64 | 0b10 << 62 | (r & _LOW_62)
        text = f"{value:032x}"
        found.append(f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}")
    return found


def _sqlite_time(time_s: float) -> str:
    """UNIX seconds as SQLAlchemy's SQLite datetime text (UTC, microseconds)."""
    return datetime.fromtimestamp(time_s, UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def read_checkpoint(session: Session, source: str) -> int:
    """The committed position of ``source`` (0 when it never committed a batch)."""
    row = session.get(FeedCheckpoint, source)
    return 0 if row is None else row.position


def save_checkpoint(session: Session, source: str, position: int, now: datetime) -> None:
    """Record that ``source`` is done up to ``position`` (in the batch's own transaction)."""
    row = session.get(FeedCheckpoint, source)
    if row is None:
        session.add(FeedCheckpoint(source=source, position=position, updated_at=now))
    else:
        row.position, row.updated_at = position, now


def _seconds(at: datetime) -> float:
    return at.timestamp()

"""Bulk reads and writes of the AIS ingest: vessels by MMSI, last stored points, new track points.

On PostgreSQL a batch's vessel moves and new points are one statement, each set a JSON
parameter; SQLite gets one ``executemany`` each. Both run inside the caller's transaction, so a
batch is stored whole or not at all, with the feed's checkpoint, and both skip a point the
vessel already has for that time (``ON CONFLICT DO NOTHING`` on the unique (vessel_id,
timestamp) index): identical batches sent at once each judge the track empty, and the second
must not store the points again.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, String, Table, any_, insert, literal, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, sessionmaker

from ...store.database import transaction
from ...store.models import FeedCheckpoint, Vessel, VesselPosition, new_id
from ...store.position_partitions import Month, ensure_months, month_of, next_month
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
#: PostgreSQL: a batch's vessel moves and new points in one statement (one round trip, which
#: on a busy machine costs more than the writes), each set as one JSON parameter that the
#: server unpacks (psycopg would dump array parameters value by value in Python).
STORE_SQL = (
    "WITH moved AS (UPDATE vessels AS vessel SET latitude = m.y, longitude = m.x,"
    " nautical_speed_knots = m.s, navigational_heading_degrees = m.h, position_timestamp = m.t"
    " FROM json_to_recordset(%s::json) AS m(v varchar, y float8, x float8, s float8, h float8,"
    " t timestamptz) WHERE vessel.id = m.v)"
    " INSERT INTO vessel_positions (id, vessel_id, latitude, longitude, speed_knots,"
    " heading_degrees, course_degrees, timestamp) SELECT i, v, y, x, s, h, c, t"
    " FROM json_to_recordset(%s::json) AS p(i varchar, v varchar, y float8, x float8, s float8,"
    " h float8, c float8, t timestamptz) ON CONFLICT (vessel_id, timestamp) DO NOTHING"
)


def as_datetime(time_s: float) -> datetime:
    """UNIX seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(time_s, UTC)


def parts(session: Session, values: Sequence[str]) -> Iterable[Sequence[str]]:
    """``values`` in the parts one ``IN`` list takes: all at once on PostgreSQL (one array
    parameter, see :func:`among`), :data:`CHUNK` at a time on SQLite (a placeholder each)."""
    if session.get_bind().dialect.name == "postgresql":
        if values:
            yield values
        return
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


def among(session: Session, column: Any, values: Sequence[str]) -> ColumnElement[bool]:
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
    for part in parts(session, keys):
        rows = session.execute(
            select(
                _VESSELS.c.mmsi,
                _VESSELS.c.id,
                _VESSELS.c.longitude,
                _VESSELS.c.latitude,
                _VESSELS.c.position_timestamp,
            )
            .where(among(session, _VESSELS.c.mmsi, part))
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


#: PostgreSQL: each vessel's newest stored point, found by walking the unique (vessel_id,
#: timestamp) index backwards from its end (through the newest monthly partition first): a few
#: pages read per vessel however long its track.
LAST_STORED_SQL = (
    "SELECT v.id, p.timestamp, p.course_degrees FROM unnest(%s::varchar[]) AS v(id)"
    " CROSS JOIN LATERAL (SELECT timestamp, course_degrees FROM vessel_positions"
    " WHERE vessel_id = v.id ORDER BY timestamp DESC LIMIT 1) AS p"
)


def _load_stored(session: Session, by_vessel: dict[str, Track]) -> None:
    """Set each track's last stored point (time and course) from ``vessel_positions``: one
    index probe per vessel (never a read of every point it has)."""
    for part in parts(session, sorted(by_vessel)):
        for vessel_id, at, course in _last_stored(session, part):
            track = by_vessel[vessel_id]
            track.stored_s, track.stored_course = _seconds(at), course
            if track.last_s is None or track.stored_s > track.last_s:
                track.last_s = track.stored_s


def _last_stored(
    session: Session, vessel_ids: Sequence[str]
) -> Iterable[tuple[str, datetime, float | None]]:
    """``(vessel_id, timestamp, course)`` of each vessel's newest stored point."""
    if session.get_bind().dialect.name == "postgresql":
        driver = session.connection().connection.driver_connection
        assert driver is not None
        with driver.cursor() as cursor:
            cursor.execute(LAST_STORED_SQL, (list(vessel_ids),))
            return [(v, at, course) for v, at, course in cursor.fetchall()]
    # SQLite: the newest point's rowid per vessel, each a probe of the unique index from its end
    newest = (
        select(_POSITIONS.c.id)
        .where(_POSITIONS.c.vessel_id == _VESSELS.c.id)
        .order_by(_POSITIONS.c.timestamp.desc())
        .limit(1)
        .scalar_subquery()
    )
    ids = select(newest).where(_VESSELS.c.id.in_(vessel_ids))
    rows = session.execute(
        select(
            VesselPosition.vessel_id, VesselPosition.timestamp, VesselPosition.course_degrees
        ).where(VesselPosition.id.in_(ids))
    )
    return [(v, at, course) for v, at, course in rows]


def ensure_position_months(
    sessions: sessionmaker[Session], times: Iterable[float], known: set[Month], now_s: float
) -> set[Month]:
    """Make sure the monthly partitions of these UNIX ``times`` exist (PostgreSQL), asking the
    database only about months not in ``known``; ``known`` with the batch's months. Months
    after next month (``now_s`` is now) are not made: a receiver's clock gone wrong does not
    make partitions years ahead (its points go to the default partition).

    Its own transaction, committed before the batch's opens: making a partition locks the
    default partition, which a batch's transaction holds a lock on from its first read of the
    positions, so made inside batches two of them could wait on each other. A point of a month
    not made (an ingest that did not ask) is stored all the same, in the default partition.
    """
    latest = next_month(month_of(now_s))
    months = {m for m in {month_of(t) for t in times} - known if m <= latest}
    if months:
        with transaction(sessions) as session:
            ensure_months(session.connection(), months)
    return known | months


def create_vessels(session: Session, mmsis: Iterable[int]) -> None:
    """A vessel row for each MMSI, named after it until its static data names it."""
    rows = [{"id": new_id(), "name": placeholder_name(m), "mmsi": str(m)} for m in sorted(mmsis)]
    if rows:
        session.execute(insert(_VESSELS), rows)


def placeholder_name(mmsi: int) -> str:
    """The name of a vessel known only by its MMSI."""
    return f"MMSI {mmsi}"


def store_positions(
    session: Session,
    points: list[tuple[str, PositionReport]],
    latest: dict[str, PositionReport],
) -> None:
    """Insert the batch's track points ``(vessel_id, report)``, skipping those stored already,
    and move each vessel of ``latest`` to its report there: one statement on PostgreSQL, an
    executemany each on SQLite.

    Both go to the driver directly: the per-row parameter processing of SQLAlchemy would cost
    more than the writes. Times are stored as SQLAlchemy stores them (UTC).
    """
    if not points and not latest:
        return
    connection = session.connection()
    driver = connection.connection.driver_connection
    assert driver is not None
    if connection.dialect.name == "postgresql":
        with driver.cursor() as cursor:
            cursor.execute(STORE_SQL, (_moves_json(latest), _points_json(points)))
        return
    ids = time_ordered_ids(len(points))
    rows = [
        (
            ids[i],
            vessel_id,
            p.lat,
            p.lon,
            p.speed_kn,
            _heading(p),
            p.course_deg,
            _sqlite_time(p.time_s),
        )
        for i, (vessel_id, p) in enumerate(points)
    ]
    if rows:
        driver.executemany(INSERT_SQL, rows)
    moves = [
        (p.lat, p.lon, p.speed_kn, _heading(p), _sqlite_time(p.time_s), vessel_id)
        for vessel_id, p in latest.items()
    ]
    if moves:
        driver.executemany(MOVE_SQL, moves)


def _heading(p: PositionReport) -> float | None:
    """The heading a point stores: the reported one, else the course over ground."""
    return p.course_deg if p.heading_deg is None else float(p.heading_deg)


def _points_json(points: list[tuple[str, PositionReport]]) -> str:
    """The points as the JSON array :data:`STORE_SQL` reads (times in ISO 8601, exact to the
    microsecond as Python rounds them; floats as their shortest exact text)."""
    ids = time_ordered_ids(len(points))
    return json.dumps(
        [
            {
                "i": ids[i],
                "v": vessel_id,
                "y": p.lat,
                "x": p.lon,
                "s": p.speed_kn,
                "h": _heading(p),
                "c": p.course_deg,
                "t": as_datetime(p.time_s).isoformat(),
            }
            for i, (vessel_id, p) in enumerate(points)
        ]
    )


def _moves_json(latest: dict[str, PositionReport]) -> str:
    """The vessels' new positions as the JSON array :data:`STORE_SQL` reads."""
    return json.dumps(
        [
            {
                "v": vessel_id,
                "y": p.lat,
                "x": p.lon,
                "s": p.speed_kn,
                "h": _heading(p),
                "t": as_datetime(p.time_s).isoformat(),
            }
            for vessel_id, p in latest.items()
        ]
    )


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

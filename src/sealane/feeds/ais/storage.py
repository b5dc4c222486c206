"""Bulk reads and writes of the AIS ingest: vessels by MMSI, last stored points, new track points.

PostgreSQL gets the points through ``COPY``; SQLite through one ``executemany`` insert. Both run
inside the caller's transaction, so a batch is stored whole or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from sqlalchemy import Table, bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from ...store.models import FeedCheckpoint, Vessel, VesselPosition, new_id
from .reports import PositionReport
from .tracks import Track

_POSITIONS: Table = VesselPosition.__table__  # type: ignore[assignment]
_VESSELS: Table = Vessel.__table__  # type: ignore[assignment]
#: Parameters per IN (...) list, well under every driver's limit.
CHUNK = 500
COPY_SQL = (
    "COPY vessel_positions (id, vessel_id, latitude, longitude, speed_knots, heading_degrees,"
    " course_degrees, timestamp) FROM STDIN"
)
_MOVE = (
    update(_VESSELS)
    .where(_VESSELS.c.id == bindparam("vid"))
    .values(
        latitude=bindparam("lat"),
        longitude=bindparam("lon"),
        nautical_speed_knots=bindparam("speed"),
        navigational_heading_degrees=bindparam("heading"),
        position_timestamp=bindparam("at"),
    )
)


def as_datetime(time_s: float) -> datetime:
    """UNIX seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(time_s, UTC)


def _chunks(values: Sequence[str]) -> Iterable[Sequence[str]]:
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


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
            .where(_VESSELS.c.mmsi.in_(part))
            .order_by(_VESSELS.c.imo.is_(None), _VESSELS.c.id)  # a duplicated MMSI: IMO first
        )
        for mmsi, vessel_id, lon, lat, at in rows:
            if int(mmsi) in tracks:
                continue
            track = Track(vessel_id)
            if at is not None and lon is not None and lat is not None:
                track.last_s, track.last_lon, track.last_lat = _seconds(at), lon, lat
            tracks[int(mmsi)] = track
    _load_stored(session, {t.vessel_id: t for t in tracks.values()})
    return tracks


def _load_stored(session: Session, by_vessel: dict[str, Track]) -> None:
    """Set each track's last stored point (time and course) from ``vessel_positions``."""
    for part in _chunks(sorted(by_vessel)):
        newest = (
            select(_POSITIONS.c.vessel_id, func.max(_POSITIONS.c.timestamp).label("newest"))
            .where(_POSITIONS.c.vessel_id.in_(part))
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
    """Insert track points ``(vessel_id, report)`` (COPY on PostgreSQL)."""
    if not points:
        return
    rows = [
        (
            new_id(),
            vessel_id,
            p.lat,
            p.lon,
            p.speed_kn,
            p.course_deg if p.heading_deg is None else float(p.heading_deg),
            p.course_deg,
            as_datetime(p.time_s),
        )
        for vessel_id, p in points
    ]
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        driver = connection.connection.driver_connection
        assert driver is not None
        with driver.cursor() as cursor, cursor.copy(COPY_SQL) as copy:
            for row in rows:
                copy.write_row(row)
        return
    names = (
        *("id", "vessel_id", "latitude", "longitude", "speed_knots", "heading_degrees"),
        *("course_degrees", "timestamp"),
    )
    session.execute(insert(_POSITIONS), [dict(zip(names, row, strict=True)) for row in rows])


def move_vessels(session: Session, latest: dict[str, PositionReport]) -> None:
    """Set each vessel's latest position fields to its newest accepted report."""
    if not latest:
        return
    session.execute(
        _MOVE,
        [
            {
                "vid": vessel_id,
                "lat": p.lat,
                "lon": p.lon,
                "speed": p.speed_kn,
                "heading": p.course_deg if p.heading_deg is None else float(p.heading_deg),
                "at": as_datetime(p.time_s),
            }
            for vessel_id, p in latest.items()
        ],
    )


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

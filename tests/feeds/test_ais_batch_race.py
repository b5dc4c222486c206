"""Twenty identical position batches at once store each point once, on SQLite and PostgreSQL.

Every batch reads the vessel's track before any of them has stored, so each judges its points
new; the unique (vessel_id, timestamp) index and the insert's ``ON CONFLICT DO NOTHING`` keep
the second copy out (PostgreSQL stored 6 rows for 20 batches of 3 before).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from threading import Barrier

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.ingest import IngestReport, ingest_document
from sealane.store.database import transaction
from sealane.store.models import Vessel, VesselPosition

AT_ONCE = 20
MMSI = "636019825"
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def batch() -> dict[str, list[dict[str, object]]]:
    return {
        "data": [
            {
                "mmsi": MMSI,
                "latitude": 51.95,
                "longitude": 3.9 + minute * 0.001,
                "timestamp": f"2026-11-21T11:{59 - minute:02d}:00Z",
                "speed_knots": 11.5,
                "course_degrees": 270.0,
            }
            for minute in (2, 1, 0)
        ]
    }


def test_ingest__twenty_identical_batches_at_once_store_three_points(
    sessions: sessionmaker[Session],
) -> None:
    with transaction(sessions) as session:
        session.add(Vessel(name="Sealane Aurora", imo="9811000", mmsi=MMSI))
    start = Barrier(AT_ONCE)

    def ingest(_: int) -> IngestReport:
        start.wait(timeout=30)
        return ingest_document(sessions, batch(), ManualClock(NOW))

    with ThreadPoolExecutor(AT_ONCE) as pool:
        reports = list(pool.map(ingest, range(AT_ONCE)))
    assert all(report.positions == 3 for report in reports)
    with sessions() as session:
        stored = session.scalars(select(VesselPosition.timestamp).order_by("timestamp")).all()
        vessel = session.scalar(select(Vessel).where(Vessel.mmsi == MMSI))
        count = session.scalar(select(func.count()).select_from(VesselPosition))
    assert count == 3
    assert [moment.minute for moment in stored] == [57, 58, 59]
    assert vessel is not None and vessel.position_timestamp == NOW.replace(hour=11, minute=59)

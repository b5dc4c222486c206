"""Ingest on SQLite and PostgreSQL: matching by MMSI, IMO learning, thinning, latest positions."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.ingest import Ingestor, IngestSettings, VesselPolicy, ingest_batch
from sealane.feeds.ais.reports import Drop, PositionReport, StaticReport
from sealane.store.database import transaction
from sealane.store.models import Vessel, VesselPosition

from .support import T0, T0_S

MMSI = 636019825
NM = 1.0 / 60.0


def add_vessel(sessions: sessionmaker[Session], imo: str, mmsi: str | None) -> str:
    with transaction(sessions) as session:
        vessel = Vessel(name=f"Ship {imo}", imo=imo, mmsi=mmsi)
        session.add(vessel)
        session.flush()
        return vessel.id


def northbound(mmsi: int, seconds: range, knots: float = 12.0) -> list[PositionReport]:
    return [
        PositionReport(mmsi, T0_S + t, 4.0, 52.0 + knots * NM * t / 3600, knots, 0.0, 1, 0)
        for t in seconds
    ]


def points(sessions: sessionmaker[Session], vessel_id: str) -> list[tuple[float, float]]:
    with sessions() as session:
        rows = session.execute(
            select(VesselPosition.timestamp, VesselPosition.latitude)
            .where(VesselPosition.vessel_id == vessel_id)
            .order_by(VesselPosition.timestamp)
        )
        return [(at.timestamp() - T0_S, lat) for at, lat in rows]


def test_ingest__thins_to_one_point_a_minute_and_moves_the_vessel(
    sessions: sessionmaker[Session],
) -> None:
    vessel_id = add_vessel(sessions, "9811000", str(MMSI))
    report = ingest_batch(sessions, northbound(MMSI, range(0, 301, 10)), ManualClock(T0))
    assert (report.positions, report.stored, report.thinned) == (31, 6, 25)
    assert [t for t, _ in points(sessions, vessel_id)] == [0, 60, 120, 180, 240, 300]
    with sessions() as session:
        vessel = session.get(Vessel, vessel_id)
        assert vessel is not None
        assert vessel.position_timestamp == T0 + timedelta(seconds=300)
        assert vessel.latitude == 52.0 + 12 * NM * 300 / 3600
        assert (vessel.nautical_speed_knots, vessel.navigational_heading_degrees) == (12.0, 1.0)


def test_ingest__the_same_batch_twice_stores_nothing_new(sessions: sessionmaker[Session]) -> None:
    vessel_id = add_vessel(sessions, "9811000", str(MMSI))
    batch = northbound(MMSI, range(0, 301, 10))
    ingest_batch(sessions, batch, ManualClock(T0))
    again = ingest_batch(sessions, batch, ManualClock(T0))
    assert again.stored == 0 and again.drops[Drop.STALE] == 31
    assert len(points(sessions, vessel_id)) == 6


def test_ingest__continues_across_batches_and_ingestors(sessions: sessionmaker[Session]) -> None:
    vessel_id = add_vessel(sessions, "9811000", str(MMSI))
    whole = northbound(MMSI, range(0, 601, 10))
    ingest_batch(sessions, whole[:25], ManualClock(T0))
    ingest_batch(sessions, whole[25:], ManualClock(T0))
    assert [t for t, _ in points(sessions, vessel_id)] == [60.0 * k for k in range(11)]


def test_ingest__unknown_mmsi_dropped_by_default(sessions: sessionmaker[Session]) -> None:
    report = ingest_batch(sessions, northbound(MMSI, range(0, 31, 10)), ManualClock(T0))
    assert report.drops == {Drop.UNKNOWN_VESSEL: 4}
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(VesselPosition)) == 0


def test_ingest__policy_all_creates_the_vessel(sessions: sessionmaker[Session]) -> None:
    settings = IngestSettings(policy=VesselPolicy.ALL)
    report = ingest_batch(
        sessions, northbound(MMSI, range(0, 61, 10)), ManualClock(T0), (), settings
    )
    assert report.stored == 2
    with sessions() as session:
        vessel = session.scalar(select(Vessel).where(Vessel.mmsi == str(MMSI)))
        assert vessel is not None and vessel.name == f"MMSI {MMSI}"


def test_ingest__type5_imo_gives_a_known_vessel_its_mmsi(sessions: sessionmaker[Session]) -> None:
    vessel_id = add_vessel(sessions, "9811000", None)
    ingestor = Ingestor(sessions, ManualClock(T0))
    early = ingestor.ingest(northbound(MMSI, range(0, 11, 10)))
    assert early.drops == {Drop.UNKNOWN_VESSEL: 2}
    learnt = ingestor.ingest(
        northbound(MMSI, range(20, 61, 10)), [StaticReport(MMSI, T0_S + 15, imo="9811000")]
    )
    assert learnt.mmsi_learned == 1 and learnt.stored == 1
    with sessions() as session:
        vessel = session.get(Vessel, vessel_id)
        assert vessel is not None and vessel.mmsi == str(MMSI)


def test_ingest__a_jump_is_rejected_and_not_stored(sessions: sessionmaker[Session]) -> None:
    vessel_id = add_vessel(sessions, "9811000", str(MMSI))
    batch = northbound(MMSI, range(0, 181, 60))
    batch[2] = batch[2]._replace(lat=10.0)  # thousands of nm away, one minute later
    report = ingest_batch(sessions, batch, ManualClock(T0))
    assert report.drops == {Drop.IMPLAUSIBLE_JUMP: 1}
    assert [t for t, _ in points(sessions, vessel_id)] == [0, 60, 180]

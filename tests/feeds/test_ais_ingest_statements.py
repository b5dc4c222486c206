"""The AIS ingest's statements per batch do not grow with the vessels in it, and every tracked
shipment those vessels carry gets its arrival estimated.

A batch of 6 vessels and one of 60, each vessel carrying three shipments still tracked and one
no longer tracked, must run the same number of SQL statements: reading the shipments, open port
calls or last stored point vessel by vessel (the N+1 pattern), or writing each estimate on its
own, would add 54 or more.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.ingest import Ingestor
from sealane.feeds.ais.reports import PositionReport
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import EstimatedEvent, OutboxEvent, Shipment, Vessel, VesselPosition

from .support import T0, T0_S

PODS = ("NLRTM", "DEHAM", "USNYC")


@contextmanager
def counted(sessions: sessionmaker[Session]) -> Iterator[list[str]]:
    """The SQL statements run on the sessions' engine meanwhile (an executemany counts once)."""
    engine = sessions.kw["bind"]
    seen: list[str] = []

    def count(*args: Any) -> None:
        seen.append(args[2])

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def fleet(sessions: sessionmaker[Session], first: int, count: int) -> list[int]:
    """``count`` vessels (MMSIs from ``first``), each with three tracked shipments and one whose
    tracking stopped; their MMSIs."""
    with transaction(sessions) as session:
        account = create_account(session, f"Fleet {first}", routing=True, now=T0).account_id
        for k in range(first, first + count):
            vessel = Vessel(name=f"FLEET {k}", mmsi=str(k))
            session.add(vessel)
            session.flush()
            for n in range(4):
                session.add(
                    Shipment(
                        account_id=account,
                        bill_of_lading_number=f"BL{k}-{n}",
                        shipping_line_scac="TEST",
                        port_of_lading_locode="CNSHA",
                        port_of_discharge_locode=PODS[n % len(PODS)],
                        transshipment_locodes=[],
                        pod_vessel_id=vessel.id,
                        tracking_stopped_at=T0 if n == 3 else None,
                        carrier_request_type="bill_of_lading",
                        carrier_number=f"BL{k}-{n}",
                        carrier_epoch=T0,
                        created_at=T0,
                        updated_at=T0,
                    )
                )
    return list(range(first, first + count))


def batch(mmsis: list[int], start_s: float) -> list[PositionReport]:
    """Three reports a minute apart per vessel, sailing east in the open North Atlantic."""
    return [
        PositionReport(
            mmsi, start_s + 60.0 * j, -40.0 + 0.005 * j, 30.0 + 0.05 * (mmsi % 100), 15.0, 90.0, 90
        )
        for mmsi in mmsis
        for j in range(3)
    ]


def test_ingest__statements_per_batch_do_not_grow_with_its_vessels(
    sessions: sessionmaker[Session],
) -> None:
    few, many = fleet(sessions, 200_000_000, 6), fleet(sessions, 300_000_000, 60)
    counts = []
    for mmsis in (few, many):
        ingestor = Ingestor(sessions, ManualClock(T0))
        ingestor.ingest(batch(mmsis, T0_S - 3600.0))  # tracks known, first estimates made
        with counted(sessions) as statements:
            report = ingestor.ingest(batch(mmsis, T0_S))
        assert report.stored == 3 * len(mmsis)
        counts.append(len(statements))
        # a new ingestor reads every track state again: still as many statements for 60
        with counted(sessions) as statements:
            Ingestor(sessions, ManualClock(T0)).ingest(batch(mmsis, T0_S + 3600.0))
        counts.append(len(statements))
    assert counts[0] == counts[2], counts
    assert counts[1] == counts[3], counts


def test_ingest__every_tracked_shipment_of_the_batch_gets_its_estimate(
    sessions: sessionmaker[Session],
) -> None:
    mmsis = fleet(sessions, 400_000_000, 40)
    report = Ingestor(sessions, ManualClock(T0)).ingest(batch(mmsis, T0_S))
    with sessions() as session:
        shipments = session.scalars(select(Shipment)).all()
        tracked = [s for s in shipments if s.tracking_stopped_at is None]
        stopped = [s for s in shipments if s.tracking_stopped_at is not None]
        assert len(tracked) == 120 and len(stopped) == 40
        assert all(s.pod_eta_at is not None and s.pod_eta_at > T0 for s in tracked)
        assert all(s.pod_original_eta_at == s.pod_eta_at for s in tracked)
        assert all(s.pod_eta_at is None for s in stopped)
        estimated = session.scalars(select(EstimatedEvent.shipment_id)).all()
        assert sorted(estimated) == sorted(s.id for s in tracked)
        queued = session.scalars(
            select(OutboxEvent.reference_id).where(
                OutboxEvent.event == "shipment.estimated.arrival"
            )
        ).all()
        assert sorted(queued) == sorted(session.scalars(select(EstimatedEvent.id)))
        stored = session.scalar(select(func.count()).select_from(VesselPosition))
    assert report.follow.estimates == 120
    assert stored == 3 * 40

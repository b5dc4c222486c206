"""A tracked vessel's AIS track: one departure and one arrival event per port, ETA updates.

The vessel sails Rotterdam -> Antwerp (about 130 nm) on the engine's sea lane, reporting every
minute; its shipment's containers get ``vessel_departed`` at NLRTM and ``vessel_arrived`` at
BEANR from AIS, each exactly once, however often the track is replayed.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.ais.ingest import Ingestor, ingest_batch
from sealane.feeds.ais.portareas import PortAreas
from sealane.feeds.ais.reports import PositionReport
from sealane.routing.ports import get_port
from sealane.routing.voyage import future_positions
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import (
    Container,
    EstimatedEvent,
    OutboxEvent,
    Shipment,
    TransportEvent,
    Vessel,
    VesselPortCall,
)
from sealane.tracking.carrier_sync import TrackingService
from sealane.tracking.carriers.base import PlannedContainer, PlannedEvent, ShipmentPlan, Snapshot

from .support import T0, T0_S

MMSI = 244670316
POL, POD = "NLRTM", "BEANR"
AREAS = PortAreas()


def tracked_shipment(
    sessions: sessionmaker[Session], pod_eta: datetime | None = None, containers: int = 2
) -> tuple[str, str]:
    """A vessel and a tracked shipment on it (POL -> POD); their ids."""
    with transaction(sessions) as session:
        key = create_account(session, "AIS Co", routing=True, now=T0)
        vessel = Vessel(name="Sealane Test", imo="9074729", mmsi=str(MMSI))
        session.add(vessel)
        session.flush()
        shipment = Shipment(
            account_id=key.account_id,
            bill_of_lading_number="AISBL1",
            shipping_line_scac="TEST",
            port_of_lading_locode=POL,
            port_of_discharge_locode=POD,
            transshipment_locodes=[],
            pod_vessel_id=vessel.id,
            pod_eta_at=pod_eta,
            carrier_request_type="bill_of_lading",
            carrier_number="AISBL1",
            carrier_epoch=T0,
            created_at=T0,
            updated_at=T0,
        )
        session.add(shipment)
        session.flush()
        for n in range(containers):
            session.add(
                Container(
                    account_id=key.account_id,
                    shipment_id=shipment.id,
                    number=f"TSTU00000{n}0",
                    equipment_type="dry",
                    equipment_length=40,
                    equipment_height="standard",
                    weight_in_lbs=20000,
                    current_status="on_ship",
                    created_at=T0,
                    updated_at=T0,
                )
            )
        return vessel.id, shipment.id


def voyage(speed_kn: float = 15.0) -> list[PositionReport]:
    """One report a minute from berth at POL to POD."""
    track = future_positions((4.30, 51.90), POL, POD, speed_kn=speed_kn, start_time=T0, step_s=60.0)
    return [
        PositionReport(MMSI, T0_S + 60.0 * k, float(lon), float(lat), speed_kn, float(h), None, 0)
        for k, (lon, lat, h) in enumerate(
            zip(track.lons, track.lats, track.headings_deg, strict=True)
        )
    ]


def events(sessions: sessionmaker[Session]) -> Counter[tuple[str, str | None, str]]:
    with sessions() as session:
        return Counter(
            (e.event.rsplit(".", 1)[-1], e.location_locode, e.data_source)
            for e in session.scalars(select(TransportEvent))
        )


def test_voyage__one_departure_from_pol_and_one_arrival_at_pod(
    sessions: sessionmaker[Session],
) -> None:
    vessel_id, shipment_id = tracked_shipment(sessions)
    track = voyage()
    ingestor = Ingestor(sessions, ManualClock(T0))
    for start in range(0, len(track), 50):
        ingestor.ingest(track[start : start + 50])
    assert events(sessions) == {
        ("vessel_departed", POL, "ais"): 2,
        ("vessel_arrived", POD, "ais"): 2,
    }
    with sessions() as session:
        calls = session.scalars(select(VesselPortCall).order_by(VesselPortCall.id)).all()
        assert [(c.locode, c.departed_at is not None) for c in calls] == [
            (POL, True),
            (POD, False),
        ]
        shipment = session.get(Shipment, shipment_id)
        assert shipment is not None and shipment.pod_ata_at == calls[1].arrived_at
        assert shipment.pol_atd_at == calls[0].departed_at
        arrived = {c.pod_arrived_at for c in session.scalars(select(Container))}
        assert arrived == {calls[1].arrived_at}
        outbox = Counter(o.event for o in session.scalars(select(OutboxEvent)))
        assert outbox["container.transport.vessel_arrived"] == 2
        assert outbox["container.transport.vessel_departed"] == 2
        assert calls[0].vessel_id == vessel_id


def test_voyage__replayed_again_and_swinging_on_the_edge_adds_nothing(
    sessions: sessionmaker[Session],
) -> None:
    tracked_shipment(sessions)
    track = voyage()
    ingest_batch(sessions, track, ManualClock(T0))
    first = events(sessions)
    ingest_batch(sessions, track, ManualClock(T0))  # the same reports: stale, nothing new
    # then it swings on the edge of the POD area (10 km in, 12.5 km out), leaves and comes back
    port = get_port(POD)
    last = track[-1].time_s
    km = [9.5, 12.0, 9.6, 11.8, 9.7, 12.2, 13.5, 9.5]
    edge = [
        PositionReport(MMSI, last + 600.0 * (k + 1), port.lon, port.lat + d / 111.2, 2.0, 0.0)
        for k, d in enumerate(km)
    ]
    ingest_batch(sessions, edge, ManualClock(T0))
    assert events(sessions) == first
    with sessions() as session:
        assert len(session.scalars(select(VesselPortCall)).all()) == 3  # POL, POD, POD again


def test_eta__recorded_only_when_it_moves_more_than_30_minutes(
    sessions: sessionmaker[Session],
) -> None:
    fast = voyage(15.0)
    eta = datetime.fromtimestamp(fast[-1].time_s, UTC)
    _, shipment_id = tracked_shipment(sessions, pod_eta=eta + timedelta(minutes=10))
    ingestor = Ingestor(sessions, ManualClock(T0))
    ingestor.ingest(fast[:180])  # three hours at 15 kn: the estimate holds
    with sessions() as session:
        assert session.scalars(select(EstimatedEvent)).all() == []
    slow = [
        p._replace(speed_kn=7.5, time_s=p.time_s + 60.0 * k) for k, p in enumerate(fast[180:300])
    ]  # the same track at half speed: the arrival slips by hours
    ingestor.ingest(slow)
    with sessions() as session:
        estimates = session.scalars(select(EstimatedEvent)).all()
        assert [e.data_source for e in estimates] == ["ais"]
        assert estimates[0].estimated_timestamp > eta + timedelta(hours=2)
        shipment = session.get(Shipment, shipment_id)
        assert shipment is not None
        assert shipment.pod_eta_at == estimates[0].estimated_timestamp


def test_carrier_event_after_ais__not_recorded_twice(sessions: sessionmaker[Session]) -> None:
    """The carrier's own vessel_arrived for a container AIS already saw arrive is skipped."""
    _, shipment_id = tracked_shipment(sessions, containers=1)
    ingest_batch(sessions, voyage(), ManualClock(T0))
    service = TrackingService(sessions, ManualClock(T0), {})
    with transaction(sessions) as session:
        shipment = session.get(Shipment, shipment_id)
        assert shipment is not None
        container = session.scalars(select(Container)).one()
        late = PlannedEvent(0, 7, "container.transport.vessel_arrived", T0, POD, None)
        snapshot = _snapshot_with(container.number, late)
        service._record_events(session, shipment, snapshot, [container], [], T0)
    assert events(sessions)[("vessel_arrived", POD, "ais")] == 1
    assert ("vessel_arrived", POD, "shipping_line") not in events(sessions)


def _snapshot_with(number: str, event: PlannedEvent) -> Snapshot:
    plan = ShipmentPlan(
        scac="TEST",
        bill_of_lading_number="AISBL1",
        booking_number="",
        port_of_lading=POL,
        port_of_discharge=POD,
        transshipments=(),
        legs=(),
        containers=(PlannedContainer(number, "", "dry", 40, "standard", 1),),
        events=(event,),
        updates=(),
        terminal_choice=0,
        epoch=T0,
    )
    return Snapshot(plan, (event,), (), None, None)


def test_berthing__wait_at_anchor_known_only_for_a_seen_arrival(
    sessions: sessionmaker[Session],
) -> None:
    tracked_shipment(sessions)
    # the voyage ends at the POD's position (at berth); before that it anchors 6 km off for
    # 5 hours, so the call opens on entering the area and berths 5 hours and some minutes later
    track = voyage()
    port = get_port(POD)
    entered = next(p for p in track if AREAS.locate(p.lon, p.lat, [POD], None))
    anchored_from = entered.time_s + 60.0
    anchor = [
        PositionReport(MMSI, anchored_from + 600.0 * k, port.lon, port.lat + 6.0 / 111.2, 0.1, 0.0)
        for k in range(31)
    ]
    berth = PositionReport(MMSI, anchor[-1].time_s + 600.0, port.lon, port.lat, 0.0, 0.0)
    before = [p for p in track if p.time_s <= entered.time_s]
    ingest_batch(sessions, [*before, *anchor, berth], ManualClock(T0))
    with sessions() as session:
        pol_call, pod_call = session.scalars(select(VesselPortCall).order_by(VesselPortCall.id))
        assert not pol_call.arrival_seen and pol_call.berthed_at is None  # first seen inside
        assert pod_call.arrival_seen
        assert pod_call.arrived_at == datetime.fromtimestamp(entered.time_s, UTC)
        assert pod_call.berthed_at == datetime.fromtimestamp(berth.time_s, UTC)

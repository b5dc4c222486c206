"""A container's milestone timeline: actual events in order, then what is still expected."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sealane.routing.ports import get_port
from sealane.service.records import ContainerRecord, ShipmentRecord, TransportEventRecord
from sealane.service.timeline import container_timeline, plan

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def shipment(transshipments: tuple[str, ...] = ("SGSIN",)) -> ShipmentRecord:
    return ShipmentRecord(
        id="s",
        bill_of_lading_number="BL",
        booking_number=None,
        ref_numbers=(),
        shipping_line_scac="TEST",
        shipping_line_name=None,
        port_of_lading=get_port("CNSHA"),
        port_of_discharge=get_port("NLRTM"),
        transshipment_locodes=transshipments,
        pod_vessel=None,
        pod_voyage_number=None,
        pod_terminal_id=None,
        pol_etd_at=T0 + timedelta(days=2),
        pol_atd_at=None,
        pod_eta_at=T0 + timedelta(days=30),
        pod_ata_at=None,
        tracking_stopped_at=None,
        created_at=T0,
        updated_at=T0,
        container_ids=("c",),
    )


def event(name: str, locode: str, day: int) -> TransportEventRecord:
    return TransportEventRecord(
        id=f"{name}-{locode}",
        event=f"container.transport.{name}",
        shipment_id="s",
        container_id="c",
        voyage_number="001E",
        timestamp=T0 + timedelta(days=day),
        timezone=None,
        location_locode=locode,
        vessel_id=None,
        terminal_id=None,
        data_source="shipping_line",
        created_at=T0,
    )


def container(*events: TransportEventRecord) -> ContainerRecord:
    return ContainerRecord(
        id="c",
        number="TSTU1000019",
        shipment_id="s",
        seal_number=None,
        equipment_type="dry",
        equipment_length=40,
        equipment_height="standard",
        weight_in_lbs=0,
        current_status="new",
        ref_numbers=(),
        pod_terminal_id=None,
        fees_at_pod_terminal=(),
        holds_at_pod_terminal=(),
        pickup_lfd=None,
        pickup_appointment_at=None,
        availability_known=False,
        available_for_pickup=None,
        pod_arrived_at=None,
        pod_discharged_at=None,
        pod_full_out_at=None,
        empty_terminated_at=None,
        created_at=T0,
        updated_at=T0,
        port_of_discharge=get_port("NLRTM"),
        event_ids=tuple(e.id for e in events),
        events=events,
    )


def test_plan__origin_each_transshipment_destination() -> None:
    steps = plan(shipment(("SGSIN", "LKCMB")))
    assert len(steps) == 4 + 4 + 4 + 5
    assert steps[0] == ("container.transport.empty_out", "CNSHA")
    assert steps[4] == ("container.transport.transshipment_arrived", "SGSIN")
    assert steps[8][1] == "LKCMB"
    assert steps[-1] == ("container.transport.empty_in", "NLRTM")


def test_timeline__nothing_happened_yet() -> None:
    timeline = container_timeline(shipment(), container())
    assert not any(m.actual for m in timeline.milestones)
    assert timeline.next_expected is not None
    assert timeline.next_expected.event == "container.transport.empty_out"
    departure = next(m for m in timeline.milestones if m.event.endswith("vessel_departed"))
    assert departure.at == T0 + timedelta(days=2) and not departure.actual


def test_timeline__at_sea_after_departure() -> None:
    happened = (
        event("empty_out", "CNSHA", 0),
        event("full_in", "CNSHA", 1),
        event("vessel_loaded", "CNSHA", 2),
        event("vessel_departed", "CNSHA", 2),
    )
    timeline = container_timeline(shipment(), container(*happened))
    assert [m.actual for m in timeline.milestones[:4]] == [True] * 4
    assert timeline.next_expected is not None
    assert timeline.next_expected.event == "container.transport.transshipment_arrived"
    assert timeline.next_expected.port == get_port("SGSIN")
    arrival = next(m for m in timeline.milestones if m.event.endswith("vessel_arrived"))
    assert arrival.at == T0 + timedelta(days=30)  # the carrier's ETA
    assert len([m for m in timeline.milestones if not m.actual]) == 4 + 5


def test_timeline__skipped_steps_are_not_expected_again() -> None:
    """A carrier that never reports the gate-in still moves the timeline on."""
    timeline = container_timeline(shipment(()), container(event("vessel_departed", "CNSHA", 2)))
    expected = [m.event for m in timeline.milestones if not m.actual]
    assert "container.transport.full_in" not in expected
    assert expected[0] == "container.transport.vessel_arrived"


def test_timeline__complete() -> None:
    events = [
        event(name.rpartition(".")[2], code, day)
        for day, (name, code) in enumerate(plan(shipment(())))
    ]
    timeline = container_timeline(shipment(()), container(*events))
    assert timeline.next_expected is None
    assert all(m.actual for m in timeline.milestones)


def test_timeline__event_at_an_unknown_place_is_kept() -> None:
    odd = replace(event("available", "NLRTM", 40), location_locode="ZZZZZ")
    timeline = container_timeline(shipment(()), container(odd))
    assert timeline.milestones[0].actual and timeline.milestones[0].port is None

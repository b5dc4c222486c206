"""A container's milestone timeline: actual events in order, then what is still expected."""

from __future__ import annotations

from dataclasses import MISSING, fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sealane.routing.ports import get_port
from sealane.service.tracking.records import ContainerRecord, ShipmentRecord, TransportEventRecord
from sealane.service.tracking.timeline import container_timeline, plan

T0 = datetime(2026, 11, 1, tzinfo=UTC)
R = TypeVar("R")


def record(kind: type[R], **given: Any) -> R:
    """A record with ``given`` values and None for every other field the timeline never reads."""
    needed = {
        f.name: None
        for f in fields(kind)  # type: ignore[arg-type]
        if f.default is MISSING and f.default_factory is MISSING
    }
    return kind(**{**needed, **given})


def shipment(transshipments: tuple[str, ...] = ("SGSIN",)) -> ShipmentRecord:
    return record(
        ShipmentRecord,
        id="s",
        port_of_lading=get_port("CNSHA"),
        port_of_discharge=get_port("NLRTM"),
        transshipment_locodes=transshipments,
        pol_etd_at=T0 + timedelta(days=2),
        pod_eta_at=T0 + timedelta(days=30),
    )


def event(name: str, locode: str, day: int) -> TransportEventRecord:
    return record(
        TransportEventRecord,
        id=f"{name}-{locode}",
        event=f"container.transport.{name}",
        voyage_number="001E",
        timestamp=T0 + timedelta(days=day),
        location_locode=locode,
        data_source="shipping_line",
    )


def container(*events: TransportEventRecord) -> ContainerRecord:
    return record(ContainerRecord, id="c", events=events)


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

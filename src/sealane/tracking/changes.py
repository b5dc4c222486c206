"""What a carrier's reports and a client's stop or resume change on stored tracking records.

Events and arrival estimates are recorded with their outbox rows (in the caller's transaction),
container timestamps follow the events, and a request moves through its state machine only by
:func:`set_status`. Shared by the carrier syncs (:mod:`.carrier_sync`) and the AIS feeds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Text, cast, insert, select, update
from sqlalchemy.orm import Session

from ..routing.errors import UnknownPortError
from ..routing.ports import get_port
from ..store.models import (
    Container,
    EstimatedEvent,
    Shipment,
    TrackingRequest,
    TransportEvent,
    new_id,
)
from ..vocabulary.statuses import RequestStatus
from .events import status_after
from .lifecycle import STATUS_EVENT, check_transition
from .outbox import NewEvent, emit, occurrences, queue_new

#: Container timestamps set by events, by event (after ``container.transport.``).
EVENT_FIELDS = {
    "vessel_arrived": "pod_arrived_at",
    "vessel_discharged": "pod_discharged_at",
    "full_out": "pod_full_out_at",
    "empty_in": "empty_terminated_at",
    "rail_loaded": "pod_rail_loaded_at",
    "rail_departed": "pod_rail_departed_at",
    "rail_unloaded": "ind_rail_unloaded_at",
    "arrived_at_inland_destination": "ind_ata_at",
}


def set_status(
    session: Session, request: TrackingRequest, new: RequestStatus, now: datetime
) -> None:
    """Move ``request`` to ``new`` through the state machine, emitting its event."""
    check_transition(request.status, new)
    request.status = new.value
    request.updated_at = now
    event = STATUS_EVENT.get(new)
    if event:  # a status entered again (stopped after a resume) is an event of its own
        again = occurrences(session, event, "tracking_request", request.id)
        emit(
            session,
            request.account_id,
            event,
            "tracking_request",
            request.id,
            now,
            occurrence=again,
        )


def record_arrival_estimate(
    session: Session,
    shipment: Shipment,
    eta: datetime,
    *,
    vessel_id: str | None,
    voyage_number: str | None,
    data_source: str,
    threshold: timedelta,
    now: datetime,
) -> bool:
    """Record ``eta`` at the port of discharge if it moves the shipment's estimate by ``threshold``.

    Used by carrier syncs (``shipping_line``); nothing once the shipment has arrived. Returns
    whether a ``shipment.estimated.arrival`` event was recorded.
    """
    estimate = _arrival_estimate(
        shipment, eta, vessel_id, voyage_number, data_source, threshold, now
    )
    if estimate is None:
        return False
    session.add(estimate)
    session.flush()
    emit(
        session,
        shipment.account_id,
        "shipment.estimated.arrival",
        "estimated_event",
        estimate.id,
        now,
    )
    return True


@dataclass(slots=True)
class ShipmentState:
    """A tracked shipment as a set-based writer holds it, without an ORM object: its ports and
    its arrival, which :func:`record_arrival_estimates` keeps up to date as it records."""

    id: str
    account_id: str
    port_of_lading_locode: str
    port_of_discharge_locode: str
    transshipment_locodes: list[str]
    pod_voyage_number: str | None
    pod_eta_at: datetime | None
    pod_original_eta_at: datetime | None
    pod_ata_at: datetime | None

    @classmethod
    def of(cls, values: Sequence[Any]) -> ShipmentState:
        """The state from the values of :data:`SHIPMENT_STATE_COLUMNS`, the transshipment
        ports as their JSON text (decoded only when there are some: most have none)."""
        key, account, pol, pod, transshipments, voyage, eta, original, ata = values
        ports = [] if transshipments in (None, "[]", "null") else json.loads(transshipments)
        return cls(key, account, pol, pod, ports, voyage, eta, original, ata)


#: The columns of :class:`ShipmentState`, in its order (the transshipment ports as text).
SHIPMENT_STATE_COLUMNS = tuple(
    cast(Shipment.transshipment_locodes, Text)
    if name == "transshipment_locodes"
    else getattr(Shipment, name)
    for name in ShipmentState.__dataclass_fields__
)


@dataclass(frozen=True, slots=True)
class ArrivalEstimate:
    """An arrival estimate for :func:`record_arrival_estimates`: the shipment, the time, and
    the vessel it was made for."""

    shipment: ShipmentState
    eta: datetime
    vessel_id: str | None


def record_arrival_estimates(
    session: Session,
    estimates: Iterable[ArrivalEstimate],
    *,
    data_source: str,
    threshold: timedelta,
    now: datetime,
) -> int:
    """Record, in order, each estimate that moves its shipment's by ``threshold``, as sets.

    The AIS follower's form of :func:`record_arrival_estimate` for many shipments at once:
    the events, their outbox rows and the shipments' new estimates are three statements
    whatever their number (an estimate's outbox row is new with it: nothing to look up first).
    Returns how many were recorded.
    """
    events: list[dict[str, object]] = []
    moved: dict[str, ShipmentState] = {}
    for item in estimates:
        shipment, eta = item.shipment, item.eta
        if not _moves_estimate(shipment.pod_ata_at, shipment.pod_eta_at, eta, threshold):
            continue
        pod = shipment.port_of_discharge_locode
        events.append(
            {
                "id": new_id(),
                "account_id": shipment.account_id,
                "shipment_id": shipment.id,
                "event": "shipment.estimated.arrival",
                "estimated_timestamp": eta,
                "location_locode": pod,
                "timezone": time_zone_of(pod),
                "voyage_number": shipment.pod_voyage_number,
                "vessel_id": item.vessel_id,
                "data_source": data_source,
                "created_at": now,
            }
        )
        shipment.pod_eta_at = eta
        if shipment.pod_original_eta_at is None:
            shipment.pod_original_eta_at = eta
        moved[shipment.id] = shipment
    if not events:
        return 0
    session.execute(insert(EstimatedEvent), events)
    queued = [
        NewEvent(
            str(e["account_id"]), "shipment.estimated.arrival", "estimated_event", str(e["id"])
        )
        for e in events
    ]
    queue_new(session, queued, now)
    session.execute(
        update(Shipment),
        [
            {
                "id": s.id,
                "pod_eta_at": s.pod_eta_at,
                "pod_original_eta_at": s.pod_original_eta_at,
                "updated_at": now,
            }
            for s in moved.values()
        ],
    )
    return len(events)


def _moves_estimate(
    ata: datetime | None, previous: datetime | None, eta: datetime, threshold: timedelta
) -> bool:
    """Whether ``eta`` is news: the shipment has not arrived and it moves the estimate by at
    least ``threshold`` (or there was none)."""
    if ata is not None:
        return False
    return previous is None or abs(eta - previous) >= threshold


def _arrival_estimate(
    shipment: Shipment,
    eta: datetime,
    vessel_id: str | None,
    voyage_number: str | None,
    data_source: str,
    threshold: timedelta,
    now: datetime,
) -> EstimatedEvent | None:
    """The estimated event of ``eta`` with the shipment moved to it, or None when the shipment
    has arrived or ``eta`` is within ``threshold`` of its estimate."""
    if not _moves_estimate(shipment.pod_ata_at, shipment.pod_eta_at, eta, threshold):
        return None
    estimate = EstimatedEvent(
        account_id=shipment.account_id,
        shipment_id=shipment.id,
        event="shipment.estimated.arrival",
        estimated_timestamp=eta,
        location_locode=shipment.port_of_discharge_locode,
        timezone=time_zone_of(shipment.port_of_discharge_locode),
        voyage_number=voyage_number,
        vessel_id=vessel_id,
        data_source=data_source,
        created_at=now,
    )
    shipment.pod_eta_at = eta
    if shipment.pod_original_eta_at is None:
        shipment.pod_original_eta_at = eta
    shipment.updated_at = now
    return estimate


def record_vessel_event(
    session: Session,
    shipment: Shipment,
    event: str,
    locode: str,
    at: datetime,
    *,
    vessel_id: str,
    sequence: int,
    data_source: str,
    now: datetime,
) -> int:
    """Record ``event`` at ``locode`` for each container of ``shipment`` that lacks it there.

    AIS-derived arrivals and departures come through here: a container gets one
    ``vessel_arrived`` (or ``vessel_departed``) per port whichever source reports it first.
    ``sequence`` keeps the row apart from the carrier's plan (AIS passes a negative number).
    Returns how many containers got the event.
    """
    done = set(
        session.scalars(
            select(TransportEvent.container_id).where(
                TransportEvent.shipment_id == shipment.id,
                TransportEvent.event == event,
                TransportEvent.location_locode == locode,
            )
        )
    )
    recorded = 0
    for container in session.scalars(select(Container).where(Container.shipment_id == shipment.id)):
        if container.id in done:
            continue
        row = TransportEvent(
            account_id=shipment.account_id,
            shipment_id=shipment.id,
            container_id=container.id,
            event=event,
            sequence=sequence,
            voyage_number=shipment.pod_voyage_number,
            timestamp=at,
            timezone=time_zone_of(locode),
            location_locode=locode,
            vessel_id=vessel_id,
            terminal_id=shipment.pod_terminal_id
            if locode == shipment.port_of_discharge_locode
            else None,
            data_source=data_source,
            created_at=now,
        )
        session.add(row)
        session.flush()
        emit(session, shipment.account_id, event, "transport_event", row.id, now)
        apply_event(container, event, at, now)
        recorded += 1
    if recorded:
        shipment.updated_at = now
    return recorded


def apply_event(container: Container, event: str, at: datetime, now: datetime) -> None:
    """The container's status and dated fields after ``event`` at ``at``."""
    status = status_after(event, available=container.available_for_pickup)
    if status is not None:
        container.current_status = status.value
    name = event.rsplit(".", 1)[-1]
    if name in EVENT_FIELDS:
        setattr(container, EVENT_FIELDS[name], at)
    container.updated_at = now


def time_zone_of(locode: str) -> str | None:
    """The IANA time zone of a port known to the engine; None for other places (inland, ...)."""
    try:
        return get_port(locode).time_zone
    except UnknownPortError:
        return None


def stop_tracking(
    session: Session, shipment: Shipment, now: datetime, *, reason: str = "cancelled_by_user"
) -> None:
    """Stop following ``shipment`` (its tracking request becomes tracking_stopped); ``reason``
    is one of the documented ``line_tracking_stopped_reason`` values."""
    if shipment.tracking_stopped_at is not None:
        return
    shipment.tracking_stopped_at = now
    shipment.tracking_stopped_reason = reason
    shipment.updated_at = now
    for request in _requests_of(session, shipment):
        if request.status == RequestStatus.CREATED:
            set_status(session, request, RequestStatus.TRACKING_STOPPED, now)


def resume_tracking(session: Session, shipment: Shipment, now: datetime) -> None:
    """Follow ``shipment`` again (its tracking request is created again), for a whole tracking
    window from now even when it arrived longer ago (:func:`.lifecycle.window_ends_at`)."""
    if shipment.tracking_stopped_at is None:
        return
    shipment.tracking_stopped_at = None
    shipment.tracking_stopped_reason = None
    shipment.tracking_resumed_at = now
    shipment.updated_at = now
    for request in _requests_of(session, shipment):
        if request.status == RequestStatus.TRACKING_STOPPED:
            check_transition(request.status, RequestStatus.CREATED)
            request.status = RequestStatus.CREATED.value
            request.updated_at = now


def _requests_of(session: Session, shipment: Shipment) -> list[TrackingRequest]:
    """The tracking requests that found ``shipment``."""
    query = select(TrackingRequest).where(TrackingRequest.shipment_id == shipment.id)
    return list(session.scalars(query))

"""The object a webhook notification is about, with the shipment, container, port and terminal
it names: loaded for a whole page of notifications with one query per kind of row."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from ...routing.ports import get_port
from ...store.models import (
    Container,
    ContainerUpdatedEvent,
    EstimatedEvent,
    Shipment,
    TrackingRequest,
    TransportEvent,
)
from ..reference.records import TerminalRecord
from ..tracking.convert import (
    container_updated_event_record,
    estimated_event_record,
    tracking_request_record,
    transport_event_record,
)
from ..tracking.loading import Loader
from ..tracking.records import ContainerRecord, ShipmentRecord
from .records import Reference

Key = tuple[str, str]


def load_references(session: Session, keys: Sequence[Key]) -> dict[Key, Reference]:
    """The reference of each (reference type, id) that still exists."""
    loader = Loader(session)
    ids: dict[str, set[str]] = defaultdict(set)
    for kind, key in keys:
        ids[kind].add(key)
    events = loader.rows(TransportEvent, TransportEvent.id, ids["transport_event"])
    estimates = loader.rows(EstimatedEvent, EstimatedEvent.id, ids["estimated_event"])
    updates = loader.rows(
        ContainerUpdatedEvent, ContainerUpdatedEvent.id, ids["container_updated_event"]
    )
    requests = loader.rows(TrackingRequest, TrackingRequest.id, ids["tracking_request"])
    named = _Named.load(loader, events, estimates, updates, requests)
    found: dict[Key, Reference] = {}
    for e in events:
        found["transport_event", e.id] = Reference(
            transport_event=transport_event_record(e),
            shipment=named.shipments.get(e.shipment_id),
            container=named.containers.get(e.container_id),
            port=get_port(e.location_locode) if e.location_locode else None,
            terminal=named.terminals.get(e.terminal_id or ""),
        )
    for estimate in estimates:
        found["estimated_event", estimate.id] = Reference(
            estimated_event=estimated_event_record(estimate),
            shipment=named.shipments.get(estimate.shipment_id),
            port=get_port(estimate.location_locode) if estimate.location_locode else None,
        )
    for u in updates:
        container = named.containers.get(u.container_id)
        found["container_updated_event", u.id] = Reference(
            container_updated_event=container_updated_event_record(u),
            shipment=named.shipments.get(container.shipment_id) if container else None,
            container=container,
            terminal=named.terminals.get(u.terminal_id or ""),
        )
    for r in requests:
        found["tracking_request", r.id] = Reference(
            tracking_request=tracking_request_record(r),
            shipment=named.shipments.get(r.shipment_id or ""),
        )
    return found


class _Named:
    """The shipments, containers and terminals that a page of reference objects names."""

    def __init__(
        self,
        shipments: dict[str, ShipmentRecord],
        containers: dict[str, ContainerRecord],
        terminals: dict[str, TerminalRecord],
    ) -> None:
        self.shipments = shipments
        self.containers = containers
        self.terminals = terminals

    @classmethod
    def load(
        cls,
        loader: Loader,
        events: Sequence[Row[Any]],
        estimates: Sequence[Row[Any]],
        updates: Sequence[Row[Any]],
        requests: Sequence[Row[Any]],
    ) -> _Named:
        """Each named object read once, whichever reference names it."""
        wanted = {e.container_id for e in events} | {u.container_id for u in updates}
        containers = loader.rows(Container, Container.id, wanted)
        shipment_ids = (
            {e.shipment_id for e in events}
            | {e.shipment_id for e in estimates}
            | {r.shipment_id for r in requests if r.shipment_id}
            | {c.shipment_id for c in containers}
        )
        shipment_rows = loader.rows(Shipment, Shipment.id, shipment_ids)
        shipments = loader.shipments(shipment_rows)
        terminal_ids = [e.terminal_id for e in events] + [u.terminal_id for u in updates]
        return cls(
            {s.id: s for s in shipments},
            {c.id: c for c in loader.containers(containers, parents=shipment_rows)},
            loader.terminals(terminal_ids),
        )

"""Containers: list, read, edit reference numbers, and their transport events."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import select

from ..store.models import Container, Shipment, TransportEvent
from .access import Caller
from .context import ServiceContext
from .convert import transport_event_record
from .filters import TrackingFilter, filter_containers
from .loading import Loader
from .paging import Page, PageRequest
from .queries import fetch_page, owned
from .records import ContainerRecord, TransportEventRecord
from .tracking_requests import ListChanges, apply_list_changes

INCLUDES = ("shipment", "pod_terminal", "transport_events")
EDITABLE = ("ref_numbers",)


def list_containers(
    ctx: ServiceContext,
    caller: Caller,
    filters: TrackingFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> Page[ContainerRecord]:
    """The account's containers, most recently updated first."""
    query = (
        select(Container)
        .join(Shipment, Shipment.id == Container.shipment_id)
        .where(Container.account_id == caller.account_id)
    )
    query = filter_containers(query, filters).order_by(Container.updated_at.desc(), Container.id)
    with ctx.reading() as session:
        total, rows = fetch_page(session, query, page)
        return Page(tuple(Loader(session).containers(rows, includes)), total, page)


def get_container(
    ctx: ServiceContext, caller: Caller, container_id: str, includes: Collection[str] = ()
) -> ContainerRecord:
    """One of the account's containers."""
    with ctx.reading() as session:
        row = owned(session, Container, container_id, caller.account_id, "container")
        return Loader(session).containers([row], includes)[0]


def update_container(
    ctx: ServiceContext, caller: Caller, container_id: str, changes: ListChanges
) -> ContainerRecord:
    """Replace a container's ``ref_numbers`` (its shipment keeps its own)."""
    with ctx.writing() as session:
        row = owned(session, Container, container_id, caller.account_id, "container")
        apply_list_changes(row, changes, ctx.clock.now())
        session.flush()
        return Loader(session).containers([row])[0]


def list_transport_events(
    ctx: ServiceContext, caller: Caller, container_id: str, page: PageRequest
) -> Page[TransportEventRecord]:
    """A container's transport events in time order."""
    query = (
        select(TransportEvent)
        .where(TransportEvent.container_id == container_id)
        .order_by(TransportEvent.timestamp, TransportEvent.sequence, TransportEvent.id)
    )
    with ctx.reading() as session:
        owned(session, Container, container_id, caller.account_id, "container")
        total, rows = fetch_page(session, query, page)
        return Page(tuple(transport_event_record(row) for row in rows), total, page)

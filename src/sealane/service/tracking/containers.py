"""Containers: list, read, edit reference numbers, their transport and raw events, refresh."""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from ...store.models import Container, Shipment, TransportEvent
from ...store.reading import ReadLog
from ...tracking.carrier_sync import TrackingService
from ...tracking.raw_events import milestones
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import RateLimited
from ..core.list_changes import ListChanges, apply_list_changes
from ..core.paging import Page, PageRequest
from ..core.queries import fetch_page, owned
from .filters import TrackingFilter, filter_containers
from .loading import Loader
from .milestones import raw_event_records, recorded_milestones
from .pages import ACCOUNT, KEPT_QUERIES, Keyset, ReadPage, counted_page, read_page
from .records import ContainerRecord, RawEventRecord, TransportEventRecord

INCLUDES = ("shipment", "pod_terminal", "pickup_facility", "transport_events")
#: What a transport event list may include: its shipment, container, location (a port),
#: vessel and terminal.
EVENT_INCLUDES = ("shipment", "container", "location", "vessel", "terminal")
EDITABLE = ("ref_numbers",)


def list_containers(
    ctx: ServiceContext,
    caller: Caller,
    filters: TrackingFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> Page[ContainerRecord]:
    """The account's containers, most recently updated first."""
    with ctx.reading() as session:
        return _page(session, caller, filters, page, includes)


def read_containers(
    ctx: ServiceContext,
    caller: Caller,
    filters: TrackingFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> ReadPage[ContainerRecord]:
    """:func:`list_containers` with what it read, for a shell that keeps its rendering of the
    page while the reads give the same rows (:func:`.pages.read_page`)."""
    return read_page(ctx, lambda session, log: _page(session, caller, filters, page, includes, log))


def _page(
    session: Session,
    caller: Caller,
    filters: TrackingFilter,
    page: PageRequest,
    includes: Collection[str],
    log: ReadLog | None = None,
) -> Page[ContainerRecord]:
    """A page of the account's containers, its reads logged in ``log`` when given."""
    total, rows, after = counted_page(
        session, _listed(filters), page, caller.account_id, keyset=KEYSET, log=log
    )
    return Page(tuple(Loader(session, log).containers(rows, includes)), total, page, after)


#: The list's order: most recently updated first, read by key
#: (``ix_containers_account_updated``).
KEYSET = Keyset(Container.updated_at, Container.id)


@lru_cache(maxsize=KEPT_QUERIES)
def _listed(filters: TrackingFilter) -> Select[Any]:
    """Any account's containers through ``filters``, most recently updated first (kept: see
    :mod:`.pages`)."""
    query = select(Container).where(Container.account_id == ACCOUNT)
    return filter_containers(query, filters).order_by(*KEYSET.order())


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
    ctx: ServiceContext,
    caller: Caller,
    container_id: str,
    page: PageRequest,
    includes: Collection[str] = (),
) -> Page[TransportEventRecord]:
    """A container's transport events in time order, with what ``includes`` names."""
    query = (
        select(TransportEvent)
        .where(TransportEvent.container_id == container_id)
        .order_by(TransportEvent.timestamp, TransportEvent.sequence, TransportEvent.id)
    )
    with ctx.reading() as session:
        owned(session, Container, container_id, caller.account_id, "container")
        total, rows = fetch_page(session, query, page)
        return Page(tuple(Loader(session).events(rows, includes)), total, page)


def raw_events(ctx: ServiceContext, caller: Caller, container_id: str) -> list[RawEventRecord]:
    """A container's milestones as its carrier states them: the past, then what is planned
    (``estimated``). Without a carrier adapter for the shipment's line, the recorded transport
    events are all there is."""
    now = ctx.clock.now()
    with ctx.reading() as session:
        container = owned(session, Container, container_id, caller.account_id, "container")
        shipment = session.get(Shipment, container.shipment_id)
        assert shipment is not None  # a container belongs to its shipment (foreign key)
        adapter = ctx.carriers.get(shipment.shipping_line_scac)
        if adapter is None:
            found = recorded_milestones(session, container.id)
            return raw_event_records(session, container, found, None)
        snapshot = adapter.snapshot(
            (shipment.carrier_request_type, shipment.carrier_number, shipment.carrier_epoch), now
        )
        found = milestones(snapshot, container.number, now)
        return raw_event_records(session, container, found, snapshot.plan.legs)


def refresh_container(ctx: ServiceContext, caller: Caller, container_id: str) -> ContainerRecord:
    """Sync the container's shipment with its carrier now (at most ``REFRESH_PER_MINUTE`` times
    a minute per account, on top of the general rate limit); the refreshed container."""
    with ctx.reading() as session:
        owned(session, Container, container_id, caller.account_id, "container")
    if ctx.refresh_limiter is not None:
        wait = ctx.refresh_limiter.hit(f"refresh:{caller.account_id}")
        if wait is not None:
            raise RateLimited(
                f"at most {ctx.refresh_limiter.limit} container refreshes per minute",
                retry_after_s=wait,
            )
    tracking = TrackingService(ctx.sessions, ctx.clock, ctx.carriers)
    with ctx.writing() as session:
        container = owned(session, Container, container_id, caller.account_id, "container")
        # Locked (waiting, on PostgreSQL) so a worker's poll of the shipment is not run beside
        # it; the workers skip the row while it is held.
        shipment = session.get(Shipment, container.shipment_id, with_for_update=True)
        assert shipment is not None
        tracking.sync(session, shipment, ctx.clock.now())
        session.flush()
        return Loader(session).containers([container])[0]

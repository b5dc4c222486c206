"""Shipments: list, read, edit reference numbers, stop and resume tracking."""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.sql import Select

from ...store.models import Shipment
from ...store.reading import ReadLog
from ...tracking import changes as tracking
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.list_changes import ListChanges, apply_list_changes
from ..core.paging import Page, PageRequest
from ..core.queries import owned
from .browse import UPDATED_KEYSET, ArrivalWindow, ShipmentOrder, ordered
from .filters import TrackingFilter, filter_shipments
from .loading import Loader
from .pages import ACCOUNT, KEPT_QUERIES, ReadPage, counted_page, read_page
from .records import ShipmentRecord
from .requests import open_request_unique

INCLUDES = (
    "containers",
    "containers.transport_events",
    "port_of_lading",
    "port_of_discharge",
    "pod_terminal",
    "pod_vessel",
    # Inland legs are not tracked yet: these relationships are always empty.
    "destination",
    "destination_terminal",
)
EDITABLE = ("ref_numbers", "tags")


def list_shipments(
    ctx: ServiceContext,
    caller: Caller,
    filters: TrackingFilter,
    page: PageRequest,
    includes: Collection[str] = (),
    *,
    arriving: ArrivalWindow | None = None,
    order: ShipmentOrder = ShipmentOrder.UPDATED,
) -> Page[ShipmentRecord]:
    """The account's shipments, most recently updated first unless ``order`` says otherwise;
    ``arriving`` keeps those due at their port of discharge within some days."""
    if arriving is None:
        query = _listed(filters, order)
    else:  # the window moves with the clock: nothing to keep
        query = ordered(_filtered(filters).where(arriving.condition(ctx.clock.now())), order)
    with ctx.reading() as session:
        keyset = UPDATED_KEYSET if order is ShipmentOrder.UPDATED else None
        total, rows, after = counted_page(
            session, query, page, caller.account_id, keyset=keyset, kept=arriving is None
        )
        return Page(tuple(Loader(session).shipments(rows, includes)), total, page, after)


def read_shipments(
    ctx: ServiceContext,
    caller: Caller,
    filters: TrackingFilter,
    page: PageRequest,
    includes: Collection[str] = (),
) -> ReadPage[ShipmentRecord]:
    """:func:`list_shipments` (most recently updated first) with what it read, for a shell that
    keeps its rendering of the page while the reads give the same rows
    (:func:`.pages.read_page`)."""

    def load(session: Session, log: ReadLog) -> Page[ShipmentRecord]:
        query = _listed(filters, ShipmentOrder.UPDATED)
        total, rows, after = counted_page(
            session, query, page, caller.account_id, keyset=UPDATED_KEYSET, log=log
        )
        return Page(tuple(Loader(session, log).shipments(rows, includes)), total, page, after)

    return read_page(ctx, load)


def _filtered(filters: TrackingFilter) -> Select[Any]:
    return filter_shipments(select(Shipment).where(Shipment.account_id == ACCOUNT), filters)


@lru_cache(maxsize=KEPT_QUERIES)
def _listed(filters: TrackingFilter, order: ShipmentOrder) -> Select[Any]:
    """Any account's shipments through ``filters`` in ``order`` (kept: see :mod:`.pages`)."""
    return ordered(_filtered(filters), order)


def get_shipment(
    ctx: ServiceContext, caller: Caller, shipment_id: str, includes: Collection[str] = ()
) -> ShipmentRecord:
    """One of the account's shipments."""
    with ctx.reading() as session:
        row = owned(session, Shipment, shipment_id, caller.account_id, "shipment")
        return Loader(session).shipments([row], includes)[0]


def update_shipment(
    ctx: ServiceContext, caller: Caller, shipment_id: str, changes: ListChanges
) -> ShipmentRecord:
    """Replace a shipment's ``ref_numbers`` (its containers keep their own) and ``tags``."""
    with ctx.writing() as session:
        row = owned(session, Shipment, shipment_id, caller.account_id, "shipment")
        apply_list_changes(row, changes, ctx.clock.now())
        session.flush()
        return Loader(session).shipments([row])[0]


def set_tracking(
    ctx: ServiceContext, caller: Caller, shipment_id: str, *, stop: bool
) -> ShipmentRecord:
    """Stop following a shipment (its tracking request becomes tracking_stopped), or resume
    (refused as a duplicate when the number was asked again while it was stopped)."""
    with ctx.writing() as session:
        row = owned(session, Shipment, shipment_id, caller.account_id, "shipment")
        change = tracking.stop_tracking if stop else tracking.resume_tracking
        change(session, row, ctx.clock.now())
        with open_request_unique(row.carrier_number, row.shipping_line_scac):
            session.flush()
        return Loader(session).shipments([row])[0]

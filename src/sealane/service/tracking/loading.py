"""Rows to records, with related rows loaded per page in batches (one query per relation).

Listing 5 or 50 shipments with every include runs the same number of statements: each relation
is read once with ``IN (...)`` over the whole page, never once per object. Those statements are
built once (their ``IN`` lists are expanding parameters), so SQLAlchemy finds them compiled
instead of building and keying them again for every page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from sqlalchemy import Row, bindparam, select
from sqlalchemy.orm import InstrumentedAttribute, Session
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import BindParameter

from ...store.models import (
    Container,
    Party,
    Shipment,
    ShippingLine,
    Terminal,
    TrackingRequest,
    Vessel,
)
from ...store.models import TransportEvent as EventRow
from ...store.reading import AnySelect, ReadLog, read_columns
from ...vocabulary.vessels import VesselRecord
from ..reference.convert import terminal_record, vessel_record
from ..reference.records import TerminalRecord
from .convert import (
    container_record,
    shipment_record,
    tracking_request_record,
    transport_event_record,
)
from .records import ContainerRecord, ShipmentRecord, TrackingRequestRecord, TransportEventRecord

_EVENT_ORDER = (EventRow.timestamp, EventRow.sequence, EventRow.id)
#: The ``IN`` list of the statements below: expanded to one parameter per key when executed.
_KEYS: BindParameter[Any] = bindparam("keys", expanding=True)
_CONTAINERS_OF = (
    select(*read_columns(Container.__table__))
    .where(Container.shipment_id.in_(_KEYS))
    .order_by(Container.number, Container.id)
)
_CONTAINER_IDS_OF = (
    select(Container.id, Container.shipment_id)
    .where(Container.shipment_id.in_(_KEYS))
    .order_by(Container.number, Container.id)
)
_CUSTOMERS_OF = (
    select(TrackingRequest.shipment_id, Party.company_name)
    .join(Party, Party.id == TrackingRequest.customer_id)
    .where(TrackingRequest.shipment_id.in_(_KEYS))
    .order_by(TrackingRequest.created_at, TrackingRequest.id)
)
_EVENTS_OF = (
    select(*read_columns(EventRow.__table__))
    .where(EventRow.container_id.in_(_KEYS))
    .order_by(*_EVENT_ORDER)
)
_EVENT_IDS_OF = (
    select(EventRow.id, EventRow.container_id)
    .where(EventRow.container_id.in_(_KEYS))
    .order_by(*_EVENT_ORDER)
)
#: What a container's record reads of its shipment (see ``convert.container_record``), in the
#: order of their ids (see :func:`_keyed`).
_PARENT_COLUMNS = (
    "id",
    "port_of_discharge_locode",
    "line_tracking_last_attempted_at",
    "line_tracking_last_succeeded_at",
)
_PARENTS_OF = (
    select(*(c for c in read_columns(Shipment.__table__) if c.name in _PARENT_COLUMNS))
    .where(Shipment.id.in_(_KEYS))
    .order_by(Shipment.id)
)


#: Statements of :func:`_keyed`, by table and column name.
_KEYED: dict[tuple[str, str], Select[Any]] = {}


def _keyed(model: type[Any], column: InstrumentedAttribute[Any]) -> Select[Any]:
    """The rows of ``model``'s table whose ``column`` is one of the ``keys`` parameter, in the
    order of their primary key.

    The order is stated because a read page is kept while its reads give the same rows in the
    same order (:class:`~sealane.store.reading.ReadLog`): without it PostgreSQL gives them in
    the order it finds them on disk, which changes whenever any of them is updated (an updated
    row is written anew), so a page was made again although nothing it shows had changed.
    """
    key = (model.__tablename__, column.key)
    found = _KEYED.get(key)
    if found is None:
        table = model.__table__
        found = _KEYED[key] = (
            select(*read_columns(table)).where(column.in_(_KEYS)).order_by(*table.primary_key)
        )
    return found


class Loader:
    """Builds records for rows of one session, loading what they point to in batches."""

    def __init__(self, session: Session, log: ReadLog | None = None) -> None:
        self.session = session
        #: Where every read is logged, raw, when the result is kept while those reads give
        #: the same rows (see :class:`~sealane.store.reading.ReadLog`).
        self.log = log

    def tracking_requests(
        self, rows: Sequence[TrackingRequest | Row[Any]], includes: Collection[str] = ()
    ) -> list[TrackingRequestRecord]:
        """Records of ``rows``; ``tracked_object`` (and ``.containers``) adds the shipment."""
        shipments: dict[str, ShipmentRecord] = {}
        if {"tracked_object", "tracked_object.containers"} & set(includes):
            nested = ("containers",) if "tracked_object.containers" in includes else ()
            found = self.rows(Shipment, Shipment.id, {r.shipment_id for r in rows})
            shipments = {s.id: s for s in self.shipments(found, nested)}
        return [tracking_request_record(r, shipments.get(r.shipment_id or "")) for r in rows]

    def shipments(
        self, rows: Sequence[Shipment | Row[Any]], includes: Collection[str] = ()
    ) -> list[ShipmentRecord]:
        """Records of ``rows`` with container ids, vessel and carrier name; ``includes`` may
        add ``containers``, ``containers.transport_events`` and ``pod_terminal``."""
        wants_containers = bool({"containers", "containers.transport_events"} & set(includes))
        container_rows = self._containers_of([row.id for row in rows], whole=wants_containers)
        vessels = self.vessels(row.pod_vessel_id for row in rows)
        scacs = {row.shipping_line_scac for row in rows}
        lines = {line.scac: line for line in self.rows(ShippingLine, ShippingLine.scac, scacs)}
        customers = self._customers_of([row.id for row in rows])
        terminals = self.terminals(
            (row.pod_terminal_id for row in rows) if "pod_terminal" in includes else ()
        )
        loaded: dict[str, ContainerRecord] | None = None
        if wants_containers:
            nested = ("transport_events",) if "containers.transport_events" in includes else ()
            records = self.containers(container_rows, nested, parents=rows)
            loaded = {record.id: record for record in records}
        by_shipment: dict[str, list[str]] = defaultdict(list)
        for container in container_rows:
            by_shipment[container.shipment_id].append(container.id)
        return [
            shipment_record(
                row,
                container_ids=tuple(by_shipment[row.id]),
                containers=None
                if loaded is None
                else tuple(loaded[i] for i in by_shipment[row.id]),
                vessel=vessels.get(row.pod_vessel_id or ""),
                line=lines.get(row.shipping_line_scac),
                customer_name=customers.get(row.id),
                terminal=terminals.get(row.pod_terminal_id or ""),
            )
            for row in rows
        ]

    def containers(
        self,
        rows: Sequence[Container | Row[Any]],
        includes: Collection[str] = (),
        *,
        parents: Sequence[Shipment | Row[Any]] = (),
    ) -> list[ContainerRecord]:
        """Records of ``rows`` with their event ids; ``includes`` may add ``transport_events``,
        ``shipment`` and ``pod_terminal`` (or ``pickup_facility``, the same terminal for a
        pickup at the port). ``parents`` are shipment rows already read."""
        shipments = {s.id: s for s in parents}
        missing = {row.shipment_id for row in rows} - set(shipments)
        if "shipment" in includes:
            shipments |= {s.id: s for s in self.rows(Shipment, Shipment.id, missing)}
        elif missing:
            shipments |= {s.id: s for s in self._read(_PARENTS_OF, sorted(missing))}
        ids = [row.id for row in rows]
        full = "transport_events" in includes
        events = self._events_of(ids) if full else {}
        event_ids = (
            {key: [e.id for e in value] for key, value in events.items()}
            if full
            else self._event_ids_of(ids)
        )
        parent_records = (
            {s.id: s for s in self.shipments(list(shipments.values()))}
            if "shipment" in includes
            else {}
        )
        wants_terminal = bool({"pod_terminal", "pickup_facility"} & set(includes))
        terminals = self.terminals((row.pod_terminal_id for row in rows) if wants_terminal else ())
        return [
            container_record(
                row,
                parent=shipments.get(row.shipment_id),
                event_ids=tuple(event_ids.get(row.id, ())),
                events=tuple(events.get(row.id, ())) if full else None,
                shipment=parent_records.get(row.shipment_id),
                terminal=terminals.get(row.pod_terminal_id or ""),
            )
            for row in rows
        ]

    def events(
        self, rows: Sequence[EventRow | Row[Any]], includes: Collection[str] = ()
    ) -> list[TransportEventRecord]:
        """Records of transport event rows; ``includes`` may add each one's ``shipment``,
        ``container``, ``vessel`` and ``terminal`` (its ``location`` is a port, from the
        registry, and needs no query)."""
        wanted = set(includes)
        parents: list[Row[Any]] = []
        if {"shipment", "container"} & wanted:
            parents = self.rows(Shipment, Shipment.id, {r.shipment_id for r in rows})
        shipments: dict[str, ShipmentRecord] = {}
        if "shipment" in wanted:
            shipments = {s.id: s for s in self.shipments(parents)}
        containers: dict[str, ContainerRecord] = {}
        if "container" in wanted:
            found = self.rows(Container, Container.id, {r.container_id for r in rows})
            containers = {c.id: c for c in self.containers(found, parents=parents)}
        vessels = self.vessels(r.vessel_id for r in rows) if "vessel" in wanted else {}
        terminals = self.terminals(r.terminal_id for r in rows) if "terminal" in wanted else {}
        return [
            transport_event_record(
                row,
                shipment=shipments.get(row.shipment_id),
                container=containers.get(row.container_id),
                vessel=vessels.get(row.vessel_id or ""),
                terminal=terminals.get(row.terminal_id or ""),
            )
            for row in rows
        ]

    def vessels(self, ids: Iterable[str | None]) -> dict[str, VesselRecord]:
        """Vessel records by id."""
        return {v.id: vessel_record(v) for v in self.rows(Vessel, Vessel.id, ids)}

    def terminals(self, ids: Iterable[str | None]) -> dict[str, TerminalRecord]:
        """Terminal records by id."""
        return {t.id: terminal_record(t) for t in self.rows(Terminal, Terminal.id, ids)}

    def rows(
        self, model: type[Any], column: InstrumentedAttribute[Any], keys: Iterable[str | None]
    ) -> list[Row[Any]]:
        """Result rows of ``model``'s table whose ``column`` is one of ``keys`` (no query for
        none): plain rows, not mapped objects, since they are only read."""
        wanted = sorted({key for key in keys if key})
        if not wanted:
            return []
        return list(self._read(_keyed(model, column), wanted))

    def _containers_of(self, shipment_ids: Sequence[str], *, whole: bool) -> list[Row[Any]]:
        """The containers of shipments in number order: ``whole`` rows, else id and shipment."""
        if not shipment_ids:
            return []
        query = _CONTAINERS_OF if whole else _CONTAINER_IDS_OF
        return list(self._read(query, shipment_ids))

    def _read(self, query: AnySelect, keys: Iterable[str]) -> Sequence[Any]:
        """The rows of one of this module's statements for ``keys``, read on the session's
        connection (they name tables only, so the ORM has nothing to add) after the flush the
        session would have made first."""
        session = self.session
        if session.autoflush and (session.new or session.dirty or session.deleted):
            session.flush()
        params = {"keys": list(keys)}
        if self.log is not None:
            return self.log.read(session.connection(), query, params)
        return session.connection().execute(query, params).all()

    def _customers_of(self, shipment_ids: Sequence[str]) -> dict[str, str]:
        """The customer's company name of each shipment whose tracking request names one."""
        if not shipment_ids:
            return {}
        found = self._read(_CUSTOMERS_OF, shipment_ids)
        return {key: name for key, name in found if key is not None}

    def _events_of(self, container_ids: Sequence[str]) -> dict[str, list[TransportEventRecord]]:
        """Each container's transport events, in time order."""
        found: dict[str, list[TransportEventRecord]] = defaultdict(list)
        if container_ids:
            for event in self._read(_EVENTS_OF, container_ids):
                found[event.container_id].append(transport_event_record(event))
        return found

    def _event_ids_of(self, container_ids: Sequence[str]) -> dict[str, list[str]]:
        """Each container's transport event ids, in time order."""
        found: dict[str, list[str]] = defaultdict(list)
        if container_ids:
            for event_id, container_id in self._read(_EVENT_IDS_OF, container_ids):
                found[container_id].append(event_id)
        return found

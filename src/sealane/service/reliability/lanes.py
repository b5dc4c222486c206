"""Carrier and lane reliability from the account's own shipments: how many arrived, how long the
voyage took, how often the carrier's first ETA held, how far it drifted, and how many containers
were rolled to another sailing or transshipped.

A lane is a carrier's port of lading to port of discharge. The figures are over the account's
shipments that arrived at their port of discharge (within the window when one is given): transit
from the actual departure to the actual arrival; drift from the carrier's first ETA to the actual
arrival (positive: late); on time when the arrival is within the tolerance of that first ETA.
A container counts as rolled when its shipment's arrival estimates name more than one voyage (the
carrier moved the cargo to another sailing), and as transshipped when its own events show a
transshipment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, case, func, literal, select, tuple_
from sqlalchemy.orm import Session

from ...store.models import Container, EstimatedEvent, Shipment, TransportEvent
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.paging import Page, PageRequest
from .inputs import LaneQuery
from .spreads import Spread, group_key, picks, ranked, seconds_between, sorting_room, spread_of

TRANSSHIPMENT_EVENTS = "container.transport.transshipment_%"


@dataclass(frozen=True, slots=True)
class LaneReliability:
    """One carrier's figures on one lane (durations in hours)."""

    carrier_scac: str
    port_of_lading: str
    port_of_discharge: str
    #: Shipments that arrived (in the window).
    shipments: int
    transit: Spread
    #: Arrivals with a first ETA, and those within the tolerance of it.
    eta_known: int
    on_time: int
    #: Actual arrival minus the first ETA.
    drift: Spread
    containers: int
    rolled: int
    transshipped: int
    tolerance_h: float

    @property
    def key(self) -> str:
        """The lane's id: ``SCAC-POL-POD``."""
        return f"{self.carrier_scac}-{self.port_of_lading}-{self.port_of_discharge}"

    @property
    def on_time_share(self) -> float | None:
        """Share of the arrivals with a first ETA that were on time (None without any)."""
        return round(self.on_time / self.eta_known, 6) if self.eta_known else None

    @property
    def rolled_share(self) -> float | None:
        """Share of the containers rolled to another sailing (None without containers)."""
        return round(self.rolled / self.containers, 6) if self.containers else None

    @property
    def transshipped_share(self) -> float | None:
        """Share of the containers transshipped (None without containers)."""
        return round(self.transshipped / self.containers, 6) if self.containers else None


def lane_reliability(
    ctx: ServiceContext, caller: Caller, query: LaneQuery, page: PageRequest
) -> Page[LaneReliability]:
    """The account's lanes matching ``query``, by carrier, port of lading and of discharge.

    Two steps: the page's lanes and how many lanes there are, by a plain grouping; then the
    ranked figures of those lanes' shipments only, so a page of 30 lanes ranks their shipments
    and not the whole account's.
    """
    with ctx.reading() as session:
        dialect = sorting_room(session)
        groups = [group_key(column, dialect) for column in _groups()]
        listed = (
            select(*groups, func.count().over())  # the count over the groups, before the cut
            .where(*arrived(caller, query))
            .group_by(*groups)
            .order_by(*groups)
        )
        found = session.execute(listed.offset(page.offset).limit(page.size)).all()
        keys = [(row[0], row[1], row[2]) for row in found]
        if found:
            total = int(found[0][3])
        elif page.offset == 0:
            total = 0
        else:  # a page past the end: the count alone
            total = session.scalar(select(func.count()).select_from(listed.subquery())) or 0
        rows = _figures(session, caller, query, dialect, keys) if keys else []
        counted = _containers(session, caller, query, dialect, keys)
    lanes = tuple(_lane(row, counted, query) for row in rows)
    return Page(lanes, total, page)


def _figures(
    session: Session,
    caller: Caller,
    query: LaneQuery,
    dialect: str,
    keys: list[tuple[str, str, str]],
) -> list[Any]:
    """The aggregate row of each lane of ``keys``, in their order."""
    sub = _per_shipment(caller, query, dialect).where(*_between(keys, dialect)).subquery()
    lane = [sub.c.scac, sub.c.pol, sub.c.pod]
    on_time = func.sum(case((func.abs(sub.c.drift) <= query.tolerance.total_seconds(), 1)))
    figures = (
        select(
            *lane,
            func.count().label("shipments"),
            on_time.label("on_time"),
            *picks(sub, "transit"),
            *picks(sub, "drift"),
        )
        .group_by(*lane)
        .order_by(*lane)
    )
    return list(session.execute(figures).all())


def _between(keys: list[tuple[str, str, str]], dialect: str) -> list[ColumnElement[bool]]:
    """The lanes from the first of ``keys`` to the last, in the order the page lists them: a
    page's lanes are consecutive, so two row comparisons find them (cheaper than a list)."""
    lane = tuple_(*(group_key(column, dialect) for column in _groups()))
    return [lane >= tuple_(*map(literal, keys[0])), lane <= tuple_(*map(literal, keys[-1]))]


def _groups() -> list[Any]:
    return [
        Shipment.shipping_line_scac,
        Shipment.port_of_lading_locode,
        Shipment.port_of_discharge_locode,
    ]


def arrived(caller: Caller, query: LaneQuery) -> list[ColumnElement[bool]]:
    """The account's arrived shipments on the lanes and in the window of ``query``."""
    found = [Shipment.account_id == caller.account_id, Shipment.pod_ata_at.is_not(None)]
    if query.carrier is not None:
        found.append(Shipment.shipping_line_scac == query.carrier)
    if query.port_of_lading is not None:
        found.append(Shipment.port_of_lading_locode == query.port_of_lading)
    if query.port_of_discharge is not None:
        found.append(Shipment.port_of_discharge_locode == query.port_of_discharge)
    if query.window.since is not None:
        found.append(Shipment.pod_ata_at >= query.window.since)
    if query.window.until is not None:
        found.append(Shipment.pod_ata_at < query.window.until)
    return found


def _per_shipment(caller: Caller, query: LaneQuery, dialect: str) -> Any:
    """One row per arrived shipment: its lane, transit and drift (seconds), ranked per lane."""
    groups = [group_key(column, dialect) for column in _groups()]
    transit = seconds_between(Shipment.pod_ata_at, Shipment.pol_atd_at, dialect)
    drift = seconds_between(Shipment.pod_ata_at, Shipment.pod_original_eta_at, dialect)
    return select(
        groups[0].label("scac"),
        groups[1].label("pol"),
        groups[2].label("pod"),
        *ranked(transit, groups, "transit"),
        *ranked(drift, groups, "drift"),
    ).where(*arrived(caller, query))


def _containers(
    session: Session,
    caller: Caller,
    query: LaneQuery,
    dialect: str,
    lanes: list[tuple[str, str, str]],
) -> dict[tuple[str, str, str], tuple[int, int, int]]:
    """Containers, rolled and transshipped containers of the arrived shipments, per lane."""
    if not lanes:
        return {}
    voyages = EstimatedEvent.voyage_number
    rolled = (
        select(EstimatedEvent.shipment_id)
        .where(EstimatedEvent.shipment_id == Shipment.id, voyages.is_not(None))
        .group_by(EstimatedEvent.shipment_id)
        .having(func.min(voyages) != func.max(voyages))
        .exists()
    )
    transshipped = (
        select(TransportEvent.id)
        .where(
            TransportEvent.container_id == Container.id,
            TransportEvent.event.like(TRANSSHIPMENT_EVENTS),
        )
        .exists()
    )
    groups = _groups()
    rows = session.execute(
        select(
            *groups,
            func.count(Container.id),
            func.sum(case((rolled, 1), else_=0)),
            func.sum(case((transshipped, 1), else_=0)),
        )
        .join(Container, Container.shipment_id == Shipment.id)
        .where(
            *arrived(caller, query),
            Container.account_id == caller.account_id,
            *_between(lanes, dialect),
        )
        .group_by(*groups)
    ).all()
    wanted = set(lanes)
    return {
        (row[0], row[1], row[2]): (int(row[3]), int(row[4] or 0), int(row[5] or 0))
        for row in rows
        if tuple(row[:3]) in wanted
    }


def _lane(
    row: Any, counted: dict[tuple[str, str, str], tuple[int, int, int]], query: LaneQuery
) -> LaneReliability:
    containers, rolled, transshipped = counted.get((row.scac, row.pol, row.pod), (0, 0, 0))
    drift = spread_of(row, "drift")
    return LaneReliability(
        carrier_scac=row.scac,
        port_of_lading=row.pol,
        port_of_discharge=row.pod,
        shipments=int(row.shipments),
        transit=spread_of(row, "transit"),
        eta_known=drift.n,
        on_time=int(row.on_time or 0),
        drift=drift,
        containers=containers,
        rolled=rolled,
        transshipped=transshipped,
        tolerance_h=query.tolerance.total_seconds() / 3600.0,
    )

"""Port figures by day: how long the account's containers dwell at a port of discharge (discharge
to full out), and how long vessels wait at anchor off it before berthing, from the AIS port calls.

Port calls are shared by every account, like the vessel positions they come from; a call counts
when AIS saw the vessel enter the port area (so its wait is known) and it has berthed. Dwell
counts the account's own containers only. Days are UTC days: of the discharge for dwell, of the
arrival in the area for waiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ...store.models import Container, Shipment, VesselPortCall
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput, ObjectNotFound
from .inputs import Window, locode
from .spreads import Spread, picks, ranked, seconds_between, sorting_room, spread_of


@dataclass(frozen=True, slots=True)
class PortDay:
    """One UTC day's dwell and anchorage waiting at a port (hours)."""

    day: date
    dwell: Spread
    waiting: Spread


@dataclass(frozen=True, slots=True)
class PortReliability:
    """A port's dwell and waiting over a window, overall and by day."""

    locode: str
    window: Window
    dwell: Spread
    waiting: Spread
    days: tuple[PortDay, ...]


def port_reliability(
    ctx: ServiceContext, caller: Caller, port: str, window: Window
) -> PortReliability:
    """Dwell of the account's containers and vessels' waiting at ``port`` (a UN/LOCODE or port
    id) in ``window``; a code that is not a port's is not found."""
    try:
        code = locode(port, "locode") if 0 < len(port) <= 64 else None
    except InvalidInput:
        code = None
    if code is None:
        raise ObjectNotFound("port", port, by="locode")
    with ctx.reading() as session:
        dialect = sorting_room(session)
        dwell_rows, dwell_total = _dwell(session, caller, code, window, dialect)
        waiting_rows, waiting_total = _waiting(session, code, window, dialect)
    dwell = {_day(row.day): row for row in dwell_rows}
    waiting = {_day(row.day): row for row in waiting_rows}
    days = tuple(
        PortDay(day, _spread(dwell.get(day), "dwell"), _spread(waiting.get(day), "waiting"))
        for day in sorted(dwell.keys() | waiting.keys())
    )
    return PortReliability(
        code, window, spread_of(dwell_total, "dwell"), spread_of(waiting_total, "waiting"), days
    )


def _dwell(
    session: Session, caller: Caller, code: str, window: Window, dialect: str
) -> tuple[list[Any], Any]:
    """Dwell picks per discharge day, and over the window."""
    discharged = Container.pod_discharged_at
    found = [
        Container.account_id == caller.account_id,
        Shipment.port_of_discharge_locode == code,
        discharged.is_not(None),
        Container.pod_full_out_at.is_not(None),
    ]
    if window.since is not None:
        found.append(discharged >= window.since)
    if window.until is not None:
        found.append(discharged < window.until)
    value = seconds_between(Container.pod_full_out_at, discharged, dialect)
    base = (
        select(Container.id)
        .join(Shipment, Shipment.id == Container.shipment_id)
        .where(*found)
        .add_columns(_utc_day(discharged, dialect).label("day"))
    )
    return _by_day(session, base, value, "dwell")


def _waiting(session: Session, code: str, window: Window, dialect: str) -> tuple[list[Any], Any]:
    """Waiting picks per arrival day, and over the window."""
    arrived = VesselPortCall.arrived_at
    found = [
        VesselPortCall.locode == code,
        VesselPortCall.arrival_seen.is_(True),
        VesselPortCall.berthed_at.is_not(None),
    ]
    if window.since is not None:
        found.append(arrived >= window.since)
    if window.until is not None:
        found.append(arrived < window.until)
    value = seconds_between(VesselPortCall.berthed_at, arrived, dialect)
    base = (
        select(VesselPortCall.id).where(*found).add_columns(_utc_day(arrived, dialect).label("day"))
    )
    return _by_day(session, base, value, "waiting")


def _by_day(session: Session, base: Any, value: Any, name: str) -> tuple[list[Any], Any]:
    """The picks of ``value`` grouped by the ``day`` column of ``base``, then over all rows."""
    day = base.selected_columns.day
    daily = base.add_columns(*ranked(value, [day], name)).subquery()
    whole = base.add_columns(*ranked(value, [], name)).subquery()
    rows = list(
        session.execute(
            select(daily.c.day, *picks(daily, name)).group_by(daily.c.day).order_by(daily.c.day)
        ).all()
    )
    total = session.execute(select(*picks(whole, name))).one()
    return rows, total


def _utc_day(moment: Any, dialect: str) -> Any:
    if dialect == "postgresql":
        return func.date(func.timezone("UTC", moment))
    return func.date(moment)


def _day(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def _spread(row: Any, name: str) -> Spread:
    return Spread(0) if row is None else spread_of(row, name)

"""What a person's shipment list needs beyond the API's filters: the shipments arriving within
some days, the order by arrival, and the carriers and ports their filters can choose from."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.sql import Select

from ...routing.ports import Port, get_port
from ...store.models import Shipment, ShippingLine
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput
from .pages import Keyset

#: The longest arrival window, in days.
MAX_WINDOW_DAYS = 366


class ShipmentOrder(StrEnum):
    """Orders of the shipment list."""

    #: Most recently updated first, ties by the highest id (the API's order, read by key).
    UPDATED = "updated"
    #: Soonest arrival at the port of discharge first (the ATA once arrived, else the ETA;
    #: shipments with neither last).
    ARRIVAL = "arrival"
    #: Latest arrival first (those with neither still last).
    ARRIVAL_DESC = "-arrival"


@dataclass(frozen=True, slots=True)
class ArrivalWindow:
    """Shipments not yet arrived whose ETA at the port of discharge is in the next ``days``."""

    days: int

    def __post_init__(self) -> None:
        if not 1 <= self.days <= MAX_WINDOW_DAYS:
            raise InvalidInput(
                f"the arrival window must be 1 to {MAX_WINDOW_DAYS} days, got {self.days}",
                field="arriving_within_days",
            )

    def condition(self, now: datetime) -> Any:
        """The SQL condition: no ATA and ``now <= ETA <= now + days``."""
        return (
            Shipment.pod_ata_at.is_(None)
            & (Shipment.pod_eta_at >= now)
            & (Shipment.pod_eta_at <= now + timedelta(days=self.days))
        )


#: The order by update, read by key (``ix_shipments_account_updated``).
UPDATED_KEYSET = Keyset(Shipment.updated_at, Shipment.id)


def ordered(query: Select[Any], order: ShipmentOrder) -> Select[Any]:
    """``query`` over shipments in ``order``, ties broken by id so pages never overlap."""
    if order is ShipmentOrder.UPDATED:
        return query.order_by(*UPDATED_KEYSET.order())
    arrival = func.coalesce(Shipment.pod_ata_at, Shipment.pod_eta_at)
    unknown_last = case((arrival.is_(None), 1), else_=0)
    direction = arrival.asc() if order is ShipmentOrder.ARRIVAL else arrival.desc()
    return query.order_by(unknown_last, direction, Shipment.id)


@dataclass(frozen=True, slots=True)
class FilterChoices:
    """The carriers (SCAC, name) and ports of discharge among the account's shipments."""

    carriers: tuple[tuple[str, str], ...]
    ports_of_discharge: tuple[Port, ...]


def filter_choices(ctx: ServiceContext, caller: Caller) -> FilterChoices:
    """What the list's carrier and port filters can choose from, by name."""
    mine = Shipment.account_id == caller.account_id
    with ctx.reading() as session:
        scacs = session.scalars(select(Shipment.shipping_line_scac).where(mine).distinct())
        found = sorted(set(scacs))
        lines = select(ShippingLine.scac, ShippingLine.name).where(ShippingLine.scac.in_(found))
        names = {scac: name for scac, name in session.execute(lines)}
        locodes = session.scalars(select(Shipment.port_of_discharge_locode).where(mine).distinct())
        ports = sorted({get_port(code) for code in locodes}, key=lambda p: (p.name, p.locode))
    carriers = sorted(((scac, names.get(scac, scac)) for scac in found), key=lambda c: c[1])
    return FilterChoices(tuple(carriers), tuple(ports))

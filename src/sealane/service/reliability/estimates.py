"""How a carrier's arrival estimates converge: the mean error of the estimates the service
received a given number of whole days before the actual arrival, per carrier, over the
account's arrived shipments of the lanes asked about.

The error is the actual arrival minus the estimate (positive: the vessel arrived later than
estimated), in hours; the day an estimate counts for is from when the service recorded it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Integer, cast, func, select

from ...store.models import EstimatedEvent, Shipment
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from .inputs import LaneQuery
from .lanes import arrived
from .spreads import SECONDS_PER_HOUR, seconds_between, sorting_room

#: Estimates recorded longer before arrival than this are left out.
MAX_LEAD_DAYS = 60
SECONDS_PER_DAY = 86_400


@dataclass(frozen=True, slots=True)
class EstimateError:
    """The estimates of one carrier recorded ``days_before`` whole days before arrival."""

    carrier_scac: str
    days_before: int
    n: int
    mean_error_h: float


def estimate_errors(
    ctx: ServiceContext, caller: Caller, query: LaneQuery
) -> tuple[EstimateError, ...]:
    """Per carrier and whole day before arrival, the estimates' count and mean error."""
    with ctx.reading() as session:
        dialect = sorting_room(session)
        lead = seconds_between(Shipment.pod_ata_at, EstimatedEvent.created_at, dialect)
        error = seconds_between(Shipment.pod_ata_at, EstimatedEvent.estimated_timestamp, dialect)
        per_estimate = (
            select(
                Shipment.shipping_line_scac.label("scac"),
                (cast(lead, Integer) // SECONDS_PER_DAY).label("days"),
                error.label("error"),
            )
            .join(EstimatedEvent, EstimatedEvent.shipment_id == Shipment.id)
            .where(
                *arrived(caller, query),
                EstimatedEvent.account_id == caller.account_id,
                EstimatedEvent.event == "shipment.estimated.arrival",
                lead >= 0,
                lead < MAX_LEAD_DAYS * SECONDS_PER_DAY,
            )
            .subquery()
        )
        rows = session.execute(
            select(
                per_estimate.c.scac,
                per_estimate.c.days,
                func.count(),
                func.avg(per_estimate.c.error),
            )
            .group_by(per_estimate.c.scac, per_estimate.c.days)
            .order_by(per_estimate.c.scac, per_estimate.c.days)
        ).all()
    return tuple(
        EstimateError(scac, int(days), int(n), round(float(mean) / SECONDS_PER_HOUR, 6))
        for scac, days, n, mean in rows
    )

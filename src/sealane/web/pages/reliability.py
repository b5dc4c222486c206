"""The reliability page: for a lane (and optionally one carrier), each carrier's on-time share,
transit-time spread and ETA error by days before arrival; for the port of discharge, the
anchorage waiting by day. Charts are server-drawn SVG (:mod:`..charts`) with a table of the
same figures."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from markupsafe import Markup
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response

from ...service.access.gatekeeper import Caller
from ...service.core.context import ServiceContext
from ...service.core.errors import InvalidInput, ObjectNotFound
from ...service.core.paging import MAX_PAGE_SIZE, PageRequest
from ...service.reliability.estimates import EstimateError, estimate_errors
from ...service.reliability.inputs import LaneQuery
from ...service.reliability.lanes import LaneReliability, lane_reliability
from ...service.reliability.ports import PortReliability, port_reliability
from ...service.reliability.spreads import Spread
from .. import charts
from ..guard import signed_in
from ..state import web_of

MAX_TEXT = 64


@dataclass(frozen=True, slots=True)
class ReliabilityForm:
    """The page's inputs as its form sends them (blank: all)."""

    pol: str = ""
    pod: str = ""
    carrier: str = ""
    since: str = ""
    tolerance: str = ""

    @classmethod
    def of(cls, params: QueryParams) -> ReliabilityForm:
        """Read from the query string."""
        values = {
            name: params.get(name, "").strip()[:MAX_TEXT]
            for name in ("pol", "pod", "carrier", "since", "tolerance")
        }
        return cls(**values)

    def query(self) -> LaneQuery:
        """The application layer's lane query; :class:`InvalidInput` names a bad value."""
        return LaneQuery.of(
            carrier=self.carrier or None,
            port_of_lading=self.pol or None,
            port_of_discharge=self.pod or None,
            since=self._since(),
            tolerance_days=self._tolerance(),
        )

    def _since(self) -> datetime | None:
        if not self.since:
            return None
        try:
            day = datetime.strptime(self.since, "%Y-%m-%d")
        except ValueError:
            raise InvalidInput("since must be a date (YYYY-MM-DD)", field="since") from None
        return day.replace(tzinfo=UTC)

    def _tolerance(self) -> float | None:
        if not self.tolerance:
            return None
        try:
            days = float(self.tolerance)
        except ValueError:
            raise InvalidInput(
                "the tolerance must be a number of days", field="tolerance_days"
            ) from None
        if days != days:  # NaN
            raise InvalidInput("the tolerance must be a number of days", field="tolerance_days")
        return days


def reliability_page(request: Request) -> Response:
    """``/reliability``: the charts for the lanes the form asks about."""
    caller = signed_in(request)
    web = web_of(request)
    form = ReliabilityForm.of(request.query_params)
    query = form.query()
    lanes = lane_reliability(web.context, caller, query, PageRequest(1, MAX_PAGE_SIZE)).items
    errors = estimate_errors(web.context, caller, query)
    port = _port(web.context, caller, query)
    return web.pages.render(
        request,
        "reliability.html",
        title="Reliability",
        form=form,
        lanes=lanes,
        port=port,
        on_time_chart=_on_time(lanes),
        transit_chart=_transit(lanes),
        drift_chart=_drift(errors),
        waiting_chart=_waiting(port) if port is not None else None,
        hours=_hours,
    )


def _port(ctx: ServiceContext, caller: Caller, query: LaneQuery) -> PortReliability | None:
    """The port of discharge's figures over the same window (None when no port is chosen)."""
    if query.port_of_discharge is None:
        return None
    try:
        return port_reliability(ctx, caller, query.port_of_discharge, query.window)
    except ObjectNotFound:  # a code of the shape of a LOCODE that names no port
        return None


def _name(lane: LaneReliability) -> str:
    return f"{lane.carrier_scac} {lane.port_of_lading}-{lane.port_of_discharge}"


def _on_time(lanes: tuple[LaneReliability, ...]) -> Markup | None:
    bars = [
        charts.Bar(_name(lane), lane.on_time_share, f"{lane.on_time}/{lane.eta_known}")
        for lane in lanes
        if lane.on_time_share is not None
    ]
    if not bars:
        return None
    return charts.share_bars(
        "on-time",
        "On-time share by carrier and lane",
        "; ".join(f"{b.label}: {b.share:.0%} on time ({b.note})" for b in bars),
        bars,
    )


def _transit(lanes: tuple[LaneReliability, ...]) -> Markup | None:
    rows = [_range(_name(lane), lane.transit) for lane in lanes if lane.transit.n]
    if not rows:
        return None
    return charts.ranges(
        "transit",
        "Transit time, actual departure to actual arrival (days): P10 to P90, median marked",
        "; ".join(f"{r.label}: {r.note}" for r in rows),
        rows,
        "d",
    )


def _range(label: str, spread: Spread) -> charts.Range:
    """A spread in days; under 5 values, only its count and mean."""
    if spread.median_h is None or spread.p10_h is None or spread.p90_h is None:
        mean = "" if spread.mean_h is None else f", mean {spread.mean_h / 24:.1f} d"
        return charts.Range(label, None, None, None, f"n {spread.n}: too few{mean}")
    days = (spread.p10_h / 24, spread.median_h / 24, spread.p90_h / 24)
    return charts.Range(label, *days, f"median {days[1]:.1f} d, n {spread.n}")


def _drift(errors: tuple[EstimateError, ...]) -> Markup | None:
    by_carrier: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for error in errors:
        by_carrier[error.carrier_scac].append((float(error.days_before), error.mean_error_h))
    if not by_carrier:
        return None
    series = [charts.Series(scac, tuple(points)) for scac, points in sorted(by_carrier.items())]
    return charts.lines(
        "drift",
        "ETA error by days before arrival (hours; above zero: arrived later than estimated)",
        "; ".join(
            f"{s.label}: " + ", ".join(f"{x:.0f} d before {y:+.0f} h" for x, y in s.points)
            for s in series
        ),
        series,
        "days before arrival",
        "hours",
    )


def _waiting(port: PortReliability) -> Markup | None:
    values = [
        (day.day.strftime("%d %b"), _typical(day.waiting)) for day in port.days if day.waiting.n
    ]
    if not values:
        return None
    return charts.columns(
        "waiting",
        f"Vessels' anchorage waiting at {port.locode} by day (hours; median, or mean under 5)",
        "; ".join(f"{label}: {value:.1f} h" for label, value in values),
        values,
        "h",
    )


def _typical(spread: Spread) -> float:
    """The median, or the mean of a small sample."""
    return spread.median_h if spread.median_h is not None else (spread.mean_h or 0.0)


def _hours(value: float | None) -> str:
    """Hours for the tables: ``12.5 h``, ``-3.0 h`` or an en dash."""
    return "\u2013" if value is None else f"{value:.1f} h"

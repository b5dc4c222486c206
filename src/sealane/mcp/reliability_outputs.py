"""Outputs of the reliability tools, read from the ``lane_reliability`` and ``port_reliability``
resources. Durations are in hours; a spread of fewer than 5 values has null percentiles."""

from __future__ import annotations

from typing import Any

from .listings import Paging
from .outputs import Output


class Spread(Output):
    """How a duration spreads over ``n`` values, in hours."""

    n: int
    median_hours: float | None = None
    p10_hours: float | None = None
    p90_hours: float | None = None
    mean_hours: float | None = None

    @classmethod
    def of(cls, member: dict[str, Any]) -> Spread:
        """From a resource's spread member."""
        return cls(**member)

    def text(self) -> str:
        """``median 30.2 d (P10 28.1, P90 35.0), n 12`` in days, or n and the mean alone."""
        if self.n == 0:
            return "no data"
        if self.median_hours is None or self.p10_hours is None or self.p90_hours is None:
            mean = "" if self.mean_hours is None else f", mean {_h(self.mean_hours)}"
            return f"n {self.n} (too few for percentiles){mean}"
        return (
            f"median {_h(self.median_hours)} (P10 {_h(self.p10_hours)}, "
            f"P90 {_h(self.p90_hours)}), n {self.n}"
        )


class LaneFigures(Output):
    """A carrier's figures on one lane."""

    id: str
    carrier_scac: str
    port_of_lading_locode: str
    port_of_discharge_locode: str
    shipments: int
    transit_time: Spread
    on_time_tolerance_hours: float
    on_time_n: int
    on_time: int
    on_time_share: float | None
    eta_drift: Spread
    containers: int
    rolled_share: float | None
    transshipped_share: float | None

    @classmethod
    def of(cls, obj: dict[str, Any]) -> LaneFigures:
        """From a ``lane_reliability`` resource."""
        a = obj["attributes"]
        return cls(
            id=obj["id"],
            carrier_scac=a["carrier_scac"],
            port_of_lading_locode=a["port_of_lading_locode"],
            port_of_discharge_locode=a["port_of_discharge_locode"],
            shipments=a["shipments"],
            transit_time=Spread.of(a["transit_time"]),
            on_time_tolerance_hours=a["on_time"]["tolerance_hours"],
            on_time_n=a["on_time"]["n"],
            on_time=a["on_time"]["on_time"],
            on_time_share=a["on_time"]["share"],
            eta_drift=Spread.of(a["eta_drift"]),
            containers=a["containers"]["n"],
            rolled_share=a["containers"]["rolled_share"],
            transshipped_share=a["containers"]["transshipped_share"],
        )

    def line(self) -> str:
        """One line: the lane, on-time share, transit and drift."""
        share = "n/a" if self.on_time_share is None else f"{self.on_time_share:.0%}"
        return (
            f"- {self.carrier_scac} {self.port_of_lading_locode} -> "
            f"{self.port_of_discharge_locode}: {self.shipments} arrived, on time {share} "
            f"({self.on_time}/{self.on_time_n}); transit {self.transit_time.text()}; "
            f"ETA drift {self.eta_drift.text()}"
        )


class LaneReliabilityList(Output):
    """Carriers' figures per lane from the account's own arrived shipments."""

    items: list[LaneFigures]
    paging: Paging

    def summary(self) -> str:
        if not self.items:
            return "No arrived shipments match: no figures."
        lines = [f"{self.paging.total} lane(s), page {self.paging.page}:"]
        return "\n".join([*lines, *(item.line() for item in self.items)])


class LaneTransit(Output):
    """One carrier's transit times on a lane."""

    carrier_scac: str
    shipments: int
    transit_time: Spread


class LaneTransitTimes(Output):
    """Transit times (actual departure to actual arrival) by carrier on one lane."""

    port_of_lading_locode: str
    port_of_discharge_locode: str
    carriers: list[LaneTransit]

    def summary(self) -> str:
        lane = f"{self.port_of_lading_locode} -> {self.port_of_discharge_locode}"
        if not self.carriers:
            return f"No arrived shipments on {lane}."
        lines = [f"- {c.carrier_scac}: {c.transit_time.text()}" for c in self.carriers]
        return "\n".join([f"Transit times {lane}:", *lines])


class PortDay(Output):
    """One UTC day at a port."""

    date: str
    container_dwell: Spread
    anchorage_waiting: Spread


class PortWaitingTimes(Output):
    """A port's container dwell and vessels' anchorage waiting, overall and by day."""

    locode: str
    since: str | None
    until: str | None
    container_dwell: Spread
    anchorage_waiting: Spread
    days: list[PortDay]

    @classmethod
    def of(cls, obj: dict[str, Any]) -> PortWaitingTimes:
        """From a ``port_reliability`` resource."""
        a = obj["attributes"]
        return cls(
            locode=a["locode"],
            since=a["since"],
            until=a["until"],
            container_dwell=Spread.of(a["container_dwell"]),
            anchorage_waiting=Spread.of(a["anchorage_waiting"]),
            days=[
                PortDay(
                    date=day["date"],
                    container_dwell=Spread.of(day["container_dwell"]),
                    anchorage_waiting=Spread.of(day["anchorage_waiting"]),
                )
                for day in a["days"]
            ],
        )

    def summary(self) -> str:
        return (
            f"{self.locode}: anchorage waiting {self.anchorage_waiting.text()}; "
            f"container dwell {self.container_dwell.text()}; {len(self.days)} day(s)"
        )


def _h(hours: float) -> str:
    """Hours as ``5.2 h`` under two days, else ``3.1 d``."""
    return f"{hours:.1f} h" if abs(hours) < 48 else f"{hours / 24:.1f} d"

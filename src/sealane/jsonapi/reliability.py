"""Reliability figures as JSON:API resources: ``lane_reliability`` (a carrier on a lane) and
``port_reliability`` (a port's dwell and anchorage waiting by day). Durations are in hours;
a spread under five values states ``n`` (and the mean) with null percentiles."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..clock import utc_iso
from ..service.reliability.lanes import LaneReliability
from ..service.reliability.ports import PortReliability
from ..service.reliability.spreads import Spread
from .objects import resource


def spread_object(spread: Spread) -> dict[str, Any]:
    """A duration's spread: ``n``, ``median``, ``p10``, ``p90`` and ``mean``, in hours."""
    return {
        "n": spread.n,
        "median_hours": spread.median_h,
        "p10_hours": spread.p10_h,
        "p90_hours": spread.p90_h,
        "mean_hours": spread.mean_h,
    }


def lane_resource(lane: LaneReliability, base_url: str) -> dict[str, Any]:
    """A ``lane_reliability`` resource, its id ``SCAC-POL-POD``."""
    query = (
        f"filter[carrier]={quote(lane.carrier_scac)}"
        f"&filter[port_of_lading]={lane.port_of_lading}"
        f"&filter[port_of_discharge]={lane.port_of_discharge}"
    )
    return resource(
        "lane_reliability",
        lane.key,
        {
            "carrier_scac": lane.carrier_scac,
            "port_of_lading_locode": lane.port_of_lading,
            "port_of_discharge_locode": lane.port_of_discharge,
            "shipments": lane.shipments,
            "transit_time": spread_object(lane.transit),
            "on_time": {
                "tolerance_hours": lane.tolerance_h,
                "n": lane.eta_known,
                "on_time": lane.on_time,
                "share": lane.on_time_share,
            },
            "eta_drift": spread_object(lane.drift),
            "containers": {
                "n": lane.containers,
                "rolled": lane.rolled,
                "rolled_share": lane.rolled_share,
                "transshipped": lane.transshipped,
                "transshipped_share": lane.transshipped_share,
            },
        },
        links={"self": f"{base_url}/reliability/lanes?{query}"},
    )


def port_resource(port: PortReliability, base_url: str) -> dict[str, Any]:
    """A ``port_reliability`` resource, its id the port's UN/LOCODE."""
    return resource(
        "port_reliability",
        port.locode,
        {
            "locode": port.locode,
            "since": utc_iso(port.window.since),
            "until": utc_iso(port.window.until),
            "container_dwell": spread_object(port.dwell),
            "anchorage_waiting": spread_object(port.waiting),
            "days": [
                {
                    "date": day.day.isoformat(),
                    "container_dwell": spread_object(day.dwell),
                    "anchorage_waiting": spread_object(day.waiting),
                }
                for day in port.days
            ],
        },
        links={"self": f"{base_url}/reliability/ports/{port.locode}"},
    )

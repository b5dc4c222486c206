"""Resource objects of the reference data: ports, terminals, shipping lines, vessels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..clock import utc_iso
from ..routing.ports import Port, port_id
from ..service.reference.records import (
    MetroAreaRecord,
    RecordedPosition,
    ShippingLineRecord,
    TerminalRecord,
)
from ..vocabulary.vessels import VesselRecord
from .objects import resource, to_one


def port_resource(port: Port, base_url: str) -> dict[str, Any]:
    """A ``port`` resource from the engine's registry. The registry holds no city or state of a
    port, so ``city`` and ``state_abbr`` are null (the reference API allows it)."""
    attributes = {**_place_attributes(port), "city": None, "state_abbr": None}
    return resource("port", port.id, attributes, links={"self": f"{base_url}/ports/{port.id}"})


def metro_area_resource(area: MetroAreaRecord, base_url: str) -> dict[str, Any]:
    """A ``metro_area`` resource: the city area of a UN/LOCODE."""
    return resource(
        "metro_area",
        area.id,
        _place_attributes(area.port),
        links={"self": f"{base_url}/metro_areas/{area.id}"},
    )


def _place_attributes(port: Port) -> dict[str, Any]:
    return {
        "name": port.name,
        "code": port.locode,
        "country_code": port.country,
        "country": port.country_name,
        "time_zone": port.time_zone,
        "latitude": port.lat,
        "longitude": port.lon,
    }


def terminal_resource(terminal: TerminalRecord, base_url: str) -> dict[str, Any]:
    """A ``terminal`` resource with its ``port`` relationship."""
    return resource(
        "terminal",
        terminal.id,
        {
            "name": terminal.name,
            "nickname": terminal.nickname,
            "firms_code": terminal.firms_code,
            "smdg_code": terminal.smdg_code,
            "bic_facility_code": None,
            "operator": terminal.operator,
            "port_code": terminal.port_locode,
            "latitude": terminal.lat,
            "longitude": terminal.lon,
            "street": terminal.street,
            "city": terminal.city,
            "state": terminal.state,
            "state_abbr": terminal.state_abbr,
            "zip": terminal.zip,
            "country": terminal.country,
        },
        relationships={"port": to_one("port", port_id(terminal.port_locode))},
        links={"self": f"{base_url}/terminals/{terminal.id}"},
    )


def shipping_line_resource(line: ShippingLineRecord, base_url: str) -> dict[str, Any]:
    """A ``shipping_line`` resource."""
    return resource(
        "shipping_line",
        line.id,
        {
            "scac": line.scac,
            "name": line.name,
            "short_name": line.short_name,
            "bill_of_lading_prefixes": list(line.bill_of_lading_prefixes),
            "alternative_scacs": list(line.alternative_scacs),
            "bill_of_lading_tracking_support": line.bill_of_lading_tracking_support,
            "booking_number_tracking_support": line.booking_number_tracking_support,
            "container_number_tracking_support": line.container_number_tracking_support,
        },
        links={"self": f"{base_url}/shipping_lines/{line.id}"},
    )


def vessel_attributes(vessel: VesselRecord) -> dict[str, Any]:
    """The attributes of a ``vessel`` resource, latest known position included, then sealane's
    own: what the vessel reported of itself (AIS static data, the position feed; null where
    nothing usable was reported), its dimensions in metres."""
    return {
        "name": vessel.name,
        "imo": vessel.imo,
        "mmsi": vessel.mmsi,
        "latitude": vessel.latitude,
        "longitude": vessel.longitude,
        "nautical_speed_knots": vessel.nautical_speed_knots,
        "navigational_heading_degrees": vessel.navigational_heading_degrees,
        "position_timestamp": utc_iso(vessel.position_timestamp),
        "call_sign": vessel.call_sign,
        "ship_type": vessel.ship_type,
        "length_meters": vessel.length_m,
        "beam_meters": vessel.beam_m,
        "draught_meters": vessel.draught_m,
        "dimensions_source": vessel.dimensions_source,
        "dimensions_updated_at": utc_iso(vessel.dimensions_updated_at),
        "reported_destination": vessel.reported_destination,
        "reported_eta": utc_iso(vessel.reported_eta),
        "static_updated_at": utc_iso(vessel.static_updated_at),
    }


def vessel_resource(
    vessel: VesselRecord, base_url: str, positions: Sequence[RecordedPosition] | None = None
) -> dict[str, Any]:
    """A ``vessel`` resource; with ``positions``, the positions it reported (oldest first)."""
    attributes = vessel_attributes(vessel)
    if positions is not None:
        attributes["positions"] = [
            {
                "latitude": p.latitude,
                "longitude": p.longitude,
                "heading": p.heading_degrees,
                "timestamp": utc_iso(p.timestamp),
                "estimated": False,
            }
            for p in positions
        ]
    return resource(
        "vessel", vessel.id, attributes, links={"self": f"{base_url}/vessels/{vessel.id}"}
    )

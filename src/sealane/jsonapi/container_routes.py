"""Resource objects of a container's route: the ``route`` and its ``route_location`` calls.

The shapes follow Terminal49's ``route`` and ``route_location`` resources: a route names its
cargo (the container), its shipment and its calls in order; a call names its route, its port
(``location``), its terminal (``facility``, null where not known) and its vessels in and out.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..clock import utc_iso
from ..service.container_routes.records import ContainerRoute, RouteLocationRecord
from .documents import Included
from .objects import resource, to_many, to_one
from .reference import vessel_resource

#: Include names that bring the calls themselves, their ports, vessels and terminals.
LOCATIONS = frozenset(
    {
        "route_location",
        "route_locations",
        "port",
        "route_locations.location",
        "vessel",
        "route_locations.inbound_vessel",
        "route_locations.outbound_vessel",
        "terminal",
        "route_locations.facility",
    }
)
PORTS = frozenset({"port", "route_locations.location"})
VESSELS = frozenset({"vessel", "route_locations.inbound_vessel", "route_locations.outbound_vessel"})
TERMINALS = frozenset({"terminal", "route_locations.facility"})


def route_resource(route: ContainerRoute, base_url: str) -> dict[str, Any]:
    """A ``route`` resource."""
    return resource(
        "route",
        route.id,
        {
            "id": route.id,
            "created_at": utc_iso(route.created_at),
            "updated_at": utc_iso(route.updated_at),
        },
        relationships={
            "cargo": to_one("container", route.container_id),
            "shipment": to_one("shipment", route.shipment_id),
            "route_locations": to_many("route_location", (c.id for c in route.locations)),
        },
        links={"self": f"{base_url}/containers/{route.container_id}/route"},
    )


def route_location_resource(call: RouteLocationRecord) -> dict[str, Any]:
    """A ``route_location`` resource."""
    return resource(
        "route_location",
        call.id,
        {
            "id": call.id,
            "inbound_scac": call.inbound_scac,
            "inbound_mode": call.inbound_mode,
            "inbound_eta_at": utc_iso(call.inbound_eta_at),
            "inbound_ata_at": utc_iso(call.inbound_ata_at),
            "inbound_voyage_number": call.inbound_voyage_number,
            "outbound_scac": call.outbound_scac,
            "outbound_mode": call.outbound_mode,
            "outbound_etd_at": utc_iso(call.outbound_etd_at),
            "outbound_atd_at": utc_iso(call.outbound_atd_at),
            "outbound_voyage_number": call.outbound_voyage_number,
            "created_at": utc_iso(call.created_at),
            "updated_at": utc_iso(call.updated_at),
        },
        relationships={
            "route": to_one("route", call.route_id),
            "inbound_vessel": to_one("vessel", call.inbound_vessel_id),
            "outbound_vessel": to_one("vessel", call.outbound_vessel_id),
            "location": to_one("port", call.port.id if call.port else None),
            "facility": to_one("terminal", call.terminal_id),
        },
    )


def include_route(
    included: Included, route: ContainerRoute, includes: Collection[str]
) -> dict[str, Any]:
    """The route's resource; its calls and what they name are included as ``includes`` asks
    (a port, vessel or terminal brings the calls too, so every included object is linked)."""
    wanted = set(includes)
    if "shipment" in wanted and route.shipment is not None:
        included.add(included.shipment(route.shipment, ()))
    if wanted & LOCATIONS:
        for call in route.locations:
            included.add(route_location_resource(call))
            if wanted & PORTS and call.port is not None:
                included.port(call.port)
            if wanted & VESSELS:
                for vessel in (call.inbound_vessel, call.outbound_vessel):
                    if vessel is not None:
                        included.add(vessel_resource(vessel, included.base))
            if wanted & TERMINALS:
                included.terminal(call.terminal)
    return route_resource(route, included.base)

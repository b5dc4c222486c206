"""What the map of a tracking page shows: the container's route features from the application
layer when the account has the routing feature, else its ports and a note saying why."""

from __future__ import annotations

from typing import Any

from ..clock import utc_iso
from ..service.access.gatekeeper import Caller
from ..service.container_routes import reading as routes
from ..service.core.context import ServiceContext
from ..service.core.errors import CannotRoute
from ..service.reference.ports import port_by_key
from ..service.tracking.records import ContainerRecord, ShipmentRecord
from .mapview import MapView, map_view

NO_ROUTING = (
    "Routes and vessel positions are part of the routing feature, which this account does not "
    "have: the map shows the ports only."
)
NO_ROUTE = "The route of this container is not available: the map shows the ports only."


def container_map(
    ctx: ServiceContext,
    caller: Caller,
    shipment: ShipmentRecord,
    container: ContainerRecord | None,
) -> tuple[MapView, str | None]:
    """The map view and a note for the person (None when the whole route is drawn)."""
    if not caller.routing_enabled:
        return map_view(port_features(shipment)), NO_ROUTING
    if container is None:
        return map_view(port_features(shipment)), NO_ROUTE
    try:
        features = routes.container_map(ctx, caller, container.id)
    except CannotRoute:  # no sea route between its ports, a position on land ...
        return map_view(port_features(shipment)), NO_ROUTE
    return map_view(features.to_geojson()), None


def port_features(shipment: ShipmentRecord) -> dict[str, Any]:
    """The shipment's ports as port features (POL, TS1..., POD), its ETA on the last."""
    ports = [
        shipment.port_of_lading,
        *(port_by_key(code) for code in shipment.transshipment_locodes),
        shipment.port_of_discharge,
    ]
    features = []
    for index, port in enumerate(ports):
        last = index == len(ports) - 1
        label = "POL" if index == 0 else "POD" if last else f"TS{index}"
        features.append(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [port.lon, port.lat]},
                "properties": {
                    "feature_type": "port",
                    "ports_sequence": index + 1,
                    "label": label,
                    "name": port.name,
                    "locode": port.locode,
                    "time_zone": port.time_zone,
                    "inbound_eta_at": utc_iso(shipment.pod_eta_at) if last else None,
                },
            }
        )
    return {"type": "FeatureCollection", "features": features}

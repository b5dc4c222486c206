"""The tracking page of a shipment: header, containers, and for the selected container its
milestone timeline, terminal facts (holds, fees, last free day, availability) and the map."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ...service.core.errors import ObjectNotFound
from ...service.tracking.records import ContainerRecord, ShipmentRecord
from ...service.tracking.shipments import get_shipment
from ...service.tracking.timeline import container_timeline
from ..guard import signed_in
from ..mapdata import container_map
from ..state import web_of

#: What the page shows of a shipment (the JSON:API document with the same includes is the
#: benchmark's reference).
INCLUDES = ("containers", "containers.transport_events", "pod_terminal")


def shipment_page(request: Request) -> Response:
    """``/shipments/{id}`` (``?container=`` selects one of its containers)."""
    caller = signed_in(request)
    web = web_of(request)
    shipment = get_shipment(web.context, caller, request.path_params["shipment_id"], INCLUDES)
    container = selected(shipment, request.query_params.get("container"))
    timeline = container_timeline(shipment, container) if container is not None else None
    view, note = container_map(web.context, caller, shipment, container)
    return web.pages.render(
        request,
        "shipment.html",
        title=shipment_title(shipment),
        shipment=shipment,
        container=container,
        timeline=timeline,
        map=view,
        map_note=note,
    )


def selected(shipment: ShipmentRecord, container_id: str | None) -> ContainerRecord | None:
    """The container ``?container=`` names (404 if the shipment has no such container), else
    the first one."""
    containers = shipment.containers or ()
    if container_id is None or container_id == "":
        return containers[0] if containers else None
    for container in containers:
        if container.id == container_id:
            return container
    raise ObjectNotFound("container in this shipment", container_id)


def shipment_title(shipment: ShipmentRecord) -> str:
    """The page's title: the shipment's main number."""
    number = shipment.bill_of_lading_number or shipment.booking_number or shipment.id
    return f"Shipment {number}"

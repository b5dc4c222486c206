"""Whole documents: one resource or a page of them, with ``included`` and pagination links.

:class:`Included` walks the records a use case returned (a shipment with its containers, a
container with its events, a notification with its reference object) and collects every related
resource once, in the order first met.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

import orjson

from ..routing.ports import Port, get_port
from ..service.core.paging import Page, PageKey
from ..service.reference.records import TerminalRecord
from ..service.tracking.records import (
    ContainerRecord,
    ShipmentRecord,
    TrackingRequestRecord,
    TransportEventRecord,
)
from ..service.webhooks.records import NotificationRecord, Reference
from .reference import port_resource, terminal_resource, vessel_resource
from .reuse import RenderedResources
from .tracking import (
    container_resource,
    container_updated_event_resource,
    estimated_event_resource,
    shipment_resource,
    tracking_request_resource,
    transport_event_resource,
)
from .webhooks import log_resource, notification_resource, webhook_resource

R = TypeVar("R")


class Included:
    """The related resources of one document, each once, in the order they were added.

    With ``reuse``, shipment, container and tracking request objects rendered from records equal
    to earlier ones are the objects rendered then (see :mod:`.reuse`).
    """

    def __init__(self, base_url: str, *, reuse: RenderedResources | None = None) -> None:
        self.base = base_url
        self.reuse = reuse
        self._found: dict[tuple[str, str], dict[str, Any]] = {}

    def add(self, obj: dict[str, Any]) -> None:
        """Include a resource object (a second copy of the same type and id is ignored)."""
        self._found.setdefault((obj["type"], obj["id"]), obj)

    def resources(self) -> list[dict[str, Any]]:
        """Everything included so far."""
        return list(self._found.values())

    def shipment(self, shipment: ShipmentRecord, includes: Iterable[str]) -> dict[str, Any]:
        """The shipment's resource; what it was loaded with and ``includes`` names is included."""
        wanted = set(includes)
        for container in shipment.containers or ():
            self.add(self.container(container, ("transport_events",)))
        if "port_of_lading" in wanted:
            self.port(shipment.port_of_lading)
        if "port_of_discharge" in wanted:
            self.port(shipment.port_of_discharge)
        self.terminal(shipment.pod_terminal)
        if "pod_vessel" in wanted and shipment.pod_vessel is not None:
            self.add(vessel_resource(shipment.pod_vessel, self.base))
        loaded = (shipment.containers is None, shipment.pod_terminal is None)
        return self._rendered(("shipment", shipment.id, loaded), shipment, shipment_resource)

    def container(self, container: ContainerRecord, includes: Iterable[str] = ()) -> dict[str, Any]:
        """The container's resource, including what it was loaded with."""
        if container.shipment is not None:
            self.add(self.shipment(container.shipment, ()))
        self.terminal(container.pod_terminal)
        for event in container.events or ():
            self.add(transport_event_resource(event, self.base))
        loaded = (
            container.events is None,
            container.shipment is None,
            container.pod_terminal is None,
        )
        return self._rendered(("container", container.id, loaded), container, container_resource)

    def transport_event(
        self, event: TransportEventRecord, includes: Iterable[str] = ()
    ) -> dict[str, Any]:
        """The event's resource, including what it was loaded with and, when asked, its
        ``location`` (a port)."""
        if event.shipment is not None:
            self.add(self.shipment(event.shipment, ()))
        if event.container is not None:
            self.add(self.container(event.container))
        if event.vessel is not None:
            self.add(vessel_resource(event.vessel, self.base))
        self.terminal(event.terminal)
        if "location" in includes and event.location_locode:
            self.port(get_port(event.location_locode))
        return transport_event_resource(event, self.base)

    def tracking_request(self, request: TrackingRequestRecord) -> dict[str, Any]:
        """The request's resource, including its shipment when loaded."""
        if request.shipment is not None:
            self.add(self.shipment(request.shipment, ()))
        loaded = (request.shipment is None,)
        return self._rendered(
            ("tracking_request", request.id, loaded), request, tracking_request_resource
        )

    def _rendered(
        self, key: tuple[Any, ...], record: R, render: Callable[[R, str], dict[str, Any]]
    ) -> dict[str, Any]:
        """``render(record, base)``, or the object kept from an equal record. ``key`` is the
        type, the id and which related records were loaded (a record loaded with its related
        records and one loaded without are kept apart, so lists that alternate both reuse)."""
        if self.reuse is None:
            return render(record, self.base)
        return self.reuse.resource((*key, self.base), record, lambda: render(record, self.base))

    def notification(
        self, notification: NotificationRecord, *, delivered: bool = True
    ) -> dict[str, Any]:
        """The notification's resource with its webhook, reference object and logs if loaded.

        A ``delivered`` notification (the body a webhook receives, or an example of one) also
        includes the shipment, container, port and terminal its reference object names; read
        through the API it includes the reference object alone, as the reference API's
        notification documents do (those objects are in the delivered body already)."""
        if notification.webhook is not None:
            self.add(webhook_resource(notification.webhook, self.base))
        if notification.reference is not None:
            self.reference(notification.reference, named=delivered)
        for log in notification.logs or ():
            self.add(log_resource(log))
        return notification_resource(notification, self.base)

    def reference(self, ref: Reference, *, named: bool = True) -> None:
        """A notification's reference object, then (if ``named``) the shipment, container, port
        and terminal it names."""
        for obj in (
            ref.transport_event and transport_event_resource(ref.transport_event, self.base),
            ref.estimated_event and estimated_event_resource(ref.estimated_event, self.base),
            ref.container_updated_event
            and container_updated_event_resource(ref.container_updated_event, self.base),
            ref.tracking_request and tracking_request_resource(ref.tracking_request, self.base),
        ):
            if obj:
                self.add(obj)
        if not named:
            return
        for named_obj in (
            ref.shipment and self.shipment(ref.shipment, ()),
            ref.container and self.container(ref.container),
        ):
            if named_obj:
                self.add(named_obj)
        if ref.port is not None:
            self.port(ref.port)
        self.terminal(ref.terminal)

    def port(self, port: Port) -> None:
        """Include a port."""
        self.add(port_resource(port, self.base))

    def terminal(self, terminal: TerminalRecord | None) -> None:
        """Include a terminal, if there is one."""
        if terminal is not None:
            self.add(terminal_resource(terminal, self.base))


def single_document(data: dict[str, Any], included: Included | None = None) -> dict[str, Any]:
    """A document of one resource, linking to itself."""
    doc: dict[str, Any] = {"data": data, "links": {"self": data["links"]["self"]}}
    if included is not None and (found := included.resources()):
        doc["included"] = found
    return doc


def page_links(self_url: str, query: Sequence[tuple[str, str]], page: Page[Any]) -> dict[str, str]:
    """``self``/``first``/``prev``/``next``/``last`` links, keeping the other query parameters;
    ``prev`` and ``next`` are left out where there is no such page. A list read by key gives
    its ``next`` link the key the next page begins after (``page[after]``): a client that
    follows it misses no row and sees none twice while rows are inserted or deleted."""
    paging = ("page[number]", "page[size]", "page[after]")
    kept = [(k, v) for k, v in query if k not in paging]
    size, number, last = page.request.size, page.request.number, page.last_number

    def link(to: int, after: PageKey | None = None) -> str:
        pairs = [*kept, ("page[number]", str(to)), ("page[size]", str(size))]
        if after is not None:
            pairs.append(("page[after]", after.encode()))
        return f"{self_url}?{urlencode(pairs)}"

    links = {"self": link(number, page.request.after), "first": link(1)}
    if number > 1:
        links["prev"] = link(number - 1)
    if number < last:
        links["next"] = link(number + 1, page.next_after)
    links["last"] = link(last)
    return links


def collection_document(
    data: list[dict[str, Any]],
    page: Page[Any],
    *,
    self_url: str,
    query: Sequence[tuple[str, str]] = (),
    included: Included | None = None,
) -> dict[str, Any]:
    """A page of resources with pagination links and ``meta.total``."""
    doc: dict[str, Any] = {
        "data": data,
        "links": page_links(self_url, query, page),
        "meta": {"total": page.total},
    }
    if included is not None and (found := included.resources()):
        doc["included"] = found
    return doc


def notification_body(notification: NotificationRecord, base_url: str) -> bytes:
    """The body a webhook receives: the notification with its reference object included."""
    included = Included(base_url)
    data = included.notification(notification)
    return orjson.dumps({"data": data, "included": included.resources()})

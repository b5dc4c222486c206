"""The in-process backend: the application layer of this process, rendered with the API's own
JSON:API renderers. Blocking use cases (database, engine) run in worker threads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

import anyio.to_thread

from ..jsonapi import Included, collection_document, single_document
from ..jsonapi.container_routes import include_route
from ..jsonapi.lookups import inference_resource, search_hit_resource
from ..jsonapi.reference import shipping_line_resource, vessel_attributes
from ..jsonapi.reliability import lane_resource, port_resource
from ..jsonapi.tracking import transport_event_resource
from ..routing import Vessel
from ..service import search
from ..service.access.gatekeeper import Caller, Gatekeeper
from ..service.container_routes import reading as routes
from ..service.core.context import ServiceContext
from ..service.core.engine import NO_VESSEL
from ..service.core.paging import Page, PageRequest
from ..service.reference import lookups, vessels
from ..service.reliability import lanes, ports
from ..service.reliability.inputs import LaneQuery, Window
from ..service.tracking import containers, numbers, requests, shipments
from ..service.tracking.filters import TrackingFilter
from ..service.tracking.requests import NewTrackingRequest, RequestFilter
from .backend import (
    Document,
    Positions,
    Query,
    lane_query,
    page_query,
    request_query,
    tracking_query,
)

T = TypeVar("T")


async def blocking(call: Callable[[], T]) -> T:
    """``call()`` in a worker thread (it may wait on the database or compute a route)."""
    return await anyio.to_thread.run_sync(call)


class LocalBackend:
    """Keys checked by the service's gatekeeper: the API's key cache and shared rate limiter."""

    def __init__(self, context: ServiceContext, gate: Gatekeeper) -> None:
        self.context = context
        self.gate = gate

    async def authorize(self, secret: str, *, address: str) -> LocalAccount:
        """The caller of ``secret``, counted once against its account's rate limit."""
        caller = await blocking(partial(self.gate.authorize, secret, address=address))
        return LocalAccount(self.context, caller)

    async def aclose(self) -> None:
        """Nothing to release: the runtime's owner closes the database."""


class LocalAccount:
    """One caller's view of the application layer."""

    def __init__(self, context: ServiceContext, caller: Caller) -> None:
        self.ctx = context
        self.caller = caller
        self.base = context.settings.base_url

    async def get_container(self, container_id: str, includes: Sequence[str]) -> Document:
        """One container, rendered as the API renders it."""
        found = await blocking(
            lambda: containers.get_container(self.ctx, self.caller, container_id, includes)
        )
        included = Included(self.base)
        return single_document(included.container(found), included)

    async def get_shipment(self, shipment_id: str, includes: Sequence[str]) -> Document:
        """One shipment, rendered as the API renders it."""
        found = await blocking(
            lambda: shipments.get_shipment(self.ctx, self.caller, shipment_id, includes)
        )
        included = Included(self.base)
        return single_document(included.shipment(found, includes), included)

    async def container_events(self, container_id: str, page: PageRequest) -> Document:
        """A page of a container's events."""
        found = await blocking(
            lambda: containers.list_transport_events(self.ctx, self.caller, container_id, page)
        )
        data = [transport_event_resource(event, self.base) for event in found.items]
        return self._page(data, found, f"containers/{container_id}/transport_events", [])

    async def shipping_lines(self, search: str | None, page: PageRequest) -> Document:
        """A page of carriers."""
        found = await blocking(lambda: lookups.list_shipping_lines(self.ctx, page, search=search))
        data = [shipping_line_resource(line, self.base) for line in found.items]
        query: Query = [("filter[search]", search)] if search else []
        return self._page(data, found, "shipping_lines", query)

    async def list_shipments(
        self, filters: TrackingFilter, page: PageRequest, includes: Sequence[str]
    ) -> Document:
        """A page of the account's shipments."""
        found = await blocking(
            lambda: shipments.list_shipments(self.ctx, self.caller, filters, page, includes)
        )
        included = Included(self.base)
        data = [included.shipment(item, includes) for item in found.items]
        query = tracking_query(filters)
        return self._page(data, found, "shipments", query, includes, included)

    async def list_containers(
        self, filters: TrackingFilter, page: PageRequest, includes: Sequence[str]
    ) -> Document:
        """A page of the account's containers."""
        found = await blocking(
            lambda: containers.list_containers(self.ctx, self.caller, filters, page, includes)
        )
        included = Included(self.base)
        data = [included.container(item) for item in found.items]
        query = tracking_query(filters)
        return self._page(data, found, "containers", query, includes, included)

    async def list_tracking_requests(self, filters: RequestFilter, page: PageRequest) -> Document:
        """A page of the account's tracking requests."""
        found = await blocking(lambda: requests.list_requests(self.ctx, self.caller, filters, page))
        included = Included(self.base)
        data = [included.tracking_request(item) for item in found.items]
        return self._page(data, found, "tracking_requests", request_query(filters))

    async def create_tracking_request(self, new: NewTrackingRequest) -> Document:
        """A new pending tracking request."""
        created = await blocking(lambda: requests.create_request(self.ctx, self.caller, new))
        included = Included(self.base)
        return single_document(included.tracking_request(created), included)

    async def future_positions(
        self,
        vessel: str,
        *,
        previous_port: str | None,
        destination_port: str | None,
        start: tuple[float, float] | None,
        given: Vessel = NO_VESSEL,
        speed_kn: float | None = None,
    ) -> Positions:
        """The vessel and its positions, as arrays (no JSON in between)."""
        found = await blocking(
            lambda: vessels.vessel_future_positions(
                self.ctx,
                self.caller,
                vessel,
                previous_port=previous_port,
                destination_port=destination_port,
                start=start,
                given=given,
                speed_kn=speed_kn,
            )
        )
        record, positions = found.vessel, found.positions
        return Positions(
            vessel_id=record.id,
            vessel=vessel_attributes(record),
            lons=positions.lons.tolist(),
            lats=positions.lats.tolist(),
            headings_deg=positions.headings_deg.tolist(),
            times=positions.timestamps(),
            meta=found.meta(),
        )

    async def require_routing(self) -> None:
        """Raise ``FeatureDisabled`` unless the caller has the routing feature."""
        self.caller.require_routing()

    async def search(self, text: str) -> Document:
        """The account's objects matching ``text``, rendered as the API renders them."""
        hits = await blocking(lambda: search.search(self.ctx, self.caller, text))
        data = [search_hit_resource(hit) for hit in hits]
        return {"data": data, "meta": {"total": len(data)}}

    async def infer_number(self, number: str) -> Document:
        """What ``number`` looks like, rendered as the API renders it."""
        text = numbers.number_text(number)
        found = await blocking(lambda: numbers.infer_number(self.ctx, text))
        return {"data": inference_resource(text, found)}

    async def lane_reliability(self, query: LaneQuery, page: PageRequest) -> Document:
        """A page of the account's lane figures, rendered as the API renders them."""
        found = await blocking(lambda: lanes.lane_reliability(self.ctx, self.caller, query, page))
        data = [lane_resource(lane, self.base) for lane in found.items]
        return self._page(data, found, "reliability/lanes", lane_query(query))

    async def port_reliability(self, locode: str, window: Window) -> Document:
        """A port's figures for the account, rendered as the API renders them."""
        found = await blocking(
            lambda: ports.port_reliability(self.ctx, self.caller, locode, window)
        )
        return single_document(port_resource(found, self.base))

    async def container_route(self, container_id: str, includes: Sequence[str]) -> Document:
        """A container's route, rendered as the API renders it."""
        found = await blocking(
            lambda: routes.container_route(self.ctx, self.caller, container_id, includes)
        )
        included = Included(self.base)
        return single_document(include_route(included, found, includes), included)

    def _page(
        self,
        data: list[dict[str, Any]],
        page: Page[Any],
        path: str,
        query: Query,
        includes: Sequence[str] = (),
        included: Included | None = None,
    ) -> Document:
        """A list document whose links are those the API gives for the same query."""
        full = [*query, *page_query(page.request, includes)]
        return collection_document(
            data, page, self_url=f"{self.base}/{path}", query=full, included=included
        )

"""What the tools need from the service, in two implementations: the application layer in this
process (:mod:`.local`) or a sealane API over HTTP (:mod:`.remote`, with ``SERVICE_API_BASE_URL``).

Both answer with JSON:API documents (the local one renders its records with the API's own
renderers), which :mod:`.documents` maps to the tool outputs, so a tool answers alike whichever
backend it runs on. Errors are the application layer's (:mod:`sealane.service.core.errors`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..routing import Vessel
from ..service.core.engine import NO_VESSEL
from ..service.core.paging import PageRequest
from ..service.reliability.inputs import LaneQuery, Window
from ..service.tracking.filters import TrackingFilter
from ..service.tracking.requests import NewTrackingRequest, RequestFilter

Document = dict[str, Any]
Query = list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Positions:
    """A vessel's estimated future positions, one per minute: the vessel resource's attributes
    and, per position, longitude and latitude (degrees), heading (degrees) and ISO time."""

    vessel_id: str
    vessel: dict[str, Any]
    lons: Sequence[float]
    lats: Sequence[float]
    headings_deg: Sequence[float]
    times: Sequence[str]
    #: The answer's ``meta``: the ports used and where they came from, the vessel dimensions,
    #: the speed sailed at and the ETA with its range.
    meta: dict[str, Any] = field(default_factory=dict)


class Account(Protocol):
    """The service as one account sees it (its key checked); every method may raise the
    application layer's errors."""

    async def get_container(self, container_id: str, includes: Sequence[str]) -> Document:
        """``GET /containers/{id}`` with ``include``."""
        ...

    async def get_shipment(self, shipment_id: str, includes: Sequence[str]) -> Document:
        """``GET /shipments/{id}`` with ``include``."""
        ...

    async def container_events(self, container_id: str, page: PageRequest) -> Document:
        """A page of ``GET /containers/{id}/transport_events``."""
        ...

    async def shipping_lines(self, search: str | None, page: PageRequest) -> Document:
        """A page of ``GET /shipping_lines``."""
        ...

    async def list_shipments(
        self, filters: TrackingFilter, page: PageRequest, includes: Sequence[str]
    ) -> Document:
        """A page of ``GET /shipments``."""
        ...

    async def list_containers(
        self, filters: TrackingFilter, page: PageRequest, includes: Sequence[str]
    ) -> Document:
        """A page of ``GET /containers``."""
        ...

    async def list_tracking_requests(self, filters: RequestFilter, page: PageRequest) -> Document:
        """A page of ``GET /tracking_requests``."""
        ...

    async def create_tracking_request(self, new: NewTrackingRequest) -> Document:
        """``POST /tracking_requests``."""
        ...

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
        """The vessel's positions from ``start`` (lon, lat; None: its last known position) at
        ``speed_kn`` (None: the vessel's own); a port not given is the one the service knows of
        the vessel's voyage."""
        ...

    async def require_routing(self) -> None:
        """Raise ``FeatureDisabled`` unless the account has the routing feature."""
        ...

    async def container_route(self, container_id: str, includes: Sequence[str]) -> Document:
        """``GET /containers/{id}/route`` with ``include`` (the routing feature)."""
        ...

    async def search(self, text: str) -> Document:
        """``GET /search?query=``: shipments, containers and requests matching a number."""
        ...

    async def infer_number(self, number: str) -> Document:
        """``POST /tracking_requests/infer_number``: a number's type and likely carriers."""
        ...

    async def lane_reliability(self, query: LaneQuery, page: PageRequest) -> Document:
        """A page of ``GET /reliability/lanes``."""
        ...

    async def port_reliability(self, locode: str, window: Window) -> Document:
        """``GET /reliability/ports/{locode}``."""
        ...


class Backend(Protocol):
    """Checks keys and hands out :class:`Account` views."""

    async def authorize(self, secret: str, *, address: str) -> Account:
        """The account of ``secret``, counted against its rate limit; raises
        ``Unauthenticated`` or ``RateLimited``."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


def tracking_query(filters: TrackingFilter) -> Query:
    """The API's query parameters for shipment and container filters."""
    query: Query = []
    if filters.status is not None:
        query.append(("filter[status]", filters.status.value))
    if filters.pod_locode is not None:
        query.append(("filter[pod_locode]", filters.pod_locode))
    if filters.scac is not None:
        query.append(("filter[shipping_line_scac]", filters.scac))
    if filters.updated_from is not None:
        query.append(("filter[updated_at][start]", filters.updated_from.isoformat()))
    if filters.number is not None:
        query.append(("filter[number]", filters.number))
    return query


def request_query(filters: RequestFilter) -> Query:
    """The API's query parameters for tracking request filters."""
    query: Query = []
    if filters.status is not None:
        query.append(("filter[status]", filters.status.value))
    if filters.request_type is not None:
        query.append(("filter[request_type]", filters.request_type))
    if filters.scac is not None:
        query.append(("filter[scac]", filters.scac))
    if filters.number is not None:
        query.append(("filter[request_number]", filters.number))
    if filters.created_from is not None:
        query.append(("filter[created_at][start]", filters.created_from.isoformat()))
    if filters.created_to is not None:
        query.append(("filter[created_at][end]", filters.created_to.isoformat()))
    return query


def window_query(window: Window) -> Query:
    """The API's ``filter[since]`` and ``filter[until]``."""
    query: Query = []
    if window.since is not None:
        query.append(("filter[since]", window.since.isoformat()))
    if window.until is not None:
        query.append(("filter[until]", window.until.isoformat()))
    return query


def lane_query(query: LaneQuery) -> Query:
    """The API's query parameters for the lanes of ``query``."""
    found: Query = []
    for name, value in (
        ("filter[carrier]", query.carrier),
        ("filter[port_of_lading]", query.port_of_lading),
        ("filter[port_of_discharge]", query.port_of_discharge),
    ):
        if value is not None:
            found.append((name, value))
    found += window_query(query.window)
    found.append(("tolerance_days", repr(query.tolerance.total_seconds() / 86400.0)))
    return found


def page_query(page: PageRequest, includes: Sequence[str] = ()) -> Query:
    """Paging (and ``include``) query parameters."""
    query: Query = [("page[number]", str(page.number)), ("page[size]", str(page.size))]
    if includes:
        query.append(("include", ",".join(includes)))
    return query

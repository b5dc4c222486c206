"""The remote backend: a sealane (or API-compatible) deployment called over HTTP with the caller's
own key, for an MCP server that runs in front of an API it does not host.

Keys are checked by asking the API once (a one-item carrier list) and remembered for
``SEALANE_AUTH_CACHE_SECONDS``; every tool call is then one or a few API requests, which the API
counts against the account's rate limit like any other. API error documents become the
application layer's errors, so the tools report them as they report local ones.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import httpx

from ..routing import Vessel
from ..service.core.engine import NO_VESSEL
from ..service.core.errors import (
    ROUTING_DISABLED,
    FeatureDisabled,
    InvalidInput,
    RateLimited,
    ServiceError,
    Unauthenticated,
    Unavailable,
    Unprocessable,
)
from ..service.core.paging import PageRequest
from ..service.reliability.inputs import LaneQuery, Window
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
    window_query,
)

JSONAPI = "application/vnd.api+json"
#: Most accepted keys remembered at once (the memory is emptied when it is full).
MAX_REMEMBERED = 10_000


class RemoteNotFound(ServiceError):
    """The API answered 404 (unknown, or another account's object)."""

    code = "not_found"


class RemoteBackend:
    """Keys checked against the API; accounts that call it."""

    def __init__(self, base_url: str, *, cache_s: float = 10.0, timeout_s: float = 30.0) -> None:
        self.base = base_url.rstrip("/")
        self.cache_s = cache_s
        self.client = httpx.AsyncClient(
            timeout=timeout_s, headers={"Accept": JSONAPI}, follow_redirects=False
        )
        #: Until when (monotonic seconds) each accepted key, by its SHA-256, needs no new check.
        self._checked: dict[str, float] = {}

    async def authorize(self, secret: str, *, address: str) -> RemoteAccount:
        """An account calling the API with ``secret``, once the API has accepted the key."""
        account = RemoteAccount(self.client, self.base, secret)
        digest = hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()
        if self._checked.get(digest, 0.0) > time.monotonic():
            return account
        await account.features()  # GET /account: the key is accepted, and what it may do
        if self.cache_s > 0:
            if len(self._checked) >= MAX_REMEMBERED:
                self._checked.clear()
            self._checked[digest] = time.monotonic() + self.cache_s
        return account

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self.client.aclose()


class RemoteAccount:
    """One key's view of the API."""

    def __init__(self, client: httpx.AsyncClient, base: str, secret: str) -> None:
        self.client = client
        self.base = base
        self.headers = {"Authorization": f"Token {secret}"}
        self._features: Mapping[str, bool] | None = None

    async def get(self, path: str, query: Query) -> Document:
        """``GET`` a document; error documents are raised as the application layer's errors."""
        response = await self.client.get(
            self.base + path, params=tuple(query), headers=self.headers
        )
        return _document(response)

    async def get_container(self, container_id: str, includes: Sequence[str]) -> Document:
        """``GET /containers/{id}``."""
        return await self.get(f"/containers/{_segment(container_id)}", _include(includes))

    async def get_shipment(self, shipment_id: str, includes: Sequence[str]) -> Document:
        """``GET /shipments/{id}``."""
        return await self.get(f"/shipments/{_segment(shipment_id)}", _include(includes))

    async def container_events(self, container_id: str, page: PageRequest) -> Document:
        """A page of ``GET /containers/{id}/transport_events``."""
        path = f"/containers/{_segment(container_id)}/transport_events"
        return await self.get(path, page_query(page))

    async def shipping_lines(self, search: str | None, page: PageRequest) -> Document:
        """A page of ``GET /shipping_lines``."""
        query: Query = [("filter[search]", search)] if search else []
        return await self.get("/shipping_lines", [*query, *page_query(page)])

    async def list_shipments(
        self, filters: TrackingFilter, page: PageRequest, includes: Sequence[str]
    ) -> Document:
        """A page of ``GET /shipments``."""
        return await self.get("/shipments", [*tracking_query(filters), *page_query(page, includes)])

    async def list_containers(
        self, filters: TrackingFilter, page: PageRequest, includes: Sequence[str]
    ) -> Document:
        """A page of ``GET /containers``."""
        query = [*tracking_query(filters), *page_query(page, includes)]
        return await self.get("/containers", query)

    async def list_tracking_requests(self, filters: RequestFilter, page: PageRequest) -> Document:
        """A page of ``GET /tracking_requests``."""
        return await self.get("/tracking_requests", [*request_query(filters), *page_query(page)])

    async def create_tracking_request(self, new: NewTrackingRequest) -> Document:
        """``POST /tracking_requests``."""
        attributes = {
            "request_type": new.request_type,
            "request_number": new.request_number,
            "scac": new.scac,
            "ref_numbers": list(new.ref_numbers),
            "tags": list(new.tags),
        }
        body = {"data": {"type": "tracking_request", "attributes": attributes}}
        return await self.post("/tracking_requests", body)

    async def post(self, path: str, body: dict[str, Any]) -> Document:
        """``POST`` a JSON body; error documents are raised as the application layer's errors."""
        try:
            response = await self.client.post(
                self.base + path, json=body, headers={**self.headers, "Content-Type": JSONAPI}
            )
        except httpx.HTTPError as error:
            raise unreachable(error) from None
        return _document(response)

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
        """The API's future positions of a vessel, as columns."""
        parameters = {
            "port_id": destination_port,
            "previous_port_id": previous_port,
            "speed_kn": None if speed_kn is None else repr(speed_kn),
            **{name: None if v is None else repr(v) for name, v in _dimensions(given).items()},
        }
        query: Query = [(name, value) for name, value in parameters.items() if value is not None]
        path = f"/vessels/{_segment(vessel)}/future_positions"
        if start is not None:
            path += "_with_coordinates"
            query += [("latitude", repr(start[1])), ("longitude", repr(start[0]))]
        document = await self.get(path, query)
        data = document["data"]
        attributes = dict(data["attributes"])
        positions: list[dict[str, Any]] = attributes.pop("positions", [])
        return Positions(
            vessel_id=data["id"],
            vessel=attributes,
            lons=[p["longitude"] for p in positions],
            lats=[p["latitude"] for p in positions],
            headings_deg=[p["heading"] for p in positions],
            times=[p["timestamp"] for p in positions],
            meta=document.get("meta") or {},
        )

    async def search(self, text: str) -> Document:
        """``GET /search``."""
        return await self.get("/search", [("query", text)])

    async def infer_number(self, number: str) -> Document:
        """``POST /tracking_requests/infer_number`` with ``{"number": ...}``."""
        return await self.post("/tracking_requests/infer_number", {"number": number})

    async def lane_reliability(self, query: LaneQuery, page: PageRequest) -> Document:
        """``GET /reliability/lanes``."""
        return await self.get("/reliability/lanes", [*lane_query(query), *page_query(page)])

    async def port_reliability(self, locode: str, window: Window) -> Document:
        """``GET /reliability/ports/{locode}``."""
        return await self.get(f"/reliability/ports/{_segment(locode)}", window_query(window))

    async def container_route(self, container_id: str, includes: Sequence[str]) -> Document:
        """``GET /containers/{id}/route``."""
        return await self.get(f"/containers/{_segment(container_id)}/route", _include(includes))

    async def features(self) -> Mapping[str, bool]:
        """Whether the account has each feature, as ``GET /account`` states it (asked once per
        account view)."""
        if self._features is None:
            document = await self.get("/account", [])
            self._features = dict(document["data"]["attributes"]["features"])
        return self._features

    async def require_routing(self) -> None:
        """Raise ``FeatureDisabled`` unless the API states the account has the routing feature."""
        if not (await self.features()).get("routing", False):
            raise FeatureDisabled(ROUTING_DISABLED)


def unreachable(error: httpx.HTTPError) -> ServiceError:
    """The error for an API that did not answer."""
    return ServiceError(f"the API did not answer ({type(error).__name__})", code="api_unreachable")


def _dimensions(vessel: Vessel) -> dict[str, float | None]:
    """The vessel's dimensions by query parameter name (``draft_m``, ...)."""
    return {field.name: getattr(vessel, field.name) for field in fields(vessel)}


def _segment(text: str) -> str:
    """``text`` safe as one path segment (the tools pass only checked ids and codes)."""
    return httpx.URL("/" + text).raw_path.decode("ascii").lstrip("/").replace("/", "%2F")


def _include(includes: Sequence[str]) -> Query:
    return [("include", ",".join(includes))] if includes else []


def _document(response: httpx.Response) -> Document:
    """The body of a successful answer; the error an error document describes otherwise."""
    if response.status_code < 400:
        body: Document = response.json()
        return body
    raise remote_error(response.status_code, response.headers, _first_error(response))


def _first_error(response: httpx.Response) -> Mapping[str, Any]:
    try:
        errors = response.json().get("errors") or [{}]
    except ValueError:
        return {"detail": response.text[:200]}
    first: Mapping[str, Any] = errors[0] if isinstance(errors, list) and errors else {}
    return first


def remote_error(status: int, headers: Mapping[str, str], error: Mapping[str, Any]) -> ServiceError:
    """The application layer's error for an API error object (status, detail, code, source)."""
    detail = str(error.get("detail") or error.get("title") or f"the API answered {status}")
    code = error.get("code")
    source = error.get("source") or {}
    field = source.get("parameter") or str(source.get("pointer", "")).rpartition("/")[2] or None
    if status == 401:
        return Unauthenticated(detail)
    if status == 429:
        return RateLimited(detail, retry_after_s=_seconds(headers.get("retry-after")))
    if status == 503:
        return Unavailable(detail, retry_after_s=_seconds(headers.get("retry-after")))
    if status == 403:
        return FeatureDisabled(detail, code=code)
    if status == 404:
        return RemoteNotFound(detail, code=code)
    if status in (400, 422):
        kind = InvalidInput if status == 400 or code != "unprocessable" else Unprocessable
        return kind(detail, code=code, field=field)
    return ServiceError(detail, code=code or f"http_{status}")


def _seconds(text: str | None) -> float:
    try:
        return max(0.0, float(text)) if text else 1.0
    except ValueError:
        return 1.0

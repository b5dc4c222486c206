"""Reference resources: ports (from the engine's registry), metro areas, terminals and
shipping lines."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ... import Port
from ...jsonapi import Included
from ...jsonapi.reference import (
    metro_area_resource,
    port_resource,
    shipping_line_resource,
    terminal_resource,
)
from ...service.access.gatekeeper import Caller
from ...service.reference import lookups
from ...service.reference.records import ShippingLineRecord, TerminalRecord
from ..jsonapi import JsonApiResponse
from ..listing import Paging, include_paths, text
from ..operations import ApiRoute
from ..params import authenticated, blank_none, parse_include
from ..render import many, one
from ..state import context_of
from .responses import ERRORS

router = APIRouter(route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
TERMINAL_INCLUDES = ("port",)
TerminalIncludes = Annotated[str | None, include_paths(TERMINAL_INCLUDES)]


def render_port(included: Included, port: Port) -> dict[str, Any]:
    """A port."""
    return port_resource(port, included.base)


def render_line(included: Included, line: ShippingLineRecord) -> dict[str, Any]:
    """A shipping line."""
    return shipping_line_resource(line, included.base)


def terminal_renderer(includes: list[str]) -> Any:
    """Renders a terminal, including its port when ``include=port``."""

    def render(included: Included, terminal: TerminalRecord) -> dict[str, Any]:
        if "port" in includes:
            included.port(lookups.get_port(terminal.port_locode))
        return terminal_resource(terminal, included.base)

    return render


@router.get("/ports", response_class=JsonApiResponse, responses=ERRORS, tags=["ports"])
def list_ports(
    request: Request,
    _caller: Auth,
    page: Paging,
    search: Annotated[str | None, text(alias="filter[search]")] = None,
    country: Annotated[str | None, text(2, alias="filter[country_code]")] = None,
) -> JsonApiResponse:
    """Ports, optionally filtered by name/LOCODE search and ISO country code."""
    filters = lookups.PortFilter(search=blank_none(search), country_code=blank_none(country))
    return many(request, lookups.list_ports(filters, page), "ports", render_port)


@router.get("/ports/{port_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["ports"])
def get_port(request: Request, port_id: str, _caller: Auth) -> JsonApiResponse:
    """One port, by id or UN/LOCODE."""
    return one(request, lookups.get_port(port_id), render_port)


@router.get(
    "/metro_areas/{area_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["metro_areas"]
)
def get_metro_area(request: Request, area_id: str, _caller: Auth) -> JsonApiResponse:
    """The metro area of a UN/LOCODE, by the LOCODE or the area's id."""
    found = lookups.get_metro_area(area_id)
    return one(request, found, lambda included, area: metro_area_resource(area, included.base))


@router.get("/terminals", response_class=JsonApiResponse, responses=ERRORS, tags=["terminals"])
def list_terminals(
    request: Request,
    _caller: Auth,
    page: Paging,
    port: Annotated[str | None, text(alias="filter[port]")] = None,
    include: TerminalIncludes = None,
) -> JsonApiResponse:
    """Container terminals, optionally of one port (id or LOCODE); ``include=port``."""
    paths = parse_include(include, TERMINAL_INCLUDES)
    found = lookups.list_terminals(context_of(request), page, port=blank_none(port))
    return many(request, found, "terminals", terminal_renderer(paths))


@router.get(
    "/terminals/{terminal_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["terminals"]
)
def get_terminal(
    request: Request,
    terminal_id: str,
    _caller: Auth,
    include: TerminalIncludes = None,
) -> JsonApiResponse:
    """One terminal, by id or FIRMS code; ``include=port``."""
    paths = parse_include(include, TERMINAL_INCLUDES)
    found = lookups.get_terminal(context_of(request), terminal_id)
    return one(request, found, terminal_renderer(paths))


@router.get(
    "/shipping_lines", response_class=JsonApiResponse, responses=ERRORS, tags=["shipping_lines"]
)
def list_shipping_lines(
    request: Request,
    _caller: Auth,
    page: Paging,
    search: Annotated[str | None, text(alias="filter[search]")] = None,
    plain_search: Annotated[str | None, text(alias="search")] = None,
) -> JsonApiResponse:
    """Carriers; ``search`` (what the reference API's clients send) or ``filter[search]``
    matches SCAC, name or short name (case-insensitive); given both, a carrier matches both."""
    terms = tuple(term for term in (blank_none(search), blank_none(plain_search)) if term)
    found = lookups.list_shipping_lines(context_of(request), page, search=terms)
    return many(request, found, "shipping_lines", render_line)


@router.get(
    "/shipping_lines/{line_id}",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["shipping_lines"],
)
def get_shipping_line(request: Request, line_id: str, _caller: Auth) -> JsonApiResponse:
    """One carrier, by id or SCAC."""
    return one(request, lookups.get_shipping_line(context_of(request), line_id), render_line)

"""Reference resources: ports (from the engine's registry), terminals and shipping lines."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import func, or_, select

from ...routing.errors import UnknownPortError
from ...routing.ports import registry
from ...store.models import ShippingLine, Terminal
from ..auth import Caller, authenticate
from ..errors import NotFound
from ..jsonapi import JsonApiResponse, list_document, parse_include, parse_page
from ..listing import PageNumber, PageSize, paged
from ..params import like_pattern, optional_text
from ..resources import port_resource, shipping_line_resource, terminal_resource
from ..state import state_of
from .responses import ERRORS

router = APIRouter()
Auth = Annotated[Caller, Depends(authenticate)]


@router.get("/ports", response_class=JsonApiResponse, responses=ERRORS, tags=["ports"])
def list_ports(
    request: Request,
    _caller: Auth,
    search: Annotated[str | None, Query(alias="filter[search]")] = None,
    country: Annotated[str | None, Query(alias="filter[country_code]")] = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """Ports, optionally filtered by name/LOCODE search and ISO country code."""
    params = request.query_params
    page = parse_page(params)
    parse_include(params, ())
    text = optional_text(params, "filter[search]")
    country_code = optional_text(params, "filter[country_code]", max_length=2)
    ports = registry().find(text, limit=10_000) if text else list(registry().ports)
    if country_code:
        ports = [port for port in ports if port.country == country_code.upper()]
    base = state_of(request).settings.base_url
    chosen = ports[page.offset : page.offset + page.size]
    doc = list_document(
        [port_resource(port, base) for port in chosen],
        self_url=f"{base}/ports",
        params=params,
        page=page,
        total=len(ports),
    )
    return JsonApiResponse(doc)


@router.get("/ports/{port_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["ports"])
def get_port(request: Request, port_id: str, _caller: Auth) -> JsonApiResponse:
    """One port, by id or UN/LOCODE."""
    parse_include(request.query_params, ())
    try:
        port = registry().get(port_id)
    except UnknownPortError:
        raise NotFound(f"no port with id or LOCODE {port_id!r}", code="not_found") from None
    base = state_of(request).settings.base_url
    return JsonApiResponse(
        {"data": port_resource(port, base), "links": {"self": f"{base}/ports/{port.id}"}}
    )


@router.get("/terminals", response_class=JsonApiResponse, responses=ERRORS, tags=["terminals"])
def list_terminals(
    request: Request,
    _caller: Auth,
    port: Annotated[str | None, Query(alias="filter[port]")] = None,
    include: Annotated[str | None, Query()] = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """Container terminals, optionally of one port (id or LOCODE); ``include=port``."""
    params = request.query_params
    page = parse_page(params)
    includes = parse_include(params, {"port"})
    state = state_of(request)
    query = select(Terminal)
    port_key = optional_text(params, "filter[port]")
    if port_key:
        try:
            query = query.where(Terminal.port_locode == registry().get(port_key).locode)
        except UnknownPortError:
            query = query.where(Terminal.port_locode == "")
    with state.sessions() as session:
        total, rows = paged(session, query.order_by(Terminal.name), page)
    base = state.settings.base_url
    data = [terminal_resource(row, base) for row in rows]
    included = _ports_of(rows, base) if "port" in includes else None
    doc = list_document(
        data, self_url=f"{base}/terminals", params=params, page=page, total=total, included=included
    )
    return JsonApiResponse(doc)


@router.get(
    "/terminals/{terminal_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["terminals"]
)
def get_terminal(
    request: Request,
    terminal_id: str,
    _caller: Auth,
    include: Annotated[str | None, Query()] = None,
) -> JsonApiResponse:
    """One terminal, by id or FIRMS code; ``include=port``."""
    includes = parse_include(request.query_params, {"port"})
    state = state_of(request)
    with state.sessions() as session:
        terminal = session.get(Terminal, terminal_id) or session.scalar(
            select(Terminal).where(Terminal.firms_code == terminal_id.upper())
        )
    if terminal is None:
        raise NotFound(f"no terminal with id or FIRMS code {terminal_id!r}", code="not_found")
    base = state.settings.base_url
    doc: dict[str, Any] = {
        "data": terminal_resource(terminal, base),
        "links": {"self": f"{base}/terminals/{terminal.id}"},
    }
    if "port" in includes:
        doc["included"] = _ports_of([terminal], base)
    return JsonApiResponse(doc)


def _ports_of(terminals: Any, base: str) -> list[dict[str, Any]]:
    codes = sorted({t.port_locode for t in terminals})
    return [port_resource(registry().get(code), base) for code in codes]


@router.get(
    "/shipping_lines", response_class=JsonApiResponse, responses=ERRORS, tags=["shipping_lines"]
)
def list_shipping_lines(
    request: Request,
    _caller: Auth,
    search: Annotated[str | None, Query(alias="filter[search]")] = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """Carriers; ``filter[search]`` matches SCAC, name or short name (case-insensitive)."""
    params = request.query_params
    page = parse_page(params)
    parse_include(params, ())
    text = optional_text(params, "filter[search]")
    query = select(ShippingLine)
    if text:
        like = like_pattern(text)
        query = query.where(
            or_(
                func.lower(ShippingLine.scac).like(like, escape="\\"),
                func.lower(ShippingLine.name).like(like, escape="\\"),
                func.lower(ShippingLine.short_name).like(like, escape="\\"),
            )
        )
    state = state_of(request)
    with state.sessions() as session:
        total, rows = paged(session, query.order_by(ShippingLine.name), page)
    base = state.settings.base_url
    data = [shipping_line_resource(row, base) for row in rows]
    return JsonApiResponse(
        list_document(
            data, self_url=f"{base}/shipping_lines", params=params, page=page, total=total
        )
    )


@router.get(
    "/shipping_lines/{line_id}",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["shipping_lines"],
)
def get_shipping_line(request: Request, line_id: str, _caller: Auth) -> JsonApiResponse:
    """One carrier, by id or SCAC."""
    parse_include(request.query_params, ())
    state = state_of(request)
    with state.sessions() as session:
        line = session.get(ShippingLine, line_id) or session.scalar(
            select(ShippingLine).where(ShippingLine.scac == line_id.upper())
        )
    if line is None:
        raise NotFound(f"no shipping line with id or SCAC {line_id!r}", code="not_found")
    base = state.settings.base_url
    return JsonApiResponse(
        {
            "data": shipping_line_resource(line, base),
            "links": {"self": f"{base}/shipping_lines/{line.id}"},
        }
    )

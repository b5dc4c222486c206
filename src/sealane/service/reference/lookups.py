"""Reference data: ports (from the engine's registry), container terminals and shipping lines."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import or_, select

from ...routing.ports import Port, registry
from ...store.models import ShippingLine, Terminal
from ...store.seed import shipped_scacs
from ..core.context import ServiceContext
from ..core.errors import ObjectNotFound
from ..core.paging import Page, PageRequest
from ..core.queries import contains_text, fetch_page, plausible_key
from .convert import shipping_line_record, terminal_record
from .ports import known_port
from .records import MetroAreaRecord, ShippingLineRecord, TerminalRecord

#: Most ports a text search considers before paging.
MAX_PORT_MATCHES = 10_000
#: Namespace of metro area ids (uuid5 of the LOCODE).
METRO_AREA_NAMESPACE = uuid.UUID("7a3e51c2-0d9b-5f48-b2e6-41c8d0a9f713")


@dataclass(frozen=True, slots=True)
class PortFilter:
    """Filters of the port list: ``search`` over names and LOCODEs, ISO ``country_code``."""

    search: str | None = None
    country_code: str | None = None


def list_ports(filters: PortFilter, page: PageRequest) -> Page[Port]:
    """Ports in the registry's order, or by search relevance when searching."""
    ports = (
        registry().find(filters.search, limit=MAX_PORT_MATCHES)
        if filters.search
        else list(registry().ports)
    )
    if filters.country_code:
        ports = [port for port in ports if port.country == filters.country_code.upper()]
    chosen = ports[page.offset : page.offset + page.size]
    return Page(tuple(chosen), len(ports), page)


def get_port(key: str) -> Port:
    """One port by id or UN/LOCODE."""
    port = known_port(key)
    if port is None:
        raise ObjectNotFound("port", key, by="id or LOCODE")
    return port


def list_terminals(
    ctx: ServiceContext, page: PageRequest, *, port: str | None = None
) -> Page[TerminalRecord]:
    """Container terminals by name, optionally of one port (id or LOCODE; unknown: none)."""
    query = select(Terminal)
    if port:
        found = known_port(port)
        query = query.where(Terminal.port_locode == (found.locode if found else ""))
    with ctx.reading() as session:
        total, rows = fetch_page(session, query.order_by(Terminal.name, Terminal.id), page)
    return Page(tuple(terminal_record(row) for row in rows), total, page)


def get_metro_area(key: str) -> MetroAreaRecord:
    """The metro area of a UN/LOCODE (by the LOCODE or the area's id). Areas are those of the
    ports the engine knows; inland-only places are not in its data yet."""
    for port in (_port_or_none(key), _METRO_AREAS.get(key.lower())):
        if port is not None:
            return MetroAreaRecord(metro_area_id(port.locode), port)
    raise ObjectNotFound("metro area", key, by="id or LOCODE")


def metro_area_id(locode: str) -> str:
    """The stable id of the metro area of ``locode`` (uuid5, distinct from the port's)."""
    return str(uuid.uuid5(METRO_AREA_NAMESPACE, locode.upper()))


def _port_or_none(key: str) -> Port | None:
    return known_port(key) if len(key) == 5 else None


class _MetroAreaIndex:
    """Ports by their metro area's id, built on first use."""

    def __init__(self) -> None:
        self._by_id: dict[str, Port] | None = None

    def get(self, area_id: str) -> Port | None:
        if self._by_id is None:
            self._by_id = {metro_area_id(p.locode): p for p in registry().ports}
        return self._by_id.get(area_id)


_METRO_AREAS = _MetroAreaIndex()


def get_terminal(ctx: ServiceContext, key: str) -> TerminalRecord:
    """One terminal by id or FIRMS code."""
    row = None
    if plausible_key(key):
        with ctx.reading() as session:
            row = session.get(Terminal, key) or session.scalar(
                select(Terminal).where(Terminal.firms_code == key.upper())
            )
    if row is None:
        raise ObjectNotFound("terminal", key, by="id or FIRMS code")
    return terminal_record(row)


def list_shipping_lines(
    ctx: ServiceContext, page: PageRequest, *, search: str | Sequence[str] | None = None
) -> Page[ShippingLineRecord]:
    """Carriers by name; ``search`` matches SCAC, name or short name, case-insensitively (given
    several terms, a carrier matches each of them)."""
    query = select(ShippingLine)
    terms = [search] if isinstance(search, str) else list(search or ())
    for term in (term for term in terms if term):
        query = query.where(
            or_(
                contains_text(ShippingLine.scac, term),
                contains_text(ShippingLine.name, term),
                contains_text(ShippingLine.short_name, term),
            )
        )
    with ctx.reading() as session:
        total, rows = fetch_page(session, query.order_by(ShippingLine.name, ShippingLine.id), page)
    return Page(tuple(shipping_line_record(row) for row in rows), total, page)


def get_shipping_line(ctx: ServiceContext, key: str) -> ShippingLineRecord:
    """One carrier by id or SCAC."""
    row = None
    if plausible_key(key):
        with ctx.reading() as session:
            row = session.get(ShippingLine, key) or session.scalar(
                select(ShippingLine).where(ShippingLine.scac == key.upper())
            )
    if row is None:
        raise ObjectNotFound("shipping line", key, by="id or SCAC")
    return shipping_line_record(row)


def carrier_codes() -> tuple[str, ...]:
    """The SCACs a tracking request may name (each shipped carrier's and its alternatives)."""
    return shipped_scacs()

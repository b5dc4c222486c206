"""One database row of reference data (vessel, terminal, shipping line) to its record.

A row is a mapped object (what a command just changed) or a plain result row of the same table
(what a query read without building objects): both name their values alike.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from ...store.models import ShippingLine, Terminal, Vessel
from ...store.vessels import STATIC_FIELDS
from ...vocabulary.vessels import VesselRecord
from .ports import known_port
from .records import ShippingLineRecord, TerminalRecord


def vessel_record(row: Vessel | Row[Any]) -> VesselRecord:
    """The record of a vessel row."""
    return VesselRecord(
        id=row.id,
        name=row.name,
        imo=row.imo,
        mmsi=row.mmsi,
        latitude=row.latitude,
        longitude=row.longitude,
        nautical_speed_knots=row.nautical_speed_knots,
        navigational_heading_degrees=row.navigational_heading_degrees,
        position_timestamp=row.position_timestamp,
        **{name: getattr(row, name) for name in STATIC_FIELDS},
    )


def terminal_record(row: Terminal | Row[Any]) -> TerminalRecord:
    """The record of a terminal row, with its port's country."""
    return TerminalRecord(
        id=row.id,
        name=row.name,
        port_locode=row.port_locode,
        firms_code=row.firms_code or None,
        smdg_code=row.smdg_code or None,
        operator=row.operator,
        lon=row.lon,
        lat=row.lat,
        nickname=row.nickname,
        street=row.street,
        city=row.city,
        state=row.state,
        state_abbr=row.state_abbr,
        zip=row.zip,
        country=_country(row.port_locode),
    )


def _country(locode: str) -> str | None:
    port = known_port(locode)
    return port.country_name if port is not None else None


def shipping_line_record(row: ShippingLine | Row[Any]) -> ShippingLineRecord:
    """The record of a shipping line row."""
    return ShippingLineRecord(
        id=row.id,
        scac=row.scac,
        name=row.name,
        short_name=row.short_name,
        bill_of_lading_prefixes=_codes(row.bill_of_lading_prefixes),
        alternative_scacs=_codes(row.alternative_scacs),
        container_owner_codes=_codes(row.container_owner_codes),
        booking_number_pattern=row.booking_number_pattern,
        bill_of_lading_tracking_support=row.bill_of_lading_tracking_support,
        booking_number_tracking_support=row.booking_number_tracking_support,
        container_number_tracking_support=row.container_number_tracking_support,
    )


def _codes(text: str | None) -> tuple[str, ...]:
    """A pipe-separated list of codes."""
    return tuple(code for code in (text or "").split("|") if code)

"""Number inference: what kind of number a text is (container, bill of lading, booking) and which
carriers likely issued it, from the carriers' bill of lading prefixes, container owner codes and
booking number formats. Shared by ``POST /v2/tracking_requests/infer_number``, tracking requests
that ask for their carrier to be detected, and the MCP ``track_container`` tool."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...store.models import ShippingLine
from ...tracking.numbers import CarrierCodes, CarrierGuess, NumberInference
from ...tracking.numbers import infer_number as classify
from ..core.context import ServiceContext
from ..core.errors import InvalidInput
from ..core.inputs import check_text
from ..reference.convert import shipping_line_record

__all__ = ["CarrierGuess", "NumberInference", "carrier_codes", "infer_number", "number_text"]

#: Longest number looked at.
MAX_NUMBER_CHARS = 64


def number_text(value: Any, field: str = "number") -> str:
    """A number to infer from: a non-blank text of at most :data:`MAX_NUMBER_CHARS`."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(f"{field} must be a non-blank string", field=field)
    if len(value) > MAX_NUMBER_CHARS:
        raise InvalidInput(f"{field} is longer than {MAX_NUMBER_CHARS} characters", field=field)
    return check_text(value.strip(), field)


def infer_number(ctx: ServiceContext, number: str) -> NumberInference:
    """The kind of ``number`` (checked with :func:`number_text`) and its likely carriers."""
    with ctx.reading() as session:
        return classify(number_text(number), carrier_codes(session))


def carrier_codes(session: Session) -> list[CarrierCodes]:
    """What identifies each carrier's numbers, from the shipping lines table."""
    found = []
    for row in session.scalars(select(ShippingLine).order_by(ShippingLine.scac)):
        line = shipping_line_record(row)
        found.append(
            CarrierCodes(
                scac=line.scac,
                name=line.name,
                bill_of_lading_prefixes=line.bill_of_lading_prefixes,
                container_owner_codes=line.container_owner_codes,
                booking_number_pattern=line.booking_number_pattern,
                supported_request_types=line.supported_request_types,
            )
        )
    return found

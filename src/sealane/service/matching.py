"""How a searched text matches containers and shipments: the SQL conditions of the one matching
that deep-link resolution and search share (:mod:`.search`).

Exact matching ignores case; a container number also ignores spaces and dashes (it is compared in
its compact form); partial matching finds the text anywhere in a number. Reference numbers are
JSON arrays, matched element by element.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, false, func, or_, select

from ..store.models import Container, Shipment
from ..tracking.numbers import normalize_container_number
from .core.queries import contains_text, json_array_contains, json_array_contains_text


class NumberMatch:
    """The conditions a text makes: exact and partial, for containers (by their number) and for
    shipments (by their bill of lading, booking or reference numbers, or a reference number of
    one of their containers)."""

    def __init__(self, text: str, account_id: str) -> None:
        self.text = text
        self.compact = normalize_container_number(text)
        #: The account searched: every subquery stays within it (the containers of the other
        #: accounts are never scanned).
        self.account_id = account_id

    def container_exact(self) -> ColumnElement[bool]:
        return Container.number == self.compact if self.compact else false()

    def container_partial(self) -> ColumnElement[bool]:
        return contains_text(Container.number, self.compact) if self.compact else false()

    def shipment_exact(self) -> ColumnElement[bool]:
        by_container = select(Container.shipment_id).where(
            Container.account_id == self.account_id,
            json_array_contains(Container.ref_numbers, self.text),
        )
        # lower(), as the trigram indexes hold the numbers (they answer = as well as LIKE)
        wanted = self.text.lower()
        return or_(
            func.lower(Shipment.bill_of_lading_number) == wanted,
            func.lower(Shipment.booking_number) == wanted,
            json_array_contains(Shipment.ref_numbers, self.text),
            Shipment.id.in_(by_container),
        )

    def shipment_partial(self) -> ColumnElement[bool]:
        by_container = select(Container.shipment_id).where(
            Container.account_id == self.account_id,
            json_array_contains_text(Container.ref_numbers, self.text),
        )
        return or_(
            contains_text(Shipment.bill_of_lading_number, self.text),
            contains_text(Shipment.booking_number, self.text),
            json_array_contains_text(Shipment.ref_numbers, self.text),
            Shipment.id.in_(by_container),
        )

    def container_any(self) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
        """(exact, any) conditions of a container hit: its number or a reference number."""
        exact = or_(self.container_exact(), json_array_contains(Container.ref_numbers, self.text))
        partial = or_(
            self.container_partial(), json_array_contains_text(Container.ref_numbers, self.text)
        )
        return exact, partial

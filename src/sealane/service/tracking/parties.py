"""Parties: the companies an account tracks shipments for (a tracking request's ``customer``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...store.models import Party
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput
from ..core.inputs import check_text, editable_only
from ..core.paging import Page, PageRequest
from ..core.queries import fetch_page, owned
from .convert import party_record
from .records import PartyRecord

EDITABLE = ("company_name",)
MAX_NAME_CHARS = 200


@dataclass(frozen=True, slots=True)
class PartyChanges:
    """A party's checked ``company_name``."""

    company_name: str

    @classmethod
    def of(cls, attributes: Mapping[str, Any]) -> PartyChanges:
        """Checked from untyped attributes (``company_name`` is required and non-blank)."""
        editable_only(attributes, EDITABLE)
        name = attributes.get("company_name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_CHARS:
            raise InvalidInput(
                f"company_name must be a non-blank text of at most {MAX_NAME_CHARS} characters",
                field="company_name",
            )
        return cls(check_text(name.strip(), "company_name"))


def list_parties(ctx: ServiceContext, caller: Caller, page: PageRequest) -> Page[PartyRecord]:
    """The account's parties by company name."""
    query = (
        select(Party)
        .where(Party.account_id == caller.account_id)
        .order_by(Party.company_name, Party.id)
    )
    with ctx.reading() as session:
        total, rows = fetch_page(session, query, page)
        return Page(tuple(party_record(row) for row in rows), total, page)


def get_party(ctx: ServiceContext, caller: Caller, party_id: str) -> PartyRecord:
    """One of the account's parties."""
    with ctx.reading() as session:
        return party_record(owned_party(session, caller.account_id, party_id))


def create_party(ctx: ServiceContext, caller: Caller, changes: PartyChanges) -> PartyRecord:
    """A new party."""
    now = ctx.clock.now()
    with ctx.writing() as session:
        row = Party(
            account_id=caller.account_id,
            company_name=changes.company_name,
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        session.flush()
        return party_record(row)


def update_party(
    ctx: ServiceContext, caller: Caller, party_id: str, changes: PartyChanges
) -> PartyRecord:
    """Rename a party."""
    with ctx.writing() as session:
        row = owned_party(session, caller.account_id, party_id)
        row.company_name = changes.company_name
        row.updated_at = ctx.clock.now()
        return party_record(row)


def owned_party(session: Session, account_id: str, party_id: str) -> Party:
    """The account's party ``party_id`` (another account's is not found)."""
    return owned(session, Party, party_id, account_id, "party")

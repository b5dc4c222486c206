"""Accounts: created by the operator (``sealane accounts create``), each with one API key."""

from __future__ import annotations

from ..store.accounts import NewKey
from ..store.accounts import create_account as create_account_row
from .context import ServiceContext
from .errors import InvalidInput


def create_account(ctx: ServiceContext, name: str, *, routing: bool) -> NewKey:
    """A new account and its first API key (the secret is shown once, here)."""
    if not name.strip() or len(name) > 200:
        raise InvalidInput("an account name is 1 to 200 characters", field="name")
    with ctx.writing() as session:
        return create_account_row(session, name.strip(), routing=routing, now=ctx.clock.now())
